"""ProjectionExpression and the legacy AttributesToGet on GetItem:
top-level names, nested map and list paths, names placeholders, nothing
found, and the errors for overlapping, conflicting, reserved, empty and
malformed projections; the resource API's projected Python values."""

from .e2e_util import exact, expect_error, plain
from .expressions_util import VE
from .expressions_util import rich_key, tbl  # fixtures


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


def test_resource_projection(dynamodb_resource, tbl, rich_key):
    # Table.get_item with a ProjectionExpression and names returns Python values of the projected parts.
    table = dynamodb_resource.Table(tbl)
    got = table.get_item(Key={"pk": rich_key}, ProjectionExpression="#m.x, ss, l[0]",
                         ExpressionAttributeNames={"#m": "m"}, ConsistentRead=True)["Item"]
    assert got == {"m": {"x": 1}, "ss": {"a", "b"}, "l": [1]}
