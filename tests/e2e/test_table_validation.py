"""CreateTable / UpdateTable / DeleteTable exactness: multi-attribute GSI key
schemas, Query conditions on them, duplicated definitions, attribute
redefinition through UpdateTable, and DeleteTable's short description."""

import pytest

from .e2e_util import avs, exact, expect_error, raw_op, unique_name, wait_active

VE = "ValidationException"
INVALID = "One or more parameter values were invalid: "


def keys(*spec):
    return [{"AttributeName": name, "KeyType": kind} for name, kind in spec]


def defs(**types):
    return [{"AttributeName": k, "AttributeType": v} for k, v in types.items()]


def create_with_gsi(url, key_schema, definitions):
    return raw_op(url, "CreateTable", {
        "TableName": unique_name("v"), "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": definitions, "KeySchema": keys(("pk", "HASH")),
        "GlobalSecondaryIndexes": [{"IndexName": "gsi", "KeySchema": key_schema,
                                    "Projection": {"ProjectionType": "ALL"}}]})


ALL_DEFS = defs(pk="S", a="S", b="S", c="S", d="S", e="S", f="S", g="S", h="S", i="S")


@pytest.mark.parametrize("key_schema,definitions,message", [
    (keys(("a", "HASH"), ("b", "HASH"), ("c", "HASH"), ("d", "HASH"), ("e", "HASH")), ALL_DEFS,
     INVALID + "The KeySchema exceeds the maximum allowed number of HASH key attributes"),
    (keys(("a", "HASH"), ("b", "RANGE"), ("c", "RANGE"), ("d", "RANGE"), ("e", "RANGE"),
          ("f", "RANGE")), ALL_DEFS,
     INVALID + "The KeySchema exceeds the maximum allowed number of RANGE key attributes"),
    (keys(("a", "HASH"), ("b", "RANGE"), ("c", "HASH")), ALL_DEFS,
     INVALID + "All HASH key attributes must precede RANGE key attributes in the KeySchema"),
    (keys(("a", "HASH"), ("b", "RANGE"), ("b", "RANGE")), ALL_DEFS,
     "The KeySchema contains multiple key attributes with the same name"),
    (keys(("a", "HASH"), ("zz", "RANGE")), defs(pk="S", a="S"),
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. "
               "Keys: [a, zz], AttributeDefinitions: [pk, a]"),
], ids=["five-hash", "five-range", "hash-after-range", "same-name", "undefined"])
def test_multi_attribute_gsi_key_schema_rules(server_url, dynamodb, key_schema, definitions,
                                              message):
    status, body = create_with_gsi(server_url, key_schema, definitions)
    assert status == 400 and body["message"] == message, body
    # UpdateTable's Create applies the same rules.
    name = unique_name("v")
    dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                          KeySchema=keys(("pk", "HASH")), AttributeDefinitions=defs(pk="S"))
    try:
        status, body = raw_op(server_url, "UpdateTable", {
            "TableName": name, "AttributeDefinitions": definitions,
            "GlobalSecondaryIndexUpdates": [{"Create": {
                "IndexName": "gsi", "KeySchema": key_schema,
                "Projection": {"ProjectionType": "ALL"}}}]})
        assert status == 400 and body["message"] == message, body
    finally:
        dynamodb.delete_table(TableName=name)


def test_four_and_four_is_the_limit(server_url, dynamodb):
    status, body = create_with_gsi(
        server_url, keys(("a", "HASH"), ("b", "HASH"), ("c", "HASH"), ("d", "HASH"),
                         ("e", "RANGE"), ("f", "RANGE"), ("g", "RANGE"), ("h", "RANGE")),
        defs(pk="S", a="S", b="S", c="S", d="S", e="S", f="S", g="S", h="S"))
    assert status == 200, body
    dynamodb.delete_table(TableName=body["TableDescription"]["TableName"])


@pytest.fixture(scope="module")
def multi(tables, dynamodb):
    """GSI g: HASH h1, h2; RANGE r1, r2, r3 (all S)."""
    name = unique_name("mq")
    dynamodb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=defs(pk="S", h1="S", h2="S", r1="S", r2="S", r3="S"),
        KeySchema=keys(("pk", "HASH")),
        GlobalSecondaryIndexes=[{
            "IndexName": "gsi",
            "KeySchema": keys(("h1", "HASH"), ("h2", "HASH"), ("r1", "RANGE"), ("r2", "RANGE"),
                              ("r3", "RANGE")),
            "Projection": {"ProjectionType": "ALL"}}])
    tables.register(name)
    wait_active(dynamodb, name)
    dynamodb.put_item(TableName=name, Item=avs({"pk": "1", "h1": "a", "h2": "b", "r1": "x",
                                                "r2": "y", "r3": "z"}))
    return name


RANGE_MSG = ("RANGE key attributes {} must have equality conditions specified in the query "
             "because a condition is present on key attribute {}")
HASH_MSG = "HASH key attributes {} must have equality conditions specified in the query"


@pytest.mark.parametrize("expr,message", [
    ("h1 = :v", HASH_MSG.format("h2")),
    ("h1 = :v AND h2 > :v", HASH_MSG.format("h2")),
    ("h1 = :v AND h2 = :v AND r2 = :v", RANGE_MSG.format("r1", "r2")),
    ("h1 = :v AND h2 = :v AND r1 > :v AND r2 = :v", RANGE_MSG.format("r1", "r2")),
    ("h1 = :v AND h2 = :v AND r1 = :v AND r3 = :v", RANGE_MSG.format("r2", "r3")),
    ("h1 = :v AND h2 = :v AND r1 = :v AND begins_with(r2, :v) AND r3 = :v",
     RANGE_MSG.format("r2", "r3")),
], ids=["missing-hash", "range-on-hash", "skips-first", "range-before-last", "gap",
        "begins-with-before-last"])
def test_multi_attribute_query_equality_messages(dynamodb, multi, expr, message):
    with expect_error(VE, exact(message)):
        dynamodb.query(TableName=multi, IndexName="gsi", KeyConditionExpression=expr,
                       ExpressionAttributeValues={":v": {"S": "a"}})


def test_multi_attribute_query_valid_prefixes_and_legacy(dynamodb, multi):
    values = {":a": {"S": "a"}, ":b": {"S": "b"}, ":x": {"S": "x"}, ":y": {"S": "y"}}
    got = dynamodb.query(TableName=multi, IndexName="gsi",
                         KeyConditionExpression="h1 = :a AND h2 = :b AND r1 = :x AND r2 >= :y",
                         ExpressionAttributeValues=values)
    assert got["Count"] == 1
    # The legacy KeyConditions reach a multi-attribute key on the same rules
    # (2026-08; refused here before; test_index_multi_attribute_keys has the
    # refusals' texts).
    got = dynamodb.query(TableName=multi, IndexName="gsi", KeyConditions={
        "h1": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]},
        "h2": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "b"}]},
        "r1": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "x"}]}})
    assert got["Count"] == 1


def test_duplicate_attribute_definition(dynamodb):
    with expect_error(VE, exact("Attribute Name is duplicated: pk")):
        dynamodb.create_table(TableName=unique_name("v"), BillingMode="PAY_PER_REQUEST",
                              KeySchema=keys(("pk", "HASH")),
                              AttributeDefinitions=defs(pk="S") + defs(pk="N"))


def test_same_attribute_as_hash_and_range(dynamodb):
    with expect_error(VE, exact("Invalid KeySchema: Some index key attribute have no definition")):
        dynamodb.create_table(TableName=unique_name("v"), BillingMode="PAY_PER_REQUEST",
                              KeySchema=keys(("pk", "HASH"), ("pk", "RANGE")),
                              AttributeDefinitions=defs(pk="S"))


def gsi_create(name, attribute, projection=None):
    return {"Create": {"IndexName": name, "KeySchema": keys((attribute, "HASH")),
                       "Projection": projection or {"ProjectionType": "ALL"}}}


def test_update_table_gsi_create_rules(dynamodb, tables, server_url):
    name = tables(range_key=("sk", "N"))
    status, body = raw_op(server_url, "UpdateTable", {
        "TableName": name, "AttributeDefinitions": defs(sk="S"),
        "GlobalSecondaryIndexUpdates": [gsi_create("by_sk", "sk")]})
    assert status == 400
    assert body["message"] == (
        INVALID + "Attributes cannot be redefined. Please check that your attribute has the same "
        "type as previously defined. Existing schema: AttributeDefinition(attributeName=sk, "
        "attributeType=N) New schema: AttributeDefinition(attributeName=sk, attributeType=S)")
    status, body = raw_op(server_url, "UpdateTable", {
        "TableName": name, "GlobalSecondaryIndexUpdates": [gsi_create("by_sk", "sk")]})
    assert status == 400
    assert body["message"] == INVALID + "AttributeDefinitions is not specified for index: by_sk"
    status, body = raw_op(server_url, "UpdateTable", {
        "TableName": name, "AttributeDefinitions": defs(x="S"),
        "GlobalSecondaryIndexUpdates": [gsi_create(
            "by_x", "x", {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b", "a"]})]})
    assert status == 400 and body["__type"].endswith(VE), body
    assert "NonKeyAttributes" in body["message"]
    # Nothing of the refused updates stuck.
    assert "GlobalSecondaryIndexes" not in dynamodb.describe_table(TableName=name)["Table"]
    # The same attribute with the same type is fine.
    status, body = raw_op(server_url, "UpdateTable", {
        "TableName": name, "AttributeDefinitions": defs(sk="N"),
        "GlobalSecondaryIndexUpdates": [gsi_create("by_sk", "sk")]})
    assert status == 200, body


def test_update_table_empty_index_updates_is_no_update(dynamodb, tables):
    name = tables()
    with expect_error(VE, "^At least one of ProvisionedThroughput, BillingMode"):
        dynamodb.update_table(TableName=name, GlobalSecondaryIndexUpdates=[])


def test_delete_table_description_is_short(dynamodb):
    name = unique_name("v")
    dynamodb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=keys(("pk", "HASH")),
        AttributeDefinitions=defs(pk="S", g="S"),
        GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": keys(("g", "HASH")),
                                 "Projection": {"ProjectionType": "ALL"}}])
    desc = dynamodb.delete_table(TableName=name)["TableDescription"]
    assert desc["TableStatus"] == "DELETING"
    assert desc["TableName"] == name
    for absent in ("CreationDateTime", "KeySchema", "AttributeDefinitions",
                   "GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        assert absent not in desc, absent
    assert desc["TableArn"].endswith(":table/" + name)
