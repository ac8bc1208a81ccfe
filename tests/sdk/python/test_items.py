"""Item scenarios through the Table resource: every attribute type, a failed
conditional write, and the mapper (SCENARIOS.md)."""

import dataclasses
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key
from boto3.dynamodb.types import Binary, TypeDeserializer

from tables import create_table

DIGITS_38 = Decimal("12345678901234567890123456789012345678")


def every_type():
    return {
        "s": "text ünïcode",
        "n": DIGITS_38,
        "small": Decimal("-0.000123"),
        "b": Binary(b"\x00\x01\xfe\xff"),
        "ss": {"a", "b", "c"},
        "ns": {Decimal("1"), Decimal("2.5"), DIGITS_38},
        "bs": {Binary(b"\x00"), Binary(b"\xff\xfe")},
        "bool": True,
        "null": None,
    }


def test_attribute_types(client, dynamodb):
    table = dynamodb.Table(create_table(client, "attribute_types"))
    item = {"pk": "every-type", **every_type(),
            "nested": {"list": [every_type(), "plain", Decimal("7")]}}
    table.put_item(Item=item)
    read = table.get_item(Key={"pk": "every-type"}, ConsistentRead=True)["Item"]
    assert read == item
    # Number digits and bytes exactly, sets as sets (== above already
    # compares values; these name what must not be lost on the way).
    assert str(read["n"]) == str(DIGITS_38)
    assert read["nested"]["list"][0]["b"].value == b"\x00\x01\xfe\xff"
    assert isinstance(read["ss"], set) and isinstance(read["nested"]["list"][0]["bs"], set)


def test_conditional_write(client, dynamodb):
    table = dynamodb.Table(create_table(client, "conditional_write"))
    original = {"pk": "taken", "version": Decimal(1), "owner": "first"}
    table.put_item(Item=original)
    errors = client.exceptions
    with pytest.raises(errors.ConditionalCheckFailedException) as raised:
        table.put_item(Item={"pk": "taken", "version": Decimal(2), "owner": "second"},
                       ConditionExpression=Attr("pk").not_exists(),
                       ReturnValuesOnConditionCheckFailure="ALL_OLD")
    # The error carries the old item in DynamoDB's JSON form.
    old = raised.value.response["Item"]
    assert {k: TypeDeserializer().deserialize(v) for k, v in old.items()} == original
    assert table.get_item(Key={"pk": "taken"}, ConsistentRead=True)["Item"] == original


@dataclasses.dataclass
class Order:
    """boto3 has no object mapper; its DynamoDB guide maps plain dicts
    through the Table resource, so the class maps to and from those dicts."""
    customer: str       # partition key
    order_id: str       # sort key
    status: str         # the status index's partition key
    total: Decimal
    lines: list

    def to_item(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_item(cls, item):
        return cls(**item)


def test_mapper(client, dynamodb):
    name = create_table(
        client, "mapper", hash_key=("customer", "S"), range_key=("order_id", "S"),
        ExtraDefinitions=[{"AttributeName": "status", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "by_status",
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                          {"AttributeName": "order_id", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}])
    table = dynamodb.Table(name)
    orders = [Order("ana", "o-1", "PLACED", Decimal("19.90"), ["book"]),
              Order("ana", "o-2", "PLACED", Decimal("5"), ["pen", "ink"]),
              Order("ben", "o-3", "SHIPPED", Decimal("120.5"), [])]
    for order in orders:
        table.put_item(Item=order.to_item())

    loaded = Order.from_item(table.get_item(Key={"customer": "ana", "order_id": "o-1"},
                                            ConsistentRead=True)["Item"])
    assert loaded == orders[0]

    # Updated only while still PLACED; then once more, which must fail.
    shipped = dataclasses.replace(orders[0], status="SHIPPED")
    answer = table.update_item(Key={"customer": "ana", "order_id": "o-1"},
                               UpdateExpression="SET #s = :new",
                               ConditionExpression=Attr("status").eq("PLACED"),
                               ExpressionAttributeNames={"#s": "status"},
                               ExpressionAttributeValues={":new": "SHIPPED"},
                               ReturnValues="ALL_NEW")
    assert Order.from_item(answer["Attributes"]) == shipped
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        table.update_item(Key={"customer": "ana", "order_id": "o-1"},
                          UpdateExpression="SET #s = :new",
                          ConditionExpression=Attr("status").eq("PLACED"),
                          ExpressionAttributeNames={"#s": "status"},
                          ExpressionAttributeValues={":new": "CANCELLED"})

    on_table = table.query(KeyConditionExpression=Key("customer").eq("ana"),
                           ConsistentRead=True)["Items"]
    assert [Order.from_item(i) for i in on_table] == [shipped, orders[1]]
    on_index = table.query(IndexName="by_status",
                           KeyConditionExpression=Key("status").eq("SHIPPED"))["Items"]
    assert [Order.from_item(i) for i in on_index] == [shipped, orders[2]]
