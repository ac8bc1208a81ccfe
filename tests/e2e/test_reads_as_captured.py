"""What reads return where object mappers' suites, run against DynamoDB and
DynamoDB Local, found localdynamo different: sets read back sorted whatever
order wrote them, a Scan of a GSI filtering on attributes the index does
not project (absent there, so they simply do not match) where a Query is
refused, and what a Scan of a tiny table costs."""

import pytest

from .e2e_util import exact, expect_error

VE = "ValidationException"


@pytest.fixture(scope="module")
def tbl(tables):
    return tables()


def test_sets_read_back_sorted(dynamodb, tbl):
    # Strings and binaries by their bytes, numbers by value, on every read path.
    key = {"pk": {"S": "sets"}}
    dynamodb.put_item(TableName=tbl, Item={
        **key,
        "ss": {"SS": ["pear", "Zebra", "apple", "éclair", "10", "9"]},
        "ns": {"NS": ["10", "9", "-1.5", "1e3", "0"]},
        "bs": {"BS": [b"\x02", b"\xff", b"\x01\x00", b"\x01"]}})
    expected = {"ss": ["10", "9", "Zebra", "apple", "pear", "éclair"],
                "ns": ["-1.5", "0", "9", "10", "1000"],
                "bs": [b"\x01", b"\x01\x00", b"\x02", b"\xff"]}
    got = dynamodb.get_item(TableName=tbl, Key=key)["Item"]
    assert {name: list(got[name].values())[0] for name in expected} == expected
    scanned = [i for i in dynamodb.scan(TableName=tbl)["Items"] if i["pk"] == key["pk"]]
    assert scanned[0]["ss"]["SS"] == expected["ss"]


def test_sets_stay_sorted_after_add_and_delete(dynamodb, tbl):
    key = {"pk": {"S": "sets-updated"}}
    dynamodb.put_item(TableName=tbl, Item={**key, "ss": {"SS": ["m", "c"]}, "ns": {"NS": ["5"]}})
    dynamodb.update_item(TableName=tbl, Key=key, UpdateExpression="ADD ss :s, ns :n",
                         ExpressionAttributeValues={":s": {"SS": ["z", "a"]},
                                                    ":n": {"NS": ["-7", "50"]}})
    resp = dynamodb.update_item(TableName=tbl, Key=key, UpdateExpression="DELETE ss :gone",
                                ExpressionAttributeValues={":gone": {"SS": ["m"]}},
                                ReturnValues="ALL_NEW")
    assert resp["Attributes"]["ss"] == {"SS": ["a", "c", "z"]}
    assert resp["Attributes"]["ns"] == {"NS": ["-7", "5", "50"]}


@pytest.fixture(scope="module")
def keys_only_gsi(tables, dynamodb):
    name = tables(AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                        {"AttributeName": "g", "AttributeType": "S"}],
                  GlobalSecondaryIndexes=[{"IndexName": "byG",
                                           "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                           "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    for i in range(3):
        dynamodb.put_item(TableName=name, Item={"pk": {"S": "p%d" % i}, "g": {"S": "G"},
                                                "colour": {"S": "red"}})
    return name


def test_scan_of_a_gsi_filters_unprojected_attributes_as_absent(dynamodb, keys_only_gsi):
    # `colour` is on every item but not in the index: no entry matches, and no error.
    resp = dynamodb.scan(TableName=keys_only_gsi, IndexName="byG",
                         FilterExpression="colour = :c",
                         ExpressionAttributeValues={":c": {"S": "red"}})
    assert resp["Count"] == 0 and resp["ScannedCount"] == 3
    absent = dynamodb.scan(TableName=keys_only_gsi, IndexName="byG",
                           FilterExpression="attribute_not_exists(colour)")
    assert absent["Count"] == 3


def test_query_of_a_gsi_filtering_unprojected_attributes_is_refused(dynamodb, keys_only_gsi):
    with expect_error(VE, exact("One or more parameter values were invalid: Secondary index byG "
                                "does not project one or more filter attributes: [colour]")):
        dynamodb.query(TableName=keys_only_gsi, IndexName="byG", KeyConditionExpression="g = :g",
                       FilterExpression="colour = :c",
                       ExpressionAttributeValues={":g": {"S": "G"}, ":c": {"S": "red"}})


def test_a_whole_scan_of_a_tiny_table_costs_four_units_consistent_and_two_eventual(dynamodb, tables):
    name = tables()
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "one"}})
    consistent = dynamodb.scan(TableName=name, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    eventual = dynamodb.scan(TableName=name, ReturnConsumedCapacity="TOTAL")
    assert consistent["ConsumedCapacity"]["CapacityUnits"] == 4.0
    assert eventual["ConsumedCapacity"]["CapacityUnits"] == 2.0
    # A page that stops early, and a segment, pay for what they read (inferred).
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "two"}})
    page = dynamodb.scan(TableName=name, Limit=1, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert "LastEvaluatedKey" in page and page["ConsumedCapacity"]["CapacityUnits"] == 1.0
    segment = dynamodb.scan(TableName=name, Segment=0, TotalSegments=2,
                            ReturnConsumedCapacity="TOTAL")
    assert segment["ConsumedCapacity"]["CapacityUnits"] == 0.5
