"""UpdateExpression actions: SET (every type, old values on the right-hand
side, names placeholders), arithmetic (canonical results, overflow,
runtime and parse-time type checks), if_not_exists and list_append,
nested map paths and list indexes, REMOVE, and ADD and DELETE on numbers
and sets, with DynamoDB's error texts for each."""

from decimal import Decimal

import pytest

from .e2e_util import exact, expect_error, key
from .update_item_util import VE
from .update_item_util import items, tbl  # fixtures

# UpdateItem words its UpdateExpression errors in the envelope (2026-08).
ENVELOPE = "1 validation error detected: "


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
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Incorrect operand type for operator or "
                                "function; operator or function: +, operand type: S")):
        items.update(key(), "SET n = n + :s", {":s": "1"})
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Incorrect operand type for operator or "
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
    with expect_error(VE, "^1 validation error detected: Invalid UpdateExpression: Syntax error; token: "):
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
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Operator or function requires a document "
                                "path; operator or function: if_not_exists")):
        items.update(key(), "SET a = if_not_exists(:v, a)", {":v": 1})


def test_if_not_exists_operand_count(items):
    # if_not_exists takes exactly two operands.
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Incorrect number of operands for operator or "
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
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Incorrect operand type for operator or "
                                "function; operator or function: list_append, operand type: S")):
        items.update(k, "SET l = list_append(l, :v)", {":v": "x"})


def test_condition_function_in_set_rejected(items):
    # Condition functions such as size() or attribute_exists() are not update operands.
    for expr in ("SET a = size(b)", "SET a = attribute_exists(b)"):
        with expect_error(VE, "^1 validation error detected: Invalid UpdateExpression: "):
            items.update(key(), expr)


def test_unknown_update_function(items):
    # Unknown functions in SET are rejected by name.
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Invalid function name; function: append")):
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
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Incorrect operand type for operator or "
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
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Incorrect operand type for operator or "
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
