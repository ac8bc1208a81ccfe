"""TransactWriteItems and TransactGetItems through boto3: Put, Update,
Delete and ConditionCheck over several tables, all or nothing (secondary
indexes included); TransactionCanceledException with its
CancellationReasons; the 100-action limit and one-operation-per-item rule;
ClientRequestToken idempotency; TransactGetItems ordering and snapshots;
the lambda-layers model's layer-insert transaction (seed 000); and a
concurrency test (transfers between accounts while readers check the
total)."""

import random
import threading
import time

import pytest
from botocore.exceptions import ClientError

from .e2e_util import (av, avs, exact, expect_error, key, make_client, plain,
                       raw_op)

VE = "ValidationException"
RNF = "ResourceNotFoundException"
TCE = "TransactionCanceledException"
ONE_ITEM = "Transaction request cannot include multiple operations on one item"
CCF_MESSAGE = "The conditional request failed"


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


@pytest.fixture(scope="module")
def gtbl(tables):
    """Hash key pk (S) with a sparse GSI by_g on g (S), projection ALL."""
    return tables(
        prefix="txn-g",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "by_g",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}])


def body(resp):
    return {k: v for k, v in resp.items() if k != "ResponseMetadata"}


def put(dynamodb, table, **attrs):
    dynamodb.put_item(TableName=table, Item=avs(attrs))


def get(dynamodb, table, **key_attrs):
    resp = dynamodb.get_item(TableName=table, Key=avs(key_attrs), ConsistentRead=True)
    return plain(resp["Item"]) if "Item" in resp else None


def gsi_items(dynamodb, table, g):
    resp = dynamodb.query(TableName=table, IndexName="by_g", KeyConditionExpression="g = :g",
                          ExpressionAttributeValues=avs({":g": g}))
    return sorted((plain(i) for i in resp["Items"]), key=lambda i: i["pk"])


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


# ==========================================================================
# All or nothing
# ==========================================================================

def test_write_across_tables_commits_everything(dynamodb, htbl, rtbl, gtbl):
    # Put, Update, Delete and ConditionCheck over three tables commit together; the response is {}.
    a, b, c, g = key(), key(), key(), key()
    put(dynamodb, htbl, pk=b, state="ready")
    put(dynamodb, rtbl, pk=a, sk=1, n=5, tags={"x"})
    put(dynamodb, gtbl, pk=c, g=g, v="old")
    resp = dynamodb.transact_write_items(TransactItems=[
        t_put(htbl, {"pk": a, "v": 1, "m": {"l": [1, "two"]}}, cond="attribute_not_exists(pk)"),
        t_update(rtbl, {"pk": a, "sk": 1}, "SET n = n + :d ADD tags :t",
                 {":d": 2, ":t": {"y"}, ":five": 5}, cond="n = :five"),
        t_delete(gtbl, {"pk": c}, cond="v = :old", values={":old": "old"}),
        t_check(htbl, {"pk": b}, "#s = :r", {":r": "ready"}, {"#s": "state"}),
    ])
    assert body(resp) == {}
    assert get(dynamodb, htbl, pk=a) == {"pk": a, "v": 1, "m": {"l": [1, "two"]}}
    assert get(dynamodb, rtbl, pk=a, sk=1) == {"pk": a, "sk": 1, "n": 7, "tags": {"x", "y"}}
    assert get(dynamodb, gtbl, pk=c) is None
    assert gsi_items(dynamodb, gtbl, g) == []
    assert get(dynamodb, htbl, pk=b) == {"pk": b, "state": "ready"}   # ConditionCheck writes nothing


def test_update_and_put_create_items(dynamodb, htbl, gtbl):
    # Update on a missing key creates the item; Put inserts a GSI member that the index shows at once.
    a, b, g = key(), key(), key()
    dynamodb.transact_write_items(TransactItems=[
        t_update(htbl, {"pk": a}, "SET cnt = if_not_exists(cnt, :z) + :one", {":z": 0, ":one": 1}),
        t_put(gtbl, {"pk": b, "g": g, "v": "new"}),
    ])
    assert get(dynamodb, htbl, pk=a) == {"pk": a, "cnt": 1}
    assert gsi_items(dynamodb, gtbl, g) == [{"pk": b, "g": g, "v": "new"}]


def test_cancelled_transaction_changes_nothing_including_gsi(dynamodb, htbl, rtbl, gtbl):
    # One failing ConditionCheck cancels the transaction: no table and no index changes anywhere.
    a, b, c, d, g, g2 = key(), key(), key(), key(), key(), key()
    put(dynamodb, htbl, pk=a, v=1)
    put(dynamodb, gtbl, pk=c, g=g, v="c")
    put(dynamodb, gtbl, pk=d, g=g, v="d")
    gsi_before = gsi_items(dynamodb, gtbl, g)
    with expect_error(TCE, cancelled_message("None", "None", "None", "None", "None",
                                             "ConditionalCheckFailed")) as excinfo:
        dynamodb.transact_write_items(TransactItems=[
            t_update(htbl, {"pk": a}, "SET v = :two", {":two": 2}),
            t_put(rtbl, {"pk": b, "sk": 1, "v": "new"}),
            t_delete(gtbl, {"pk": c}),
            t_update(gtbl, {"pk": d}, "SET g = :g2", {":g2": g2}),      # would move d in the index
            t_put(gtbl, {"pk": b, "g": g, "v": "new member"}),           # would join the index
            t_check(htbl, {"pk": b}, "attribute_exists(pk)"),
        ])
    assert reasons_of(excinfo) == [{"Code": "None"}] * 5 + [
        {"Code": "ConditionalCheckFailed", "Message": CCF_MESSAGE}]
    assert get(dynamodb, htbl, pk=a) == {"pk": a, "v": 1}
    assert get(dynamodb, rtbl, pk=b, sk=1) is None
    assert get(dynamodb, gtbl, pk=c) == {"pk": c, "g": g, "v": "c"}
    assert get(dynamodb, gtbl, pk=d) == {"pk": d, "g": g, "v": "d"}
    assert get(dynamodb, gtbl, pk=b) is None
    assert gsi_items(dynamodb, gtbl, g) == gsi_before == [
        {"pk": x, "g": g, "v": v} for x, v in sorted([(c, "c"), (d, "d")])]
    assert gsi_items(dynamodb, gtbl, g2) == []


def test_cancellation_reasons_in_request_order(dynamodb, htbl, rtbl):
    # Every action gets a reason, in request order; all failing conditions are reported, not just the first.
    a, b, c = key(), key(), key()
    put(dynamodb, htbl, pk=a, v=1)
    put(dynamodb, rtbl, pk=b, sk=1, v=1)
    with expect_error(TCE, cancelled_message("ConditionalCheckFailed", "None",
                                             "ConditionalCheckFailed", "None",
                                             "ConditionalCheckFailed")) as excinfo:
        dynamodb.transact_write_items(TransactItems=[
            t_put(htbl, {"pk": a, "v": 2}, cond="attribute_not_exists(pk)"),
            t_put(htbl, {"pk": c, "v": 3}, cond="attribute_not_exists(pk)"),
            t_update(rtbl, {"pk": b, "sk": 1}, "SET v = :n", {":n": 9, ":old": 0}, cond="v = :old"),
            t_update(rtbl, {"pk": b, "sk": 2}, "SET v = :n", {":n": 9}),
            t_delete(htbl, {"pk": key()}, cond="attribute_exists(pk)"),
        ])
    assert [r["Code"] for r in reasons_of(excinfo)] == [
        "ConditionalCheckFailed", "None", "ConditionalCheckFailed", "None", "ConditionalCheckFailed"]
    assert get(dynamodb, htbl, pk=a) == {"pk": a, "v": 1}
    assert get(dynamodb, htbl, pk=c) is None
    assert get(dynamodb, rtbl, pk=b, sk=1) == {"pk": b, "sk": 1, "v": 1}
    assert get(dynamodb, rtbl, pk=b, sk=2) is None


def test_return_values_on_condition_check_failure(dynamodb, htbl):
    # ALL_OLD puts the current item into that action's reason; NONE, absent, or a missing item give no Item.
    a, b, c = key(), key(), key()
    put(dynamodb, htbl, pk=a, v=1, s={"x"})
    put(dynamodb, htbl, pk=b, v=2)
    with expect_error(TCE, cancelled_message("None", "ConditionalCheckFailed",
                                             "ConditionalCheckFailed", "ConditionalCheckFailed",
                                             "ConditionalCheckFailed")) as excinfo:
        dynamodb.transact_write_items(TransactItems=[
            t_put(htbl, {"pk": key()}, ReturnValuesOnConditionCheckFailure="ALL_OLD"),
            t_check(htbl, {"pk": a}, "v = :z", {":z": 0}, ReturnValuesOnConditionCheckFailure="ALL_OLD"),
            t_update(htbl, {"pk": b}, "SET v = :z", {":z": 0}, cond="v = :z",
                     ReturnValuesOnConditionCheckFailure="NONE"),
            t_delete(htbl, {"pk": c}, cond="attribute_exists(pk)",
                     ReturnValuesOnConditionCheckFailure="ALL_OLD"),
            t_put(htbl, {"pk": "x" + a}, cond="attribute_exists(pk)"),
        ])
    reasons = reasons_of(excinfo)
    assert reasons[0] == {"Code": "None"}
    assert reasons[1] == {"Code": "ConditionalCheckFailed", "Message": CCF_MESSAGE,
                          "Item": avs({"pk": a, "v": 1, "s": {"x"}})}
    assert reasons[2] == {"Code": "ConditionalCheckFailed", "Message": CCF_MESSAGE}
    assert reasons[3] == {"Code": "ConditionalCheckFailed", "Message": CCF_MESSAGE}
    assert reasons[4] == {"Code": "ConditionalCheckFailed", "Message": CCF_MESSAGE}


def test_cancellation_wire_format(server_url, htbl, dynamodb):
    # The raw error body: __type TransactionCanceledException, "Message" with a capital M, {"Code":"None"} without Message.
    a = key()
    put(dynamodb, htbl, pk=a, v=1)
    status, doc = raw_op(server_url, "TransactWriteItems", {"TransactItems": [
        {"Put": {"TableName": htbl, "Item": {"pk": {"S": key()}}}},
        {"ConditionCheck": {"TableName": htbl, "Key": {"pk": {"S": a}},
                            "ConditionExpression": "v = :z",
                            "ExpressionAttributeValues": {":z": {"N": "0"}},
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]})
    assert status == 400
    assert doc["__type"].split("#")[-1] == TCE
    assert doc["Message"] == ("Transaction cancelled, please refer cancellation reasons for "
                              "specific reasons [None, ConditionalCheckFailed]")
    assert doc["CancellationReasons"] == [
        {"Code": "None"},
        {"Code": "ConditionalCheckFailed", "Message": CCF_MESSAGE,
         "Item": {"pk": {"S": a}, "v": {"N": "1"}}}]


def test_validation_error_reason_for_bad_key_type(dynamodb, htbl):
    # A Put whose key has the wrong type is cancelled with a ValidationError reason; only the first validation error is reported and the false condition elsewhere gets None.
    a = key()
    put(dynamodb, htbl, pk=a, v=1)
    with expect_error(TCE, cancelled_message("ValidationError", "None", "None")) as excinfo:
        dynamodb.transact_write_items(TransactItems=[
            t_put(htbl, {"pk": 5}),
            t_put(htbl, {"pk": 6}),
            t_check(htbl, {"pk": a}, "v = :z", {":z": 0}),
        ])
    reasons = reasons_of(excinfo)
    assert reasons[0] == {"Code": "ValidationError",
                          "Message": "One or more parameter values were invalid: Type mismatch for "
                                     "key pk expected: S actual: N"}
    assert reasons[1:] == [{"Code": "None"}, {"Code": "None"}]
    assert get(dynamodb, htbl, pk=a) == {"pk": a, "v": 1}


@pytest.mark.parametrize("action", [
    pytest.param(lambda t, a: t_put(t, {"pk": 7}), id="put"),
    pytest.param(lambda t, a: t_update(t, {"pk": 7}, "SET v = :v", {":v": 1}), id="update"),
    pytest.param(lambda t, a: t_delete(t, {"pk": 7}), id="delete"),
    pytest.param(lambda t, a: t_check(t, {"pk": 7}, "attribute_exists(pk)"), id="condition-check"),
])
def test_validation_error_reason_per_action_kind(dynamodb, htbl, action):
    # A key of the wrong type is a ValidationError cancellation reason for every action kind, even alone; the other actions are not applied.
    a = key()
    with expect_error(TCE, cancelled_message("None", "ValidationError")) as excinfo:
        dynamodb.transact_write_items(TransactItems=[t_put(htbl, {"pk": a}), action(htbl, a)])
    reasons = reasons_of(excinfo)
    assert reasons[1]["Code"] == "ValidationError" and reasons[1]["Message"]
    assert get(dynamodb, htbl, pk=a) is None
    with expect_error(TCE, cancelled_message("ValidationError")):
        dynamodb.transact_write_items(TransactItems=[action(htbl, a)])


def test_transact_get_empty_key_is_validation_error_reason(dynamodb, htbl):
    # TransactGetItems with an empty Key is cancelled with a ValidationError reason.
    with expect_error(TCE, cancelled_message("None", "ValidationError")):
        dynamodb.transact_get_items(TransactItems=[t_get(htbl, {"pk": key()}),
                                                   {"Get": {"TableName": htbl, "Key": {}}}])


def test_request_shape_errors_are_top_level(dynamodb, htbl):
    # Malformed actions are plain ValidationExceptions: a bad ReturnValuesOnConditionCheckFailure, a ConditionCheck without ConditionExpression, an element with two actions.
    a = key()
    with expect_error(VE, "[rR]eturnValuesOnConditionCheckFailure"):
        dynamodb.transact_write_items(TransactItems=[
            t_update(htbl, {"pk": a}, "SET v = :v", {":v": 1}, ReturnValuesOnConditionCheckFailure="dog")])
    with expect_error(VE, "[cC]onditionExpression"):
        dynamodb.transact_write_items(TransactItems=[
            {"ConditionCheck": {"TableName": htbl, "Key": avs({"pk": a})}}])
    with expect_error(VE, "TransactItems can only contain one of Check, Put, Update or Delete"):
        dynamodb.transact_write_items(TransactItems=[
            dict(t_put(htbl, {"pk": a}), **t_delete(htbl, {"pk": key()}))])
    assert get(dynamodb, htbl, pk=a) is None


def test_bad_expression_is_top_level_validation_error(dynamodb, htbl):
    # Expression syntax errors and unused values are reported as a plain ValidationException, and nothing is written.
    a = key()
    with expect_error(VE, "Invalid ConditionExpression"):
        dynamodb.transact_write_items(TransactItems=[
            t_put(htbl, {"pk": a}),
            t_check(htbl, {"pk": key()}, "v = = :z", {":z": 0})])
    with expect_error(VE, exact("Value provided in ExpressionAttributeValues unused in expressions: "
                                "keys: {:unused}")):
        dynamodb.transact_write_items(TransactItems=[
            t_put(htbl, {"pk": a}),
            t_update(htbl, {"pk": key()}, "SET v = :v", {":v": 1, ":unused": 2})])
    assert get(dynamodb, htbl, pk=a) is None


def test_transaction_over_4mb_rejected(dynamodb, htbl):
    # 50 puts of ~100 KB (about 5 MB of request) exceed the transaction size limit: ValidationException; nothing is written.
    p = key()
    with expect_error(VE, "size cannot exceed"):
        dynamodb.transact_write_items(TransactItems=[
            t_put(htbl, {"pk": "%s-%d" % (p, n), "x": "x" * 100000}) for n in range(50)])
    assert get(dynamodb, htbl, pk=p + "-0") is None


def test_missing_table(dynamodb, tables, htbl):
    # A table that does not exist: ResourceNotFoundException (not a cancellation); nothing is written.
    a = key()
    with expect_error(RNF):
        dynamodb.transact_write_items(TransactItems=[
            t_put(htbl, {"pk": a}), t_put(tables.unique_name("nope"), {"pk": a})])
    assert get(dynamodb, htbl, pk=a) is None
    with expect_error(RNF):
        dynamodb.transact_get_items(TransactItems=[
            t_get(htbl, {"pk": a}), t_get(tables.unique_name("nope"), {"pk": a})])


# ==========================================================================
# Limits and the one-operation-per-item rule
# ==========================================================================

def test_100_actions_allowed(dynamodb, rtbl):
    # 100 actions in one transaction is the limit and commits.
    p = key()
    resp = dynamodb.transact_write_items(
        TransactItems=[t_put(rtbl, {"pk": p, "sk": n}) for n in range(100)])
    assert body(resp) == {}
    q = dynamodb.query(TableName=rtbl, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": p}), Select="COUNT", ConsistentRead=True)
    assert q["Count"] == 100
    got = dynamodb.transact_get_items(TransactItems=[t_get(rtbl, {"pk": p, "sk": n})
                                                     for n in range(100)])
    assert [plain(r["Item"])["sk"] for r in got["Responses"]] == list(range(100))


def test_101_actions_rejected(dynamodb, rtbl):
    # 101 actions: ValidationException (length constraint, 100 max); nothing is written. The same for TransactGetItems.
    p = key()
    with expect_error(VE, "less than or equal to 100"):
        dynamodb.transact_write_items(
            TransactItems=[t_put(rtbl, {"pk": p, "sk": n}) for n in range(101)])
    assert get(dynamodb, rtbl, pk=p, sk=0) is None
    with expect_error(VE, "less than or equal to 100"):
        dynamodb.transact_get_items(TransactItems=[t_get(rtbl, {"pk": p, "sk": n})
                                                   for n in range(101)])


def test_empty_transaction_rejected(dynamodb):
    # An empty TransactItems list: ValidationException.
    with expect_error(VE, "greater than or equal to 1"):
        dynamodb.transact_write_items(TransactItems=[])
    with expect_error(VE, "greater than or equal to 1"):
        dynamodb.transact_get_items(TransactItems=[])


@pytest.mark.parametrize("pair", [
    pytest.param(lambda t, a: [t_put(t, {"pk": a, "sk": 1}), t_put(t, {"pk": a, "sk": 1, "v": 2})],
                 id="put+put"),
    pytest.param(lambda t, a: [t_put(t, {"pk": a, "sk": 1}), t_delete(t, {"pk": a, "sk": 1})],
                 id="put+delete"),
    pytest.param(lambda t, a: [t_update(t, {"pk": a, "sk": 1}, "SET v = :v", {":v": 1}),
                               t_check(t, {"pk": a, "sk": 1}, "attribute_not_exists(v)")],
                 id="update+check"),
    pytest.param(lambda t, a: [t_check(t, {"pk": a, "sk": 1}, "attribute_not_exists(v)"),
                               t_check(t, {"pk": a, "sk": 1}, "attribute_not_exists(w)")],
                 id="check+check"),
    pytest.param(lambda t, a: [{"Delete": {"TableName": t, "Key": {"pk": av(a), "sk": av(1)}}},
                               {"Delete": {"TableName": t, "Key": {"sk": av(1), "pk": av(a)}}}],
                 id="key-order"),
])
def test_same_item_twice_rejected(dynamodb, rtbl, pair):
    # Two actions on one item (whatever the kinds, key attributes in any order): ValidationException; nothing is written.
    a, b = key(), key()
    with expect_error(VE, exact(ONE_ITEM)):
        dynamodb.transact_write_items(TransactItems=[t_put(rtbl, {"pk": b, "sk": 1})] + pair(rtbl, a))
    assert get(dynamodb, rtbl, pk=b, sk=1) is None
    assert get(dynamodb, rtbl, pk=a, sk=1) is None


def test_same_key_different_items_allowed(dynamodb, htbl, rtbl):
    # The same key value in two tables, or the same hash key with two range keys, are different items.
    a = key()
    dynamodb.transact_write_items(TransactItems=[
        t_put(htbl, {"pk": a}), t_put(rtbl, {"pk": a, "sk": 1}), t_put(rtbl, {"pk": a, "sk": 2})])
    assert get(dynamodb, htbl, pk=a) == {"pk": a}
    assert get(dynamodb, rtbl, pk=a, sk=2) == {"pk": a, "sk": 2}


# ==========================================================================
# ClientRequestToken idempotency
# ==========================================================================

def counter_txn(table, k, amount=1):
    return [t_update(table, {"pk": k}, "ADD n :d", {":d": amount})]


def test_token_replay_does_not_write_again(dynamodb, htbl):
    # The same token with the same request succeeds again without applying the writes again: an ADD counter stays incremented once.
    k, token = key(), key()
    for _ in range(3):
        resp = dynamodb.transact_write_items(TransactItems=counter_txn(htbl, k), ClientRequestToken=token)
        assert body(resp) == {}
        assert get(dynamodb, htbl, pk=k) == {"pk": k, "n": 1}
    # Even after the item changed, a replay does not write.
    dynamodb.update_item(TableName=htbl, Key=avs({"pk": k}), UpdateExpression="SET n = :z",
                         ExpressionAttributeValues=avs({":z": 100}))
    dynamodb.transact_write_items(TransactItems=counter_txn(htbl, k), ClientRequestToken=token)
    assert get(dynamodb, htbl, pk=k) == {"pk": k, "n": 100}
    # A new token is a new transaction.
    dynamodb.transact_write_items(TransactItems=counter_txn(htbl, k), ClientRequestToken=key())
    assert get(dynamodb, htbl, pk=k) == {"pk": k, "n": 101}


def test_token_with_different_request_rejected(dynamodb, htbl):
    # The same token with a different request: IdempotentParameterMismatchException, and nothing is written.
    k, other, token = key(), key(), key()
    dynamodb.transact_write_items(TransactItems=counter_txn(htbl, k), ClientRequestToken=token)
    with expect_error("IdempotentParameterMismatchException"):
        dynamodb.transact_write_items(TransactItems=counter_txn(htbl, k, 2), ClientRequestToken=token)
    with expect_error("IdempotentParameterMismatchException"):
        dynamodb.transact_write_items(TransactItems=counter_txn(htbl, k) + counter_txn(htbl, other),
                                      ClientRequestToken=token)
    assert get(dynamodb, htbl, pk=k) == {"pk": k, "n": 1}
    assert get(dynamodb, htbl, pk=other) is None


def test_token_ignores_json_member_order(server_url, dynamodb, htbl):
    # The same request with its JSON members in another order is the same request.
    k, token = key(), key()
    first = {"ClientRequestToken": token, "TransactItems": [{"Update": {
        "TableName": htbl, "Key": {"pk": {"S": k}}, "UpdateExpression": "ADD n :d",
        "ExpressionAttributeValues": {":d": {"N": "1"}}}}]}
    again = {"TransactItems": [{"Update": {
        "ExpressionAttributeValues": {":d": {"N": "1"}}, "UpdateExpression": "ADD n :d",
        "Key": {"pk": {"S": k}}, "TableName": htbl}}], "ClientRequestToken": token}
    assert raw_op(server_url, "TransactWriteItems", first) == (200, {})
    assert raw_op(server_url, "TransactWriteItems", again) == (200, {})
    assert get(dynamodb, htbl, pk=k) == {"pk": k, "n": 1}


def test_token_too_long_rejected(dynamodb, htbl):
    # ClientRequestToken is 1..36 characters; 37 is a ValidationException.
    k = key()
    with expect_error(VE, "less than or equal to 36"):
        dynamodb.transact_write_items(TransactItems=counter_txn(htbl, k), ClientRequestToken="t" * 37)
    assert get(dynamodb, htbl, pk=k) is None
    dynamodb.transact_write_items(TransactItems=counter_txn(htbl, k), ClientRequestToken=k + "t" * (36 - len(k)))
    assert get(dynamodb, htbl, pk=k) == {"pk": k, "n": 1}


# ==========================================================================
# TransactGetItems
# ==========================================================================

def test_transact_get_in_request_order_with_missing(dynamodb, htbl, rtbl):
    # Responses follow the request order across tables; a missing item is {} (no Item member).
    a, b, c = key(), key(), key()
    put(dynamodb, htbl, pk=a, v="A")
    put(dynamodb, rtbl, pk=b, sk=2, v="B")
    put(dynamodb, htbl, pk=c, v="C", m={"n": [1]})
    resp = dynamodb.transact_get_items(TransactItems=[
        t_get(htbl, {"pk": c}), t_get(rtbl, {"pk": b, "sk": 1}), t_get(htbl, {"pk": a}),
        t_get(htbl, {"pk": key()}), t_get(rtbl, {"pk": b, "sk": 2})])
    assert set(body(resp)) == {"Responses"}
    got = [plain(r["Item"]) if "Item" in r else r for r in resp["Responses"]]
    assert got == [{"pk": c, "v": "C", "m": {"n": [1]}}, {}, {"pk": a, "v": "A"}, {},
                   {"pk": b, "sk": 2, "v": "B"}]


def test_transact_get_projection(dynamodb, htbl):
    # Each Get may project attributes (with names placeholders) independently.
    a = key()
    put(dynamodb, htbl, pk=a, name="n", size=3, m={"x": 1, "y": 2})
    resp = dynamodb.transact_get_items(TransactItems=[
        t_get(htbl, {"pk": a}, ProjectionExpression="#n, m.y", ExpressionAttributeNames={"#n": "name"}),
    ])
    assert [plain(r["Item"]) for r in resp["Responses"]] == [{"name": "n", "m": {"y": 2}}]
    with expect_error(VE, "Invalid ProjectionExpression"):
        dynamodb.transact_get_items(TransactItems=[t_get(htbl, {"pk": a}, ProjectionExpression="!!")])


def test_transact_get_sees_committed_transaction_whole(dynamodb, htbl, rtbl):
    # After a transaction commits, a TransactGetItems sees all of its writes.
    a = key()
    dynamodb.transact_write_items(TransactItems=[
        t_put(htbl, {"pk": a, "gen": 1}), t_put(rtbl, {"pk": a, "sk": 0, "gen": 1})])
    dynamodb.transact_write_items(TransactItems=[
        t_update(htbl, {"pk": a}, "SET gen = gen + :one", {":one": 1}),
        t_update(rtbl, {"pk": a, "sk": 0}, "SET gen = gen + :one", {":one": 1})])
    resp = dynamodb.transact_get_items(TransactItems=[t_get(htbl, {"pk": a}),
                                                      t_get(rtbl, {"pk": a, "sk": 0})])
    assert [plain(r["Item"])["gen"] for r in resp["Responses"]] == [2, 2]


# ==========================================================================
# lambda-layers (seed 000): inserting a layer version is one transaction
# ==========================================================================

LAYER_ARN = "arn:aws:lambda:{rgn}:123456789012:layer:{pckg}:{v}"


@pytest.fixture(scope="module")
def layers(tables):
    """The lambda-layers table as models.md specifies it (under a unique name)."""
    return tables(
        prefix="lambda-layers",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"}
                              for n in ("pk", "sk", "pckg", "rgn", "dplySts")],
        GlobalSecondaryIndexes=[
            {"IndexName": "pckg-dplySts",
             "KeySchema": [{"AttributeName": "pckg", "KeyType": "HASH"},
                           {"AttributeName": "dplySts", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "rgn-dplySts",
             "KeySchema": [{"AttributeName": "rgn", "KeyType": "HASH"},
                           {"AttributeName": "dplySts", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "ALL"}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})


def layer_item(rgn, pckg, version, status):
    return {"pk": "lyr#{}.{}".format(rgn, pckg), "sk": "lyrVrsn#v{}".format(version),
            "rgn": rgn, "pckg": pckg, "lyrVrsn": version, "dplySts": status,
            "arn": LAYER_ARN.format(rgn=rgn, pckg=pckg, v=version)}


def insert_layer_txn(table, rgn, pckg, prev, new, ttl):
    """The seed's layer insert as one transaction: move the lyrVrsn0# pointer
    from `prev` to `new` (only if it still points at `prev`), insert the new
    version as latest (only if it does not exist), deprecate `prev` with a TTL."""
    pk = "lyr#{}.{}".format(rgn, pckg)
    arn = LAYER_ARN.format(rgn=rgn, pckg=pckg, v=new)
    return [
        t_update(table, {"pk": pk, "sk": "lyrVrsn0#"}, "SET lyrVrsn = :new, arn = :arn",
                 {":new": new, ":arn": arn, ":prev": prev}, cond="lyrVrsn = :prev",
                 ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        t_put(table, layer_item(rgn, pckg, new, "latest"), cond="attribute_not_exists(pk)"),
        t_update(table, {"pk": pk, "sk": "lyrVrsn#v{}".format(prev)}, "SET dplySts = :dep, #t = :ttl",
                 {":dep": "deprecated", ":ttl": ttl, ":latest": "latest"}, cond="dplySts = :latest",
                 names={"#t": "ttl"}),
    ]


def layer_state(dynamodb, table, rgn, pckg):
    """(pointer version, {version: dplySts}, latest per pckg-dplySts, (version, status) per rgn-dplySts)."""
    pk = "lyr#{}.{}".format(rgn, pckg)
    pointer = get(dynamodb, table, pk=pk, sk="lyrVrsn0#")
    part = dynamodb.query(TableName=table, KeyConditionExpression="pk = :p AND begins_with(sk, :v)",
                          ExpressionAttributeValues=avs({":p": pk, ":v": "lyrVrsn#"}), ConsistentRead=True)
    versions = {i["lyrVrsn"]: i.get("dplySts") for i in map(plain, part["Items"])}
    latest = dynamodb.query(TableName=table, IndexName="pckg-dplySts",
                            KeyConditionExpression="pckg = :p AND dplySts = :l",
                            ExpressionAttributeValues=avs({":p": pckg, ":l": "latest"}))
    region = dynamodb.query(TableName=table, IndexName="rgn-dplySts", KeyConditionExpression="rgn = :r",
                            ExpressionAttributeValues=avs({":r": rgn}))
    return (pointer["lyrVrsn"], versions,
            sorted(i["lyrVrsn"] for i in map(plain, latest["Items"])),
            sorted((i["lyrVrsn"], i["dplySts"]) for i in map(plain, region["Items"])))


def seed_layer(dynamodb, table, rgn, pckg):
    pk = "lyr#{}.{}".format(rgn, pckg)
    put(dynamodb, table, **layer_item(rgn, pckg, 1, "latest"))
    put(dynamodb, table, pk=pk, sk="lyrVrsn0#", rgn=rgn, pckg=pckg, lyrVrsn=1,
        arn=LAYER_ARN.format(rgn=rgn, pckg=pckg, v=1))


def test_layer_insert_as_one_transaction(dynamodb, layers):
    # Seed 000's layer insert (pointer update conditioned on its version, new version with attribute_not_exists, previous deprecated with TTL) commits as one transaction; both GSIs follow.
    rgn, pckg = "ap-south-1", key()
    seed_layer(dynamodb, layers, rgn, pckg)
    ttl = int(time.time()) + 7 * 86400
    resp = dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 2, ttl))
    assert body(resp) == {}
    assert layer_state(dynamodb, layers, rgn, pckg) == (
        2, {1: "deprecated", 2: "latest"}, [2], [(1, "deprecated"), (2, "latest")])
    pk = "lyr#{}.{}".format(rgn, pckg)
    assert get(dynamodb, layers, pk=pk, sk="lyrVrsn0#")["arn"] == LAYER_ARN.format(rgn=rgn, pckg=pckg, v=2)
    assert get(dynamodb, layers, pk=pk, sk="lyrVrsn#v1")["ttl"] == ttl
    # And the next version on top of it.
    dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 2, 3, ttl))
    assert layer_state(dynamodb, layers, rgn, pckg) == (
        3, {1: "deprecated", 2: "deprecated", 3: "latest"}, [3],
        [(1, "deprecated"), (2, "deprecated"), (3, "latest")])


def test_layer_insert_fails_atomically_when_pointer_moved(dynamodb, layers):
    # A writer that still believes v1 is latest, after the pointer moved to v2, is cancelled on the pointer condition: nothing changes (no v3, v2 stays latest in both indexes).
    rgn, pckg = "ap-south-2", key()
    seed_layer(dynamodb, layers, rgn, pckg)
    ttl = int(time.time()) + 7 * 86400
    dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 2, ttl))
    before = layer_state(dynamodb, layers, rgn, pckg)
    with expect_error(TCE, cancelled_message("ConditionalCheckFailed", "None",
                                             "ConditionalCheckFailed")) as excinfo:
        dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 3, ttl + 1))
    reasons = reasons_of(excinfo)
    assert plain(reasons[0]["Item"])["lyrVrsn"] == 2      # ALL_OLD shows where the pointer is now
    assert "Item" not in reasons[2]
    assert layer_state(dynamodb, layers, rgn, pckg) == before == (
        2, {1: "deprecated", 2: "latest"}, [2], [(1, "deprecated"), (2, "latest")])
    pk = "lyr#{}.{}".format(rgn, pckg)
    assert get(dynamodb, layers, pk=pk, sk="lyrVrsn#v1")["ttl"] == ttl


def test_layer_insert_fails_atomically_when_version_exists(dynamodb, layers):
    # The pointer condition holds but the new version already exists: cancelled on the Put, and the pointer does not move.
    rgn, pckg = "ap-south-3", key()
    seed_layer(dynamodb, layers, rgn, pckg)
    put(dynamodb, layers, **layer_item(rgn, pckg, 2, "latest"))     # orphan written by someone else
    with expect_error(TCE, cancelled_message("None", "ConditionalCheckFailed", "None")):
        dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 2, 1))
    assert layer_state(dynamodb, layers, rgn, pckg) == (
        1, {1: "latest", 2: "latest"}, [1, 2], [(1, "latest"), (2, "latest")])


def test_layer_insert_race_has_one_winner(server_url, dynamodb, layers):
    # Six writers race to insert the next version from the same pointer: exactly one transaction commits.
    rgn, pckg = "ap-south-4", key()
    seed_layer(dynamodb, layers, rgn, pckg)
    writers = 6
    clients = [make_client(server_url) for _ in range(writers)]
    barrier = threading.Barrier(writers)
    outcomes = [None] * writers

    def work(i):
        barrier.wait(timeout=30)
        try:
            clients[i].transact_write_items(
                TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 2 + i, 1000 + i))
            outcomes[i] = "committed"
        except ClientError as e:
            outcomes[i] = e.response["Error"]["Code"]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert outcomes.count("committed") == 1, outcomes
    assert set(outcomes) == {"committed", TCE}, outcomes
    winner = 2 + outcomes.index("committed")
    assert layer_state(dynamodb, layers, rgn, pckg) == (
        winner, {1: "deprecated", winner: "latest"}, [winner], [(1, "deprecated"), (winner, "latest")])


# ==========================================================================
# Concurrency: transfers between accounts, readers check the total
# ==========================================================================

ACCOUNTS = 10
START_BALANCE = 100
WRITERS = 8
READERS = 4
TRANSFERS_PER_WRITER = 400


def test_concurrent_transfers_keep_total(server_url, dynamodb, tables):
    # 8 writers make random conditional transfers (bal >= :x) between 10 accounts while 4 readers TransactGetItems all accounts: every snapshot sums to 1000 with no negative balance, and the final balances match the committed transfers exactly.
    table = tables(prefix="txn-bank")
    accts = ["acct-%02d" % n for n in range(ACCOUNTS)]
    for a in accts:
        put(dynamodb, table, pk=a, bal=START_BALANCE)
    total = ACCOUNTS * START_BALANCE

    writer_clients = [make_client(server_url) for _ in range(WRITERS)]
    reader_clients = [make_client(server_url) for _ in range(READERS)]
    committed = [[] for _ in range(WRITERS)]          # (src, dst, amount) per writer
    stats = {"cancelled_ccf": 0, "cancelled_conflict": 0, "reads": 0, "read_conflicts": 0}
    lock = threading.Lock()
    errors = []
    bad_reads = []
    writers_done = threading.Event()
    barrier = threading.Barrier(WRITERS + READERS)
    read_items = [t_get(table, {"pk": a}) for a in accts]

    def writer(i):
        rng = random.Random(1000 + i)
        client = writer_clients[i]
        barrier.wait(timeout=30)
        for _ in range(TRANSFERS_PER_WRITER):
            src, dst = rng.sample(accts, 2)
            amount = rng.randint(1, 40)
            try:
                client.transact_write_items(TransactItems=[
                    t_update(table, {"pk": src}, "SET bal = bal - :x", {":x": amount},
                             cond="bal >= :x"),
                    t_update(table, {"pk": dst}, "SET bal = bal + :x", {":x": amount})])
                committed[i].append((src, dst, amount))
            except ClientError as e:
                err = e.response["Error"]["Code"]
                codes = [r["Code"] for r in e.response.get("CancellationReasons", [])]
                with lock:
                    if err == TCE and codes == ["ConditionalCheckFailed", "None"]:
                        stats["cancelled_ccf"] += 1
                    elif err == TCE and "TransactionConflict" in codes:
                        stats["cancelled_conflict"] += 1
                    else:
                        errors.append((err, codes, e.response["Error"].get("Message")))

    def reader(i):
        client = reader_clients[i]
        barrier.wait(timeout=30)
        while True:
            last = writers_done.is_set()
            try:
                resp = client.transact_get_items(TransactItems=read_items)
            except ClientError as e:
                codes = [r["Code"] for r in e.response.get("CancellationReasons", [])]
                with lock:
                    if e.response["Error"]["Code"] == TCE and "TransactionConflict" in codes:
                        stats["read_conflicts"] += 1
                    else:
                        errors.append((e.response["Error"]["Code"], codes,
                                       e.response["Error"].get("Message")))
                continue
            bals = [int(r["Item"]["bal"]["N"]) for r in resp["Responses"]]
            with lock:
                stats["reads"] += 1
                if sum(bals) != total or min(bals) < 0:
                    bad_reads.append(bals)
            if last:
                return

    started = time.monotonic()
    threads = ([threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
               + [threading.Thread(target=reader, args=(i,)) for i in range(READERS)])
    for t in threads:
        t.start()
    for t in threads[:WRITERS]:
        t.join(120)
    writers_done.set()
    for t in threads[WRITERS:]:
        t.join(60)
    elapsed = time.monotonic() - started
    assert not any(t.is_alive() for t in threads), "threads did not finish"

    n_committed = sum(len(c) for c in committed)
    print("\nconcurrent transfers: {} writers x {} transfers, {} readers, {:.1f} s: {} committed, "
          "{} cancelled (insufficient funds), {} cancelled (conflict), {} snapshot reads "
          "({} read conflicts), {} bad snapshots".format(
              WRITERS, TRANSFERS_PER_WRITER, READERS, elapsed, n_committed,
              stats["cancelled_ccf"], stats["cancelled_conflict"], stats["reads"],
              stats["read_conflicts"], len(bad_reads)))

    assert errors == []
    assert bad_reads == [], "snapshots not summing to {} (first 5): {}".format(total, bad_reads[:5])
    assert n_committed + stats["cancelled_ccf"] + stats["cancelled_conflict"] == \
        WRITERS * TRANSFERS_PER_WRITER
    assert stats["reads"] >= READERS
    assert n_committed > 0 and stats["cancelled_ccf"] > 0

    expected = {a: START_BALANCE for a in accts}
    for src, dst, amount in (t for c in committed for t in c):
        expected[src] -= amount
        expected[dst] += amount
    final = {a: get(dynamodb, table, pk=a)["bal"] for a in accts}
    assert sum(final.values()) == total
    assert min(final.values()) >= 0
    assert final == expected
