"""What UpdateItem refuses and what it answers: parse-time errors (a section
used twice, overlapping and conflicting paths, key attributes, an empty
expression, undefined and unused placeholders, AttributeUpdates mixed with
UpdateExpression, an item grown past the size limit), ReturnValues, and
conditions on updates (a failed one changes nothing; the old item comes
back when asked)."""

import pytest

from .e2e_util import avs, exact, expect_error, key, plain, raw_op
from .update_item_util import CCF, VE
from .update_item_util import items, tbl  # fixtures

# UpdateItem words its UpdateExpression errors in the envelope (2026-08).
ENVELOPE = "1 validation error detected: "


@pytest.fixture(scope="module")
def rtbl(tables):
    """Table with hash key pk (S) and range key sk (N)."""
    return tables(range_key=("sk", "N"), prefix="upd-r")


# --------------------------------------------------------------------------
# Parse-time errors
# --------------------------------------------------------------------------

def test_section_used_twice(items):
    # Each section keyword may appear only once.
    with expect_error(VE, exact(ENVELOPE + 'Invalid UpdateExpression: The "SET" section can only be used once in '
                                'an update expression;')):
        items.update(key(), "SET a = :v SET b = :v", {":v": 1})
    with expect_error(VE, exact(ENVELOPE + 'Invalid UpdateExpression: The "REMOVE" section can only be used once '
                                'in an update expression;')):
        items.update(key(), "REMOVE a SET b = :v REMOVE c", {":v": 1})


def test_overlapping_paths(items):
    # Two actions on the same path, or on a path and its parent, are rejected (earlier path first).
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Two document paths overlap with each other; "
                                "must remove or rewrite one of these paths; path one: [a], path two: "
                                "[a, b]")):
        items.update(key(), "SET a = :v, a.b = :v", {":v": 1})
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Two document paths overlap with each other; "
                                "must remove or rewrite one of these paths; path one: [a], path two: "
                                "[a]")):
        items.update(key(), "SET a = :v REMOVE a", {":v": 1})
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Two document paths overlap with each other; "
                                "must remove or rewrite one of these paths; path one: [c, [1], a], "
                                "path two: [c, [1]]")):
        items.update(key(), "SET c[1].a = :v ADD c[1] :v", {":v": 1})


def test_overlap_uses_resolved_names(items):
    # Names are compared after substitution: #a and a overlap, while #d = "a.b" is a different attribute from a.b.
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Two document paths overlap with each other; "
                                "must remove or rewrite one of these paths; path one: [a], path two: "
                                "[a]")):
        items.update(key(), "SET #a = :v, a = :v", {":v": 1}, {"#a": "a"})
    k = items.put(a={"b": 0})
    assert items.updated(k, "SET #d = :v, a.b = :v", {":v": 1}, {"#d": "a.b"}) == {
        "a.b": 1, "a": {"b": 1}}


def test_conflicting_paths(items):
    # A map key and a list index below the same prefix conflict.
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Two document paths conflict with each other; "
                                "must remove or rewrite one of these paths; path one: [a, c], "
                                "path two: [a, [1]]")):
        items.update(key(), "REMOVE a.c SET a[1] = :v", {":v": 1})


def test_cannot_update_key_attributes(dynamodb, rtbl):
    # SET, REMOVE or ADD on a hash or range key attribute is rejected.
    ident = {"pk": {"S": key()}, "sk": {"N": "1"}}
    for expr, attr in (("SET pk = :v", "pk"), ("REMOVE sk", "sk"), ("ADD sk :n", "sk"),
                       ("SET pk.x = :v", "pk"), ("SET #k = :v", "sk")):
        values = {}
        if ":v" in expr:
            values[":v"] = {"S": "x"}
        if ":n" in expr:
            values[":n"] = {"N": "1"}
        kwargs = {"ExpressionAttributeValues": values} if values else {}
        if "#k" in expr:
            kwargs["ExpressionAttributeNames"] = {"#k": "sk"}
        with expect_error(VE, exact("One or more parameter values were invalid: Cannot update attribute "
                                    "{}. This attribute is part of the key".format(attr))):
            dynamodb.update_item(TableName=rtbl, Key=ident, UpdateExpression=expr, **kwargs)


def test_empty_update_expression(items):
    # An empty UpdateExpression is rejected.
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: The expression can not be empty;")):
        items.update(key(), "")


def test_update_expression_undefined_and_unused_placeholders(items):
    # Undefined and unused placeholders are reported for UpdateExpression as for conditions.
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: An expression attribute value "
                                "used in expression is not defined; attribute value: :v")):
        items.update(key(), "SET a = :v")
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: An expression attribute name "
                                "used in the document path is not defined; attribute name: #n")):
        items.update(key(), "SET #n = :v", {":v": 1})
    with expect_error(VE, exact(ENVELOPE + "Value provided in ExpressionAttributeValues unused in "
                                "expressions: keys: {:u}")):
        items.update(key(), "SET a = :v", {":v": 1, ":u": 1})


def test_mixing_attribute_updates_and_update_expression(dynamodb, tbl):
    # AttributeUpdates and UpdateExpression may not be combined; all parameters are listed in order.
    with expect_error(VE, exact("Can not use both expression and non-expression parameters in the same "
                                "request: Non-expression parameters: {AttributeUpdates} Expression "
                                "parameters: {UpdateExpression}")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}},
                             AttributeUpdates={"a": {"Action": "PUT", "Value": {"N": "1"}}},
                             UpdateExpression="SET b = :v", ExpressionAttributeValues={":v": {"N": "1"}})
    with expect_error(VE, exact("Can not use both expression and non-expression parameters in the same "
                                "request: Non-expression parameters: {AttributeUpdates, Expected} "
                                "Expression parameters: {UpdateExpression, ConditionExpression}")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}},
                             AttributeUpdates={"a": {"Action": "PUT", "Value": {"N": "1"}}},
                             Expected={"a": {"Exists": False}},
                             UpdateExpression="SET b = :v", ConditionExpression="attribute_exists(b)",
                             ExpressionAttributeValues={":v": {"N": "1"}})


def test_item_too_large_after_update(items):
    # An update that would make the item exceed 400 KB is rejected and the item is unchanged.
    k = items.put(a="x" * 300000)
    with expect_error(VE, "Item size to update has exceeded the maximum allowed size"):
        items.update(k, "SET b = :v", {":v": "y" * 200000})
    assert "b" not in items.get(k)


TOO_LARGE_UPDATE = "Item size to update has exceeded the maximum allowed size"


def test_update_size_is_judged_on_what_the_update_writes(dynamodb, tbl, items):
    # DynamoDB counts an update's own actions against the 400 KB too (a cost
    # of 3, and 19 per SET): an item PutItem takes at exactly 400 KB is too
    # large when an update writes it, and 2 bytes less fits (captured model).
    k = key()
    value = "x" * (400 * 1024 - len("pk") - len(k) - len("big"))
    dynamodb.put_item(TableName=tbl, Item=avs({"pk": k, "big": value}))
    with expect_error(VE, exact(TOO_LARGE_UPDATE)):
        items.update(key(), "SET big = :v", {":v": value})
    fits = key()
    items.update(fits, "SET big = :v", {":v": value[:-2]})
    assert len(items.get(fits)["big"]) == len(value) - 2
    with expect_error(VE, exact(TOO_LARGE_UPDATE)):
        items.update(fits, "SET big = :v", {":v": value[:-1]})


def test_partiql_and_transacted_updates_judge_only_the_finished_item(dynamodb, tbl):
    # UpdateItem's cost per action is its own: a PartiQL UPDATE and a
    # transacted Update store an item of exactly 400 KB, and refuse a byte
    # more with the update's text (a cancellation in a transaction).
    def big(k, extra=0):
        return "x" * (400 * 1024 - len("pk") - len(k) - len("big") + extra)
    for surface in ("partiql", "transaction"):
        k = key()
        value = big(k)
        with expect_error(VE, exact(TOO_LARGE_UPDATE)):
            dynamodb.update_item(TableName=tbl, Key=avs({"pk": k}), UpdateExpression="SET big = :v",
                                 ExpressionAttributeValues=avs({":v": value}))
        if surface == "partiql":  # an UPDATE needs the item
            dynamodb.put_item(TableName=tbl, Item=avs({"pk": k}))
            dynamodb.execute_statement(
                Statement="UPDATE \"{}\" SET big = ? WHERE pk = ?".format(tbl),
                Parameters=[{"S": value}, {"S": k}])
        else:
            dynamodb.transact_write_items(TransactItems=[{"Update": {
                "TableName": tbl, "Key": avs({"pk": k}), "UpdateExpression": "SET big = :v",
                "ExpressionAttributeValues": avs({":v": value})}}])
        assert len(dynamodb.get_item(TableName=tbl, Key=avs({"pk": k}))["Item"]["big"]["S"]) == \
            len(value)
    k = key()
    dynamodb.put_item(TableName=tbl, Item=avs({"pk": k}))
    with expect_error(VE, exact(TOO_LARGE_UPDATE)):
        dynamodb.execute_statement(Statement="UPDATE \"{}\" SET big = ? WHERE pk = ?".format(tbl),
                                   Parameters=[{"S": big(k, 1)}, {"S": k}])
    with expect_error("TransactionCanceledException") as cancelled:
        dynamodb.transact_write_items(TransactItems=[{"Update": {
            "TableName": tbl, "Key": avs({"pk": k}), "UpdateExpression": "SET big = :v",
            "ExpressionAttributeValues": avs({":v": big(k, 1)})}}])
    reason = cancelled.value.response["CancellationReasons"][0]
    assert reason == {"Code": "ValidationError", "Message": TOO_LARGE_UPDATE}
    assert dynamodb.get_item(TableName=tbl, Key=avs({"pk": k}))["Item"] == avs({"pk": k})


def test_update_size_is_judged_before_the_condition(items):
    # An update too large is refused as such even when its condition is false.
    k = items.put(a="x" * 300000)
    with expect_error(VE, exact(TOO_LARGE_UPDATE)):
        items.update(k, "SET b = :v", {":v": "y" * 200000},
                     ConditionExpression="attribute_exists(nope)")
    # A fitting update with a false condition is a failed condition.
    with expect_error("ConditionalCheckFailedException"):
        items.update(k, "SET b = :v", {":v": "y"}, ConditionExpression="attribute_exists(nope)")


# --------------------------------------------------------------------------
# ReturnValues
# --------------------------------------------------------------------------

BEFORE = {"a": 1, "b": "two", "c": {"x": 1, "y": {"z": "deep"}}, "l": ["l0", "l1", "l2"]}


@pytest.mark.parametrize("expr,values,return_values,expected", [
    ("SET a = :v", {":v": 9}, "NONE", None),
    ("SET a = :v", {":v": 9}, "ALL_OLD", dict(BEFORE)),
    ("SET a = :v REMOVE b", {":v": 9}, "ALL_NEW",
     {"a": 9, "c": BEFORE["c"], "l": BEFORE["l"]}),
    ("SET a = :v, d = :v REMOVE b", {":v": 9}, "UPDATED_OLD", {"a": 1, "b": "two"}),
    ("SET a = :v, d = :v REMOVE b", {":v": 9}, "UPDATED_NEW", {"a": 9, "d": 9}),
    ("SET c.y.z = :v", {":v": 9}, "UPDATED_NEW", {"c": {"y": {"z": 9}}}),
    ("SET c.y.z = :v", {":v": 9}, "UPDATED_OLD", {"c": {"y": {"z": "deep"}}}),
    ("SET c.w = :v", {":v": 9}, "UPDATED_OLD", None),
    ("SET c.w = :v", {":v": 9}, "UPDATED_NEW", {"c": {"w": 9}}),
    ("REMOVE b, c.x", None, "UPDATED_NEW", None),
    ("REMOVE b, c.x", None, "UPDATED_OLD", {"b": "two", "c": {"x": 1}}),
    ("SET d = :v", {":v": 9}, "UPDATED_OLD", None),
    ("SET l[2] = :v, l[0] = :v", {":v": 9}, "UPDATED_NEW", {"l": [9, 9]}),
    ("SET l[1] = :v", {":v": 9}, "UPDATED_OLD", {"l": ["l1"]}),
    ("SET l[5] = :v", {":v": 9}, "UPDATED_NEW", None),
    ("SET l = list_append(l, :l)", {":l": [9]}, "UPDATED_NEW", {"l": ["l0", "l1", "l2", 9]}),
    ("ADD a :v", {":v": 9}, "UPDATED_NEW", {"a": 10}),
    ("ADD a :v", {":v": 9}, "UPDATED_OLD", {"a": 1}),
], ids=["NONE", "ALL_OLD", "ALL_NEW", "UPDATED_OLD", "UPDATED_NEW", "nested-new", "nested-old",
        "new-nested-old", "new-nested-new", "remove-new", "remove-old", "new-attr-old",
        "list-index-new", "list-index-old", "list-append-index-new", "list-append-new",
        "add-new", "add-old"])
def test_return_values(items, expr, values, return_values, expected):
    # ReturnValues: ALL_* give whole items; UPDATED_* give only the fragments of the updated paths (nested maps kept, list elements packed); no Attributes when nothing is left.
    k = items.put(**BEFORE)
    got = items.update(k, expr, values, ReturnValues=return_values)
    if expected is not None and return_values.startswith("ALL"):
        expected = dict(expected, pk=k)
    assert got == expected


def test_return_values_on_new_item(items):
    # On an upsert, ALL_OLD and UPDATED_OLD return nothing, ALL_NEW the whole item (with key), UPDATED_NEW only the updated attributes.
    assert items.update(key(), "SET a = :v", {":v": 1}, ReturnValues="ALL_OLD") is None
    assert items.update(key(), "SET a = :v", {":v": 1}, ReturnValues="UPDATED_OLD") is None
    k = key()
    assert items.update(k, "SET a = :v", {":v": 1}, ReturnValues="ALL_NEW") == {"pk": k, "a": 1}
    assert items.update(key(), "SET a = :v", {":v": 1}, ReturnValues="UPDATED_NEW") == {"a": 1}


def test_return_values_invalid_enum(items):
    # An unknown ReturnValues value is a ValidationException naming the allowed values.
    with expect_error(VE, "returnValues.*ALL_NEW.*UPDATED_OLD.*ALL_OLD.*NONE.*UPDATED_NEW"):
        items.update(key(), "SET a = :v", {":v": 1}, ReturnValues="EVERYTHING")


# --------------------------------------------------------------------------
# Conditions on updates
# --------------------------------------------------------------------------

def test_failed_condition_leaves_item_unchanged(items):
    # When the ConditionExpression is false nothing of the update is applied.
    k = items.put(a=1, l=[1])
    with expect_error(CCF, exact("The conditional request failed")):
        items.update(k, "SET a = :v, b = :v REMOVE l[0] ADD n :v", {":v": 2},
                     ConditionExpression="a = :v")
    assert items.get(k) == {"pk": k, "a": 1, "l": [1]}


def test_condition_sees_old_item(items):
    # The condition is evaluated against the item before the update, even for attributes the update changes.
    k = items.put(a=1)
    items.update(k, "SET a = :two", {":one": 1, ":two": 2}, ConditionExpression="a = :one")
    assert items.get(k)["a"] == 2


def test_condition_failure_returns_old_item_when_asked(server_url, tbl, items):
    # UpdateItem with ReturnValuesOnConditionCheckFailure=ALL_OLD returns the unchanged item in the error.
    k = items.put(v=1, tags={"a"})
    status, body = raw_op(server_url, "UpdateItem", {
        "TableName": tbl, "Key": {"pk": {"S": k}}, "UpdateExpression": "SET v = :two",
        "ConditionExpression": "v = :two", "ExpressionAttributeValues": {":two": {"N": "2"}},
        "ReturnValues": "ALL_NEW", "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
    assert status == 400
    assert body["__type"].endswith(CCF)
    assert plain(body["Item"]) == {"pk": k, "v": 1, "tags": {"a"}}
    assert "Attributes" not in body
