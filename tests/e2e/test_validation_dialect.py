"""Pagination edge cases (Query on a table without a sort key, parallel Scan
start keys) and validation messages in the dialect DynamoDB answers today
(batch and transaction sizes, Query's Limit, TableName, KeySchema)."""

import pytest

from .e2e_util import avs, exact, expect_error, raw_op, unique_name

VE = "ValidationException"


def test_query_without_sort_key_never_restarts(dynamodb, tables):
    name = tables()
    dynamodb.put_item(TableName=name, Item=avs({"pk": "a"}))
    page = dynamodb.query(TableName=name, KeyConditionExpression="pk = :k",
                          ExpressionAttributeValues={":k": {"S": "a"}}, Limit=1)
    assert page["Count"] == 1 and "LastEvaluatedKey" not in page
    with expect_error(VE, exact("The provided exclusive start key is invalid: The query can "
                                "return at most one row and cannot be restarted")):
        dynamodb.query(TableName=name, KeyConditionExpression="pk = :k",
                       ExpressionAttributeValues={":k": {"S": "a"}},
                       ExclusiveStartKey={"pk": {"S": "a"}})
    # A paginator walks it to the end.
    pages = list(dynamodb.get_paginator("query").paginate(
        TableName=name, KeyConditionExpression="pk = :k",
        ExpressionAttributeValues={":k": {"S": "a"}}, PaginationConfig={"PageSize": 1}))
    assert sum(p["Count"] for p in pages) == 1


def test_parallel_scan_start_key_must_be_in_its_segment(dynamodb, tables):
    name = tables()
    for i in range(40):
        dynamodb.put_item(TableName=name, Item=avs({"pk": "k%d" % i}))
    total = 4
    keys = {}
    for segment in range(total):
        items = dynamodb.scan(TableName=name, Segment=segment, TotalSegments=total)["Items"]
        keys[segment] = [item["pk"] for item in items]
    assert sum(len(v) for v in keys.values()) == 40
    seg, other = [s for s in range(total) if keys[s]][:2]
    # A key of its own segment restarts fine.
    dynamodb.scan(TableName=name, Segment=seg, TotalSegments=total,
                  ExclusiveStartKey={"pk": keys[seg][0]})
    with expect_error(VE, exact("The provided starting key is invalid: Invalid ExclusiveStartKey. "
                                "Please use ExclusiveStartKey with correct Segment. "
                                "TotalSegments: 4 Segment: %d" % seg)):
        dynamodb.scan(TableName=name, Segment=seg, TotalSegments=total,
                      ExclusiveStartKey={"pk": keys[other][0]})
    # Paginating every segment sees every item once.
    seen = []
    for segment in range(total):
        for page in dynamodb.get_paginator("scan").paginate(
                TableName=name, Segment=segment, TotalSegments=total,
                PaginationConfig={"PageSize": 3}):
            seen.extend(item["pk"]["S"] for item in page["Items"])
    assert sorted(seen) == sorted("k%d" % i for i in range(40))


@pytest.mark.parametrize("operation", ["BatchGetItem", "BatchWriteItem"])
def test_batch_with_empty_request_items(dynamodb, operation):
    call = dynamodb.batch_get_item if operation == "BatchGetItem" else dynamodb.batch_write_item
    with expect_error(VE, exact("The requestItems parameter is required for " + operation)):
        call(RequestItems={})


def test_batch_write_over_25(dynamodb, tables):
    name = tables()
    with expect_error(VE, "^1 validation error detected: Value '\\{" + name + "=\\[.*\\]\\}' at "
                          "'requestItems' failed to satisfy constraint: Map value must satisfy "
                          "constraint: \\[Member must have length less than or equal to 25, "
                          "Member must have length greater than or equal to 1\\]$"):
        dynamodb.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": {"S": str(i)}}}} for i in range(26)]})


def test_transact_items_sizes(dynamodb, tables):
    name = tables()
    with expect_error(VE, exact("1 validation error detected: Value '[]' at 'transactItems' "
                                "failed to satisfy constraint: Member must have length greater "
                                "than or equal to 1")):
        dynamodb.transact_write_items(TransactItems=[])
    with expect_error(VE, "^1 validation error detected: Value '\\[.*\\]' at 'transactItems' "
                          "failed to satisfy constraint: Member must have length less than or "
                          "equal to 100$"):
        dynamodb.transact_get_items(TransactItems=[
            {"Get": {"TableName": name, "Key": {"pk": {"S": str(i)}}}} for i in range(101)])


def test_query_limit_zero_and_scan_limit_zero(dynamodb, tables):
    name = tables()
    with expect_error(VE, exact("1 validation error detected: Value at 'Limit' failed to satisfy "
                                "constraint: Member must have value greater than or equal to 1")):
        dynamodb.query(TableName=name, KeyConditionExpression="pk = :k",
                       ExpressionAttributeValues={":k": {"S": "a"}}, Limit=0)
    with expect_error(VE, exact("1 validation error detected: Value '0' at 'limit' failed to "
                                "satisfy constraint: Member must have value greater than or "
                                "equal to 1")):
        dynamodb.scan(TableName=name, Limit=0)


def test_table_name_messages(dynamodb, server_url):
    status, body = raw_op(server_url, "CreateTable", {
        "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]})
    assert status == 400
    assert body["message"] == ("The parameter 'TableName' is required but was not present in "
                               "the request")
    with expect_error(VE, exact("1 validation error detected: Value '' at 'tableName' failed to "
                                "satisfy constraint: Member must have length greater than or "
                                "equal to 1")):
        dynamodb.put_item(TableName="", Item={"pk": {"S": "a"}})


def test_three_key_schema_elements(dynamodb):
    with expect_error(VE, exact(
            "1 validation error detected: Value '[KeySchemaElement(attributeName=pk, keyType=HASH), "
            "KeySchemaElement(attributeName=sk, keyType=RANGE), KeySchemaElement(attributeName=x, "
            "keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length "
            "less than or equal to 2")):
        dynamodb.create_table(
            TableName=unique_name("ks"), BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"},
                       {"AttributeName": "x", "KeyType": "RANGE"}],
            AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"}
                                  for n in ("pk", "sk", "x")])


RETURN_VALUES = ("Value 'BAD' at 'returnValues' failed to satisfy constraint: Member must satisfy "
                 "enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]")
CONSUMED = ("Value 'BAD' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
            "satisfy enum value set: [INDEXES, TOTAL, NONE]")
METRICS = ("Value 'BAD' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member "
           "must satisfy enum value set: [SIZE, NONE]")
EMPTY_NAME = ("Value '' at 'tableName' failed to satisfy constraint: Member must have length "
              "greater than or equal to 1")


@pytest.mark.parametrize("operation,extra,violations", [
    ("PutItem", {"ReturnValues": "BAD", "ReturnConsumedCapacity": "BAD",
                 "ReturnItemCollectionMetrics": "BAD"}, [RETURN_VALUES, CONSUMED, METRICS]),
    ("PutItem", {"TableName": "", "ReturnValues": "BAD"}, [RETURN_VALUES, EMPTY_NAME]),
    ("DeleteItem", {"ReturnValues": "BAD", "ReturnConsumedCapacity": "BAD"},
     [RETURN_VALUES, CONSUMED]),
    ("UpdateItem", {"ReturnValues": "BAD", "ReturnConsumedCapacity": "BAD"},
     [CONSUMED, RETURN_VALUES]),
], ids=["put-three-enums", "put-enum-and-name", "delete", "update"])
def test_single_item_writes_report_every_violation_in_dynamodbs_order(
        dynamodb, tables, server_url, operation, extra, violations):
    # Every bad member is reported at once, in the order DynamoDB lists them
    # (captured), which is not the same for each operation.
    payload = {"TableName": tables(),
               "Item" if operation == "PutItem" else "Key": {"pk": {"S": "a"}}}
    payload.update(extra)
    status, body = raw_op(server_url, operation, payload)
    assert status == 400 and body["__type"].endswith("ValidationException"), body
    count = len(violations)
    header = "1 validation error detected: " if count == 1 else \
        "%d validation errors detected: " % count
    assert body["message"] == header + "; ".join(violations)


def test_index_name_errors_of_gsis_and_lsis_are_reported_together(server_url):
    # Both kinds of index are checked before either is reported, the GSIs'
    # violations first.
    def index(name, key):
        return {"IndexName": name, "Projection": {"ProjectionType": "ALL"},
                "KeySchema": [{"AttributeName": a, "KeyType": t} for a, t in key]}
    status, body = raw_op(server_url, "CreateTable", {
        "TableName": unique_name("ix"), "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"}
                                 for n in ("pk", "sk", "g", "l")],
        "LocalSecondaryIndexes": [index("l!", [("pk", "HASH"), ("l", "RANGE")])],
        "GlobalSecondaryIndexes": [index("g", [("g", "HASH")])]})
    assert status == 400 and body["__type"].endswith("ValidationException"), body
    assert body["message"] == (
        "3 validation errors detected: "
        "Value 'g' at 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: "
        "Member must have length greater than or equal to 3; "
        "Value 'l!' at 'localSecondaryIndexes.1.member.indexName' failed to satisfy constraint: "
        "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
        "Value 'l!' at 'localSecondaryIndexes.1.member.indexName' failed to satisfy constraint: "
        "Member must have length greater than or equal to 3")
