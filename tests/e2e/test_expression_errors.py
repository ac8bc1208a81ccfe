"""Expression errors with DynamoDB's exact texts: syntax errors (the token
and what it is near), reserved words, unknown functions and wrong operands,
redundant parentheses, BETWEEN bounds, the IN operand limit and the
expression size limit; and the hygiene of ExpressionAttributeNames and
ExpressionAttributeValues (undefined, unused, empty, invalid keys and
values, expression and non-expression parameters mixed)."""

import pytest

from .e2e_util import exact, expect_error, key
from .expressions_util import CCF, N1, VE
from .expressions_util import tbl  # fixtures

# UpdateItem words its UpdateExpression errors in the envelope (2026-08).
ENVELOPE = "1 validation error detected: "


def put_cond(dynamodb, table, cond, values=None, names=None, k=None):
    kwargs = {"ConditionExpression": cond}
    if values is not None:
        kwargs["ExpressionAttributeValues"] = values
    if names is not None:
        kwargs["ExpressionAttributeNames"] = names
    return dynamodb.put_item(TableName=table, Item={"pk": {"S": k or key()}}, **kwargs)


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
    with expect_error(VE, exact(ENVELOPE + 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: ","')):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}}, UpdateExpression="SET a = :v,",
                             ExpressionAttributeValues={":v": N1})


def test_update_syntax_error_first_token(dynamodb, tbl):
    # With no previous token, "near" starts at the offending token and keeps the original whitespace.
    with expect_error(VE, exact(ENVELOPE + 'Invalid UpdateExpression: Syntax error; token: "INVALID", '
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
    with expect_error(VE, exact(ENVELOPE + "Invalid UpdateExpression: Attribute name is a reserved keyword; "
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
    # An empty ConditionExpression is rejected; PutItem and DeleteItem answer
    # inside the validation envelope (captured 2026-10).
    with expect_error(VE, exact("1 validation error detected: Invalid ConditionExpression: The "
                                "expression can not be empty;")):
        put_cond(dynamodb, tbl, "")


def test_ordering_with_unsupported_literal_type_rejected(dynamodb, tbl):
    # An ordering comparison with a list literal is a ValidationException, not a failed condition.
    with expect_error(VE):
        put_cond(dynamodb, tbl, "a < :v", {":v": {"L": [N1]}})


# --------------------------------------------------------------------------
# Placeholder hygiene
# --------------------------------------------------------------------------

def test_undefined_value(dynamodb, tbl):
    # A :value used but not supplied is reported (the first one, left to right);
    # beside defined values, inside the validation envelope (captured 2026-10).
    with expect_error(VE, exact("1 validation error detected: Invalid ConditionExpression: An "
                                "expression attribute value used in expression is not defined; "
                                "attribute value: :v")):
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
    # A supplied :value that no expression uses is rejected; PutItem answers
    # inside the envelope (2026-08; bare here before).
    with expect_error(VE, exact(ENVELOPE + "Value provided in ExpressionAttributeValues unused in expressions: "
                                "keys: {:u}")):
        put_cond(dynamodb, tbl, "a = :v", {":v": N1, ":u": N1})


def test_unused_values_listed(dynamodb, tbl):
    # Several unused values are all listed (in any order).
    with expect_error(VE, r"^1 validation error detected: Value provided in "
                          r"ExpressionAttributeValues unused in expressions: "
                          r"keys: \{(:u, :w|:w, :u)\}$"):
        put_cond(dynamodb, tbl, "a = :v", {":v": N1, ":u": N1, ":w": N1})


def test_unused_name(dynamodb, tbl):
    # A supplied #name that no expression uses is rejected; names are checked before values.
    with expect_error(VE, exact(ENVELOPE + "Value provided in ExpressionAttributeNames unused in "
                                "expressions: keys: {#u}")):
        put_cond(dynamodb, tbl, "attribute_exists(#a)", names={"#a": "a", "#u": "u"})
    with expect_error(VE, exact(ENVELOPE + "Value provided in ExpressionAttributeNames unused in "
                                "expressions: keys: {#u}")):
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
    # PutItem and DeleteItem answer inside the validation envelope (captured 2026-10).
    with expect_error(VE, exact("1 validation error detected: ExpressionAttributeNames must not be "
                                "empty")):
        put_cond(dynamodb, tbl, "attribute_not_exists(a)", names={})
    with expect_error(VE, exact("1 validation error detected: ExpressionAttributeValues must not be "
                                "empty")):
        put_cond(dynamodb, tbl, "attribute_not_exists(a)", values={})
    # UpdateItem's too (2026-08; bare here before).
    with expect_error(VE, exact(ENVELOPE + "ExpressionAttributeValues must not be empty")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}}, UpdateExpression="REMOVE a",
                             ExpressionAttributeValues={})


def test_maps_without_expressions_rejected(dynamodb, tbl):
    # Names or values given without any expression that could use them are
    # rejected; DynamoDB's current text names no missing expression. PutItem
    # and DeleteItem answer inside the validation envelope (captured 2026-10).
    enveloped = "1 validation error detected: "
    with expect_error(VE, exact("ExpressionAttributeNames can only be specified when using expressions")):
        dynamodb.get_item(TableName=tbl, Key={"pk": {"S": key()}}, ExpressionAttributeNames={"#a": "a"})
    with expect_error(VE, exact(enveloped + "ExpressionAttributeNames can only be specified when "
                                "using expressions")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, ExpressionAttributeNames={"#a": "a"})
    with expect_error(VE, exact(enveloped + "ExpressionAttributeValues can only be specified when "
                                "using expressions")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}}, ExpressionAttributeValues={":v": N1})
    with expect_error(VE, exact(enveloped + "ExpressionAttributeValues can only be specified when "
                                "using expressions")):
        dynamodb.delete_item(TableName=tbl, Key={"pk": {"S": key()}},
                             ExpressionAttributeValues={":v": N1})
    with expect_error(VE, exact("ExpressionAttributeValues can only be specified when using expressions")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}},
                             ExpressionAttributeValues={":v": N1})


def test_invalid_placeholder_keys(dynamodb, tbl):
    # Map keys must look like placeholders: names start with #, values with :.
    with expect_error(VE, exact('ExpressionAttributeNames contains invalid key: Syntax error; key: "a"')):
        put_cond(dynamodb, tbl, "attribute_not_exists(a)", names={"a": "a"})
    with expect_error(VE, exact('ExpressionAttributeValues contains invalid key: Syntax error; key: "v"')):
        put_cond(dynamodb, tbl, "attribute_not_exists(a)", values={"v": N1})


def test_invalid_value_in_map(dynamodb, tbl):
    # An invalid attribute value in ExpressionAttributeValues: PutItem words it
    # in its envelope; Scan (the older layer) names its key (test_value_layers.py).
    empty = "One or more parameter values were invalid: An string set  may not be empty"
    with expect_error(VE, exact("1 validation error detected: " + empty)):
        put_cond(dynamodb, tbl, "a = :v", {":v": {"SS": []}})
    with expect_error(VE, exact("ExpressionAttributeValues contains invalid value: " + empty +
                                " for key :v")):
        dynamodb.scan(TableName=tbl, FilterExpression="a = :v",
                      ExpressionAttributeValues={":v": {"SS": []}})


def test_mixing_expected_and_condition_expression(dynamodb, tbl):
    # Expected and ConditionExpression may not be combined.
    with expect_error(VE, exact("Can not use both expression and non-expression parameters in the same "
                                "request: Non-expression parameters: {Expected} Expression parameters: "
                                "{ConditionExpression}")):
        dynamodb.put_item(TableName=tbl, Item={"pk": {"S": key()}},
                          Expected={"a": {"Exists": False}}, ConditionExpression="attribute_not_exists(a)")
