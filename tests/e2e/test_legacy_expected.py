"""The legacy Expected and ConditionalOperator parameters: the Value/Exists
shorthand and ComparisonOperator with AttributeValueList, combined with
AND (the default) or OR; put-if-absent; and their validation errors."""

import pytest
from botocore.exceptions import ClientError

from .e2e_util import av, exact, expect_error, key
from .expressions_util import CCF, N1, VE
from .expressions_util import rich_key, tbl  # fixtures


def expected_holds(dynamodb, table, k, expected, operator=None):
    kwargs = {"Expected": expected}
    if operator:
        kwargs["ConditionalOperator"] = operator
    try:
        dynamodb.update_item(TableName=table, Key={"pk": {"S": k}},
                             AttributeUpdates={"never_there": {"Action": "DELETE"}}, **kwargs)
        return True
    except ClientError as e:
        if e.response["Error"]["Code"] == CCF:
            return False
        raise


def ev(op, *values):
    return {"ComparisonOperator": op, "AttributeValueList": [av(v) for v in values]}


@pytest.mark.parametrize("expected,operator,result", [
    ({"n": {"Value": av(5)}}, None, True),
    ({"n": {"Value": av(6)}}, None, False),
    ({"n": {"Value": av(5), "Exists": True}}, None, True),
    ({"absent": {"Exists": False}}, None, True),
    ({"n": {"Exists": False}}, None, False),
    ({"n": ev("EQ", 5)}, None, True),
    ({"n": ev("NE", 5)}, None, False),
    ({"n": ev("NE", "5")}, None, True),
    ({"n": ev("LT", 10)}, None, True),
    ({"n": ev("GE", 6)}, None, False),
    ({"s": ev("GT", "abb")}, None, True),
    ({"n": ev("BETWEEN", 1, 5)}, None, True),
    ({"n": ev("IN", 1, 2, 5)}, None, True),
    ({"n": ev("IN", 1, 2)}, None, False),
    ({"s": ev("BEGINS_WITH", "ab")}, None, True),
    ({"s": ev("CONTAINS", "bc")}, None, True),
    ({"ss": ev("CONTAINS", "a")}, None, True),
    ({"ss": ev("NOT_CONTAINS", "a")}, None, False),
    ({"absent": ev("NULL")}, None, True),
    ({"z": ev("NOT_NULL")}, None, True),
    ({"n": ev("NULL")}, None, False),
    ({"absent": ev("NE", 1)}, None, True),
    ({"n": ev("EQ", 5), "s": ev("EQ", "zzz")}, "OR", True),
    ({"n": ev("EQ", 5), "s": ev("EQ", "zzz")}, "AND", False),
    ({"n": ev("EQ", 5), "s": ev("EQ", "zzz")}, None, False),
    ({"n": ev("EQ", 4), "s": ev("EQ", "zzz")}, "OR", False),
], ids=lambda v: None if isinstance(v, (dict, bool)) or v is None else v)
def test_legacy_expected(dynamodb, tbl, rich_key, expected, operator, result):
    # The legacy Expected parameter: Value/Exists shorthand and ComparisonOperator+AttributeValueList, combined with ConditionalOperator AND (default) or OR.
    assert expected_holds(dynamodb, tbl, rich_key, expected, operator) is result


def test_legacy_put_if_absent(dynamodb, tbl):
    # Expected {pk: {Exists: false}} makes PutItem put-if-absent.
    k = key()
    item = {"pk": {"S": k}, "v": N1}
    dynamodb.put_item(TableName=tbl, Item=item, Expected={"pk": {"Exists": False}})
    with expect_error(CCF, exact("The conditional request failed")):
        dynamodb.put_item(TableName=tbl, Item=item, Expected={"pk": {"Exists": False}})


@pytest.mark.parametrize("expected,message", [
    ({"a": ev("EQ", 1, 2)}, "Invalid number of argument(s) for the EQ ComparisonOperator"),
    ({"a": ev("BETWEEN", 1)}, "Invalid number of argument(s) for the BETWEEN ComparisonOperator"),
    ({"a": ev("NULL", 1)}, "Invalid number of argument(s) for the NULL ComparisonOperator"),
    ({"a": {"Exists": False, "Value": N1}}, "Value cannot be used when Exists is false for Attribute: a"),
    ({"a": {"Exists": True}}, "Value must be provided when Exists is true for Attribute: a"),
    ({"a": {"Value": N1, "ComparisonOperator": "EQ", "AttributeValueList": [N1]}},
     "Value and AttributeValueList cannot be used together for Attribute: a"),
    ({"a": {"Exists": True, "ComparisonOperator": "EQ", "AttributeValueList": [N1]}},
     "Exists and ComparisonOperator cannot be used together for Attribute: a"),
], ids=["EQ-2", "BETWEEN-1", "NULL-1", "exists-false-value", "exists-true-no-value",
        "value-and-list", "exists-and-operator"])
def test_legacy_expected_errors(dynamodb, tbl, expected, message):
    # Malformed Expected entries are ValidationExceptions with DynamoDB's
    # texts; PutItem and DeleteItem answer inside the validation envelope
    # (captured 2026-10), UpdateItem bare.
    message = "One or more parameter values were invalid: " + message
    with expect_error(VE, exact("1 validation error detected: " + message)):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, Expected=expected)
    with expect_error(VE, exact("1 validation error detected: " + message)):
        dynamodb.delete_item(TableName=tbl, Key={"pk": {"S": key()}}, Expected=expected)
    with expect_error(VE, exact(message)):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}}, Expected=expected,
                             AttributeUpdates={"b": {"Action": "PUT", "Value": N1}})


def test_legacy_between_bounds(dynamodb, tbl):
    # Legacy BETWEEN with bounds in the wrong order is rejected.
    with expect_error(VE, exact("The BETWEEN condition was provided a range where the lower bound is "
                                "greater than the upper bound")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, Expected={"a": ev("BETWEEN", 5, 1)})


def test_legacy_conditional_operator_needs_expected(dynamodb, tbl):
    # ConditionalOperator without Expected is rejected.
    with expect_error(VE, exact("ConditionalOperator cannot be used without Filter or Expected")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, ConditionalOperator="OR")


def test_legacy_conditional_operator_needs_two_conditions(dynamodb, tbl):
    # ConditionalOperator with a single Expected entry is rejected.
    with expect_error(VE, exact("ConditionalOperator can only be used when Filter or Expected has two "
                                "or more elements")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, ConditionalOperator="AND",
                          Expected={"a": {"Exists": False}})


def test_legacy_conditional_operator_counts_as_non_expression(dynamodb, tbl):
    # ConditionalOperator with a ConditionExpression is the mixing error, listing the legacy parameters in order.
    with expect_error(VE, exact("Can not use both expression and non-expression parameters in the same "
                                "request: Non-expression parameters: {Expected, ConditionalOperator} "
                                "Expression parameters: {ConditionExpression}")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, ConditionalOperator="AND",
                          Expected={"a": {"Exists": False}, "b": {"Exists": False}},
                          ConditionExpression="attribute_exists(pk)")
