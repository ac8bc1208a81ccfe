"""Condition and projection expressions: evaluation semantics of
ConditionExpression on PutItem/UpdateItem/DeleteItem, ProjectionExpression,
ExpressionAttributeNames/Values hygiene, the legacy Expected and
AttributesToGet parameters, and the exact DynamoDB error texts."""

from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr
from botocore.exceptions import ClientError

from .e2e_util import av, avs, exact, expect_error, key, plain, raw_op

CCF = "ConditionalCheckFailedException"
VE = "ValidationException"

@pytest.fixture(scope="module")
def tbl(tables):
    """Table with hash key pk (S)."""
    return tables(prefix="expr")


# An item with one attribute of every type plus nested documents; the
# condition cases below are evaluated against it.
RICH = {
    "n": 5,
    "neg": Decimal("-3.5"),
    "n38": Decimal("1234567890123456789012345678901234567.8"),
    "s": "abc",
    "b": b"\x01\x02",
    "t": True,
    "f": False,
    "z": None,
    "ss": {"a", "b"},
    "ns": {1, 2},
    "bs": {b"\x01", b"\x02"},
    "l": [1, "two", [3]],
    "lx": ["hi", {1, 2}, [3, 4]],
    "m": {"x": 1, "y": {"z": "deep"}, "e": ""},
    "a.b": "dotted",
    "status": "active",
    "es": "",
    "uni": "\u00e9",
    "astral": "\U0001F600",
}


@pytest.fixture(scope="module")
def rich_key(dynamodb, tbl):
    k = key()
    item = dict(RICH, pk=k)
    dynamodb.put_item(TableName=tbl, Item=avs(item))
    return k


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
# ProjectionExpression and AttributesToGet
# --------------------------------------------------------------------------

def get_projected(dynamodb, table, k, projection, names=None):
    kwargs = {"ProjectionExpression": projection}
    if names:
        kwargs["ExpressionAttributeNames"] = names
    return dynamodb.get_item(TableName=table, Key={"pk": {"S": k}}, ConsistentRead=True, **kwargs)


def test_projection_top_level(dynamodb, tbl, rich_key):
    # A ProjectionExpression of top-level names returns only those attributes (the key only if asked for).
    got = get_projected(dynamodb, tbl, rich_key, "n, s, absent")["Item"]
    assert plain(got) == {"n": 5, "s": "abc"}


def test_projection_nested_parts(dynamodb, tbl, rich_key):
    # Nested paths return only the requested parts: maps keep the requested keys, list elements are packed in index order.
    got = get_projected(dynamodb, tbl, rich_key, "m.y.z, l[2][0], l[1], m.nope, l[7]")["Item"]
    assert plain(got) == {"m": {"y": {"z": "deep"}}, "l": ["two", [3]]}


def test_projection_with_names(dynamodb, tbl, rich_key):
    # ExpressionAttributeNames in a projection: reserved words, names containing dots, and names reused in one path.
    got = get_projected(dynamodb, tbl, rich_key, "#s, #d, #m.#y, pk",
                        {"#s": "status", "#d": "a.b", "#m": "m", "#y": "y"})["Item"]
    assert plain(got) == {"status": "active", "a.b": "dotted", "m": {"y": {"z": "deep"}},
                          "pk": rich_key}


def test_projection_of_nothing_existing_gives_empty_item(dynamodb, tbl, rich_key):
    # Projecting only absent attributes of an existing item returns an empty Item.
    resp = get_projected(dynamodb, tbl, rich_key, "nope, m.nope")
    assert resp["Item"] == {}


def test_projection_overlap_rejected(dynamodb, tbl, rich_key):
    # Overlapping or duplicate projection paths are rejected with the "Two document paths overlap" text.
    with expect_error(VE, exact("Invalid ProjectionExpression: Two document paths overlap with each "
                                "other; must remove or rewrite one of these paths; path one: [m], "
                                "path two: [m, x]")):
        get_projected(dynamodb, tbl, rich_key, "m, m.x")
    with expect_error(VE, exact("Invalid ProjectionExpression: Two document paths overlap with each "
                                "other; must remove or rewrite one of these paths; path one: [n], "
                                "path two: [n]")):
        get_projected(dynamodb, tbl, rich_key, "n, n")


def test_projection_conflict_rejected(dynamodb, tbl, rich_key):
    # A path using a list index and one using a map key under the same prefix conflict.
    with expect_error(VE, exact("Invalid ProjectionExpression: Two document paths conflict with each "
                                "other; must remove or rewrite one of these paths; path one: [l, [0]], "
                                "path two: [l, x]")):
        get_projected(dynamodb, tbl, rich_key, "l[0], l.x")


def test_projection_reserved_word_rejected(dynamodb, tbl, rich_key):
    # A reserved word used bare in a projection is rejected, keeping the casing as written.
    with expect_error(VE, exact("Invalid ProjectionExpression: Attribute name is a reserved keyword; "
                                "reserved keyword: Status")):
        get_projected(dynamodb, tbl, rich_key, "n, Status")


def test_projection_empty_rejected(dynamodb, tbl, rich_key):
    # An empty ProjectionExpression is rejected.
    with expect_error(VE, exact("Invalid ProjectionExpression: The expression can not be empty;")):
        get_projected(dynamodb, tbl, rich_key, "")


def test_projection_syntax_error(dynamodb, tbl, rich_key):
    # A malformed projection reports the offending token and its neighbours.
    with expect_error(VE, exact('Invalid ProjectionExpression: Syntax error; token: "!", near: "!!"')):
        get_projected(dynamodb, tbl, rich_key, "!!! INVALID !!!")


def test_attributes_to_get(dynamodb, tbl, rich_key):
    # Legacy AttributesToGet returns only the named top-level attributes (a dotted name is one attribute).
    got = dynamodb.get_item(TableName=tbl, Key={"pk": {"S": rich_key}}, ConsistentRead=True,
                            AttributesToGet=["n", "a.b", "absent"])["Item"]
    assert plain(got) == {"n": 5, "a.b": "dotted"}


def test_attributes_to_get_with_projection_rejected(dynamodb, tbl, rich_key):
    # AttributesToGet together with ProjectionExpression is rejected.
    with expect_error(VE, exact("Can not use both expression and non-expression parameters in the same "
                                "request: Non-expression parameters: {AttributesToGet} Expression "
                                "parameters: {ProjectionExpression}")):
        dynamodb.get_item(TableName=tbl, Key={"pk": {"S": rich_key}}, AttributesToGet=["n"],
                          ProjectionExpression="s")


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


def test_resource_projection(dynamodb_resource, tbl, rich_key):
    # Table.get_item with a ProjectionExpression and names returns Python values of the projected parts.
    table = dynamodb_resource.Table(tbl)
    got = table.get_item(Key={"pk": rich_key}, ProjectionExpression="#m.x, ss, l[0]",
                         ExpressionAttributeNames={"#m": "m"}, ConsistentRead=True)["Item"]
    assert got == {"m": {"x": 1}, "ss": {"a", "b"}, "l": [1]}


# --------------------------------------------------------------------------
# Error texts: syntax, reserved words, functions
# --------------------------------------------------------------------------

def put_cond(dynamodb, table, cond, values=None, names=None, k=None):
    kwargs = {"ConditionExpression": cond}
    if values is not None:
        kwargs["ExpressionAttributeValues"] = values
    if names is not None:
        kwargs["ExpressionAttributeNames"] = names
    return dynamodb.put_item(TableName=table, Item={"pk": {"S": k or key()}}, **kwargs)


N1 = {"N": "1"}


@pytest.mark.parametrize("cond,values,message", [
    ("a-b", None, 'Syntax error; token: "-", near: "a-b"'),
    ("attribute_exists(pk) AND NOT", None, 'Syntax error; token: "<EOF>", near: "NOT"'),
    ("a = :v :v", {":v": N1}, 'Syntax error; token: ":v", near: ":v :v"'),
    ("a > 4", None, 'Syntax error; token: "4", near: "> 4"'),
    ("a IN ()", None, 'Syntax error; token: ")", near: "()"'),
    ("a = :v AND", {":v": N1}, 'Syntax error; token: "<EOF>", near: "AND"'),
], ids=["minus", "not-at-eof", "two-values", "number-literal", "empty-in", "and-at-eof"])
def test_condition_syntax_errors(dynamodb, tbl, cond, values, message):
    # Syntax errors name the offending token and quote the previous token through the next one (<EOF> at the end).
    with expect_error(VE, exact("Invalid ConditionExpression: " + message)):
        put_cond(dynamodb, tbl, cond, values)


def test_update_syntax_error_at_eof(dynamodb, tbl):
    # A trailing comma in an UpdateExpression is a syntax error at <EOF> near ",".
    with expect_error(VE, exact('Invalid UpdateExpression: Syntax error; token: "<EOF>", near: ","')):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}}, UpdateExpression="SET a = :v,",
                             ExpressionAttributeValues={":v": N1})


def test_update_syntax_error_first_token(dynamodb, tbl):
    # With no previous token, "near" starts at the offending token and keeps the original whitespace.
    with expect_error(VE, exact('Invalid UpdateExpression: Syntax error; token: "INVALID", '
                                'near: "INVALID SYNTAX"')):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}},
                             UpdateExpression="INVALID SYNTAX HERE")


@pytest.mark.parametrize("cond", [
    "attribute_exists(_c)", "c._d = :v", "\u00fc = :v", "a[:v] = :v", "a in (:v,)", "size(a).b = :v",
    "attribute_exists(a..b)", "a in b", "a[1.5] = :v",
])
def test_more_syntax_errors(dynamodb, tbl, cond):
    # Identifiers must start with a letter; indexes must be literal integers; no trailing commas; no paths on function results.
    with expect_error(VE, "^Invalid ConditionExpression: Syntax error; token: "):
        put_cond(dynamodb, tbl, cond, {":v": N1} if ":v" in cond else None)


def test_reserved_word_keeps_casing(dynamodb, tbl):
    # A reserved word used as a bare attribute name is rejected; the message repeats it as written.
    with expect_error(VE, exact("Invalid ConditionExpression: Attribute name is a reserved keyword; "
                                "reserved keyword: sTaTus")):
        put_cond(dynamodb, tbl, "sTaTus = :v", {":v": N1})
    with expect_error(VE, exact("Invalid UpdateExpression: Attribute name is a reserved keyword; "
                                "reserved keyword: name")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}}, UpdateExpression="SET name = :v",
                             ExpressionAttributeValues={":v": N1})


def test_reserved_word_as_nested_component_rejected(dynamodb, tbl):
    # Every bare component of a path is checked, not just the first one.
    with expect_error(VE, exact("Invalid ConditionExpression: Attribute name is a reserved keyword; "
                                "reserved keyword: data")):
        put_cond(dynamodb, tbl, "m.data = :v", {":v": N1})


def test_unknown_function(dynamodb, tbl):
    # Function names are case-sensitive; unknown ones are reported with the name as written.
    with expect_error(VE, exact("Invalid ConditionExpression: Invalid function name; function: foo")):
        put_cond(dynamodb, tbl, "foo(a)")
    with expect_error(VE, exact("Invalid ConditionExpression: Invalid function name; "
                                "function: ATTRIBUTE_EXISTS")):
        put_cond(dynamodb, tbl, "ATTRIBUTE_EXISTS(a)")


def test_wrong_number_of_operands(dynamodb, tbl):
    # Calling a function with the wrong number of arguments is rejected.
    with expect_error(VE, exact("Invalid ConditionExpression: Incorrect number of operands for operator "
                                "or function; operator or function: begins_with, number of operands: 1")):
        put_cond(dynamodb, tbl, "begins_with(a)")
    with expect_error(VE, exact("Invalid ConditionExpression: Incorrect number of operands for operator "
                                "or function; operator or function: attribute_exists, number of "
                                "operands: 2")):
        put_cond(dynamodb, tbl, "attribute_exists(a, b)")


def test_function_used_as_condition_or_operand(dynamodb, tbl):
    # size() alone is not a condition, and a boolean function is not a comparison operand.
    with expect_error(VE, exact("Invalid ConditionExpression: The function is not allowed to be used "
                                "this way in an expression; function: size")):
        put_cond(dynamodb, tbl, "size(a)")
    with expect_error(VE, exact("Invalid ConditionExpression: The function is not allowed to be used "
                                "this way in an expression; function: attribute_not_exists")):
        put_cond(dynamodb, tbl, "attribute_not_exists(a) = :v", {":v": N1})


def test_function_requires_path(dynamodb, tbl):
    # attribute_exists of a value placeholder is rejected: it needs a document path.
    with expect_error(VE, exact("Invalid ConditionExpression: Operator or function requires a document "
                                "path; operator or function: attribute_exists")):
        put_cond(dynamodb, tbl, "attribute_exists(:v)", {":v": N1})


def test_function_literal_operand_type(dynamodb, tbl):
    # begins_with with a number literal and attribute_type with a non-string type argument are rejected.
    with expect_error(VE, exact("Invalid ConditionExpression: Incorrect operand type for operator or "
                                "function; operator or function: begins_with, operand type: N")):
        put_cond(dynamodb, tbl, "begins_with(a, :v)", {":v": N1})
    with expect_error(VE, exact("Invalid ConditionExpression: Incorrect operand type for operator or "
                                "function; operator or function: attribute_type, operand type: N")):
        put_cond(dynamodb, tbl, "attribute_type(a, :v)", {":v": N1})


def test_redundant_parentheses(dynamodb, tbl):
    # Doubled parentheses are rejected; single ones around each part are fine.
    with expect_error(VE, exact("Invalid ConditionExpression: The expression has redundant parentheses;")):
        put_cond(dynamodb, tbl, "((a = :v))", {":v": N1})
    with expect_error(VE, exact("Invalid ConditionExpression: The expression has redundant parentheses;")):
        put_cond(dynamodb, tbl, "a > ((b))")
    put_cond(dynamodb, tbl, "((attribute_not_exists(a)) AND (attribute_not_exists(b)))")


@pytest.mark.parametrize("cond", [
    "a > whatever((:things), ((a)))",
    "a=a and a > ((views))",
    "a=a AND ((a=a AND a=a)) AND a=a",
    "(a)between(((b.c)).d)and(c)",
    "((attribute_not_exists(pk)))",
])
def test_redundant_parentheses_reported_first(dynamodb, tbl, cond):
    # Redundant parentheses are reported before unknown functions, reserved words, undefined values and repeated operands.
    with expect_error(VE, exact("Invalid ConditionExpression: The expression has redundant parentheses;")):
        put_cond(dynamodb, tbl, cond)


def test_operands_must_be_distinct(dynamodb, tbl):
    # Comparing a path with itself is rejected.
    with expect_error(VE, exact("Invalid ConditionExpression: The first operand must be distinct from the "
                                "remaining operands for this operator or function; operator: =, "
                                "first operand: [a]")):
        put_cond(dynamodb, tbl, "a = a")


def test_between_bounds_order(dynamodb, tbl):
    # BETWEEN with literal bounds in the wrong order is rejected, quoting both bounds.
    with expect_error(VE, exact("Invalid ConditionExpression: The BETWEEN operator requires upper bound to "
                                "be greater than or equal to lower bound; lower bound operand: "
                                "AttributeValue: {N:5}, upper bound operand: AttributeValue: {N:1}")):
        put_cond(dynamodb, tbl, "a BETWEEN :lo AND :hi", {":lo": {"N": "5"}, ":hi": {"N": "1"}})


def test_between_bounds_same_type(dynamodb, tbl):
    # BETWEEN with literal bounds of different types is rejected.
    with expect_error(VE, exact("Invalid ConditionExpression: The BETWEEN operator requires same data type "
                                "for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, "
                                "upper bound operand: AttributeValue: {S:a}")):
        put_cond(dynamodb, tbl, "a BETWEEN :lo AND :hi", {":lo": {"N": "1"}, ":hi": {"S": "a"}})


def test_invalid_attribute_type_name(dynamodb, tbl):
    # attribute_type with an unknown type name lists the ten valid ones.
    with expect_error(VE, r"^Invalid ConditionExpression: Invalid attribute type name found; type: X, "
                          r"valid types: \{((B|NULL|SS|BOOL|L|BS|N|NS|S|M),?){10}\}$"):
        put_cond(dynamodb, tbl, "attribute_type(a, :t)", {":t": {"S": "X"}})


def test_in_operand_limit(dynamodb, tbl):
    # IN takes at most 100 operands counting the left-hand side: 99 listed values are accepted, 100 are rejected as 101 operands.
    values = {":v{}".format(i): {"N": str(i)} for i in range(100)}
    listed = ", ".join(":v{}".format(i) for i in range(99))
    with expect_error(CCF):
        put_cond(dynamodb, tbl, "a IN ({})".format(listed),
                 {k: v for k, v in values.items() if k != ":v99"})
    with expect_error(VE, exact("Invalid ConditionExpression: The IN operator is provided with too many "
                                "operands; number of operands: 101")):
        put_cond(dynamodb, tbl, "a IN ({}, :v99)".format(listed), values)


def test_size_with_two_operands(dynamodb, tbl):
    # size takes exactly one operand.
    with expect_error(VE, exact("Invalid ConditionExpression: Incorrect number of operands for operator "
                                "or function; operator or function: size, number of operands: 2")):
        put_cond(dynamodb, tbl, "size(a, a) = :v", {":v": N1})


@pytest.mark.parametrize("function", ["if_not_exists", "list_append"])
def test_update_functions_not_allowed_in_conditions(dynamodb, tbl, function):
    # The update-only functions if_not_exists and list_append are not allowed in a ConditionExpression.
    with expect_error(VE, r"^Invalid ConditionExpression: .*not allowed.*function: " + function + "$"):
        put_cond(dynamodb, tbl, "{}(a, a) = :v".format(function), {":v": N1})


def test_bare_path_is_not_a_condition(dynamodb, tbl):
    # A bare path is not a condition: syntax error at its end.
    with expect_error(VE, exact('Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "a"')):
        put_cond(dynamodb, tbl, "a")


def test_expression_size_limit(dynamodb, tbl):
    # An expression of 4096 bytes is accepted; 4097 bytes is rejected.
    base = "attribute_not_exists(pk)"
    put_cond(dynamodb, tbl, base + " " * (4096 - len(base)))
    with expect_error(VE, exact("Invalid ConditionExpression: Expression size has exceeded the maximum "
                                "allowed size; expression size: 4097")):
        put_cond(dynamodb, tbl, base + " " * (4097 - len(base)))


def test_empty_condition_rejected(dynamodb, tbl):
    # An empty ConditionExpression is rejected.
    with expect_error(VE, exact("Invalid ConditionExpression: The expression can not be empty;")):
        put_cond(dynamodb, tbl, "")


def test_ordering_with_unsupported_literal_type_rejected(dynamodb, tbl):
    # An ordering comparison with a list literal is a ValidationException, not a failed condition.
    with expect_error(VE):
        put_cond(dynamodb, tbl, "a < :v", {":v": {"L": [N1]}})


# --------------------------------------------------------------------------
# Placeholder hygiene
# --------------------------------------------------------------------------

def test_undefined_value(dynamodb, tbl):
    # A :value used but not supplied is reported (the first one, left to right).
    with expect_error(VE, exact("Invalid ConditionExpression: An expression attribute value used in "
                                "expression is not defined; attribute value: :v")):
        put_cond(dynamodb, tbl, "a = :v AND b = :w", {":x": N1})
    with expect_error(VE, exact("Invalid ConditionExpression: An expression attribute value used in "
                                "expression is not defined; attribute value: :v")):
        put_cond(dynamodb, tbl, "a = :v")


def test_undefined_name(dynamodb, tbl):
    # A #name used but not supplied is reported.
    with expect_error(VE, exact("Invalid ConditionExpression: An expression attribute name used in the "
                                "document path is not defined; attribute name: #n")):
        put_cond(dynamodb, tbl, "attribute_exists(#n)", names={"#m": "x"})
    with expect_error(VE, exact("Invalid ConditionExpression: An expression attribute name used in the "
                                "document path is not defined; attribute name: #n")):
        put_cond(dynamodb, tbl, "attribute_exists(a.#n)")


def test_unused_value(dynamodb, tbl):
    # A supplied :value that no expression uses is rejected.
    with expect_error(VE, exact("Value provided in ExpressionAttributeValues unused in expressions: "
                                "keys: {:u}")):
        put_cond(dynamodb, tbl, "a = :v", {":v": N1, ":u": N1})


def test_unused_values_listed(dynamodb, tbl):
    # Several unused values are all listed (in any order).
    with expect_error(VE, r"^Value provided in ExpressionAttributeValues unused in expressions: "
                          r"keys: \{(:u, :w|:w, :u)\}$"):
        put_cond(dynamodb, tbl, "a = :v", {":v": N1, ":u": N1, ":w": N1})


def test_unused_name(dynamodb, tbl):
    # A supplied #name that no expression uses is rejected; names are checked before values.
    with expect_error(VE, exact("Value provided in ExpressionAttributeNames unused in expressions: "
                                "keys: {#u}")):
        put_cond(dynamodb, tbl, "attribute_exists(#a)", names={"#a": "a", "#u": "u"})
    with expect_error(VE, exact("Value provided in ExpressionAttributeNames unused in expressions: "
                                "keys: {#u}")):
        put_cond(dynamodb, tbl, "attribute_exists(#a)", {":u": N1}, {"#a": "a", "#u": "u"})


def test_placeholders_shared_between_expressions(dynamodb, tbl):
    # A placeholder counts as used if any expression of the request uses it.
    k = key()
    dynamodb.update_item(TableName=tbl, Key={"pk": {"S": k}}, UpdateExpression="SET #a = :v",
                         ConditionExpression="attribute_not_exists(#a) AND attribute_not_exists(#b)",
                         ExpressionAttributeNames={"#a": "a", "#b": "b"},
                         ExpressionAttributeValues={":v": N1})
    got = dynamodb.get_item(TableName=tbl, Key={"pk": {"S": k}}, ProjectionExpression="#a",
                            ExpressionAttributeNames={"#a": "a"}, ConsistentRead=True)["Item"]
    assert got == {"a": N1}


def test_empty_maps_rejected(dynamodb, tbl):
    # Empty ExpressionAttributeNames / ExpressionAttributeValues maps are rejected when an expression is present.
    with expect_error(VE, exact("ExpressionAttributeNames must not be empty")):
        put_cond(dynamodb, tbl, "attribute_not_exists(a)", names={})
    with expect_error(VE, exact("ExpressionAttributeValues must not be empty")):
        put_cond(dynamodb, tbl, "attribute_not_exists(a)", values={})


def test_maps_without_expressions_rejected(dynamodb, tbl):
    # Names or values given without any expression that could use them are rejected, naming the missing expressions.
    with expect_error(VE, exact("ExpressionAttributeNames can only be specified when using expressions")):
        dynamodb.get_item(TableName=tbl, Key={"pk": {"S": key()}}, ExpressionAttributeNames={"#a": "a"})
    with expect_error(VE, exact("ExpressionAttributeNames can only be specified when using expressions")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, ExpressionAttributeNames={"#a": "a"})
    with expect_error(VE, exact("ExpressionAttributeValues can only be specified when using expressions: "
                                "ConditionExpression is null")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, ExpressionAttributeValues={":v": N1})
    with expect_error(VE, exact("ExpressionAttributeValues can only be specified when using expressions: "
                                "ConditionExpression is null")):
        dynamodb.delete_item(TableName=tbl, Key={"pk": {"S": key()}},
                             ExpressionAttributeValues={":v": N1})
    with expect_error(VE, exact("ExpressionAttributeValues can only be specified when using expressions: "
                                "UpdateExpression and ConditionExpression are null")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}},
                             ExpressionAttributeValues={":v": N1})


def test_invalid_placeholder_keys(dynamodb, tbl):
    # Map keys must look like placeholders: names start with #, values with :.
    with expect_error(VE, exact('ExpressionAttributeNames contains invalid key: Syntax error; key: "a"')):
        put_cond(dynamodb, tbl, "attribute_not_exists(a)", names={"a": "a"})
    with expect_error(VE, exact('ExpressionAttributeValues contains invalid key: Syntax error; key: "v"')):
        put_cond(dynamodb, tbl, "attribute_not_exists(a)", values={"v": N1})


def test_invalid_value_in_map(dynamodb, tbl):
    # An invalid attribute value in ExpressionAttributeValues is reported with its key.
    with expect_error(VE, r"^ExpressionAttributeValues contains invalid value: .* for key :v$"):
        put_cond(dynamodb, tbl, "a = :v", {":v": {"SS": []}})


def test_mixing_expected_and_condition_expression(dynamodb, tbl):
    # Expected and ConditionExpression may not be combined.
    with expect_error(VE, exact("Can not use both expression and non-expression parameters in the same "
                                "request: Non-expression parameters: {Expected} Expression parameters: "
                                "{ConditionExpression}")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}},
                          Expected={"a": {"Exists": False}}, ConditionExpression="attribute_not_exists(a)")


# --------------------------------------------------------------------------
# Legacy Expected / ConditionalOperator
# --------------------------------------------------------------------------

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
    # Malformed Expected entries are ValidationExceptions with DynamoDB's texts.
    with expect_error(VE, exact("One or more parameter values were invalid: " + message)):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, Expected=expected)


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
