"""Query key conditions and sort order: each sort-key operator through
KeyConditionExpression, boto3's Key builder and the legacy KeyConditions;
reversed operands and parentheses; S sort keys in UTF-8 byte order, N in
numeric order, B as unsigned bytes, reversed by ScanIndexForward; numeric
and binary partition keys; the legacy QueryFilter and the resource API's
Key/Attr builders."""

from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key

from .e2e_util import av, avs, plain
from .query_scan_util import STR_SKS, part, put_all, query, sks, walk
from .query_scan_util import num_tbl, str_part, str_tbl  # fixtures


@pytest.fixture(scope="module")
def bin_tbl(tables):
    """pk (S) + sk (B)."""
    return tables(range_key=("sk", "B"), prefix="qs-b")


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
