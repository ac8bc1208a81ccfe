"""Item and expression behaviours matched to DynamoDB's: updates that only
remove on a missing item, attribute_type's operand, nested list_append, list
indexes out of range, legacy NOT_CONTAINS on absent attributes, the same item
twice in TransactGetItems, table ARNs as TableName, zeros written with an
exponent, and nesting limits (bad values' texts: test_value_layers.py)."""

import pytest

from .e2e_util import avs, exact, expect_error

# UpdateItem words its UpdateExpression errors in the envelope (2026-08).
ENVELOPE = "1 validation error detected: "

VE = "ValidationException"


@pytest.fixture(scope="module")
def tbl(tables):
    return tables()


@pytest.mark.parametrize("kwargs", [
    {"UpdateExpression": "REMOVE a"},
    {"UpdateExpression": "REMOVE a.b"},
    {"UpdateExpression": "REMOVE a[0]"},
    {"UpdateExpression": "DELETE s :s", "ExpressionAttributeValues": {":s": {"SS": ["x"]}}},
    {"UpdateExpression": "REMOVE a DELETE s :s", "ExpressionAttributeValues": {":s": {"NS": ["1"]}}},
    {"AttributeUpdates": {"a": {"Action": "DELETE"}}},
    {"AttributeUpdates": {"s": {"Action": "DELETE", "Value": {"SS": ["x"]}}}},
], ids=["remove", "remove-nested", "remove-element", "delete-set", "both", "legacy-delete",
        "legacy-delete-set"])
def test_remove_only_update_on_missing_item_creates_nothing(dynamodb, tbl, kwargs):
    k = {"pk": {"S": "missing-" + str(sorted(kwargs))}}
    resp = dynamodb.update_item(TableName=tbl, Key=k, ReturnValues="ALL_NEW", **kwargs)
    assert "Attributes" not in resp
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key=k)


def test_remove_only_update_in_a_transaction_creates_nothing(dynamodb, tbl):
    k = {"pk": {"S": "missing-in-transaction"}}
    dynamodb.transact_write_items(TransactItems=[
        {"Update": {"TableName": tbl, "Key": k, "UpdateExpression": "REMOVE a.b"}},
        {"Put": {"TableName": tbl, "Item": {"pk": {"S": "put-beside"}}}}])
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key=k)
    assert "Item" in dynamodb.get_item(TableName=tbl, Key={"pk": {"S": "put-beside"}})


def test_set_still_creates_and_remove_on_existing_item_works(dynamodb, tbl):
    k = {"pk": {"S": "present"}}
    resp = dynamodb.update_item(TableName=tbl, Key=k, UpdateExpression="SET a = :a REMOVE b",
                                ExpressionAttributeValues={":a": {"S": "x"}},
                                ReturnValues="ALL_NEW")
    assert resp["Attributes"] == {"pk": {"S": "present"}, "a": {"S": "x"}}
    resp = dynamodb.update_item(TableName=tbl, Key=k, UpdateExpression="REMOVE a",
                                ReturnValues="ALL_NEW")
    assert resp["Attributes"] == k
    # A bare UpdateItem (no actions) still creates the item, as DynamoDB does.
    k2 = {"pk": {"S": "bare"}}
    dynamodb.update_item(TableName=tbl, Key=k2)
    assert dynamodb.get_item(TableName=tbl, Key=k2)["Item"] == k2


def test_attribute_type_needs_a_value_operand(dynamodb, tbl):
    # Refused when validated, even though no item exists to evaluate it on.
    with expect_error(VE, "^Invalid ConditionExpression: Incorrect operand type for operator or "
                          "function; operator or function: attribute_type"):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": "at"}},
                          ConditionExpression="attribute_type(a, b)")
    with expect_error(VE, "^Invalid FilterExpression: Incorrect operand type"):
        dynamodb.scan(TableName=tbl, FilterExpression="attribute_type(a, b)")
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": "at"}, "a": {"S": "x"}})
    got = dynamodb.scan(TableName=tbl, FilterExpression="attribute_type(a, :t)",
                        ExpressionAttributeValues={":t": {"S": "S"}})
    assert {"pk": {"S": "at"}, "a": {"S": "x"}} in got["Items"]


def test_nested_list_append_refused_if_not_exists_allowed(dynamodb, tbl):
    k = {"pk": {"S": "la"}}
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: The function is not allowed to be used "
                                "this way in an expression; function: list_append")):
        dynamodb.update_item(TableName=tbl, Key=k,
                             UpdateExpression="SET l = list_append(list_append(l, :a), :a)",
                             ExpressionAttributeValues={":a": {"L": [{"S": "x"}]}})
    dynamodb.update_item(TableName=tbl, Key=k,
                         UpdateExpression="SET l = list_append(if_not_exists(l, :e), :a)",
                         ExpressionAttributeValues={":a": {"L": [{"S": "x"}]}, ":e": {"L": []}})
    assert dynamodb.get_item(TableName=tbl, Key=k)["Item"]["l"] == {"L": [{"S": "x"}]}


def test_list_index_out_of_range(dynamodb, tbl):
    with expect_error(VE, "List index is not within the allowable range; index: \\[2147483648\\]"):
        dynamodb.get_item(TableName=tbl, Key={"pk": {"S": "x"}},
                          ProjectionExpression="l[2147483648]")
    with expect_error(VE, "List index is not within the allowable range; index: "
                          "\\[99999999999999999999\\]"):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": "x"}},
                             UpdateExpression="SET l[99999999999999999999] = :v",
                             ExpressionAttributeValues={":v": {"S": "x"}})
    # The largest index is accepted (and finds nothing).
    got = dynamodb.get_item(TableName=tbl, Key={"pk": {"S": "x"}},
                            ProjectionExpression="l[2147483647]")
    assert "Item" not in got


def test_legacy_not_contains_is_false_on_absent_attribute(dynamodb, tables):
    name = tables()
    dynamodb.put_item(TableName=name, Item=avs({"pk": "with", "tags": {"a", "b"}}))
    dynamodb.put_item(TableName=name, Item=avs({"pk": "without"}))
    dynamodb.put_item(TableName=name, Item=avs({"pk": "other", "tags": {"c"}}))
    scanned = dynamodb.scan(TableName=name, ScanFilter={
        "tags": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"S": "a"}]}})
    assert [i["pk"]["S"] for i in scanned["Items"]] == ["other"]
    with expect_error("ConditionalCheckFailedException"):
        dynamodb.put_item(TableName=name, Item=avs({"pk": "without", "x": "1"}), Expected={
            "tags": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"S": "a"}]}})
    queried = dynamodb.query(TableName=name, KeyConditions={
        "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "without"}]}},
        QueryFilter={"tags": {"ComparisonOperator": "NOT_CONTAINS",
                              "AttributeValueList": [{"S": "a"}]}})
    assert queried["Count"] == 0 and queried["ScannedCount"] == 1


def test_transact_get_same_item_twice(dynamodb, tbl):
    get = {"Get": {"TableName": tbl, "Key": {"pk": {"S": "dup"}}}}
    with expect_error(VE, exact("Transaction request cannot include multiple operations on one "
                                "item")):
        dynamodb.transact_get_items(TransactItems=[get, get])


def test_table_arn_as_table_name(dynamodb, tbl):
    arn = dynamodb.describe_table(TableName=tbl)["Table"]["TableArn"]
    k = {"pk": {"S": "by-arn"}}
    dynamodb.put_item(TableName=arn, Item=dict(k, v={"S": "1"}))
    assert dynamodb.get_item(TableName=arn, Key=k)["Item"]["v"] == {"S": "1"}
    assert dynamodb.get_item(TableName=tbl, Key=k)["Item"]["v"] == {"S": "1"}
    dynamodb.update_item(TableName=arn, Key=k, UpdateExpression="SET v = :v",
                         ExpressionAttributeValues={":v": {"S": "2"}})
    assert dynamodb.query(TableName=arn, KeyConditionExpression="pk = :k",
                          ExpressionAttributeValues={":k": k["pk"]})["Count"] == 1
    assert dynamodb.scan(TableName=arn)["Count"] >= 1
    got = dynamodb.batch_get_item(RequestItems={arn: {"Keys": [k]}})
    assert got["Responses"][arn][0]["v"] == {"S": "2"}
    dynamodb.batch_write_item(RequestItems={arn: [{"DeleteRequest": {"Key": k}}]})
    dynamodb.transact_write_items(TransactItems=[{"Put": {"TableName": arn, "Item": k}}])
    got = dynamodb.transact_get_items(TransactItems=[{"Get": {"TableName": arn, "Key": k}}])
    assert got["Responses"][0]["Item"] == k
    dynamodb.delete_item(TableName=arn, Key=k)
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key=k)
    with expect_error("ResourceNotFoundException"):
        dynamodb.get_item(TableName=arn + "-nope", Key=k)


def test_zero_with_exponent_in_range_is_zero(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": "zero"}, "v": {"N": "0.000e128"},
                                           "w": {"N": "-0e-130"}})
    got = dynamodb.get_item(TableName=tbl, Key={"pk": {"S": "zero"}})["Item"]
    assert got["v"] == {"N": "0"} and got["w"] == {"N": "0"}


NESTING = ("1 validation error detected: Nesting Levels have exceeded supported limits: "
           "Attributes in the item have nested levels beyond supported limit")


def test_nesting_beyond_32_levels_everywhere(dynamodb, tbl):
    # DynamoDB's text carries its validation prefix in every region but in
    # transactions, is not wrapped as an invalid ExpressionAttributeValues
    # entry, and comes before the condition (captured 2026-10).
    deep = {"S": "leaf"}
    for _ in range(32):
        deep = {"M": {"n": deep}}
    item = {"pk": {"S": "deep"}, "a": deep}
    with expect_error(VE, exact(NESTING)):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": "deep"}}, UpdateExpression="SET a = :v",
                             ConditionExpression="attribute_exists(nope)",
                             ExpressionAttributeValues={":v": deep})
    with expect_error(VE, exact(NESTING)):
        dynamodb.put_item(TableName=tbl, Item=item)
    with expect_error(VE, exact(NESTING)):
        dynamodb.batch_write_item(RequestItems={tbl: [{"PutRequest": {"Item": item}}]})
    with expect_error(VE, exact(NESTING[len("1 validation error detected: "):])):
        dynamodb.transact_write_items(TransactItems=[{"Put": {"TableName": tbl, "Item": item}}])
    # One level less is stored.
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": "deep"}, "a": deep["M"]["n"]})
