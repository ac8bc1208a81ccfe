"""Tables, item helpers and action builders the transaction modules share
(test_transact_write_items, test_transact_get_items,
test_transaction_patterns): t_put, t_update, t_delete, t_check and t_get
build the elements of TransactItems from plain Python values."""

import pytest

from .e2e_util import avs, exact, plain

VE = "ValidationException"
TCE = "TransactionCanceledException"


def cancelled_message(*codes):
    return exact("Transaction cancelled, please refer cancellation reasons for specific reasons "
                 "[{}]".format(", ".join(codes)))


@pytest.fixture(scope="module")
def htbl(tables):
    """Hash key pk (S)."""
    return tables(prefix="txn-h")


@pytest.fixture(scope="module")
def rtbl(tables):
    """Hash key pk (S), range key sk (N)."""
    return tables(range_key=("sk", "N"), prefix="txn-r")


def body(resp):
    return {k: v for k, v in resp.items() if k != "ResponseMetadata"}


def put(dynamodb, table, **attrs):
    dynamodb.put_item(TableName=table, Item=avs(attrs))


def get(dynamodb, table, **key_attrs):
    resp = dynamodb.get_item(TableName=table, Key=avs(key_attrs), ConsistentRead=True)
    return plain(resp["Item"]) if "Item" in resp else None


def t_put(table, item, cond=None, values=None, names=None, **extra):
    op = {"TableName": table, "Item": avs(item)}
    return {"Put": _with_expr(op, cond, values, names, extra)}


def t_update(table, key_attrs, expr, values=None, cond=None, names=None, **extra):
    op = {"TableName": table, "Key": avs(key_attrs), "UpdateExpression": expr}
    return {"Update": _with_expr(op, cond, values, names, extra)}


def t_delete(table, key_attrs, cond=None, values=None, names=None, **extra):
    op = {"TableName": table, "Key": avs(key_attrs)}
    return {"Delete": _with_expr(op, cond, values, names, extra)}


def t_check(table, key_attrs, cond, values=None, names=None, **extra):
    op = {"TableName": table, "Key": avs(key_attrs)}
    return {"ConditionCheck": _with_expr(op, cond, values, names, extra)}


def t_get(table, key_attrs, **extra):
    return {"Get": dict({"TableName": table, "Key": avs(key_attrs)}, **extra)}


def _with_expr(op, cond, values, names, extra):
    if cond is not None:
        op["ConditionExpression"] = cond
    if values:
        op["ExpressionAttributeValues"] = avs(values)
    if names:
        op["ExpressionAttributeNames"] = names
    op.update(extra)
    return op


def reasons_of(excinfo):
    return excinfo.value.response["CancellationReasons"]
