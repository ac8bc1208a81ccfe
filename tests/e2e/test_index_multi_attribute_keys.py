"""GSIs whose keys have several HASH and RANGE attributes: the key schema
DescribeTable shows, key conditions (equality on every hash attribute,
sort attributes left to right), only items holding every key attribute
indexed, pagination in tuple order, the legacy KeyConditions on the same rules,
and the conditions and types DynamoDB refuses."""

import pytest

from .e2e_util import av, avs, expect_error, plain, raw_op, unique_name, wait_active
from .indexes_util import VE, defs, put


MULTI_INDEX = "by_tenant_date"


@pytest.fixture(scope="module")
def multi_tbl(dynamodb, tables):
    """GSI by_tenant_date: HASH tnt, ste; RANGE yr (N), mo (N), dd (S)."""
    name = unique_name("multi")
    dynamodb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=defs(pk="S", tnt="S", ste="S", yr="N", mo="N", dd="S"),
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{
            "IndexName": MULTI_INDEX,
            "KeySchema": [{"AttributeName": "tnt", "KeyType": "HASH"},
                          {"AttributeName": "ste", "KeyType": "HASH"},
                          {"AttributeName": "yr", "KeyType": "RANGE"},
                          {"AttributeName": "mo", "KeyType": "RANGE"},
                          {"AttributeName": "dd", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}])
    tables.register(name)
    wait_active(dynamodb, name)
    return name


MULTI_ROWS = [  # pk, tnt, ste, yr, mo, dd
    ("e1", "acme", "eu", 2024, 1, "05"),
    ("e2", "acme", "eu", 2024, 2, "01"),
    ("e3", "acme", "eu", 2023, 12, "31"),
    ("e4", "acme", "eu", 2024, 1, "20"),
    ("e5", "acme", "eu", 2025, 1, "01"),
    ("e6", "acme", "eu", 2024, 10, "01"),  # 10 > 2 numerically
    ("e7", "acme", "us", 2024, 1, "05"),  # other partition (second hash attribute)
    ("e8", "beta", "eu", 2024, 1, "05"),  # other partition (first hash attribute)
]


@pytest.fixture(scope="module")
def multi_items(dynamodb, multi_tbl):
    for pk, tnt, ste, yr, mo, dd in MULTI_ROWS:
        put(dynamodb, multi_tbl, pk=pk, tnt=tnt, ste=ste, yr=yr, mo=mo, dd=dd)
    # Missing one sort attribute / one hash attribute: not indexed.
    put(dynamodb, multi_tbl, pk="n1", tnt="acme", ste="eu", yr=2024, mo=1)
    put(dynamodb, multi_tbl, pk="n2", tnt="acme", yr=2024, mo=1, dd="01")
    return multi_tbl


def mq(url, table, expr, values, **extra):
    payload = {"TableName": table, "IndexName": MULTI_INDEX, "KeyConditionExpression": expr,
               "ExpressionAttributeValues": avs(values)}
    payload.update(extra)
    return raw_op(url, "Query", payload)


ACME_EU = {":t": "acme", ":s": "eu"}


def test_multi_attribute_gsi_described(dynamodb, multi_tbl):
    # DescribeTable shows the multi-attribute key schema as created.
    desc = dynamodb.describe_table(TableName=multi_tbl)["Table"]
    (index,) = desc["GlobalSecondaryIndexes"]
    assert [(k["AttributeName"], k["KeyType"]) for k in index["KeySchema"]] == [
        ("tnt", "HASH"), ("ste", "HASH"), ("yr", "RANGE"), ("mo", "RANGE"), ("dd", "RANGE")]


@pytest.mark.parametrize("cond,values,expected", [
    ("", {}, ["e3", "e1", "e4", "e2", "e6", "e5"]),
    ("AND yr = :y", {":y": 2024}, ["e1", "e4", "e2", "e6"]),
    ("AND yr >= :y", {":y": 2024}, ["e1", "e4", "e2", "e6", "e5"]),
    ("AND yr BETWEEN :a AND :b", {":a": 2023, ":b": 2024}, ["e3", "e1", "e4", "e2", "e6"]),
    ("AND yr = :y AND mo = :m", {":y": 2024, ":m": 1}, ["e1", "e4"]),
    ("AND yr = :y AND mo > :m", {":y": 2024, ":m": 1}, ["e2", "e6"]),
    ("AND yr = :y AND mo = :m AND dd = :d", {":y": 2024, ":m": 1, ":d": "20"}, ["e4"]),
    ("AND yr = :y AND mo = :m AND begins_with(dd, :d)", {":y": 2024, ":m": 1, ":d": "0"}, ["e1"]),
    ("AND yr = :y AND mo = :m AND dd < :d", {":y": 2024, ":m": 1, ":d": "10"}, ["e1"]),
], ids=["hash-only", "yr-eq", "yr-ge", "yr-between", "yr-mo-eq", "mo-range", "all-eq",
        "dd-begins", "dd-lt"])
def test_multi_attribute_gsi_queries(server_url, multi_items, cond, values, expected):
    # Equality on every hash attribute; sort attributes constrained left to right (equalities, then at most one range on the last given); results in tuple order.
    expr = "tnt = :t AND ste = :s " + cond
    status, body = mq(server_url, multi_items, expr, dict(ACME_EU, **values))
    assert status == 200, body
    assert [plain(i)["pk"] for i in body["Items"]] == expected
    status, body = mq(server_url, multi_items, expr, dict(ACME_EU, **values),
                      ScanIndexForward=False)
    assert [plain(i)["pk"] for i in body["Items"]] == expected[::-1]


def test_multi_attribute_gsi_indexes_only_complete_items(dynamodb, server_url, multi_items):
    # Items missing any one key attribute are absent from the index; adding it brings them in.
    status, body = raw_op(server_url, "Scan", {"TableName": multi_items, "IndexName": MULTI_INDEX})
    assert status == 200, body
    assert sorted(plain(i)["pk"] for i in body["Items"]) == ["e%d" % i for i in range(1, 9)]
    dynamodb.update_item(TableName=multi_items, Key=avs({"pk": "n1"}), UpdateExpression="SET dd = :d",
                         ExpressionAttributeValues=avs({":d": "15"}))
    status, body = mq(server_url, multi_items, "tnt = :t AND ste = :s AND yr = :y AND mo = :m",
                      dict(ACME_EU, **{":y": 2024, ":m": 1}))
    assert [plain(i)["pk"] for i in body["Items"]] == ["e1", "n1", "e4"]
    dynamodb.update_item(TableName=multi_items, Key=avs({"pk": "n1"}), UpdateExpression="REMOVE dd")


def test_multi_attribute_gsi_pagination(server_url, multi_items):
    # Limit=1 pages through the tuple order; LastEvaluatedKey holds the table key and every index key attribute.
    seen, start = [], None
    for _ in range(20):
        extra = {"Limit": 1}
        if start:
            extra["ExclusiveStartKey"] = start
        status, body = mq(server_url, multi_items, "tnt = :t AND ste = :s", ACME_EU, **extra)
        assert status == 200, body
        seen += [plain(i)["pk"] for i in body["Items"]]
        start = body.get("LastEvaluatedKey")
        if not start:
            break
        assert set(start) == {"pk", "tnt", "ste", "yr", "mo", "dd"}
    assert seen == ["e3", "e1", "e4", "e2", "e6", "e5"]


@pytest.mark.parametrize("expr,values", [
    ("tnt = :t", {":t": "acme"}),
    ("tnt = :t AND ste > :s", {":t": "acme", ":s": "eu"}),
    ("tnt = :t AND ste = :s AND mo = :m", dict(ACME_EU, **{":m": 1})),
    ("tnt = :t AND ste = :s AND yr > :y AND mo = :m", dict(ACME_EU, **{":y": 2023, ":m": 1})),
    ("tnt = :t AND ste = :s AND yr = :y AND dd = :d", dict(ACME_EU, **{":y": 2024, ":d": "01"})),
], ids=["missing-hash-attr", "range-on-hash-attr", "skips-first-sort-attr", "range-not-last",
        "gap-in-sort-attrs"])
def test_multi_attribute_gsi_invalid_conditions(server_url, multi_items, expr, values):
    # Missing a hash attribute, a range on a hash attribute, skipping a sort attribute or a range before the last one are rejected.
    status, body = mq(server_url, multi_items, expr, values)
    assert status == 400, body
    assert body["__type"].endswith("ValidationException")


def test_multi_attribute_gsi_type_mismatch(dynamodb, multi_items):
    # Every attribute of a multi-attribute key is type checked.
    with expect_error(VE, "Type mismatch for Index Key yr Expected: N Actual: S IndexName: "
                          + MULTI_INDEX):
        put(dynamodb, multi_items, pk="bad", tnt="acme", ste="eu", yr="2024", mo=1, dd="01")
    assert "Item" not in dynamodb.get_item(TableName=multi_items, Key=avs({"pk": "bad"}))


def legacy_query(url, table, conditions):
    """A Query of the multi-attribute GSI through the legacy KeyConditions:
    {name: (operator, [values])}."""
    return raw_op(url, "Query", {
        "TableName": table, "IndexName": MULTI_INDEX,
        "KeyConditions": {name: {"ComparisonOperator": op,
                                 "AttributeValueList": [av(v) for v in values]}
                          for name, (op, values) in conditions.items()}})


@pytest.mark.parametrize("conditions,expected", [
    ({"tnt": ("EQ", ["acme"]), "ste": ("EQ", ["eu"])}, ["e3", "e1", "e4", "e2", "e6", "e5"]),
    ({"tnt": ("EQ", ["acme"]), "ste": ("EQ", ["eu"]), "yr": ("EQ", [2024]), "mo": ("GT", [1])},
     ["e2", "e6"]),
    ({"tnt": ("EQ", ["acme"]), "ste": ("EQ", ["eu"]), "yr": ("EQ", [2024]), "mo": ("EQ", [1]),
      "dd": ("BEGINS_WITH", ["0"])}, ["e1"]),
], ids=["hash-only", "mo-range", "dd-begins"])
def test_multi_attribute_gsi_takes_legacy_key_conditions(server_url, multi_items, conditions,
                                                         expected):
    # As DynamoDB does (2026-08; this suite had them refused before): EQ on
    # every partition attribute, sort attributes left to right.
    status, body = legacy_query(server_url, multi_items, conditions)
    assert status == 200, body
    assert [plain(i)["pk"] for i in body["Items"]] == expected


@pytest.mark.parametrize("conditions,message", [
    ({"tnt": ("EQ", ["acme"])}, "Query condition missed key schema element: ste"),
    ({"tnt": ("EQ", ["acme"]), "ste": ("EQ", ["eu"]), "mo": ("EQ", [1])},
     "Query condition missed key schema element: yr"),
    ({"tnt": ("EQ", ["acme"]), "ste": ("EQ", ["eu"]), "yr": ("GT", [2023]), "mo": ("EQ", [1])},
     "Query key condition not supported"),
], ids=["hash-missing", "range-skipped", "range-before-last-not-eq"])
def test_multi_attribute_gsi_legacy_key_conditions_refused(server_url, multi_items, conditions,
                                                           message):
    status, body = legacy_query(server_url, multi_items, conditions)
    assert status == 400 and body["__type"].endswith("ValidationException"), body
    assert body["message"] == message


def test_multi_attribute_gsi_reusing_table_keys_described_in_definition_order(dynamodb, tables):
    # A GSI key that reuses the table's key attributes is listed as defined,
    # not with the table's attributes first.
    name = unique_name("multi-reuse")
    key_schema = [{"AttributeName": "a", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "HASH"},
                  {"AttributeName": "pk", "KeyType": "RANGE"},
                  {"AttributeName": "b", "KeyType": "RANGE"}]
    dynamodb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=defs(pk="S", sk="S", a="S", b="S"),
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "reuse", "KeySchema": key_schema,
                                 "Projection": {"ProjectionType": "ALL"}}])
    tables.register(name)
    wait_active(dynamodb, name)
    (index,) = dynamodb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"]
    assert index["KeySchema"] == key_schema
