"""Query and Scan: key conditions (expression and legacy KeyConditions),
sort-key order for S, N and B, ScanIndexForward, FilterExpression after
Limit, Select, ProjectionExpression, pagination walks (also while another
client writes), the 1 MB page cap, parallel scan segments, and the exact
DynamoDB error texts."""

import threading
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key

from .e2e_util import (av, avs, exact, expect_error, make_client, plain,
                       unique_name)

VE = "ValidationException"
RNF = "ResourceNotFoundException"


@pytest.fixture(scope="module")
def str_tbl(tables):
    """pk (S) + sk (S)."""
    return tables(range_key=("sk", "S"), prefix="qs-s")


@pytest.fixture(scope="module")
def num_tbl(tables):
    """pk (S) + sk (N)."""
    return tables(range_key=("sk", "N"), prefix="qs-n")


@pytest.fixture(scope="module")
def bin_tbl(tables):
    """pk (S) + sk (B)."""
    return tables(range_key=("sk", "B"), prefix="qs-b")


@pytest.fixture(scope="module")
def hash_tbl(tables):
    """pk (S) only."""
    return tables(prefix="qs-h")


@pytest.fixture(scope="module")
def idx_tbl(tables):
    """pk/sk (S) with a KEYS_ONLY GSI on g, an INCLUDE GSI on g/sk and a
    KEYS_ONLY LSI on l."""
    return tables(
        prefix="qs-i",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"},
                              {"AttributeName": "l", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[
            {"IndexName": "by_g_keys", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
            {"IndexName": "by_g_inc", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                                    {"AttributeName": "sk", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["inc"]}},
        ],
        LocalSecondaryIndexes=[
            {"IndexName": "by_l", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                {"AttributeName": "l", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
        ])


def part():
    """A fresh partition key value."""
    return unique_name("p")


def put_all(db, table, items):
    for item in items:
        db.put_item(TableName=table, Item=avs(item))


def query(db, table, pk, cond=None, values=None, **kwargs):
    """Query partition `pk` with an optional sort condition on sk; returns the response."""
    expr = "pk = :pk" + (" AND " + cond if cond else "")
    vals = {":pk": pk}
    vals.update(values or {})
    return db.query(TableName=table, KeyConditionExpression=expr,
                    ExpressionAttributeValues=avs(vals), **kwargs)


def walk(call, max_pages=10000, **kwargs):
    """Follow LastEvaluatedKey to the end; returns (items, list of responses)."""
    items, pages = [], []
    start = None
    for _ in range(max_pages):
        if start is not None:
            kwargs["ExclusiveStartKey"] = start
        resp = call(**kwargs)
        pages.append(resp)
        items.extend(resp.get("Items", []))
        start = resp.get("LastEvaluatedKey")
        if not start:
            return items, pages
    raise AssertionError("pagination did not terminate")


def sks(items):
    return [plain(i)["sk"] for i in items]


# --------------------------------------------------------------------------
# Key conditions
# --------------------------------------------------------------------------

STR_SKS = ["a", "ab", "abc", "b", "ba", "c"]


@pytest.fixture(scope="module")
def str_part(dynamodb, str_tbl):
    p = part()
    put_all(dynamodb, str_tbl, [{"pk": p, "sk": s, "v": i} for i, s in enumerate(STR_SKS)])
    # A neighbouring partition that must never leak into results.
    put_all(dynamodb, str_tbl, [{"pk": p + "x", "sk": s} for s in STR_SKS])
    return p


# (expression operator, KeyConditions operator, arguments, expected sort keys)
SORT_CASES = [
    ("=", "EQ", ["ab"], ["ab"]),
    ("<", "LT", ["b"], ["a", "ab", "abc"]),
    ("<=", "LE", ["b"], ["a", "ab", "abc", "b"]),
    (">", "GT", ["ab"], ["abc", "b", "ba", "c"]),
    (">=", "GE", ["ab"], ["ab", "abc", "b", "ba", "c"]),
    ("BETWEEN", "BETWEEN", ["ab", "b"], ["ab", "abc", "b"]),
    ("BETWEEN", "BETWEEN", ["b", "b"], ["b"]),
    ("begins_with", "BEGINS_WITH", ["ab"], ["ab", "abc"]),
    ("begins_with", "BEGINS_WITH", ["b"], ["b", "ba"]),
    ("begins_with", "BEGINS_WITH", ["zz"], []),
    ("=", "EQ", ["zz"], []),
]


def sort_expr(op, args):
    if op == "BETWEEN":
        return "sk BETWEEN :a AND :b", {":a": args[0], ":b": args[1]}
    if op == "begins_with":
        return "begins_with(sk, :a)", {":a": args[0]}
    return "sk {} :a".format(op), {":a": args[0]}


def key_cond(op, args):
    k = Key("sk")
    return {"=": lambda: k.eq(args[0]), "<": lambda: k.lt(args[0]), "<=": lambda: k.lte(args[0]),
            ">": lambda: k.gt(args[0]), ">=": lambda: k.gte(args[0]),
            "BETWEEN": lambda: k.between(args[0], args[1]),
            "begins_with": lambda: k.begins_with(args[0])}[op]()


@pytest.mark.parametrize("op,legacy,args,expected", SORT_CASES,
                         ids=["{}-{}".format(c[1], "-".join(c[2])) for c in SORT_CASES])
def test_sort_key_conditions(dynamodb, dynamodb_resource, str_tbl, str_part, op, legacy, args,
                             expected):
    # Each sort-key operator selects the right range, the same through KeyConditionExpression, boto3's Key builder and legacy KeyConditions.
    cond, values = sort_expr(op, args)
    resp = query(dynamodb, str_tbl, str_part, cond, values)
    assert sks(resp["Items"]) == expected
    assert resp["Count"] == resp["ScannedCount"] == len(expected)

    table = dynamodb_resource.Table(str_tbl)
    got = table.query(KeyConditionExpression=Key("pk").eq(str_part) & key_cond(op, args))
    assert [i["sk"] for i in got["Items"]] == expected

    legacy_resp = dynamodb.query(TableName=str_tbl, KeyConditions={
        "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [av(str_part)]},
        "sk": {"ComparisonOperator": legacy, "AttributeValueList": [av(a) for a in args]}})
    assert sks(legacy_resp["Items"]) == expected


def test_partition_only_returns_whole_partition_in_order(dynamodb, str_tbl, str_part):
    # A Query with only the partition key returns that partition's items in sort-key order and nothing from other partitions.
    resp = query(dynamodb, str_tbl, str_part)
    assert sks(resp["Items"]) == STR_SKS
    assert {plain(i)["pk"] for i in resp["Items"]} == {str_part}
    assert "LastEvaluatedKey" not in resp


def test_reversed_operands_and_parentheses(dynamodb, str_tbl, str_part):
    # ":v = pk", ":v > sk" (meaning sk < :v), names placeholders and parentheses are all valid key conditions.
    resp = dynamodb.query(TableName=str_tbl, KeyConditionExpression="(:p = #k) AND (:v > #s)",
                          ExpressionAttributeNames={"#k": "pk", "#s": "sk"},
                          ExpressionAttributeValues=avs({":p": str_part, ":v": "b"}))
    assert sks(resp["Items"]) == ["a", "ab", "abc"]
    resp = dynamodb.query(TableName=str_tbl, KeyConditionExpression=":v <= sk and pk = :p",
                          ExpressionAttributeValues=avs({":p": str_part, ":v": "ba"}))
    assert sks(resp["Items"]) == ["ba", "c"]


def test_missing_partition_is_empty(dynamodb, str_tbl):
    # A partition without items answers an empty page, Count 0, no LastEvaluatedKey.
    resp = query(dynamodb, str_tbl, part(), Limit=5)
    assert resp["Items"] == [] and resp["Count"] == 0 and resp["ScannedCount"] == 0
    assert "LastEvaluatedKey" not in resp


def test_string_sort_order_is_utf8_byte_order(dynamodb, str_tbl):
    # S sort keys are ordered by their UTF-8 bytes: "Z" < "a" < "é", and U+FFFF sorts before an astral character (unlike UTF-16 order).
    p = part()
    values = ["a", "Z", "\u00e9", "b", "aa", "A", "0", "~", " ", "a\u0001", "\u00ff", "\uffff",
              "\U0001F600", "\u4e2d", "z", "\u0100"]
    put_all(dynamodb, str_tbl, [{"pk": p, "sk": v} for v in values])
    expected = sorted(values, key=lambda s: s.encode("utf-8"))
    assert expected.index("Z") < expected.index("a") < expected.index("\u00e9")
    assert sks(query(dynamodb, str_tbl, p)["Items"]) == expected
    rev = query(dynamodb, str_tbl, p, ScanIndexForward=False)
    assert sks(rev["Items"]) == expected[::-1]
    got = sks(query(dynamodb, str_tbl, p, "sk > :v", {":v": "\uffff"})["Items"])
    assert got == ["\U0001F600"]


NUMBERS = ["-10", "-2.5", "0", "1e2", "3", "0.001", "-0.001", "2.50", "10", "-1E-130", "1E+125",
           "99999999999999999999999999999999999999", "-99999999999999999999999999999999999999",
           "9", "-9.99", "0.5"]


def test_number_sort_order_is_numeric(dynamodb, num_tbl):
    # N sort keys are ordered numerically (negatives, decimals, exponents): -10 < -2.5 < 0 < 1e2.
    p = part()
    for n in NUMBERS:
        dynamodb.put_item(TableName=num_tbl, Item={"pk": {"S": p}, "sk": {"N": n}})
    expected = sorted((Decimal(n) for n in NUMBERS))
    got = [Decimal(i["sk"]["N"]) for i in query(dynamodb, num_tbl, p)["Items"]]
    assert got == expected
    rev = [Decimal(i["sk"]["N"]) for i in query(dynamodb, num_tbl, p,
                                                 ScanIndexForward=False)["Items"]]
    assert rev == expected[::-1]
    between = query(dynamodb, num_tbl, p, "sk BETWEEN :lo AND :hi",
                    {":lo": Decimal("-2.5"), ":hi": Decimal("3")})
    assert [Decimal(i["sk"]["N"]) for i in between["Items"]] == [
        Decimal(x) for x in ("-2.5", "-0.001", "-1E-130", "0", "0.001", "0.5", "2.5", "3")]
    lt = query(dynamodb, num_tbl, p, "sk < :v", {":v": -2})
    assert [Decimal(i["sk"]["N"]) for i in lt["Items"]] == [
        Decimal("-99999999999999999999999999999999999999"), Decimal(-10), Decimal("-9.99"),
        Decimal("-2.5")]
    # The canonical form comes back: 1e2 is stored as 100.
    eq = query(dynamodb, num_tbl, p, "sk = :v", {":v": 100})
    assert eq["Items"] == [{"pk": {"S": p}, "sk": {"N": "100"}}]


BINARIES = [b"\x00", b"\x00\x00", b"\x01", b"\x7f", b"\x80", b"\xff", b"\xff\x00", b"a", b"A",
            b"\x80\x01", b"\xfe\xff"]


def test_binary_sort_order_is_unsigned_bytes(dynamodb, bin_tbl):
    # B sort keys are ordered as unsigned bytes (0x7f < 0x80 < 0xff), a prefix before its extensions; begins_with works on bytes.
    p = part()
    put_all(dynamodb, bin_tbl, [{"pk": p, "sk": b} for b in BINARIES])
    expected = sorted(BINARIES)
    got = [bytes(plain(i)["sk"]) for i in query(dynamodb, bin_tbl, p)["Items"]]
    assert got == expected
    prefixed = query(dynamodb, bin_tbl, p, "begins_with(sk, :b)", {":b": b"\x80"})
    assert [bytes(plain(i)["sk"]) for i in prefixed["Items"]] == [b"\x80", b"\x80\x01"]
    gt = query(dynamodb, bin_tbl, p, "sk > :b", {":b": b"\x7f"})
    assert [bytes(plain(i)["sk"]) for i in gt["Items"]] == [b"\x80", b"\x80\x01", b"\xfe\xff",
                                                           b"\xff", b"\xff\x00"]


def test_scan_index_forward_false_reverses_with_conditions_and_pages(dynamodb, str_tbl, str_part):
    # ScanIndexForward=False returns the selected range in descending order, page by page.
    resp = query(dynamodb, str_tbl, str_part, "sk >= :v", {":v": "ab"}, ScanIndexForward=False)
    assert sks(resp["Items"]) == ["c", "ba", "b", "abc", "ab"]
    items, pages = walk(dynamodb.query, TableName=str_tbl, KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues=avs({":p": str_part}),
                        ScanIndexForward=False, Limit=4)
    assert sks(items) == STR_SKS[::-1]
    assert plain(pages[0]["LastEvaluatedKey"]) == {"pk": str_part, "sk": "abc"}


def test_legacy_key_conditions_with_query_filter(dynamodb, str_tbl, str_part):
    # Legacy KeyConditions combine with the legacy QueryFilter and AttributesToGet.
    resp = dynamodb.query(TableName=str_tbl, KeyConditions={
        "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [av(str_part)]},
        "sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [av("a")]}},
        QueryFilter={"v": {"ComparisonOperator": "GE", "AttributeValueList": [av(1)]}},
        AttributesToGet=["sk", "v"])
    assert [plain(i) for i in resp["Items"]] == [{"sk": "ab", "v": 1}, {"sk": "abc", "v": 2}]
    assert resp["Count"] == 2 and resp["ScannedCount"] == 3


def test_resource_query_and_scan_with_attr_filters(dynamodb_resource, str_tbl, str_part):
    # boto3 resource Query/Scan with Key and Attr builders.
    table = dynamodb_resource.Table(str_tbl)
    got = table.query(KeyConditionExpression=Key("pk").eq(str_part) & Key("sk").gt("a"),
                      FilterExpression=Attr("v").between(2, 4) | Attr("v").eq(0))
    assert [(i["sk"], i["v"]) for i in got["Items"]] == [("abc", 2), ("b", 3), ("ba", 4)]
    assert got["ScannedCount"] == 5
    scanned = table.scan(FilterExpression=Attr("pk").eq(str_part) & Attr("v").is_in([0, 5]))
    assert sorted(i["sk"] for i in scanned["Items"]) == ["a", "c"]


# --------------------------------------------------------------------------
# Error texts
# --------------------------------------------------------------------------

KEY_ERRORS = [
    ("sk = :v", {":v": "x"}, "Query condition missed key schema element: pk"),
    ("begins_with(sk, :v)", {":v": "x"}, "Query condition missed key schema element: pk"),
    ("pk = :v AND other1 = :v", {":v": "x"}, "Query condition missed key schema element: sk"),
    ("pk > :v", {":v": "x"}, "Query key condition not supported"),
    ("pk <= :v AND sk = :v", {":v": "x"}, "Query key condition not supported"),
    ("begins_with(pk, :v)", {":v": "x"}, "Query key condition not supported"),
    ("pk BETWEEN :v AND :w", {":v": "a", ":w": "b"}, "Query key condition not supported"),
    ("pk = :v AND pk = :v", {":v": "x"},
     "KeyConditionExpressions must only contain one condition per key"),
    ("pk = :v AND sk > :v AND sk < :w", {":v": "a", ":w": "b"},
     "KeyConditionExpressions must only contain one condition per key"),
    ("pk = :v OR sk = :v", {":v": "x"}, "Invalid operator used in KeyConditionExpression: OR"),
    ("pk = :v AND NOT sk = :v", {":v": "x"},
     "Invalid operator used in KeyConditionExpression: NOT"),
    ("pk = :v AND sk IN (:v, :w)", {":v": "a", ":w": "b"},
     "Invalid operator used in KeyConditionExpression: IN"),
    ("pk = :v AND sk <> :v", {":v": "x"}, "Invalid operator used in KeyConditionExpression: <>"),
    ("pk = :v AND attribute_exists(sk)", {":v": "x"},
     "Invalid operator used in KeyConditionExpression: attribute_exists"),
    ("pk = :v AND contains(sk, :v)", {":v": "x"},
     "Invalid operator used in KeyConditionExpression: contains"),
    ("pk = :v AND sk.x = :v", {":v": "x"},
     "KeyConditionExpressions cannot have conditions on nested attributes"),
    ("pk = :v AND sk[0] = :v", {":v": "x"},
     "KeyConditionExpressions cannot have conditions on nested attributes"),
    ("pk = sk", None,
     "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
    ("pk = :v AND begins_with(sk, pk)", {":v": "x"},
     "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
    (":v = :v", {":v": "x"}, "Invalid condition in KeyConditionExpression: No key attribute specified"),
    ("pk = :n", {":n": 1},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ("pk = :v AND sk = :n", {":v": "x", ":n": 1},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ("pk = :v AND begins_with(sk, :b)", {":v": "x", ":b": b"\x01"},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ("pk = :v AND sk BETWEEN :hi AND :lo", {":v": "x", ":hi": "b", ":lo": "a"},
     "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than "
     "or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: "
     "AttributeValue: {S:a}"),
    ("pk = :v AND sk BETWEEN :lo AND :n", {":v": "x", ":lo": "a", ":n": 1},
     "Invalid KeyConditionExpression: The BETWEEN operator requires same data type for lower and "
     "upper bounds; lower bound operand: AttributeValue: {S:a}, upper bound operand: "
     "AttributeValue: {N:1}"),
    ("pk = :v", {":v": "x", ":unused": "y"},
     "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}"),
]


@pytest.mark.parametrize("expr,values,message", KEY_ERRORS, ids=[c[0] for c in KEY_ERRORS])
def test_key_condition_errors(dynamodb, str_tbl, expr, values, message):
    # Malformed or unsupported KeyConditionExpressions are rejected with DynamoDB's texts.
    kwargs = {"KeyConditionExpression": expr}
    if values:
        kwargs["ExpressionAttributeValues"] = avs(values)
    with expect_error(VE, exact(message)):
        dynamodb.query(TableName=str_tbl, **kwargs)


def test_hash_only_table_rejects_second_condition(dynamodb, hash_tbl):
    # On a table without a sort key any condition beyond pk equality is "Query key condition not supported".
    with expect_error(VE, exact("Query key condition not supported")):
        dynamodb.query(TableName=hash_tbl, KeyConditionExpression="pk = :v AND other1 = :v",
                       ExpressionAttributeValues=avs({":v": "x"}))


def test_key_condition_required(dynamodb, str_tbl):
    # A Query without any key condition names both parameters.
    with expect_error(VE, exact("Either the KeyConditions or KeyConditionExpression parameter "
                                "must be specified in the request.")):
        dynamodb.query(TableName=str_tbl)


def test_legacy_key_condition_errors(dynamodb, str_tbl):
    # Legacy KeyConditions: a missing hash key, a range operator on the hash key and a non-indexable operator.
    eq = {"ComparisonOperator": "EQ", "AttributeValueList": [av("x")]}
    with expect_error(VE, exact("Query condition missed key schema element: pk")):
        dynamodb.query(TableName=str_tbl, KeyConditions={"sk": eq})
    with expect_error(VE, exact("Query key condition not supported")):
        dynamodb.query(TableName=str_tbl, KeyConditions={
            "pk": {"ComparisonOperator": "GT", "AttributeValueList": [av("x")]}})
    with expect_error(VE, exact("Attempted conditional constraint is not an indexable operation")):
        dynamodb.query(TableName=str_tbl, KeyConditions={
            "pk": eq, "sk": {"ComparisonOperator": "NE", "AttributeValueList": [av("x")]}})


@pytest.mark.parametrize("filter_expr,attr", [
    ("sk = :f", "sk"), ("pk = :f", "pk"), ("attribute_exists(sk)", "sk"),
    ("v > :n AND begins_with(sk, :f)", "sk")])
def test_filter_on_key_attribute_rejected(dynamodb, str_tbl, filter_expr, attr):
    # A Query FilterExpression may not reference the key attributes of the table (or index) queried.
    values = {":p": "x", ":f": "y", ":n": 1}
    values = {k: v for k, v in values.items() if k == ":p" or k in filter_expr}
    with expect_error(VE, exact("Filter Expression can only contain non-primary key attributes: "
                                "Primary key attribute: " + attr)):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression="pk = :p",
                       FilterExpression=filter_expr, ExpressionAttributeValues=avs(values))


def test_scan_filter_may_use_key_attributes(dynamodb, str_tbl, str_part):
    # Scan, unlike Query, may filter on key attributes.
    resp = dynamodb.scan(TableName=str_tbl, FilterExpression="pk = :p AND begins_with(sk, :a)",
                         ExpressionAttributeValues=avs({":p": str_part, ":a": "ab"}))
    assert sorted(sks(resp["Items"])) == ["ab", "abc"]


def test_index_errors(dynamodb, idx_tbl):
    # Unknown index, ConsistentRead on a GSI, ALL_ATTRIBUTES on a non-ALL GSI, unprojected attributes and index keys in filters.
    q = {"KeyConditionExpression": "g = :g", "ExpressionAttributeValues": avs({":g": "x"})}
    with expect_error(VE, exact("The table does not have the specified index: nope")):
        dynamodb.query(TableName=idx_tbl, IndexName="nope", **q)
    with expect_error(VE, exact("The table does not have the specified index: nope")):
        dynamodb.scan(TableName=idx_tbl, IndexName="nope")
    with expect_error(VE, exact("Consistent reads are not supported on global secondary indexes")):
        dynamodb.query(TableName=idx_tbl, IndexName="by_g_keys", ConsistentRead=True, **q)
    with expect_error(VE, exact("Consistent reads are not supported on global secondary indexes")):
        dynamodb.scan(TableName=idx_tbl, IndexName="by_g_inc", ConsistentRead=True)
    for idx in ("by_g_keys", "by_g_inc"):
        with expect_error(VE, exact(
                "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not "
                "supported for global secondary index {} because its projection type is not ALL"
                .format(idx))):
            dynamodb.query(TableName=idx_tbl, IndexName=idx, Select="ALL_ATTRIBUTES", **q)
    with expect_error(VE, exact("One or more parameter values were invalid: Global secondary index "
                                "by_g_inc does not project [extra]")):
        dynamodb.query(TableName=idx_tbl, IndexName="by_g_inc", ProjectionExpression="inc, extra",
                       **q)
    with expect_error(VE, exact("One or more parameter values were invalid: Global secondary index "
                                "by_g_keys does not project [inc]")):
        dynamodb.query(TableName=idx_tbl, IndexName="by_g_keys", ProjectionExpression="pk, inc",
                       **q)
    with expect_error(VE, exact("Filter Expression can only contain non-primary key attributes: "
                                "Primary key attribute: sk")):
        dynamodb.query(TableName=idx_tbl, IndexName="by_g_inc", FilterExpression="sk = :g", **q)


def test_index_query_may_filter_on_table_keys(dynamodb, idx_tbl):
    # On a GSI the table's own key attributes are ordinary (projected) attributes and may be filtered on.
    g = part()
    put_all(dynamodb, idx_tbl, [{"pk": "a" + g, "sk": "1", "g": g}, {"pk": "b" + g, "sk": "1", "g": g}])
    resp = dynamodb.query(TableName=idx_tbl, IndexName="by_g_keys", KeyConditionExpression="g = :g",
                          FilterExpression="pk = :p",
                          ExpressionAttributeValues=avs({":g": g, ":p": "b" + g}))
    assert [plain(i) for i in resp["Items"]] == [{"pk": "b" + g, "sk": "1", "g": g}]
    assert resp["ScannedCount"] == 2


def test_select_errors(dynamodb, str_tbl):
    # Select must agree with ProjectionExpression/AttributesToGet, and ALL_PROJECTED_ATTRIBUTES needs an index.
    q = {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": avs({":p": "x"})}
    with expect_error(VE, exact("Must specify the AttributesToGet or ProjectionExpression when "
                                "choosing to get SPECIFIC_ATTRIBUTES")):
        dynamodb.query(TableName=str_tbl, Select="SPECIFIC_ATTRIBUTES", **q)
    with expect_error(VE, exact("Cannot specify the ProjectionExpression when choosing to get "
                                "ALL_ATTRIBUTES")):
        dynamodb.query(TableName=str_tbl, Select="ALL_ATTRIBUTES", ProjectionExpression="v", **q)
    with expect_error(VE, exact("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an "
                                "IndexName")):
        dynamodb.query(TableName=str_tbl, Select="ALL_PROJECTED_ATTRIBUTES", **q)
    with expect_error(VE, exact("Must specify the AttributesToGet or ProjectionExpression when "
                                "choosing to get SPECIFIC_ATTRIBUTES")):
        dynamodb.scan(TableName=str_tbl, Select="SPECIFIC_ATTRIBUTES")


@pytest.mark.parametrize("start", [{"pk": "x"}, {"sk": "a"}, {"pk": "x", "sk": "a", "v": "extra"}],
                         ids=["no-sk", "no-pk", "extra-attr"])
def test_invalid_exclusive_start_key(dynamodb, str_tbl, start):
    # An ExclusiveStartKey that is not exactly the table's key is "The provided starting key is invalid".
    with expect_error(VE, "^The provided starting key is invalid"):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": "x"}), ExclusiveStartKey=avs(start))


def test_invalid_exclusive_start_key_missing_sort_key_exact(dynamodb, str_tbl):
    # A start key missing the sort key is answered with the bare text.
    with expect_error(VE, exact("The provided starting key is invalid")):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": "x"}),
                       ExclusiveStartKey=avs({"pk": "x"}))


@pytest.mark.parametrize("cond,start,message", [
    (None, {"pk": "other", "sk": "a"},
     "The provided starting key is outside query boundaries based on provided conditions"),
    ("sk > :s", {"pk": "x", "sk": "a"},
     "The provided starting key does not match the range key predicate"),
    ("sk = :s", {"pk": "x", "sk": "m"},
     "The query can return at most one row and cannot be restarted"),
], ids=["other-partition", "outside-range", "single-row"])
def test_exclusive_start_key_outside_query(dynamodb, str_tbl, cond, start, message):
    # A start key the query's conditions could never have produced is rejected, not silently answered.
    expr = "pk = :p" + (" AND " + cond if cond else "")
    values = {":p": "x"}
    if cond:
        values[":s"] = "m"
    with expect_error(VE, message):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression=expr,
                       ExpressionAttributeValues=avs(values), ExclusiveStartKey=avs(start))


def test_scan_segment_errors(dynamodb, hash_tbl):
    # Segment and TotalSegments must come together and Segment must be below TotalSegments.
    with expect_error(VE, exact("The TotalSegments parameter is required but was not present in "
                                "the request when Segment parameter is present")):
        dynamodb.scan(TableName=hash_tbl, Segment=1)
    with expect_error(VE, exact("The Segment parameter is required but was not present in the "
                                "request when parameter TotalSegments is present")):
        dynamodb.scan(TableName=hash_tbl, TotalSegments=2)
    with expect_error(VE, exact("The Segment parameter is zero-based and must be less than "
                                "parameter TotalSegments: Segment: 2 is not less than "
                                "TotalSegments: 2")):
        dynamodb.scan(TableName=hash_tbl, Segment=2, TotalSegments=2)


def test_missing_table(dynamodb):
    # Query and Scan on a table that does not exist: ResourceNotFoundException.
    name = unique_name("missing")
    with expect_error(RNF, exact("Requested resource not found")):
        dynamodb.query(TableName=name, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": "x"}))
    with expect_error(RNF, exact("Requested resource not found")):
        dynamodb.scan(TableName=name)


def test_unused_expression_attribute_names(dynamodb, str_tbl):
    # Names placeholders must all be used by the key condition, filter or projection.
    with expect_error(VE, exact("Value provided in ExpressionAttributeNames unused in expressions: "
                                "keys: {#x}")):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression="pk = :v",
                       ExpressionAttributeNames={"#x": "other1"},
                       ExpressionAttributeValues=avs({":v": "x"}))


def test_numeric_and_binary_hash_keys(dynamodb, tables):
    # Query by a numeric partition key matches by value (1.50 = 15E-1); binary partition keys match by bytes.
    ntbl = tables(hash_key=("pk", "N"), range_key=("sk", "S"), prefix="qs-nh")
    dynamodb.put_item(TableName=ntbl, Item={"pk": {"N": "1.50"}, "sk": {"S": "a"}})
    dynamodb.put_item(TableName=ntbl, Item={"pk": {"N": "15E-1"}, "sk": {"S": "b"}})
    dynamodb.put_item(TableName=ntbl, Item={"pk": {"N": "-1.5"}, "sk": {"S": "c"}})
    resp = dynamodb.query(TableName=ntbl, KeyConditionExpression="pk = :p",
                          ExpressionAttributeValues={":p": {"N": "1.5000"}})
    assert [(i["pk"]["N"], i["sk"]["S"]) for i in resp["Items"]] == [("1.5", "a"), ("1.5", "b")]
    btbl = tables(hash_key=("pk", "B"), prefix="qs-bh")
    for b in (b"\x00", b"\x00\x00", b"\xff"):
        dynamodb.put_item(TableName=btbl, Item={"pk": {"B": b}})
    resp = dynamodb.query(TableName=btbl, KeyConditionExpression="pk = :p",
                          ExpressionAttributeValues={":p": {"B": b"\x00"}})
    assert resp["Items"] == [{"pk": {"B": b"\x00"}}]


def test_walk_continues_after_start_key_item_is_deleted(dynamodb, str_tbl, hash_tbl):
    # LastEvaluatedKey is a position, not an item: deleting that item before the next page loses nothing.
    p = part()
    put_all(dynamodb, str_tbl, [{"pk": p, "sk": s} for s in "abcdef"])
    first = query(dynamodb, str_tbl, p, Limit=2)
    dynamodb.delete_item(TableName=str_tbl, Key=first["LastEvaluatedKey"])
    rest, _ = walk(dynamodb.query, TableName=str_tbl, KeyConditionExpression="pk = :p",
                   ExpressionAttributeValues=avs({":p": p}), Limit=2,
                   ExclusiveStartKey=first["LastEvaluatedKey"])
    assert sks(first["Items"]) + sks(rest) == ["a", "b", "c", "d", "e", "f"]
    # Reverse order, too.
    back = query(dynamodb, str_tbl, p, ScanIndexForward=False, Limit=2,
                 ExclusiveStartKey=avs({"pk": p, "sk": "b"}))
    assert sks(back["Items"]) == ["a"]
    # And for Scan: a start key that no longer exists (or never did) is still a valid position.
    marker = part()
    put_all(dynamodb, hash_tbl, [{"pk": marker + "-%d" % i} for i in range(6)])
    full = [i["pk"]["S"] for i in dynamodb.scan(TableName=hash_tbl)["Items"]]
    mine = [k for k in full if k.startswith(marker)]
    start = mine[2]
    dynamodb.delete_item(TableName=hash_tbl, Key=avs({"pk": start}))
    after, _ = walk(dynamodb.scan, TableName=hash_tbl, ExclusiveStartKey=avs({"pk": start}))
    got = [i["pk"]["S"] for i in after]
    assert got == [k for k in full[full.index(start) + 1:]]


# --------------------------------------------------------------------------
# Filter, Limit, Count, Select, ProjectionExpression
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ten(dynamodb, str_tbl):
    """Partition with sk 00..09; even items have even=True, odd ones even=False."""
    p = part()
    put_all(dynamodb, str_tbl, [{"pk": p, "sk": "%02d" % i, "even": i % 2 == 0, "n": i}
                                for i in range(10)])
    return p


def test_filter_applies_after_limit(dynamodb, str_tbl, ten):
    # Limit bounds the items evaluated: Count counts matches, ScannedCount evaluated items, and the key of the last evaluated item is returned.
    resp = query(dynamodb, str_tbl, ten, values={":t": True}, Limit=4,
                 FilterExpression="even = :t")
    assert sks(resp["Items"]) == ["00", "02"]
    assert resp["Count"] == 2 and resp["ScannedCount"] == 4
    assert plain(resp["LastEvaluatedKey"]) == {"pk": ten, "sk": "03"}


def test_filter_matching_nothing_still_pages(dynamodb, str_tbl, ten):
    # A page whose items all fail the filter is empty but still carries LastEvaluatedKey; the walk visits every item once.
    items, pages = walk(dynamodb.query, TableName=str_tbl, KeyConditionExpression="pk = :p",
                        FilterExpression="n > :big",
                        ExpressionAttributeValues=avs({":p": ten, ":big": 100}), Limit=3)
    assert items == []
    assert [p["ScannedCount"] for p in pages] == [3, 3, 3, 1]
    assert all(p["Count"] == 0 for p in pages)
    assert plain(pages[0]["LastEvaluatedKey"]) == {"pk": ten, "sk": "02"}


def test_limit_reached_exactly_returns_last_evaluated_key(dynamodb, str_tbl, ten):
    # When Limit equals the number of remaining items the page still has LastEvaluatedKey and the next page is empty without one.
    first = query(dynamodb, str_tbl, ten, Limit=10)
    assert len(first["Items"]) == 10
    assert plain(first["LastEvaluatedKey"]) == {"pk": ten, "sk": "09"}
    second = query(dynamodb, str_tbl, ten, Limit=10, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert second["Items"] == [] and second["Count"] == 0 and second["ScannedCount"] == 0
    assert "LastEvaluatedKey" not in second
    more = query(dynamodb, str_tbl, ten, Limit=11)
    assert len(more["Items"]) == 10 and "LastEvaluatedKey" not in more


def test_filter_may_use_attributes_outside_projection(dynamodb, str_tbl, ten):
    # The filter sees the whole item; the projection is applied afterwards.
    resp = query(dynamodb, str_tbl, ten, values={":t": True}, FilterExpression="even = :t",
                 ProjectionExpression="n")
    assert [plain(i) for i in resp["Items"]] == [{"n": n} for n in range(0, 10, 2)]


def test_scan_filter_limit_and_legacy_scan_filter(dynamodb, str_tbl, ten):
    # Scan counts like Query: Count after the filter, ScannedCount before it; the legacy ScanFilter/AttributesToGet work as well.
    items, pages = walk(dynamodb.scan, TableName=str_tbl, Limit=7,
                        FilterExpression="pk = :p AND even = :t",
                        ExpressionAttributeValues=avs({":p": ten, ":t": True}))
    assert sorted(sks(items)) == ["00", "02", "04", "06", "08"]
    assert all(p["ScannedCount"] <= 7 for p in pages)
    assert sum(p["Count"] for p in pages) == 5
    assert sum(p["ScannedCount"] for p in pages) == dynamodb.scan(
        TableName=str_tbl, Select="COUNT")["ScannedCount"]
    legacy = dynamodb.scan(TableName=str_tbl, AttributesToGet=["sk"], ScanFilter={
        "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [av(ten)]},
        "n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [av(3), av(5)]}})
    assert sorted(plain(i)["sk"] for i in legacy["Items"]) == ["03", "04", "05"]
    assert all(set(i) == {"sk"} for i in legacy["Items"])


def test_select_count(dynamodb, str_tbl, ten):
    # Select=COUNT returns Count/ScannedCount and no Items, with filters and limits applied.
    resp = query(dynamodb, str_tbl, ten, Select="COUNT")
    assert "Items" not in resp
    assert resp["Count"] == 10 and resp["ScannedCount"] == 10
    resp = query(dynamodb, str_tbl, ten, values={":t": False}, Select="COUNT",
                 FilterExpression="even = :t", Limit=5)
    assert "Items" not in resp
    assert resp["Count"] == 2 and resp["ScannedCount"] == 5
    assert "LastEvaluatedKey" in resp
    scan = dynamodb.scan(TableName=str_tbl, Select="COUNT", FilterExpression="pk = :p",
                         ExpressionAttributeValues=avs({":p": ten}))
    assert "Items" not in scan and scan["Count"] == 10


def test_select_specific_attributes_and_attributes_to_get(dynamodb, str_tbl, ten):
    # SPECIFIC_ATTRIBUTES with a ProjectionExpression, and the legacy AttributesToGet, return only those attributes.
    resp = query(dynamodb, str_tbl, ten, "sk < :s", {":s": "02"}, Select="SPECIFIC_ATTRIBUTES",
                 ProjectionExpression="n")
    assert [plain(i) for i in resp["Items"]] == [{"n": 0}, {"n": 1}]
    resp = dynamodb.query(TableName=str_tbl, KeyConditions={
        "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [av(ten)]},
        "sk": {"ComparisonOperator": "LT", "AttributeValueList": [av("02")]}},
        AttributesToGet=["sk", "even"])
    assert [plain(i) for i in resp["Items"]] == [{"sk": "00", "even": True},
                                                  {"sk": "01", "even": False}]


DOC = {"m": {"a": {"b": 1, "c": 2}, "d": [10, 20, 30]}, "l": [{"x": 1}, {"x": 2, "y": 3}],
       "name": "doc", "other1": "o"}


def test_projection_expression_nested_paths(dynamodb, str_tbl):
    # ProjectionExpression on Query and Scan returns the requested nested paths only (keys only when asked for).
    p = part()
    put_all(dynamodb, str_tbl, [dict(DOC, pk=p, sk="1"), dict(DOC, pk=p, sk="2", name="two")])
    proj = "m.a.b, m.d[2], l[1].y, #n"
    names = {"#n": "name"}
    resp = query(dynamodb, str_tbl, p, ProjectionExpression=proj, ExpressionAttributeNames=names)
    expected = [{"m": {"a": {"b": 1}, "d": [30]}, "l": [{"y": 3}], "name": "doc"},
                {"m": {"a": {"b": 1}, "d": [30]}, "l": [{"y": 3}], "name": "two"}]
    assert [plain(i) for i in resp["Items"]] == expected
    scan = dynamodb.scan(TableName=str_tbl, ProjectionExpression=proj + ", sk",
                         FilterExpression="pk = :p", ExpressionAttributeNames=names,
                         ExpressionAttributeValues=avs({":p": p}))
    got = sorted((plain(i) for i in scan["Items"]), key=lambda i: i["sk"])
    assert got == [dict(e, sk=s) for e, s in zip(expected, ["1", "2"])]
    missing = query(dynamodb, str_tbl, p, ProjectionExpression="nothing.here, m.zz")
    assert [plain(i) for i in missing["Items"]] == [{}, {}]


def test_consumed_capacity(dynamodb, tables):
    # ReturnConsumedCapacity=TOTAL: a Query or Scan costs the summed size of the items read, rounded up to 4 KB, half a unit per 4 KB unless ConsistentRead.
    name = tables(range_key=("sk", "S"), prefix="qs-cap")
    # Each item: pk(2+1) + sk(2+1) + data1(5+5000) = 5011 bytes; five of them = 25055 bytes = 7 blocks of 4 KB.
    put_all(dynamodb, name, [{"pk": "p", "sk": str(i), "data1": "y" * 5000} for i in range(5)])
    q = {"TableName": name, "KeyConditionExpression": "pk = :p",
         "ExpressionAttributeValues": avs({":p": "p"})}
    assert "ConsumedCapacity" not in dynamodb.query(**q)
    resp = dynamodb.query(ReturnConsumedCapacity="TOTAL", **q)
    assert resp["ConsumedCapacity"]["TableName"] == name
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 3.5
    resp = dynamodb.query(ReturnConsumedCapacity="TOTAL", ConsistentRead=True, **q)
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 7.0
    # Filtered-out items were still read.
    resp = dynamodb.query(ReturnConsumedCapacity="TOTAL", FilterExpression="attribute_not_exists(data1)",
                          **q)
    assert resp["Count"] == 0 and resp["ConsumedCapacity"]["CapacityUnits"] == 3.5
    resp = dynamodb.scan(TableName=name, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 3.5
    # An empty result still costs the minimum half unit.
    resp = dynamodb.query(TableName=name, KeyConditionExpression="pk = :p",
                          ExpressionAttributeValues=avs({":p": "none"}), ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 0.5


# --------------------------------------------------------------------------
# Pagination
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fifty(dynamodb, num_tbl):
    """One partition of 50 items, sk 0..49 (N)."""
    p = part()
    put_all(dynamodb, num_tbl, [{"pk": p, "sk": i, "v": "item%d" % i} for i in range(50)])
    return p


@pytest.mark.parametrize("limit", range(1, 8))
def test_query_pagination_walk(dynamodb, num_tbl, fifty, limit):
    # Walking a 50-item partition with Limit=1..7 returns every item exactly once, in order, both directions.
    for forward in (True, False):
        items, pages = walk(dynamodb.query, TableName=num_tbl, KeyConditionExpression="pk = :p",
                            ExpressionAttributeValues=avs({":p": fifty}), Limit=limit,
                            ScanIndexForward=forward)
        expected = list(range(50)) if forward else list(range(49, -1, -1))
        assert [int(i["sk"]["N"]) for i in items] == expected
        assert all(len(p["Items"]) <= limit for p in pages)
        # Pages stop at Limit: a final empty page appears only when 50 is a multiple of Limit.
        assert len(pages) == 50 // limit + 1


@pytest.fixture(scope="module")
def scan_tbl(tables, dynamodb):
    """A table holding 12 partitions x 5 items."""
    name = tables(range_key=("sk", "N"), prefix="qs-scan")
    put_all(dynamodb, name, [{"pk": "part%02d" % p, "sk": s} for p in range(12) for s in range(5)])
    return name


def keys_of(items):
    return [(i["pk"]["S"], int(i["sk"]["N"])) for i in items]


@pytest.mark.parametrize("limit", range(1, 8))
def test_scan_pagination_walk(dynamodb, scan_tbl, limit):
    # A paged Scan (Limit=1..7) returns every item of the table exactly once and in the order of an unpaged Scan.
    full = dynamodb.scan(TableName=scan_tbl)
    assert "LastEvaluatedKey" not in full
    order = keys_of(full["Items"])
    assert sorted(order) == [("part%02d" % p, s) for p in range(12) for s in range(5)]
    items, pages = walk(dynamodb.scan, TableName=scan_tbl, Limit=limit)
    assert keys_of(items) == order
    assert all(p["ScannedCount"] <= limit for p in pages)
    # Items of one partition come out together, in sort-key order.
    for p in range(12):
        ks = [s for (pk, s) in order if pk == "part%02d" % p]
        assert ks == list(range(5))


def test_pagination_while_another_client_writes(dynamodb, server_url, num_tbl):
    # A Limit=3 walk while another client inserts interleaved items and rewrites existing ones returns every pre-existing item exactly once, in order.
    p = part()
    put_all(dynamodb, num_tbl, [{"pk": p, "sk": i * 10, "gen": 0} for i in range(100)])
    writer = make_client(server_url)
    stop = threading.Event()
    started = threading.Event()
    written = []
    errors = []

    def write():
        try:
            i = 0
            while not stop.is_set() and i < 2000:
                writer.put_item(TableName=num_tbl, Item=avs({"pk": p, "sk": (i % 100) * 10 + 5,
                                                             "gen": i}))
                writer.update_item(TableName=num_tbl, Key=avs({"pk": p, "sk": (i * 7 % 100) * 10}),
                                   UpdateExpression="SET gen = :g",
                                   ExpressionAttributeValues=avs({":g": i}))
                written.append(i)
                started.set()
                i += 1
        except Exception as e:  # surfaced below
            errors.append(e)
        finally:
            started.set()

    thread = threading.Thread(target=write)
    thread.start()
    started.wait(10)
    try:
        items, _ = walk(dynamodb.query, TableName=num_tbl, KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues=avs({":p": p}), Limit=3)
    finally:
        stop.set()
        thread.join()
    assert not errors, errors
    assert written, "the writer never ran"
    got = [int(i["sk"]["N"]) for i in items]
    assert got == sorted(set(got)), "items duplicated or out of order"
    assert [s for s in got if s % 10 == 0] == [i * 10 for i in range(100)]


def test_scan_pagination_while_another_client_writes(dynamodb, server_url, tables):
    # A paged Scan while another client adds partitions and rewrites items returns every pre-existing item exactly once.
    name = tables(range_key=("sk", "N"), prefix="qs-scanw")
    put_all(dynamodb, name, [{"pk": "old%03d" % i, "sk": 0} for i in range(80)])
    writer = make_client(server_url)
    stop = threading.Event()
    started = threading.Event()
    errors = []

    def write():
        try:
            i = 0
            while not stop.is_set() and i < 2000:
                writer.put_item(TableName=name, Item=avs({"pk": "new%04d" % i, "sk": 0}))
                writer.put_item(TableName=name, Item=avs({"pk": "old%03d" % (i % 80), "sk": 0,
                                                          "gen": i}))
                started.set()
                i += 1
        except Exception as e:
            errors.append(e)
        finally:
            started.set()

    thread = threading.Thread(target=write)
    thread.start()
    started.wait(10)
    try:
        items, _ = walk(dynamodb.scan, TableName=name, Limit=4)
    finally:
        stop.set()
        thread.join()
    assert not errors, errors
    got = [i["pk"]["S"] for i in items]
    assert len(got) == len(set(got)), "items returned twice"
    assert sorted(g for g in got if g.startswith("old")) == ["old%03d" % i for i in range(80)]


BLOB = 96000  # 10 such items stay below 1 MB, 11 exceed it


@pytest.fixture(scope="module")
def big_tbl(tables, dynamodb):
    """A table whose only partition holds 30 items of ~96 KB each."""
    name = tables(range_key=("sk", "S"), prefix="qs-big")
    blob = "x" * BLOB
    put_all(dynamodb, name, [{"pk": "big", "sk": "%02d" % i, "payload": blob} for i in range(30)])
    return name


def test_query_page_capped_at_one_megabyte(dynamodb, big_tbl):
    # A Query page stops after the item that crosses 1 MB (11 items of 96 KB) with LastEvaluatedKey; all pages together return all 30.
    first = query(dynamodb, big_tbl, "big")
    assert len(first["Items"]) == 11
    assert first["Count"] == first["ScannedCount"] == 11
    assert plain(first["LastEvaluatedKey"]) == {"pk": "big", "sk": "10"}
    items, pages = walk(dynamodb.query, TableName=big_tbl, KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues=avs({":p": "big"}))
    assert sks(items) == ["%02d" % i for i in range(30)]
    assert [len(p["Items"]) for p in pages] == [11, 11, 8]


def test_query_page_cap_in_reverse(dynamodb, big_tbl):
    # ScanIndexForward=False pages are capped the same way, from the other end.
    first = query(dynamodb, big_tbl, "big", ScanIndexForward=False)
    assert sks(first["Items"]) == ["%02d" % i for i in range(29, 18, -1)]
    assert plain(first["LastEvaluatedKey"]) == {"pk": "big", "sk": "19"}


def test_one_megabyte_cap_counts_filtered_items(dynamodb, big_tbl):
    # The 1 MB cap counts the data read before the filter: a filter rejecting everything still stops after 11 items.
    first = query(dynamodb, big_tbl, "big", FilterExpression="attribute_not_exists(payload)")
    assert first["Items"] == [] and first["Count"] == 0 and first["ScannedCount"] == 11
    assert plain(first["LastEvaluatedKey"]) == {"pk": "big", "sk": "10"}
    count = query(dynamodb, big_tbl, "big", Select="COUNT")
    assert count["Count"] == 11 and "LastEvaluatedKey" in count


def test_scan_page_capped_at_one_megabyte(dynamodb, big_tbl):
    # Scan pages obey the same 1 MB cap and a Limit below it still wins.
    first = dynamodb.scan(TableName=big_tbl)
    assert len(first["Items"]) == 11 and "LastEvaluatedKey" in first
    items, pages = walk(dynamodb.scan, TableName=big_tbl)
    assert sorted(sks(items)) == ["%02d" % i for i in range(30)]
    assert [len(p["Items"]) for p in pages] == [11, 11, 8]
    limited = dynamodb.scan(TableName=big_tbl, Limit=3)
    assert len(limited["Items"]) == 3


# --------------------------------------------------------------------------
# Parallel scan
# --------------------------------------------------------------------------

def scan_segments(db, table, total, index=None, limit=None):
    segments = []
    for seg in range(total):
        kwargs = {"TableName": table, "Segment": seg, "TotalSegments": total}
        if index:
            kwargs["IndexName"] = index
        if limit:
            kwargs["Limit"] = limit
        items, _ = walk(db.scan, **kwargs)
        segments.append(items)
    return segments


@pytest.fixture(scope="module")
def segment_tbl(tables, dynamodb):
    """200 items in 200 partitions plus a GSI on g (10 distinct values)."""
    name = tables(
        prefix="qs-seg",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "by_g",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    put_all(dynamodb, name, [{"pk": "item%03d" % i, "g": "g%d" % (i % 10)} for i in range(200)])
    return name


@pytest.mark.parametrize("limit", [None, 17])
def test_parallel_scan_segments_disjoint_and_complete(dynamodb, segment_tbl, limit):
    # TotalSegments=4: the segments are disjoint, none is empty, and together they hold all 200 items.
    segments = scan_segments(dynamodb, segment_tbl, 4, limit=limit)
    keys = [i["pk"]["S"] for seg in segments for i in seg]
    assert len(keys) == len(set(keys)) == 200
    assert set(keys) == {"item%03d" % i for i in range(200)}
    assert all(seg for seg in segments)


def test_parallel_scan_on_gsi(dynamodb, segment_tbl):
    # Parallel scan of a GSI: disjoint, complete segments.
    segments = scan_segments(dynamodb, segment_tbl, 4, index="by_g", limit=23)
    keys = [i["pk"]["S"] for seg in segments for i in seg]
    assert len(keys) == len(set(keys)) == 200
    assert all(seg for seg in segments)


def test_single_segment_is_whole_table(dynamodb, segment_tbl):
    # TotalSegments=1, Segment=0 scans the whole table.
    (seg,) = scan_segments(dynamodb, segment_tbl, 1)
    assert len(seg) == 200
