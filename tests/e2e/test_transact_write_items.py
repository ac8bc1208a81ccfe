"""TransactWriteItems through boto3: Put, Update, Delete and ConditionCheck
over several tables, all or nothing (secondary indexes included);
TransactionCanceledException with its CancellationReasons (in request
order, ALL_OLD items, the wire format, ValidationError reasons) and the
errors that are not cancellations; the 100-action limit and the
one-operation-per-item rule; ClientRequestToken idempotency."""

import pytest

from .e2e_util import av, avs, exact, expect_error, key, plain, raw_op
from .transactions_util import (TCE, VE, body, cancelled_message, get, put, reasons_of, t_check,
                                t_delete, t_get, t_put, t_update)
from .transactions_util import htbl, rtbl  # fixtures


RNF = "ResourceNotFoundException"
ONE_ITEM = "Transaction request cannot include multiple operations on one item"
CCF_MESSAGE = "The conditional request failed"


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


def gsi_items(dynamodb, table, g):
    resp = dynamodb.query(TableName=table, IndexName="by_g", KeyConditionExpression="g = :g",
                          ExpressionAttributeValues=avs({":g": g}))
    return sorted((plain(i) for i in resp["Items"]), key=lambda i: i["pk"])


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


EMPTY_KEY = ("One or more parameter values are not valid. The AttributeValue for a key attribute "
             "cannot contain an empty string value. Key: pk")


@pytest.mark.parametrize("action", [
    pytest.param(lambda t: t_put(t, {"pk": ""}), id="put"),
    pytest.param(lambda t: t_update(t, {"pk": ""}, "SET v = :v", {":v": 1}), id="update"),
    pytest.param(lambda t: t_delete(t, {"pk": ""}), id="delete"),
    pytest.param(lambda t: t_check(t, {"pk": ""}, "attribute_exists(pk)"), id="condition-check"),
])
def test_empty_key_fails_the_whole_request(dynamodb, htbl, action):
    # An empty string key is a ValidationException for the whole request,
    # not a cancellation reason (captured); nothing is written.
    a = key()
    with expect_error(VE, exact(EMPTY_KEY)):
        dynamodb.transact_write_items(TransactItems=[t_put(htbl, {"pk": a}), action(htbl)])
    assert get(dynamodb, htbl, pk=a) is None


def test_put_over_400_kb_fails_the_whole_request(dynamodb, htbl):
    # A Put over the item size limit is a ValidationException for the whole
    # request (captured), whatever the other actions' conditions.
    a, big = key(), key()
    with expect_error(VE, exact("Item size has exceeded the maximum allowed size")):
        dynamodb.transact_write_items(TransactItems=[
            t_check(htbl, {"pk": a}, "attribute_exists(pk)"),
            t_put(htbl, {"pk": big, "big": "x" * (400 * 1024)})])
    assert get(dynamodb, htbl, pk=big) is None
