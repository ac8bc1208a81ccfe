"""UpdateItem: SET/REMOVE/ADD/DELETE, arithmetic, if_not_exists,
list_append, nested documents and list indexes, ReturnValues, conditions,
the legacy AttributeUpdates parameter, the exact DynamoDB error texts, and
the update patterns applications build on them (optimistic locking,
counters, set membership, nested document edits)."""

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
    return tables(prefix="upd")


@pytest.fixture(scope="module")
def rtbl(tables):
    """Table with hash key pk (S) and range key sk (N)."""
    return tables(range_key=("sk", "N"), prefix="upd-r")


class Items:
    """Small helper bound to one table: put/get/update with plain Python values."""

    def __init__(self, dynamodb, table):
        self.db = dynamodb
        self.table = table

    def put(self, **attrs):
        k = key()
        self.db.put_item(TableName=self.table, Item=avs(dict(attrs, pk=k)))
        return k

    def get(self, k):
        resp = self.db.get_item(TableName=self.table, Key={"pk": {"S": k}}, ConsistentRead=True)
        return plain(resp["Item"]) if "Item" in resp else None

    def update(self, k, expr=None, values=None, names=None, **kwargs):
        if expr is not None:
            kwargs["UpdateExpression"] = expr
        if values is not None:
            kwargs["ExpressionAttributeValues"] = avs(values)
        if names is not None:
            kwargs["ExpressionAttributeNames"] = names
        resp = self.db.update_item(TableName=self.table, Key={"pk": {"S": k}}, **kwargs)
        if "Attributes" in resp:
            return plain(resp["Attributes"])
        return None

    def updated(self, k, expr, values=None, names=None, **kwargs):
        """Apply the update and return the whole item afterwards (without pk)."""
        self.update(k, expr, values, names, **kwargs)
        got = self.get(k)
        got.pop("pk")
        return got


@pytest.fixture
def items(dynamodb, tbl):
    return Items(dynamodb, tbl)


# --------------------------------------------------------------------------
# SET
# --------------------------------------------------------------------------

def test_update_creates_missing_item(items):
    # UpdateItem on a key with no item creates the item from the key plus the updated attributes.
    k = key()
    items.update(k, "SET a = :a, b = :b", {":a": 1, ":b": "x"})
    assert items.get(k) == {"pk": k, "a": 1, "b": "x"}


def test_set_overwrites_and_adds(items):
    # SET replaces existing attributes (even changing their type) and adds new ones; others stay.
    k = items.put(a=1, b="keep", c=[1])
    assert items.updated(k, "SET a = :s, c = :m, d = :d", {":s": "now a string", ":m": {"x": 1},
                                                           ":d": True}) == {
        "a": "now a string", "b": "keep", "c": {"x": 1}, "d": True}


def test_set_all_types(items):
    # SET stores values of every attribute type.
    k = key()
    vals = {":s": "s", ":n": Decimal("-1.5"), ":b": b"\x00\xff", ":t": True, ":z": None,
            ":ss": {"x", "y"}, ":ns": {1, 2}, ":bs": {b"\x01"}, ":l": [1, "a", None],
            ":m": {"k": {"deep": [True]}}}
    items.update(k, "SET s = :s, n = :n, b = :b, t = :t, z = :z, ss = :ss, ns = :ns, bs = :bs, "
                    "l = :l, m = :m", vals)
    got = items.get(k)
    assert got == {"pk": k, "s": "s", "n": Decimal("-1.5"), "b": b"\x00\xff", "t": True, "z": None,
                   "ss": {"x", "y"}, "ns": {1, 2}, "bs": {b"\x01"}, "l": [1, "a", None],
                   "m": {"k": {"deep": [True]}}}


def test_set_swap_uses_old_values(items):
    # All SET right-hand sides are evaluated against the item before the update: SET a = b, b = a swaps.
    k = items.put(a="A", b="B")
    assert items.updated(k, "SET a = b, b = a") == {"a": "B", "b": "A"}


def test_set_reads_old_value_of_attribute_set_earlier(items):
    # SET a = :v, b = a copies the old value of a, not the new one.
    k = items.put(a=1)
    assert items.updated(k, "SET a = :v, b = a", {":v": 2}) == {"a": 2, "b": 1}


def test_set_copies_documents(items):
    # SET may copy a nested value or a whole map from another attribute.
    k = items.put(m={"x": {"y": [1, 2]}})
    assert items.updated(k, "SET c = m.x.y[1], d = m") == {
        "m": {"x": {"y": [1, 2]}}, "c": 2, "d": {"x": {"y": [1, 2]}}}


def test_set_with_names(items):
    # Names placeholders work for reserved words and for names containing dots or dashes.
    k = items.put()
    got = items.updated(k, "SET #s = :v, #d = :v, #dash = :v", {":v": 1},
                        {"#s": "status", "#d": "a.b", "#dash": "x-y"})
    assert got == {"status": 1, "a.b": 1, "x-y": 1}


def test_set_value_used_twice(items):
    # One value placeholder may be used for several attributes.
    k = items.put()
    assert items.updated(k, "SET a = :v, b = :v", {":v": "same"}) == {"a": "same", "b": "same"}


def test_keywords_lowercase_and_sections_in_any_order(items):
    # Section keywords are case-insensitive and the sections may come in any order.
    k = items.put(a=1, b=2, n=1, ss={"x", "y"})
    got = items.updated(k, "delete ss :x add n :one remove b set a = :v",
                        {":x": {"x"}, ":one": 1, ":v": "new"})
    assert got == {"a": "new", "n": 2, "ss": {"y"}}


# --------------------------------------------------------------------------
# Arithmetic
# --------------------------------------------------------------------------

@pytest.mark.parametrize("expr,before,values,expected", [
    ("SET n = n + :d", 5, {":d": 3}, 8),
    ("SET n = n - :d", 5, {":d": 8}, -3),
    ("SET n = :d - n", 5, {":d": 1}, -4),
    ("SET n = n + :d", Decimal("0.1"), {":d": Decimal("0.2")}, Decimal("0.3")),
    ("SET n = n - :d", Decimal("1.5"), {":d": Decimal("1.5")}, 0),
    ("SET n = n + :d", Decimal("12345678901234567890123456789012345677"), {":d": 1},
     Decimal("12345678901234567890123456789012345678")),
    ("SET n = :a + :b", 0, {":a": 2, ":b": 3}, 5),
], ids=["plus", "minus-negative", "value-minus-attr", "decimal-exact", "to-zero", "38-digits",
        "two-values"])
def test_arithmetic(items, expr, before, values, expected):
    # SET with + and - computes exactly in decimal (38 significant digits) and stores the canonical number.
    k = items.put(n=before)
    assert items.updated(k, expr, values)["n"] == expected


@pytest.mark.parametrize("a,b,expected", [
    ("1E+2", "0", "100"), ("1.10", "0", "1.1"), ("-0.5", "0.5", "0"), ("0.000", "-0.001", "-0.001"),
    ("99999999999999999999999999999999999999", "-99999999999999999999999999999999999998", "1"),
])
def test_arithmetic_result_is_canonical(dynamodb, tbl, a, b, expected):
    # Arithmetic results come back in the canonical number form (no exponent, no trailing zeros, no negative zero).
    k = key()
    dynamodb.update_item(TableName=tbl, Key={"pk": {"S": k}}, UpdateExpression="SET n = :a + :b, m = :a",
                         ExpressionAttributeValues={":a": {"N": a}, ":b": {"N": b}})
    dynamodb.update_item(TableName=tbl, Key={"pk": {"S": k}}, UpdateExpression="ADD m :b",
                         ExpressionAttributeValues={":b": {"N": b}})
    got = dynamodb.get_item(TableName=tbl, Key={"pk": {"S": k}}, ConsistentRead=True)["Item"]
    assert got["n"] == {"N": expected}
    assert got["m"] == {"N": expected}


def test_arithmetic_between_attributes(items):
    # Both operands of + may be attributes, including nested ones.
    k = items.put(a=2, m={"b": 40})
    assert items.updated(k, "SET t = a + m.b")["t"] == 42


OVERFLOW = ("Number overflow. Attempting to store a number with magnitude larger than supported "
            "range")


def test_arithmetic_overflow(dynamodb, tbl):
    # A result beyond the number range is rejected with DynamoDB's overflow text and nothing changes.
    big = "9.9999999999999999999999999999999999999E+125"
    k = key()
    ident = {"pk": {"S": k}}
    dynamodb.put_item(TableName=tbl, Item=dict(ident, n={"N": big}))
    for expr in ("SET n = n + :d", "ADD n :d"):
        with expect_error(VE, exact(OVERFLOW)):
            dynamodb.update_item(TableName=tbl, Key=ident, UpdateExpression=expr,
                                 ExpressionAttributeValues={":d": {"N": "1E+125"}})
    with expect_error(VE, exact(OVERFLOW)):
        dynamodb.update_item(TableName=tbl, Key=ident, UpdateExpression="SET m = :a - n",
                             ExpressionAttributeValues={":a": {"N": "-" + big}})
    got = dynamodb.get_item(TableName=tbl, Key=ident, ConsistentRead=True)["Item"]
    assert set(got) == {"pk", "n"} and Decimal(got["n"]["N"]) == Decimal(big)


def test_arithmetic_beyond_38_digits_rejected(dynamodb, tbl):
    # A sum that needs more than 38 significant digits (1E+50 + 1) is rejected; DynamoDB reports it with the overflow text.
    with expect_error(VE, exact(OVERFLOW)):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}}, UpdateExpression="SET n = :a + :b",
                             ExpressionAttributeValues={":a": {"N": "1E+50"}, ":b": {"N": "1"}})


def test_arithmetic_on_missing_attribute(items):
    # Arithmetic on an attribute the item does not have is an error, not 0.
    k = items.put(a=1)
    with expect_error(VE, exact("The provided expression refers to an attribute that does not exist "
                                "in the item")):
        items.update(k, "SET a = absent + :one", {":one": 1})
    with expect_error(VE, exact("The provided expression refers to an attribute that does not exist "
                                "in the item")):
        items.update(key(), "SET a = a + :one", {":one": 1})


def test_arithmetic_on_wrong_type_at_runtime(items):
    # Arithmetic on a non-number attribute is "An operand in the update expression has an incorrect data type".
    k = items.put(s="text", n=1)
    with expect_error(VE, exact("An operand in the update expression has an incorrect data type")):
        items.update(k, "SET n = s + :one", {":one": 1})
    assert items.get(k)["n"] == 1


def test_arithmetic_literal_type_checked_at_parse(items):
    # A non-number value placeholder in + or - is rejected up front, naming the short type code.
    with expect_error(VE, exact("Invalid UpdateExpression: Incorrect operand type for operator or "
                                "function; operator or function: +, operand type: S")):
        items.update(key(), "SET n = n + :s", {":s": "1"})
    with expect_error(VE, exact("Invalid UpdateExpression: Incorrect operand type for operator or "
                                "function; operator or function: -, operand type: L")):
        items.update(key(), "SET n = n - :l", {":l": [1]})


@pytest.mark.parametrize("expr", [
    "SET n = n + :o + :o", "set a", "remove a = b", "set :o = b", "set a = b * :o", 'set a[1] = "eight"',
    "SET if_not_exist(a, b) = a", "set (a = (b + c))", "set a = (b.c).d + e", "ADD a", "DELETE a, b",
    "SET a = :o REMOVE", "SET a[-1] = :o",
])
def test_update_syntax_errors(items, expr):
    # Malformed update expressions (two + operators, * , missing operands, quoted strings, ...) are syntax errors.
    values = {":o": 1} if ":o" in expr else None
    with expect_error(VE, "^Invalid UpdateExpression: Syntax error; token: "):
        items.update(key(), expr, values)


def test_parenthesised_arithmetic_operands(items):
    # Operands of + may be parenthesised.
    k = items.put(n=1)
    assert items.updated(k, "SET n = (n) + (:o)", {":o": 2})["n"] == 3


# --------------------------------------------------------------------------
# if_not_exists and list_append
# --------------------------------------------------------------------------

def test_if_not_exists_counter(items):
    # SET c = if_not_exists(c, :zero) + :one starts a missing counter at zero.
    k = key()
    for expected in (1, 2, 3):
        items.update(k, "SET c = if_not_exists(c, :zero) + :one", {":zero": 0, ":one": 1})
        assert items.get(k)["c"] == expected


def test_if_not_exists_keeps_existing(items):
    # if_not_exists only uses the default when the attribute is missing (a NULL attribute exists).
    k = items.put(created="first", z=None)
    got = items.updated(k, "SET created = if_not_exists(created, :t), z = if_not_exists(z, :t), "
                           "fresh = if_not_exists(fresh, :t)", {":t": "second"})
    assert got == {"created": "first", "z": None, "fresh": "second"}


def test_if_not_exists_nested(items):
    # if_not_exists works on nested paths, and its path may differ from the target.
    k = items.put(m={"x": 1})
    got = items.updated(k, "SET m.y = if_not_exists(m.y, :d), m.z = if_not_exists(m.x, :d)",
                        {":d": 9})
    assert got == {"m": {"x": 1, "y": 9, "z": 1}}


def test_if_not_exists_requires_path(items):
    # The first argument of if_not_exists must be a document path.
    with expect_error(VE, exact("Invalid UpdateExpression: Operator or function requires a document "
                                "path; operator or function: if_not_exists")):
        items.update(key(), "SET a = if_not_exists(:v, a)", {":v": 1})


def test_if_not_exists_operand_count(items):
    # if_not_exists takes exactly two operands.
    with expect_error(VE, exact("Invalid UpdateExpression: Incorrect number of operands for operator or "
                                "function; operator or function: if_not_exists, number of operands: 1")):
        items.update(key(), "SET a = if_not_exists(a)")


def test_list_append(items):
    # list_append appends or prepends (its arguments may be values or paths).
    k = items.put(l=[1, 2])
    assert items.updated(k, "SET l = list_append(l, :v)", {":v": [3, 4]})["l"] == [1, 2, 3, 4]
    assert items.updated(k, "SET l = list_append(:v, l)", {":v": ["a"]})["l"] == ["a", 1, 2, 3, 4]
    assert items.updated(k, "SET c = list_append(l, l)")["c"] == ["a", 1, 2, 3, 4] * 2
    assert items.updated(k, "SET d = list_append(:a, :b)", {":a": [], ":b": [None]})["d"] == [None]


def test_list_append_with_if_not_exists(items):
    # list_append(if_not_exists(l, :empty), :v) creates the list on first use.
    k = key()
    items.update(k, "SET l = list_append(if_not_exists(l, :empty), :v)", {":empty": [], ":v": ["a"]})
    items.update(k, "SET l = list_append(if_not_exists(l, :empty), :v)", {":empty": [], ":v": ["b"]})
    assert items.get(k)["l"] == ["a", "b"]


def test_list_append_missing_attribute(items):
    # list_append on an attribute that does not exist is an error.
    k = items.put()
    with expect_error(VE, exact("The provided expression refers to an attribute that does not exist "
                                "in the item")):
        items.update(k, "SET l = list_append(l, :v)", {":v": [1]})


def test_list_append_wrong_type(items):
    # list_append on a non-list attribute fails at runtime; with a non-list value at parse time.
    k = items.put(s="x")
    with expect_error(VE, exact("An operand in the update expression has an incorrect data type")):
        items.update(k, "SET l = list_append(s, :v)", {":v": [1]})
    with expect_error(VE, exact("Invalid UpdateExpression: Incorrect operand type for operator or "
                                "function; operator or function: list_append, operand type: S")):
        items.update(k, "SET l = list_append(l, :v)", {":v": "x"})


def test_condition_function_in_set_rejected(items):
    # Condition functions such as size() or attribute_exists() are not update operands.
    for expr in ("SET a = size(b)", "SET a = attribute_exists(b)"):
        with expect_error(VE, "^Invalid UpdateExpression: "):
            items.update(key(), expr)


def test_unknown_update_function(items):
    # Unknown functions in SET are rejected by name.
    with expect_error(VE, exact("Invalid UpdateExpression: Invalid function name; function: append")):
        items.update(key(), "SET l = append(l, :v)", {":v": [1]})


# --------------------------------------------------------------------------
# Nested documents and list indexes
# --------------------------------------------------------------------------

def test_set_nested_map_paths(items):
    # SET on nested map paths adds or replaces only those entries.
    k = items.put(m={"x": 1, "y": {"z": "deep", "keep": True}, "l": [0]})
    got = items.updated(k, "SET m.a = :a, m.y.z = :z, m.l[0] = :z, #m.#new = :a",
                        {":a": 1, ":z": "new"}, {"#m": "m", "#new": "n-e-w"})
    assert got == {"m": {"x": 1, "a": 1, "n-e-w": 1, "y": {"z": "new", "keep": True}, "l": ["new"]}}


@pytest.mark.parametrize("expr", [
    "SET absent.x = :v",
    "SET s.x = :v",
    "SET m[0] = :v",
    "SET l.x = :v",
    "SET m.absent.x = :v",
    "SET l[0].x = :v",
    "SET s[0] = :v",
    "ADD m.absent.x :one",
])
def test_invalid_document_path_for_update(items, expr):
    # Updating below a missing parent, into a scalar, a list index on a map or a key on a list fails and changes nothing.
    k = items.put(s="str", m={"x": 1}, l=[1])
    values = {":one": 1} if ":one" in expr else {":v": 1}
    with expect_error(VE, exact("The document path provided in the update expression is invalid for "
                                "update")):
        items.update(k, expr, values)
    assert items.get(k) == {"pk": k, "s": "str", "m": {"x": 1}, "l": [1]}


def test_remove_nested(items):
    # REMOVE of nested map entries and list elements; removing absent ones is a no-op.
    k = items.put(m={"x": 1, "y": {"z": 2, "w": 3}}, l=[[1, 2], 3])
    got = items.updated(k, "REMOVE m.y.z, m.absent, l[0][1], l[7]")
    assert got == {"m": {"x": 1, "y": {"w": 3}}, "l": [[1], 3]}


def test_set_list_element(items):
    # SET l[i] replaces an existing element.
    k = items.put(l=["a", "b", "c"])
    assert items.updated(k, "SET l[1] = :v", {":v": "B"})["l"] == ["a", "B", "c"]


def test_set_list_index_beyond_end_appends(items):
    # SET l[i] with i past the end appends; several such indexes append in index order.
    k = items.put(l=["a", "b", "c"], m={"l": []})
    assert items.updated(k, "SET l[10] = :x", {":x": "x"})["l"] == ["a", "b", "c", "x"]
    got = items.updated(k, "SET l[9] = :y, l[7] = :x, m.l[3] = :x", {":x": "x7", ":y": "y9"})
    assert got == {"l": ["a", "b", "c", "x", "x7", "y9"], "m": {"l": ["x7"]}}


def test_composite_nested_update_with_updated_new(items):
    # One update mixing nested SET, parenthesised arithmetic, list replacement, list appends from SET and ADD (placed by index), all reading the old item; UPDATED_NEW packs the touched list elements.
    k = items.put(b={"a": 1, "b": 2, "c": 3}, c=[1, 3])
    got = items.update(k, "set b.c=((c[1])+(b.a)),b.a = pk,c[1] = pk, c[4] = b.a - b.b, c[2] = b.c "
                          "add c[8] :b, c[6] :a", {":a": 2, ":b": {"a"}}, ReturnValues="UPDATED_NEW")
    assert got == {"b": {"a": k, "c": 4}, "c": [k, 3, 2]}
    assert items.get(k) == {"pk": k, "b": {"a": k, "b": 2, "c": 4}, "c": [1, k, 3, -1, 2, {"a"}]}


def test_key_attribute_readable_on_new_item(items):
    # On an upsert the key attributes are part of the item the right-hand sides read.
    k = key()
    assert items.update(k, "SET b = if_not_exists(b, pk), c = pk", ReturnValues="UPDATED_NEW") == {
        "b": k, "c": k}


def test_remove_list_elements_close_up(items):
    # REMOVE of several list elements uses the original positions and the list closes up.
    k = items.put(l=["a", "b", "c", "d", "e"])
    assert items.updated(k, "REMOVE l[3], l[0], l[2]")["l"] == ["b", "e"]


def test_remove_and_set_same_list_different_indexes(items):
    # SET l[1] and REMOVE l[0] in one update both refer to the original positions.
    k = items.put(l=["a", "b", "c"])
    assert items.updated(k, "SET l[1] = :v REMOVE l[0]", {":v": "B"})["l"] == ["B", "c"]


def test_remove_top_level(items):
    # REMOVE deletes attributes; absent ones are ignored; the item itself stays.
    k = items.put(a=1, b=2)
    assert items.updated(k, "REMOVE a, b, absent") == {}


# --------------------------------------------------------------------------
# ADD and DELETE
# --------------------------------------------------------------------------

def test_add_number(items):
    # ADD on a missing number starts from 0; negative and decimal increments work.
    k = key()
    items.update(k, "ADD n :v", {":v": 5})
    items.update(k, "ADD n :v", {":v": Decimal("-7.5")})
    assert items.get(k)["n"] == Decimal("-2.5")


def test_add_to_sets(items):
    # ADD creates a missing set and unions into an existing one (numbers by value).
    k = items.put(ns={1, 2})
    got = items.updated(k, "ADD ss :ss, ns :ns, bs :bs",
                        {":ss": {"a", "b"}, ":ns": {Decimal("2.0"), 3}, ":bs": {b"\x01"}})
    assert got == {"ss": {"a", "b"}, "ns": {1, 2, 3}, "bs": {b"\x01"}}
    got = items.updated(k, "ADD ss :ss", {":ss": {"b", "c"}})
    assert got["ss"] == {"a", "b", "c"}


def test_add_nested(items):
    # ADD works on nested paths whose parent exists.
    k = items.put(m={"hits": 1})
    got = items.updated(k, "ADD m.hits :one, m.tags :t", {":one": 1, ":t": {"x"}})
    assert got == {"m": {"hits": 2, "tags": {"x"}}}


@pytest.mark.parametrize("value,type_name", [
    ("x", "STRING"), ({"a": 1}, "MAP"), ([1], "LIST"), (True, "BOOLEAN"),
])
def test_add_value_type_checked(items, value, type_name):
    # ADD accepts only numbers and sets; other value types are rejected naming the long type name.
    with expect_error(VE, exact("Invalid UpdateExpression: Incorrect operand type for operator or "
                                "function; operator: ADD, operand type: " + type_name)):
        items.update(key(), "ADD a :v", {":v": value})


def test_add_runtime_type_mismatch(items):
    # ADD of a number to a non-number, or of a set to a set of another type, fails at runtime.
    k = items.put(s="x", ss={"a"}, m={})
    for expr, value in (("ADD s :v", 1), ("ADD ss :v", {1}), ("ADD m :v", 1), ("ADD ss :v", 1)):
        with expect_error(VE, exact("An operand in the update expression has an incorrect data type")):
            items.update(k, expr, {":v": value})
    assert items.get(k) == {"pk": k, "s": "x", "ss": {"a"}, "m": {}}


def test_delete_from_set(items):
    # DELETE removes the given elements (numbers by value); absent elements are ignored.
    k = items.put(ss={"a", "b", "c"}, ns={1, 2, 3})
    got = items.updated(k, "DELETE ss :s, ns :n", {":s": {"a", "zzz"}, ":n": {Decimal("2.0")}})
    assert got == {"ss": {"b", "c"}, "ns": {1, 3}}


def test_delete_last_elements_removes_attribute(items):
    # DELETE that empties a set removes the attribute; DELETE on an absent attribute is a no-op.
    k = items.put(ss={"a", "b"}, keep=1)
    assert items.updated(k, "DELETE ss :s, absent :s", {":s": {"a", "b"}}) == {"keep": 1}


@pytest.mark.parametrize("value,type_name", [(1, "NUMBER"), ("x", "STRING"), ([1], "LIST")])
def test_delete_value_type_checked(items, value, type_name):
    # DELETE accepts only set values; others are rejected naming the long type name.
    with expect_error(VE, exact("Invalid UpdateExpression: Incorrect operand type for operator or "
                                "function; operator: DELETE, operand type: " + type_name)):
        items.update(key(), "DELETE a :v", {":v": value})


def test_delete_runtime_type_mismatch(items):
    # DELETE of a string set from a number set (or from a non-set) fails at runtime.
    k = items.put(ns={1, 2}, s="x")
    with expect_error(VE, exact("An operand in the update expression has an incorrect data type")):
        items.update(k, "DELETE ns :v", {":v": {"1"}})
    with expect_error(VE, exact("An operand in the update expression has an incorrect data type")):
        items.update(k, "DELETE s :v", {":v": {"x"}})
    assert items.get(k)["ns"] == {1, 2}


# --------------------------------------------------------------------------
# Parse-time errors
# --------------------------------------------------------------------------

def test_section_used_twice(items):
    # Each section keyword may appear only once.
    with expect_error(VE, exact('Invalid UpdateExpression: The "SET" section can only be used once in '
                                'an update expression;')):
        items.update(key(), "SET a = :v SET b = :v", {":v": 1})
    with expect_error(VE, exact('Invalid UpdateExpression: The "REMOVE" section can only be used once '
                                'in an update expression;')):
        items.update(key(), "REMOVE a SET b = :v REMOVE c", {":v": 1})


def test_overlapping_paths(items):
    # Two actions on the same path, or on a path and its parent, are rejected (earlier path first).
    with expect_error(VE, exact("Invalid UpdateExpression: Two document paths overlap with each other; "
                                "must remove or rewrite one of these paths; path one: [a], path two: "
                                "[a, b]")):
        items.update(key(), "SET a = :v, a.b = :v", {":v": 1})
    with expect_error(VE, exact("Invalid UpdateExpression: Two document paths overlap with each other; "
                                "must remove or rewrite one of these paths; path one: [a], path two: "
                                "[a]")):
        items.update(key(), "SET a = :v REMOVE a", {":v": 1})
    with expect_error(VE, exact("Invalid UpdateExpression: Two document paths overlap with each other; "
                                "must remove or rewrite one of these paths; path one: [c, [1], a], "
                                "path two: [c, [1]]")):
        items.update(key(), "SET c[1].a = :v ADD c[1] :v", {":v": 1})


def test_overlap_uses_resolved_names(items):
    # Names are compared after substitution: #a and a overlap, while #d = "a.b" is a different attribute from a.b.
    with expect_error(VE, exact("Invalid UpdateExpression: Two document paths overlap with each other; "
                                "must remove or rewrite one of these paths; path one: [a], path two: "
                                "[a]")):
        items.update(key(), "SET #a = :v, a = :v", {":v": 1}, {"#a": "a"})
    k = items.put(a={"b": 0})
    assert items.updated(k, "SET #d = :v, a.b = :v", {":v": 1}, {"#d": "a.b"}) == {
        "a.b": 1, "a": {"b": 1}}


def test_conflicting_paths(items):
    # A map key and a list index below the same prefix conflict.
    with expect_error(VE, exact("Invalid UpdateExpression: Two document paths conflict with each other; "
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
    with expect_error(VE, exact("Invalid UpdateExpression: The expression can not be empty;")):
        items.update(key(), "")


def test_update_expression_undefined_and_unused_placeholders(items):
    # Undefined and unused placeholders are reported for UpdateExpression as for conditions.
    with expect_error(VE, exact("Invalid UpdateExpression: An expression attribute value used in "
                                "expression is not defined; attribute value: :v")):
        items.update(key(), "SET a = :v")
    with expect_error(VE, exact("Invalid UpdateExpression: An expression attribute name used in the "
                                "document path is not defined; attribute name: #n")):
        items.update(key(), "SET #n = :v", {":v": 1})
    with expect_error(VE, exact("Value provided in ExpressionAttributeValues unused in expressions: "
                                "keys: {:u}")):
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


# --------------------------------------------------------------------------
# Legacy AttributeUpdates
# --------------------------------------------------------------------------

def legacy(items, k, updates, **kwargs):
    resp = items.db.update_item(TableName=items.table, Key={"pk": {"S": k}},
                                AttributeUpdates=updates, **kwargs)
    return plain(resp["Attributes"]) if "Attributes" in resp else None


def act(action, value=None):
    u = {"Action": action}
    if value is not None:
        u["Value"] = av(value)
    return u


def test_legacy_put_add_delete(items):
    # AttributeUpdates PUT/ADD/DELETE: PUT replaces, ADD increments numbers and unions sets, DELETE without a value removes the attribute.
    k = items.put(a=1, n=5, ss={"x"}, gone="bye")
    got = legacy(items, k, {"a": act("PUT", "A"), "n": act("ADD", -2), "ss": act("ADD", {"y"}),
                            "new": act("ADD", 3), "gone": act("DELETE")}, ReturnValues="ALL_NEW")
    assert got == {"pk": k, "a": "A", "n": 3, "ss": {"x", "y"}, "new": 3}


def test_legacy_delete_set_elements(items):
    # AttributeUpdates DELETE with a set value removes those elements; emptying the set removes the attribute.
    k = items.put(ss={"a", "b"}, ns={1, 2})
    legacy(items, k, {"ss": act("DELETE", {"a"}), "ns": act("DELETE", {1, 2})})
    assert items.get(k) == {"pk": k, "ss": {"b"}}


def test_legacy_add_to_list_appends(items):
    # AttributeUpdates ADD with a list appends to the existing list (or creates it).
    k = items.put(l=[1])
    legacy(items, k, {"l": act("ADD", [2, 3]), "l2": act("ADD", ["x"])})
    assert items.get(k) == {"pk": k, "l": [1, 2, 3], "l2": ["x"]}


def test_legacy_creates_item_and_returns_updated(items):
    # AttributeUpdates on a missing item creates it; UPDATED_OLD returns the previous values of updated attributes.
    k = key()
    assert legacy(items, k, {"n": act("ADD", 1)}, ReturnValues="UPDATED_NEW") == {"n": 1}
    assert legacy(items, k, {"n": act("ADD", 1), "s": act("PUT", "x")},
                  ReturnValues="UPDATED_OLD") == {"n": 1}
    assert items.get(k) == {"pk": k, "n": 2, "s": "x"}


def test_legacy_with_expected(items):
    # AttributeUpdates combined with Expected applies only when the expectation holds.
    k = items.put(v=1)
    with expect_error(CCF):
        legacy(items, k, {"v": act("PUT", 3)}, Expected={"v": {"Value": av(2)}})
    legacy(items, k, {"v": act("PUT", 3)}, Expected={"v": {"Value": av(1)}})
    assert items.get(k)["v"] == 3


def test_legacy_type_mismatch(items):
    # ADD of a number set to a string set is "Type mismatch for attribute to update".
    k = items.put(ss={"a"})
    with expect_error(VE, exact("Type mismatch for attribute to update")):
        legacy(items, k, {"ss": act("ADD", {1})})


@pytest.mark.parametrize("update,message", [
    (act("PUT"), "Only DELETE action is allowed when no attribute value is specified"),
    (act("ADD"), "Only DELETE action is allowed when no attribute value is specified"),
    (act("ADD", "x"), "ADD action is not supported for the type S"),
    (act("ADD", {"m": 1}), "ADD action is not supported for the type M"),
    (act("DELETE", 1), "DELETE action with value is not supported for the type N"),
    (act("DELETE", "x"), "DELETE action with value is not supported for the type S"),
], ids=["put-no-value", "add-no-value", "add-S", "add-M", "delete-N", "delete-S"])
def test_legacy_action_validation(items, update, message):
    # Invalid AttributeUpdates actions are rejected with DynamoDB's texts.
    with expect_error(VE, exact("One or more parameter values were invalid: " + message)):
        legacy(items, key(), {"a": update})


def test_legacy_cannot_update_key(dynamodb, tbl):
    # AttributeUpdates on the key attribute is rejected.
    with expect_error(VE, exact("One or more parameter values were invalid: Cannot update attribute pk. "
                                "This attribute is part of the key")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}},
                             AttributeUpdates={"pk": {"Action": "PUT", "Value": {"S": "x"}}})


# --------------------------------------------------------------------------
# Application patterns (boto3 resource API)
# --------------------------------------------------------------------------

def test_optimistic_locking(dynamodb_resource, tbl):
    # Optimistic locking: each writer updates only if the version it read is still current, bumping it; a stale writer fails.
    table = dynamodb_resource.Table(tbl)
    k = key()
    table.put_item(Item={"pk": k, "version": 1, "body": "v1"},
                   ConditionExpression=Attr("pk").not_exists())
    seen = table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]
    stale = dict(seen)

    def save(doc, body):
        return table.update_item(
            Key={"pk": k}, UpdateExpression="SET body = :b, version = version + :one",
            ConditionExpression=Attr("version").eq(doc["version"]),
            ExpressionAttributeValues={":b": body, ":one": 1}, ReturnValues="ALL_NEW")["Attributes"]

    seen = save(seen, "v2")
    assert seen["version"] == 2 and seen["body"] == "v2"
    with pytest.raises(ClientError) as err:
        save(stale, "lost update")
    assert err.value.response["Error"]["Code"] == CCF
    assert table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"] == {
        "pk": k, "version": 2, "body": "v2"}


def test_counters(dynamodb_resource, tbl):
    # Counters with ADD return their new value through UPDATED_NEW; several counters in one map.
    table = dynamodb_resource.Table(tbl)
    k = key()
    values = [table.update_item(Key={"pk": k}, UpdateExpression="ADD #v :one",
                                ExpressionAttributeNames={"#v": "views"},
                                ExpressionAttributeValues={":one": 1},
                                ReturnValues="UPDATED_NEW")["Attributes"]["views"]
              for _ in range(5)]
    assert values == [1, 2, 3, 4, 5]
    table.update_item(Key={"pk": k}, UpdateExpression="SET stats = if_not_exists(stats, :empty)",
                      ExpressionAttributeValues={":empty": {}})
    for day in ("mon", "tue", "mon"):
        table.update_item(Key={"pk": k}, UpdateExpression="SET stats.#d = if_not_exists(stats.#d, :z) + :one",
                          ExpressionAttributeNames={"#d": day},
                          ExpressionAttributeValues={":z": 0, ":one": 1})
    item = table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]
    assert item["stats"] == {"mon": 2, "tue": 1}
    # a decrement that must not go below zero
    table.update_item(Key={"pk": k}, UpdateExpression="SET stock = :n", ExpressionAttributeValues={":n": 1})
    table.update_item(Key={"pk": k}, UpdateExpression="SET stock = stock - :one",
                      ConditionExpression=Attr("stock").gte(1), ExpressionAttributeValues={":one": 1})
    with pytest.raises(ClientError) as err:
        table.update_item(Key={"pk": k}, UpdateExpression="SET stock = stock - :one",
                          ConditionExpression=Attr("stock").gte(1), ExpressionAttributeValues={":one": 1})
    assert err.value.response["Error"]["Code"] == CCF
    assert table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]["stock"] == 0


def test_set_membership(dynamodb_resource, tbl):
    # Tag sets: ADD/DELETE members, conditional add only when not yet a member, removal of the last member drops the attribute.
    table = dynamodb_resource.Table(tbl)
    k = key()
    table.update_item(Key={"pk": k}, UpdateExpression="ADD tags :t", ExpressionAttributeValues={":t": {"red"}})
    table.update_item(Key={"pk": k}, UpdateExpression="ADD tags :t",
                      ConditionExpression=~Attr("tags").contains("blue"),
                      ExpressionAttributeValues={":t": {"blue"}})
    with pytest.raises(ClientError) as err:
        table.update_item(Key={"pk": k}, UpdateExpression="ADD tags :t",
                          ConditionExpression=~Attr("tags").contains("blue"),
                          ExpressionAttributeValues={":t": {"blue"}})
    assert err.value.response["Error"]["Code"] == CCF
    assert table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]["tags"] == {"red", "blue"}
    resp = table.update_item(Key={"pk": k}, UpdateExpression="DELETE tags :t",
                             ExpressionAttributeValues={":t": {"red"}}, ReturnValues="UPDATED_NEW")
    assert resp["Attributes"] == {"tags": {"blue"}}
    resp = table.update_item(Key={"pk": k}, UpdateExpression="DELETE tags :t",
                             ExpressionAttributeValues={":t": {"blue"}}, ReturnValues="ALL_NEW")
    assert resp["Attributes"] == {"pk": k}


def test_nested_document_updates(dynamodb_resource, tbl):
    # A user profile edited piecemeal: nested fields, a map of preferences, a capped history list, and removal of a nested key.
    table = dynamodb_resource.Table(tbl)
    k = key()
    table.put_item(Item={"pk": k, "profile": {"address": {"city": "Oslo", "zip": "0150"},
                                              "prefs": {}}, "history": []})
    table.update_item(
        Key={"pk": k},
        UpdateExpression="SET profile.address.city = :city, profile.prefs.#lang = :lang, "
                         "history = list_append(history, :event) REMOVE profile.address.zip",
        ExpressionAttributeNames={"#lang": "language"},
        ExpressionAttributeValues={":city": "Bergen", ":lang": "nb", ":event": [{"moved": "Bergen"}]})
    for i in range(4):
        table.update_item(Key={"pk": k},
                          UpdateExpression="SET history = list_append(history, :event)",
                          ExpressionAttributeValues={":event": [{"n": i}]})
    # keep the history to its last 3 entries
    table.update_item(Key={"pk": k}, UpdateExpression="REMOVE history[0], history[1]",
                      ConditionExpression=Attr("history").size().gt(3))
    item = table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]
    assert item == {"pk": k, "profile": {"address": {"city": "Bergen"}, "prefs": {"language": "nb"}},
                    "history": [{"n": 1}, {"n": 2}, {"n": 3}]}
    got = table.get_item(Key={"pk": k}, ProjectionExpression="profile.address.city, history[2].n",
                         ConsistentRead=True)["Item"]
    assert got == {"profile": {"address": {"city": "Bergen"}}, "history": [{"n": 3}]}
