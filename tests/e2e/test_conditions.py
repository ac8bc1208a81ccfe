"""Condition expressions: a table of conditions evaluated against one item of
every attribute type (numbers by value, strings by UTF-8 bytes, binaries
as unsigned bytes, comparisons across types, missing attributes, document
paths, BETWEEN, IN, the functions, NOT/AND/OR precedence); conditional
PutItem, UpdateItem and DeleteItem; ReturnValuesOnConditionCheckFailure;
keyword case and whitespace; and boto3's Attr condition builders."""

from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr
from botocore.exceptions import ClientError

from .e2e_util import avs, exact, expect_error, key, plain, raw_op
from .expressions_util import CCF, RICH, VE
from .expressions_util import rich_key, tbl  # fixtures


def condition_holds(dynamodb, table, k, cond, values=None, names=None):
    """Evaluate `cond` against item k with a no-op UpdateItem: True if the
    update went through, False on ConditionalCheckFailedException."""
    kwargs = {}
    if values:
        kwargs["ExpressionAttributeValues"] = avs(values)
    if names:
        kwargs["ExpressionAttributeNames"] = names
    try:
        dynamodb.update_item(TableName=table, Key={"pk": {"S": k}},
                             UpdateExpression="REMOVE never_there",
                             ConditionExpression=cond, **kwargs)
        return True
    except ClientError as e:
        if e.response["Error"]["Code"] == CCF:
            return False
        raise


def case(cond, expected, values=None, names=None, id=None):
    return pytest.param(cond, values, names, expected, id=id or cond)


CONDITION_CASES = [
    # numbers compare by value, not text
    case("n = :v", True, {":v": 5}),
    case("n = :v", True, {":v": Decimal("5.00")}, id="n = 5.00"),
    case("n = :v", True, {":v": Decimal("50E-1")}, id="n = 50E-1"),
    case("n <> :v", True, {":v": 4}),
    case("n < :v", True, {":v": 10}, id="n < 10 numeric not lexical"),
    case("n > :v", False, {":v": 10}),
    case("n <= :v", True, {":v": 5}),
    case("n >= :v", False, {":v": 6}),
    case("neg < :v", True, {":v": Decimal("-3.4")}),
    case("neg > :v", False, {":v": Decimal("-3.4")}, id="neg > -3.4"),
    case("n38 = :v", True, {":v": Decimal("1234567890123456789012345678901234567.8")}),
    case("n38 < :v", True, {":v": Decimal("1234567890123456789012345678901234567.9")},
         id="n38 < last digit bigger"),
    case("n38 = :v", False, {":v": Decimal("1234567890123456789012345678901234567.9")},
         id="n38 = last digit differs"),
    # strings compare by UTF-8 bytes, case-sensitively
    case("s < :v", True, {":v": "abd"}),
    case("s > :v", True, {":v": "ab"}, id="s > prefix"),
    case("s < :v", True, {":v": "b"}),
    case("s = :v", False, {":v": "ABC"}, id="s = ABC case-sensitive"),
    case("uni > :v", True, {":v": "z"}, id="utf8 e-acute > z"),
    case("astral > :v", True, {":v": "\uffff"}, id="utf8 astral > U+FFFF"),
    # binaries compare as unsigned bytes
    case("b < :v", True, {":v": b"\x80"}, id="b < 0x80 unsigned"),
    case("b > :v", True, {":v": b"\x01"}, id="b > prefix"),
    case("b = :v", True, {":v": b"\x01\x02"}),
    # comparisons across types are false, never errors; <> is true
    case("n = :v", False, {":v": "5"}, id="N = S"),
    case("n <> :v", True, {":v": "5"}, id="N <> S"),
    case("n < :v", False, {":v": "9"}, id="N < S"),
    case("n >= :v", False, {":v": "0"}, id="N >= S"),
    case("s > :v", False, {":v": 1}, id="S > N"),
    case("b = :v", False, {":v": "\x01\x02"}, id="B = S"),
    case("l < :v", False, {":v": 1}, id="L < N (item side)"),
    case("n BETWEEN :lo AND :hi", False, {":lo": "1", ":hi": "9"}, id="N between S"),
    # missing attributes
    case("absent = :v", False, {":v": 1}),
    case("absent <> :v", True, {":v": 1}),
    case("absent < :v", False, {":v": 1}),
    case(":v > absent", False, {":v": 1}),
    case("absent = absent2", False),
    case("absent <> absent2", True),
    case("absent BETWEEN :lo AND :hi", False, {":lo": 1, ":hi": 2}),
    # equality of non-scalar types (sets ignore order)
    case("t = :v", True, {":v": True}),
    case("t = :v", False, {":v": False}, id="t = false"),
    case("f <> t", True),
    case("z = :v", True, {":v": None}),
    case("ss = :v", True, {":v": {"b", "a"}}),
    case("ns = :v", True, {":v": {Decimal("2.0"), 1}}, id="ns = {2.0, 1}"),
    case("bs = :v", True, {":v": {b"\x02", b"\x01"}}),
    case("ss = :v", False, {":v": {"a"}}, id="ss = subset"),
    case("l = :v", True, {":v": [1, "two", [3]]}),
    case("l = :v", False, {":v": ["two", 1, [3]]}, id="l = reordered"),
    case("m = :v", True, {":v": {"e": "", "y": {"z": "deep"}, "x": 1}}),
    # document paths
    case("m.x = :v", True, {":v": 1}),
    case("m.y.z = :v", True, {":v": "deep"}),
    case("l[1] = :v", True, {":v": "two"}),
    case("l[2][0] = :v", True, {":v": 3}),
    case("l[9] = :v", False, {":v": 3}),
    case("m.nope.deeper = :v", False, {":v": 3}),
    case("s.x = :v", False, {":v": 3}, id="path into a string"),
    case("#d = :v", True, {":v": "dotted"}, {"#d": "a.b"}, id="name with a dot"),
    case("#a.#b = :v", False, {":v": "dotted"}, {"#a": "a", "#b": "b"}, id="a.b is a path"),
    case("#s = :v", True, {":v": "active"}, {"#s": "status"}, id="reserved via name"),
    case("#m.#y.z = :v", True, {":v": "deep"}, {"#m": "m", "#y": "y"}),
    # two attributes
    case("n > neg", True),
    case("m.x < n", True),
    # BETWEEN is inclusive
    case("n BETWEEN :lo AND :hi", True, {":lo": 1, ":hi": 5}, id="between 1 and 5"),
    case("n BETWEEN :lo AND :hi", True, {":lo": 5, ":hi": 9}, id="between 5 and 9"),
    case("n BETWEEN :lo AND :hi", False, {":lo": 6, ":hi": 9}, id="between 6 and 9"),
    case("s BETWEEN :lo AND :hi", True, {":lo": "abc", ":hi": "abc"}, id="between abc and abc"),
    case("s between :lo and :hi", True, {":lo": "a", ":hi": "b"}, id="lowercase between"),
    # IN
    case("n IN (:a, :b)", True, {":a": 1, ":b": 5}),
    case("n IN (:a, :b)", False, {":a": 1, ":b": 2}, id="n IN (1, 2)"),
    case("s IN (:a)", True, {":a": "abc"}),
    case("n IN (:a)", False, {":a": "5"}, id="N in (S)"),
    # attribute_exists / attribute_not_exists
    case("attribute_exists(m.y.z)", True),
    case("attribute_exists(l[2][0])", True),
    case("attribute_exists(l[5])", False),
    case("attribute_exists(z)", True, id="attribute_exists(NULL attribute)"),
    case("attribute_exists(es)", True, id="attribute_exists(empty string)"),
    case("attribute_not_exists(absent)", True),
    case("attribute_not_exists(n)", False),
    case("attribute_exists(#d)", True, names={"#d": "a.b"}),
    # attribute_type
    case("attribute_type(n, :t)", True, {":t": "N"}),
    case("attribute_type(s, :t)", True, {":t": "S"}),
    case("attribute_type(b, :t)", True, {":t": "B"}),
    case("attribute_type(t, :t)", True, {":t": "BOOL"}),
    case("attribute_type(z, :t)", True, {":t": "NULL"}),
    case("attribute_type(ss, :t)", True, {":t": "SS"}),
    case("attribute_type(ns, :t)", True, {":t": "NS"}),
    case("attribute_type(bs, :t)", True, {":t": "BS"}),
    case("attribute_type(l, :t)", True, {":t": "L"}),
    case("attribute_type(m, :t)", True, {":t": "M"}),
    case("attribute_type(l, :t)", False, {":t": "M"}, id="attribute_type(l, M)"),
    case("attribute_type(absent, :t)", False, {":t": "S"}),
    case("attribute_type(:v, :t)", True, {":v": 0, ":t": "N"}, id="attribute_type of a value"),
    # begins_with
    case("begins_with(s, :p)", True, {":p": "ab"}),
    case("begins_with(s, :p)", True, {":p": "abc"}, id="begins_with whole"),
    case("begins_with(s, :p)", False, {":p": "b"}, id="begins_with(s, b)"),
    case("begins_with(s, :p)", False, {":p": "abcd"}, id="begins_with longer"),
    case("begins_with(b, :p)", True, {":p": b"\x01"}),
    case("begins_with(n, :p)", False, {":p": "5"}, id="begins_with on a number"),
    case("begins_with(:v, s)", True, {":v": "abcdef"}, id="begins_with(value, path)"),
    case("begins_with(absent, :p)", False, {":p": "a"}),
    # contains
    case("contains(s, :v)", True, {":v": "bc"}),
    case("contains(s, :v)", False, {":v": "cb"}, id="contains(s, cb)"),
    case("contains(ss, :v)", True, {":v": "a"}),
    case("contains(ss, :v)", False, {":v": "c"}, id="contains(ss, c)"),
    case("contains(ns, :v)", True, {":v": Decimal("2.0")}, id="contains(ns, 2.0)"),
    case("contains(ns, :v)", False, {":v": "2"}, id="contains(ns, S 2)"),
    case("contains(bs, :v)", True, {":v": b"\x02"}),
    case("contains(b, :v)", True, {":v": b"\x02"}, id="contains(b, 02)"),
    case("contains(l, :v)", True, {":v": "two"}),
    case("contains(l, :v)", True, {":v": 1}, id="contains(l, 1)"),
    case("contains(l, :v)", False, {":v": 2}, id="contains(l, 2)"),
    case("contains(lx, :v)", True, {":v": {2, 1}}, id="contains(list, a set element)"),
    case("contains(lx, :v)", True, {":v": [3, 4]}, id="contains(list, a list element)"),
    case("contains(lx, :v)", False, {":v": [4, 3]}, id="contains(list, reordered list)"),
    case("contains(s, m.y.z)", False, id="contains(path, path) false"),
    case("contains(lx, s)", False, id="contains(list, path)"),
    case("contains(m, :v)", False, {":v": "x"}, id="contains on a map"),
    case("contains(absent, :v)", False, {":v": "x"}),
    # size
    case("size(s) = :v", True, {":v": 3}),
    case("size(uni) = :v", True, {":v": 1}, id="size of e-acute is 1 UTF-16 unit"),
    case("size(astral) = :v", True, {":v": 2}, id="size of U+1F600 is 2 UTF-16 units"),
    case("size(s) = :v", False, {":v": "3"}, id="size compared with a string"),
    case("size(b) = :v", True, {":v": 2}),
    case("size(ss) = :v", True, {":v": 2}),
    case("size(l) = :v", True, {":v": 3}),
    case("size(m) = :v", True, {":v": 3}),
    case("size(m.y) = :v", True, {":v": 1}),
    case("size(es) = :v", True, {":v": 0}),
    case("size(l) > size(ss)", True),
    case("size(absent) = :v", False, {":v": 0}),
    case("size(n) = :v", False, {":v": 1}, id="size of a number"),
    case("size(s) BETWEEN :lo AND :hi", True, {":lo": 1, ":hi": 3}),
    # boolean logic and precedence: NOT > AND > OR
    case("n = :five AND s = :abc", True, {":five": 5, ":abc": "abc"}),
    case("n = :four OR s = :abc", True, {":four": 4, ":abc": "abc"}),
    case("n = :four AND s = :abc", False, {":four": 4, ":abc": "abc"}),
    case("NOT n = :four", True, {":four": 4}),
    case("not n = :five", False, {":five": 5}),
    case("n = :five OR s = :x AND t = :f", True, {":five": 5, ":x": "x", ":f": False},
         id="AND binds tighter than OR"),
    case("(n = :five OR s = :x) AND t = :f", False, {":five": 5, ":x": "x", ":f": False},
         id="parentheses override precedence"),
    case("NOT n = :five OR t = :t", True, {":five": 5, ":t": True},
         id="NOT binds tighter than OR"),
    case("NOT (n = :five OR t = :t)", False, {":five": 5, ":t": True}),
    case("((n = :five) AND (s = :abc)) OR (t = :f)", True,
         {":five": 5, ":abc": "abc", ":f": False}),
    case("attribute_exists(n) AND NOT attribute_exists(absent) AND size(l) = :three",
         True, {":three": 3}),
]


@pytest.mark.parametrize("cond,values,names,expected", CONDITION_CASES)
def test_condition_evaluation(dynamodb, tbl, rich_key, cond, values, names, expected):
    # Each ConditionExpression is evaluated against the same item of every attribute type; the update succeeds exactly when DynamoDB semantics say the condition is true.
    assert condition_holds(dynamodb, tbl, rich_key, cond, values, names) is expected


def test_rich_item_unchanged_by_condition_checks(dynamodb, tbl, rich_key):
    # The no-op updates used to evaluate conditions leave the item exactly as written.
    got = dynamodb.get_item(TableName=tbl, Key={"pk": {"S": rich_key}}, ConsistentRead=True)["Item"]
    assert plain(got) == dict(RICH, pk=rich_key)


# --------------------------------------------------------------------------
# Conditional writes
# --------------------------------------------------------------------------

def test_put_if_absent(dynamodb, tbl):
    # PutItem with attribute_not_exists(pk) succeeds once; the second attempt fails with ConditionalCheckFailedException "The conditional request failed" and leaves the first item in place.
    k = key()
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": k}, "v": {"S": "first"}},
                      ConditionExpression="attribute_not_exists(pk)")
    with expect_error(CCF, exact("The conditional request failed")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": k}, "v": {"S": "second"}},
                          ConditionExpression="attribute_not_exists(pk)")
    got = dynamodb.get_item(TableName=tbl, Key={"pk": {"S": k}}, ConsistentRead=True)["Item"]
    assert got["v"] == {"S": "first"}


def test_update_with_attribute_exists_on_missing_item_does_not_create(dynamodb, tbl):
    # UpdateItem with attribute_exists(pk) on a missing item fails and does not create the item.
    k = key()
    with expect_error(CCF, exact("The conditional request failed")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": k}},
                             UpdateExpression="SET v = :v", ConditionExpression="attribute_exists(pk)",
                             ExpressionAttributeValues={":v": {"S": "x"}})
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key={"pk": {"S": k}}, ConsistentRead=True)


def test_conditional_delete(dynamodb, tbl):
    # DeleteItem with a false condition keeps the item; with a true one deletes it; attribute_exists on a missing item fails.
    k = key()
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": k}, "state": {"S": "open"}})
    with expect_error(CCF, exact("The conditional request failed")):
        dynamodb.delete_item(TableName=tbl, Key={"pk": {"S": k}}, ConditionExpression="#st = :closed",
                             ExpressionAttributeNames={"#st": "state"},
                             ExpressionAttributeValues={":closed": {"S": "closed"}})
    assert "Item" in dynamodb.get_item(TableName=tbl, Key={"pk": {"S": k}}, ConsistentRead=True)
    resp = dynamodb.delete_item(TableName=tbl, Key={"pk": {"S": k}}, ConditionExpression="#st = :open",
                                ExpressionAttributeNames={"#st": "state"},
                                ExpressionAttributeValues={":open": {"S": "open"}},
                                ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": {"S": k}, "state": {"S": "open"}}
    with expect_error(CCF):
        dynamodb.delete_item(TableName=tbl, Key={"pk": {"S": k}}, ConditionExpression="attribute_exists(pk)")


def test_condition_on_missing_item_sees_no_attributes(dynamodb, tbl):
    # Against a missing item, attribute_not_exists is true and <> is true, while = is false.
    k = key()
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": k}}, ConditionExpression="attribute_not_exists(v)")
    dynamodb.delete_item(TableName=tbl, Key={"pk": {"S": k}})
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": k}}, ConditionExpression="v <> :v",
                      ExpressionAttributeValues={":v": {"N": "1"}})
    dynamodb.delete_item(TableName=tbl, Key={"pk": {"S": k}})
    with expect_error(CCF):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": k}}, ConditionExpression="v = :v",
                          ExpressionAttributeValues={":v": {"N": "1"}})


@pytest.mark.parametrize("operation", ["PutItem", "UpdateItem", "DeleteItem"])
def test_return_values_on_condition_check_failure_all_old(server_url, tbl, operation):
    # With ReturnValuesOnConditionCheckFailure=ALL_OLD the ConditionalCheckFailedException body carries the existing item as "Item"; with NONE it does not.
    k = key()
    old = {"pk": {"S": k}, "v": {"N": "1"}, "m": {"M": {"x": {"L": [{"S": "y"}]}}},
           "b": {"B": "AAE="}}
    status, _ = raw_op(server_url, "PutItem", {"TableName": tbl, "Item": old})
    assert status == 200
    payload = {"TableName": tbl, "ConditionExpression": "v = :two",
               "ExpressionAttributeValues": {":two": {"N": "2"}}}
    if operation == "PutItem":
        payload["Item"] = {"pk": {"S": k}, "v": {"N": "3"}}
    else:
        payload["Key"] = {"pk": {"S": k}}
    if operation == "UpdateItem":
        payload["UpdateExpression"] = "SET v = :two"
    status, body = raw_op(server_url, operation,
                          dict(payload, ReturnValuesOnConditionCheckFailure="ALL_OLD"))
    assert status == 400
    assert body["__type"].split("#")[-1] == CCF
    assert body.get("message", body.get("Message")) == "The conditional request failed"
    assert body["Item"] == old
    status, body = raw_op(server_url, operation,
                          dict(payload, ReturnValuesOnConditionCheckFailure="NONE"))
    assert status == 400 and "Item" not in body
    status, body = raw_op(server_url, operation, payload)
    assert status == 400 and "Item" not in body


def test_return_values_on_condition_check_failure_missing_item(server_url, tbl):
    # ALL_OLD on a condition failure against a missing item has no "Item" in the error body.
    status, body = raw_op(server_url, "UpdateItem", {
        "TableName": tbl, "Key": {"pk": {"S": key()}}, "UpdateExpression": "SET v = :v",
        "ConditionExpression": "attribute_exists(pk)", "ExpressionAttributeValues": {":v": {"N": "1"}},
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
    assert status == 400
    assert body["__type"].split("#")[-1] == CCF
    assert "Item" not in body


def test_return_values_on_condition_check_failure_bad_enum(server_url, tbl):
    # An unknown ReturnValuesOnConditionCheckFailure value is a ValidationException.
    status, body = raw_op(server_url, "PutItem", {
        "TableName": tbl, "Item": {"pk": {"S": key()}}, "ConditionExpression": "attribute_exists(pk)",
        "ReturnValuesOnConditionCheckFailure": "ALL_NEW"})
    assert status == 400
    assert body["__type"].split("#")[-1] == VE


def test_keywords_are_case_insensitive(dynamodb, tbl, rich_key):
    # AND, OR, NOT, BETWEEN and IN may be written in any case.
    assert condition_holds(dynamodb, tbl, rich_key, "n bEtWeEn :a aNd :b oR NoT s In (:c)",
                           {":a": 1, ":b": 9, ":c": "x"})


def test_whitespace_is_insignificant(dynamodb, tbl, rich_key):
    # Tabs, newlines and missing blanks around operators do not matter.
    assert condition_holds(dynamodb, tbl, rich_key, "\tn=:v\nAND\r\nsize( l )>=:w AND l[ 1 ]=:s",
                           {":v": 5, ":w": 3, ":s": "two"})


# --------------------------------------------------------------------------
# boto3 resource API with the condition builders
# --------------------------------------------------------------------------

def test_resource_condition_builders(dynamodb_resource, tbl):
    # boto3's Attr builders (which generate #n/:v placeholders) work for put, update and delete conditions.
    table = dynamodb_resource.Table(tbl)
    k = key()
    table.put_item(Item={"pk": k, "status": "new", "count": 1, "tags": {"a"}},
                   ConditionExpression=Attr("pk").not_exists())
    with pytest.raises(ClientError) as err:
        table.put_item(Item={"pk": k}, ConditionExpression=Attr("pk").not_exists())
    assert err.value.response["Error"]["Code"] == CCF
    table.update_item(Key={"pk": k}, UpdateExpression="SET #s = :s",
                      ConditionExpression=(Attr("status").eq("new") & Attr("count").lt(5)
                                           & Attr("tags").contains("a")
                                           & Attr("status").begins_with("n")),
                      ExpressionAttributeNames={"#s": "status"},
                      ExpressionAttributeValues={":s": "done"})
    assert table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]["status"] == "done"
    with pytest.raises(ClientError) as err:
        table.delete_item(Key={"pk": k}, ConditionExpression=Attr("count").between(2, 9)
                          | Attr("status").is_in(["new", "open"]))
    assert err.value.response["Error"]["Code"] == CCF
    table.delete_item(Key={"pk": k}, ConditionExpression=~Attr("status").ne("done")
                      & Attr("count").attribute_type("N") & Attr("tags").size().eq(1))
    assert "Item" not in table.get_item(Key={"pk": k}, ConsistentRead=True)
