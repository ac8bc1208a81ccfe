"""Key size limits on every read and write (2048 bytes for a partition key
value, 1024 bytes for the sort key values together), on index keys (a write
over a GSI's or an LSI's refused), and in a GSI backfill (which leaves such
items out); attribute name lengths (1-65,535 bytes in items and
expressions; 255 characters in AttributeDefinitions and NonKeyAttributes)."""

import pytest

from .e2e_util import avs, exact, expect_error, raw_op, unique_name, wait_active

VE = "ValidationException"
HASH_TOO_BIG = ("One or more parameter values were invalid: Size of hashkey has exceeded the "
                "maximum size limit of2048 bytes")
RANGE_TOO_BIG = ("One or more parameter values were invalid: Aggregated size of all range keys "
                 "has exceeded the size limit of 1024 bytes")


@pytest.fixture(scope="module")
def kt(tables):
    """pk (S) / sk (B), GSI by_g on g (S) / h (S), LSI by_l on l (S)."""
    return tables(
        range_key=("sk", "B"),
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": t}
                              for n, t in (("pk", "S"), ("sk", "B"), ("g", "S"), ("h", "S"),
                                           ("l", "S"))],
        GlobalSecondaryIndexes=[{
            "IndexName": "by_g",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                          {"AttributeName": "h", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[{
            "IndexName": "by_l",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "l", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}])


def test_limits_themselves_are_fine(dynamodb, kt):
    # 2048 UTF-8 bytes of partition key (multi-byte characters count as bytes) and 1024 raw bytes of sort key.
    pk = "\u00e9" * 1024
    assert len(pk.encode("utf-8")) == 2048
    item = {"pk": pk, "sk": b"\x01" * 1024, "g": "x" * 2048, "h": "y" * 1024, "l": "z" * 1024}
    dynamodb.put_item(TableName=kt, Item=avs(item))
    got = dynamodb.get_item(TableName=kt, Key=avs({"pk": pk, "sk": b"\x01" * 1024}))
    assert got["Item"]["g"] == {"S": "x" * 2048}


@pytest.mark.parametrize("key,message", [
    ({"pk": "\u00e9" * 1024 + "a", "sk": b"k"}, HASH_TOO_BIG),
    ({"pk": "a", "sk": b"\x00" * 1025}, RANGE_TOO_BIG),
], ids=["hash", "range"])
def test_oversized_table_keys_rejected_everywhere(dynamodb, kt, key, message):
    # PutItem, GetItem, UpdateItem, DeleteItem, BatchGetItem, BatchWriteItem and transactions all refuse the key.
    k = avs(key)
    with expect_error(VE, exact(message)):
        dynamodb.put_item(TableName=kt, Item=k)
    with expect_error(VE, exact(message)):
        dynamodb.get_item(TableName=kt, Key=k)
    with expect_error(VE, exact(message)):
        dynamodb.update_item(TableName=kt, Key=k, UpdateExpression="SET a = :a",
                             ExpressionAttributeValues={":a": {"S": "x"}})
    with expect_error(VE, exact(message)):
        dynamodb.delete_item(TableName=kt, Key=k)
    with expect_error(VE, exact(message)):
        dynamodb.batch_get_item(RequestItems={kt: {"Keys": [k]}})
    with expect_error(VE, exact(message)):
        dynamodb.batch_write_item(RequestItems={kt: [{"PutRequest": {"Item": k}}]})
    with expect_error("TransactionCanceledException"):
        dynamodb.transact_write_items(TransactItems=[{"Put": {"TableName": kt, "Item": k}}])
    assert dynamodb.scan(TableName=kt, Select="COUNT")["Count"] in (0, 1)  # nothing new stored


def test_query_with_oversized_partition_key(dynamodb, kt):
    with expect_error(VE, exact(HASH_TOO_BIG)):
        dynamodb.query(TableName=kt, KeyConditionExpression="pk = :k",
                       ExpressionAttributeValues={":k": {"S": "x" * 2049}})
    with expect_error(VE, exact(HASH_TOO_BIG)):
        dynamodb.query(TableName=kt, IndexName="by_g", KeyConditionExpression="g = :k",
                       ExpressionAttributeValues={":k": {"S": "x" * 2049}})
    got = dynamodb.query(TableName=kt, KeyConditionExpression="pk = :k",
                         ExpressionAttributeValues={":k": {"S": "x" * 2048}})
    assert got["Count"] == 0


def set_attributes(dynamodb, table, k, values):
    """UpdateItem setting each of `values` (name -> Python value) on `k`."""
    dynamodb.update_item(
        TableName=table, Key=avs(k),
        UpdateExpression="SET " + ", ".join("#{0} = :{0}".format(n) for n in values),
        ExpressionAttributeNames={"#" + n: n for n in values},
        ExpressionAttributeValues=avs({":" + n: v for n, v in values.items()}))


def gsi_too_big(attribute, size, limit):
    return ("One or more parameter values were invalid: Size limit exceeded for Index Key {} "
            "Actual Size: {} bytes Max Size: {} bytes IndexName: by_g".format(attribute, size, limit))


@pytest.mark.parametrize("extra,message", [
    ({"g": "x" * 2049, "h": "y"}, gsi_too_big("g", 2049, 2048)),
    ({"g": "x", "h": "y" * 1025}, gsi_too_big("h", 1025, 1024)),
], ids=["gsi-hash", "gsi-range"])
def test_oversized_gsi_keys_refuse_the_whole_write(dynamodb, kt, extra, message):
    # DynamoDB refuses a write whose new item has a GSI key over its limit
    # (2026-08; an earlier reading here left the item out of the index):
    # neither the table nor the index changes.
    k = {"pk": unique_name("gx"), "sk": b"1"}
    with expect_error(VE, exact(message)):
        dynamodb.put_item(TableName=kt, Item=avs(dict(k, **extra)))
    with expect_error(VE, exact(message)):
        dynamodb.batch_write_item(
            RequestItems={kt: [{"PutRequest": {"Item": avs(dict(k, **extra))}}]})
    assert "Item" not in dynamodb.get_item(TableName=kt, Key=avs(k), ConsistentRead=True)
    dynamodb.put_item(TableName=kt, Item=avs(dict(k, g="small", h="y")))
    with expect_error(VE, exact(message)):
        set_attributes(dynamodb, kt, k, extra)
    assert dynamodb.get_item(TableName=kt, Key=avs(k), ConsistentRead=True)["Item"] == avs(
        dict(k, g="small", h="y"))
    indexed = dynamodb.query(TableName=kt, IndexName="by_g", KeyConditionExpression="g = :g",
                             FilterExpression="pk = :p",
                             ExpressionAttributeValues=avs({":g": "small", ":p": k["pk"]}))
    assert [item["h"]["S"] for item in indexed["Items"]] == ["y"]


@pytest.mark.parametrize("extra,message", [({"l": "z" * 1025}, RANGE_TOO_BIG)], ids=["lsi-range"])
def test_oversized_lsi_keys_refuse_the_whole_write(dynamodb, kt, extra, message):
    k = {"pk": unique_name("ix"), "sk": b"1"}
    with expect_error(VE, exact(message)):
        dynamodb.put_item(TableName=kt, Item=avs(dict(k, **extra)))
    assert "Item" not in dynamodb.get_item(TableName=kt, Key=avs(k))
    dynamodb.put_item(TableName=kt, Item=avs(k))
    with expect_error(VE, exact(message)):
        set_attributes(dynamodb, kt, k, extra)
    assert dynamodb.get_item(TableName=kt, Key=avs(k))["Item"] == avs(k)


def test_gsi_backfill_leaves_oversized_items_out(dynamodb, tables, server_url):
    # Only items already in the table when the GSI is added stay out of it;
    # a write once it exists is refused.
    name = tables()
    dynamodb.put_item(TableName=name, Item=avs({"pk": "small", "g": "ok"}))
    dynamodb.put_item(TableName=name, Item=avs({"pk": "big", "g": "x" * 2049}))
    status, body = raw_op(server_url, "UpdateTable", {
        "TableName": name,
        "AttributeDefinitions": [{"AttributeName": "g", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [{"Create": {
            "IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}}]})
    assert status == 200, body
    wait_active(dynamodb, name)
    scanned = dynamodb.scan(TableName=name, IndexName="by_g")["Items"]
    assert [item["pk"]["S"] for item in scanned] == ["small"]
    assert dynamodb.scan(TableName=name)["Count"] == 2
    with expect_error(VE, exact(gsi_too_big("g", 2049, 2048))):
        dynamodb.put_item(TableName=name, Item=avs({"pk": "bigger", "g": "x" * 2049}))
    assert dynamodb.scan(TableName=name)["Count"] == 2


# --------------------------------------------------------------------------
# Attribute names
# --------------------------------------------------------------------------

def test_empty_attribute_names_rejected(dynamodb, tables):
    name = tables()
    with expect_error(VE, "Empty attribute name"):
        dynamodb.put_item(TableName=name, Item={"pk": {"S": "a"}, "": {"S": "x"}})
    with expect_error(VE, exact("ExpressionAttributeNames contains invalid value: Empty attribute "
                                "name for key #n")):
        dynamodb.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET #n = :v",
                             ExpressionAttributeNames={"#n": ""},
                             ExpressionAttributeValues={":v": {"S": "x"}})
    with expect_error(VE, "Empty attribute name"):
        dynamodb.get_item(TableName=name, Key={"pk": {"S": "a"}}, AttributesToGet=[""])
    with expect_error(VE, "Empty attribute name"):
        dynamodb.update_item(TableName=name, Key={"pk": {"S": "a"}},
                             AttributeUpdates={"": {"Action": "PUT", "Value": {"S": "x"}}})
    assert dynamodb.scan(TableName=name)["Count"] == 0


def test_long_attribute_names(dynamodb, tables):
    name = tables()
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "a"}, "n" * 65535: {"S": "x"}})
    with expect_error(VE):
        dynamodb.put_item(TableName=name, Item={"pk": {"S": "b"}, "n" * 65536: {"S": "x"}})
    assert dynamodb.scan(TableName=name)["Count"] == 1


def test_attribute_definition_and_non_key_names_at_most_255(dynamodb, server_url, tables):
    # 255 characters is fine however many bytes they take.
    wide = "\u00e9" * 255
    name = tables(hash_key=(wide, "S"))
    dynamodb.put_item(TableName=name, Item={wide: {"S": "v"}})
    assert dynamodb.get_item(TableName=name, Key={wide: {"S": "v"}})["Item"] == {wide: {"S": "v"}}
    long = "a" * 256
    # The length constraint wins over the "not used" consistency check.
    status, body = raw_op(server_url, "CreateTable", {
        "TableName": unique_name("n"), "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": long, "AttributeType": "S"}]})
    assert status == 400
    assert body["message"] == (
        "1 validation error detected: Value '{}' at 'attributeDefinitions.2.member.attributeName' "
        "failed to satisfy constraint: Member must have length less than or equal to 255"
        .format(long))
    status, body = raw_op(server_url, "CreateTable", {
        "TableName": unique_name("n"), "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "undefined_use", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "g", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x", long]}}]})
    assert status == 400
    assert "at 'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy " \
           "constraint: Member must satisfy constraint: [Member must have length less than or " \
           "equal to 255" in body["message"], body
