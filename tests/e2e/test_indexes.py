"""Secondary indexes: sparse GSIs and LSIs following puts, updates and
deletes, non-unique index keys, index key validation, KEYS_ONLY / INCLUDE /
ALL projections (and LSI fetches from the table), multi-attribute GSI keys,
UpdateTable creating and deleting GSIs on populated tables, and the item
counts and sizes DescribeTable reports for tables and indexes."""

import random
import time

import pytest

from .e2e_util import (avs, exact, expect_error, plain, raw_op, unique_name,
                       wait_active)

VE = "ValidationException"
RNF = "ResourceNotFoundException"


def gsi(name, hash_key, range_key=None, projection="ALL", include=None):
    keys = [{"AttributeName": hash_key, "KeyType": "HASH"}]
    if range_key:
        keys.append({"AttributeName": range_key, "KeyType": "RANGE"})
    proj = {"ProjectionType": projection}
    if include:
        proj["NonKeyAttributes"] = include
    return {"IndexName": name, "KeySchema": keys, "Projection": proj}


def lsi(name, range_key, projection="ALL", include=None):
    return gsi(name, "pk", range_key, projection, include)


def defs(**types):
    return [{"AttributeName": k, "AttributeType": v} for k, v in types.items()]


@pytest.fixture(scope="module")
def itbl(tables):
    """pk/sk (S) with
    GSIs gsi_all (gpk S, gsk N; ALL), gsi_keys (gpk; KEYS_ONLY),
         gsi_inc (gpk, gsk; INCLUDE inc1, inc2), gsi_solo (solo S; KEYS_ONLY);
    LSIs lsi_keys (lsk S; KEYS_ONLY), lsi_inc (lsk2 N; INCLUDE inc1)."""
    return tables(
        prefix="idx",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=defs(pk="S", sk="S", gpk="S", gsk="N", solo="S", lsk="S", lsk2="N"),
        GlobalSecondaryIndexes=[
            gsi("gsi_all", "gpk", "gsk"),
            gsi("gsi_keys", "gpk", projection="KEYS_ONLY"),
            gsi("gsi_inc", "gpk", "gsk", "INCLUDE", ["inc1", "inc2"]),
            gsi("gsi_solo", "solo", projection="KEYS_ONLY"),
        ],
        LocalSecondaryIndexes=[
            lsi("lsi_keys", "lsk", "KEYS_ONLY"),
            lsi("lsi_inc", "lsk2", "INCLUDE", ["inc1"]),
        ])


def uid(prefix="g"):
    return unique_name(prefix)


def put(db, table, **item):
    db.put_item(TableName=table, Item=avs(item))


def get(db, table, pk, sk):
    resp = db.get_item(TableName=table, Key=avs({"pk": pk, "sk": sk}), ConsistentRead=True)
    return plain(resp["Item"]) if "Item" in resp else None


def iquery(db, table, index, hash_attr, hash_value, values=None, **kwargs):
    vals = {":h": hash_value}
    vals.update(values or {})
    resp = db.query(TableName=table, IndexName=index,
                    KeyConditionExpression="#h = :h", ExpressionAttributeNames={"#h": hash_attr},
                    ExpressionAttributeValues=avs(vals), **kwargs)
    return [plain(i) for i in resp.get("Items", [])]


def table_keys(items):
    return [(i["pk"], i["sk"]) for i in items]


def walk(call, **kwargs):
    items, pages, start = [], [], None
    for _ in range(10000):
        if start:
            kwargs["ExclusiveStartKey"] = start
        resp = call(**kwargs)
        pages.append(resp)
        items.extend(plain(i) for i in resp.get("Items", []))
        start = resp.get("LastEvaluatedKey")
        if not start:
            return items, pages
    raise AssertionError("pagination did not terminate")


# --------------------------------------------------------------------------
# Sparse indexes follow writes
# --------------------------------------------------------------------------

def test_gsi_sparse_lifecycle(dynamodb, itbl):
    # An item enters a GSI when all of its key attributes are set, moves when they change, and leaves on REMOVE, overwrite and delete.
    g, g2, p = uid(), uid(), uid("p")
    ident = avs({"pk": p, "sk": "s"})

    def members(index, value):
        return table_keys(iquery(dynamodb, itbl, index, "gpk", value))

    put(dynamodb, itbl, pk=p, sk="s", data1="x")
    assert members("gsi_keys", g) == [] and members("gsi_all", g) == []

    # gpk alone is enough for the hash-only index, not for the one that also needs gsk.
    dynamodb.update_item(TableName=itbl, Key=ident, UpdateExpression="SET gpk = :g",
                         ExpressionAttributeValues=avs({":g": g}))
    assert members("gsi_keys", g) == [(p, "s")]
    assert members("gsi_all", g) == [] and members("gsi_inc", g) == []

    dynamodb.update_item(TableName=itbl, Key=ident, UpdateExpression="SET gsk = :n",
                         ExpressionAttributeValues=avs({":n": 7}))
    assert members("gsi_all", g) == [(p, "s")] and members("gsi_inc", g) == [(p, "s")]
    assert iquery(dynamodb, itbl, "gsi_all", "gpk", g)[0]["gsk"] == 7

    # Changing the index hash key moves the item.
    dynamodb.update_item(TableName=itbl, Key=ident, UpdateExpression="SET gpk = :g",
                         ExpressionAttributeValues=avs({":g": g2}))
    for index in ("gsi_all", "gsi_keys", "gsi_inc"):
        assert members(index, g) == []
        assert members(index, g2) == [(p, "s")]

    # Changing the index sort key updates it in place.
    dynamodb.update_item(TableName=itbl, Key=ident, UpdateExpression="SET gsk = :n",
                         ExpressionAttributeValues=avs({":n": 8}))
    got = iquery(dynamodb, itbl, "gsi_all", "gpk", g2)
    assert [i["gsk"] for i in got] == [8]
    resp = dynamodb.query(TableName=itbl, IndexName="gsi_all",
                          KeyConditionExpression="gpk = :g AND gsk = :n",
                          ExpressionAttributeValues=avs({":g": g2, ":n": 7}))
    assert resp["Items"] == []

    # REMOVE of the sort key leaves the two-key indexes only.
    dynamodb.update_item(TableName=itbl, Key=ident, UpdateExpression="REMOVE gsk")
    assert members("gsi_all", g2) == [] and members("gsi_inc", g2) == []
    assert members("gsi_keys", g2) == [(p, "s")]
    dynamodb.update_item(TableName=itbl, Key=ident, UpdateExpression="REMOVE gpk")
    assert members("gsi_keys", g2) == []

    # A PutItem without the attributes replaces the indexed item and drops it from the index.
    put(dynamodb, itbl, pk=p, sk="s", gpk=g, gsk=1)
    assert members("gsi_all", g) == [(p, "s")]
    put(dynamodb, itbl, pk=p, sk="s", data1="y")
    assert members("gsi_all", g) == [] and members("gsi_keys", g) == []

    put(dynamodb, itbl, pk=p, sk="s", gpk=g, gsk=1)
    dynamodb.delete_item(TableName=itbl, Key=ident)
    for index in ("gsi_all", "gsi_keys", "gsi_inc"):
        assert members(index, g) == []
    scan = dynamodb.scan(TableName=itbl, IndexName="gsi_keys", FilterExpression="pk = :p",
                         ExpressionAttributeValues=avs({":p": p}))
    assert scan["Items"] == []


def test_gsi_index_keys_not_unique(dynamodb, itbl):
    # Many items may share one GSI key; they are ordered by index sort key and then by table key, and paging through equal keys loses nothing.
    g = uid()
    items = [(pk, sk, gsk) for pk in ("p3", "p1", "p2") for sk in ("b", "a") for gsk in (5,)]
    items += [("p9", "z", 1), ("p0", "z", 9)]
    shuffled = list(items)
    random.Random(7).shuffle(shuffled)
    for pk, sk, gsk in shuffled:
        put(dynamodb, itbl, pk=pk + g, sk=sk, gpk=g, gsk=gsk)
    expected = [(pk + g, sk) for pk, sk, gsk in sorted(items, key=lambda t: (t[2], t[0], t[1]))]

    got = iquery(dynamodb, itbl, "gsi_all", "gpk", g)
    assert table_keys(got) == expected
    rev = iquery(dynamodb, itbl, "gsi_all", "gpk", g, ScanIndexForward=False)
    assert table_keys(rev) == expected[::-1]

    # Hash-only index: all share the one index key; order is by table key.
    keys_only = iquery(dynamodb, itbl, "gsi_keys", "gpk", g)
    assert table_keys(keys_only) == sorted(expected)

    for index in ("gsi_all", "gsi_keys"):
        walked, pages = walk(dynamodb.query, TableName=itbl, IndexName=index,
                             KeyConditionExpression="gpk = :g",
                             ExpressionAttributeValues=avs({":g": g}), Limit=1)
        assert table_keys(walked) == table_keys(iquery(dynamodb, itbl, index, "gpk", g))
        lek = pages[0]["LastEvaluatedKey"]
        expected_lek = {"pk", "sk", "gpk", "gsk"} if index == "gsi_all" else {"pk", "sk", "gpk"}
        assert set(lek) == expected_lek

    between = dynamodb.query(TableName=itbl, IndexName="gsi_all",
                             KeyConditionExpression="gpk = :g AND gsk BETWEEN :a AND :b",
                             ExpressionAttributeValues=avs({":g": g, ":a": 2, ":b": 9}))
    assert [plain(i)["gsk"] for i in between["Items"]] == [5] * 6 + [9]


def test_gsi_walk_survives_start_item_leaving_index(dynamodb, itbl):
    # A GSI LastEvaluatedKey stays a valid position after its item moves out of the index.
    g = uid()
    for n in range(6):
        put(dynamodb, itbl, pk="w%d" % n + g, sk="s", gpk=g, gsk=n)
    kwargs = {"TableName": itbl, "IndexName": "gsi_all", "KeyConditionExpression": "gpk = :g",
              "ExpressionAttributeValues": avs({":g": g}), "Limit": 2}
    first = dynamodb.query(**kwargs)
    lek = plain(first["LastEvaluatedKey"])
    assert lek == {"pk": "w1" + g, "sk": "s", "gpk": g, "gsk": 1}
    dynamodb.update_item(TableName=itbl, Key=avs({"pk": lek["pk"], "sk": "s"}),
                         UpdateExpression="SET gpk = :other",
                         ExpressionAttributeValues=avs({":other": uid()}))
    rest, _ = walk(dynamodb.query, ExclusiveStartKey=first["LastEvaluatedKey"], **kwargs)
    assert [i["gsk"] for i in map(plain, first["Items"])] + [i["gsk"] for i in rest] == [
        0, 1, 2, 3, 4, 5]


def test_index_query_consumed_capacity(dynamodb, itbl):
    # ReturnConsumedCapacity=INDEXES on a GSI query charges the index (small KEYS_ONLY entries: half a unit).
    g = uid()
    for n in range(3):
        put(dynamodb, itbl, pk="c%d" % n + g, sk="s", gpk=g, gsk=n, other1="z" * 3000)
    resp = dynamodb.query(TableName=itbl, IndexName="gsi_keys", KeyConditionExpression="gpk = :g",
                          ExpressionAttributeValues=avs({":g": g}), ReturnConsumedCapacity="INDEXES")
    consumed = resp["ConsumedCapacity"]
    assert consumed["TableName"] == itbl and consumed["CapacityUnits"] == 0.5
    assert consumed["GlobalSecondaryIndexes"] == {"gsi_keys": {"CapacityUnits": 0.5}}
    # The ALL index holds the 3 KB attribute: about 9 KB, three 4 KB blocks.
    resp = dynamodb.query(TableName=itbl, IndexName="gsi_all", KeyConditionExpression="gpk = :g",
                          ExpressionAttributeValues=avs({":g": g}), ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 1.5


def test_index_query_needs_index_hash_key(dynamodb, itbl):
    # Querying an index with the table's hash key instead of the index's names the missing index key.
    with expect_error(VE, exact("Query condition missed key schema element: gpk")):
        dynamodb.query(TableName=itbl, IndexName="gsi_all", KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": "x"}))
    with expect_error(VE, exact(
            "One or more parameter values were invalid: Condition parameter type does not match "
            "schema type")):
        dynamodb.query(TableName=itbl, IndexName="gsi_all",
                       KeyConditionExpression="gpk = :p AND gsk > :s",
                       ExpressionAttributeValues=avs({":p": "x", ":s": "text"}))


def test_lsi_sparse_and_ordered(dynamodb, itbl):
    # An LSI holds only the partition's items that have its sort key, ordered by it, with range conditions and the table key in LastEvaluatedKey.
    p = uid("p")
    for sk, lsk in (("1", "m"), ("2", "c"), ("3", None), ("4", "x"), ("5", "c")):
        item = {"pk": p, "sk": sk}
        if lsk:
            item["lsk"] = lsk
        put(dynamodb, itbl, **item)
    resp = dynamodb.query(TableName=itbl, IndexName="lsi_keys", KeyConditionExpression="pk = :p",
                          ExpressionAttributeValues=avs({":p": p}))
    assert [(i["lsk"], i["sk"]) for i in map(plain, resp["Items"])] == [
        ("c", "2"), ("c", "5"), ("m", "1"), ("x", "4")]
    resp = dynamodb.query(TableName=itbl, IndexName="lsi_keys",
                          KeyConditionExpression="pk = :p AND lsk > :v",
                          ExpressionAttributeValues=avs({":p": p, ":v": "c"}), Limit=1)
    assert [plain(i)["sk"] for i in resp["Items"]] == ["1"]
    assert plain(resp["LastEvaluatedKey"]) == {"pk": p, "sk": "1", "lsk": "m"}
    dynamodb.update_item(TableName=itbl, Key=avs({"pk": p, "sk": "1"}), UpdateExpression="REMOVE lsk")
    dynamodb.update_item(TableName=itbl, Key=avs({"pk": p, "sk": "3"}), UpdateExpression="SET lsk = :v",
                         ExpressionAttributeValues=avs({":v": "a"}))
    resp = dynamodb.query(TableName=itbl, IndexName="lsi_keys", KeyConditionExpression="pk = :p",
                          ExpressionAttributeValues=avs({":p": p}))
    assert [plain(i)["sk"] for i in resp["Items"]] == ["3", "2", "5", "4"]


# --------------------------------------------------------------------------
# Index key validation
# --------------------------------------------------------------------------

def test_index_key_type_mismatch_rejected(dynamodb, itbl):
    # A GSI or LSI key attribute of the wrong type fails PutItem and UpdateItem with DynamoDB's text; nothing is written.
    p = uid("p")
    with expect_error(VE, exact("One or more parameter values were invalid: Type mismatch for Index "
                                "Key solo Expected: S Actual: N IndexName: gsi_solo")):
        put(dynamodb, itbl, pk=p, sk="1", solo=5)
    assert get(dynamodb, itbl, p, "1") is None
    with expect_error(VE, exact("One or more parameter values were invalid: Type mismatch for Index "
                                "Key lsk2 Expected: N Actual: S IndexName: lsi_inc")):
        put(dynamodb, itbl, pk=p, sk="1", lsk2="five")
    assert get(dynamodb, itbl, p, "1") is None

    put(dynamodb, itbl, pk=p, sk="1", solo="ok", other1="keep")
    with expect_error(VE, exact("One or more parameter values were invalid: Type mismatch for Index "
                                "Key solo Expected: S Actual: B IndexName: gsi_solo")):
        dynamodb.update_item(TableName=itbl, Key=avs({"pk": p, "sk": "1"}),
                             UpdateExpression="SET solo = :b, other1 = :x",
                             ExpressionAttributeValues=avs({":b": b"\x01", ":x": "changed"}))
    assert get(dynamodb, itbl, p, "1") == {"pk": p, "sk": "1", "solo": "ok", "other1": "keep"}
    assert table_keys(iquery(dynamodb, itbl, "gsi_solo", "solo", "ok")) != []


def test_index_key_empty_string_rejected(dynamodb, itbl):
    # An empty string in a secondary index key is rejected (PutItem and UpdateItem) with DynamoDB's text; nothing is written.
    p = uid("p")
    message = ("One or more parameter values are not valid. A value specified for a secondary index "
               "key is not supported. The AttributeValue for a key attribute cannot contain an "
               "empty string value. IndexName: gsi_solo, IndexKey: solo")
    with expect_error(VE, exact(message)):
        put(dynamodb, itbl, pk=p, sk="1", solo="")
    assert get(dynamodb, itbl, p, "1") is None
    put(dynamodb, itbl, pk=p, sk="1", other1="keep")
    with expect_error(VE, exact(message)):
        dynamodb.update_item(TableName=itbl, Key=avs({"pk": p, "sk": "1"}),
                             UpdateExpression="SET solo = :e, other1 = :x",
                             ExpressionAttributeValues=avs({":e": "", ":x": "changed"}))
    assert get(dynamodb, itbl, p, "1") == {"pk": p, "sk": "1", "other1": "keep"}
    # A non-key attribute may still be an empty string.
    put(dynamodb, itbl, pk=p, sk="2", other1="", inc1="")
    assert get(dynamodb, itbl, p, "2") == {"pk": p, "sk": "2", "other1": "", "inc1": ""}


# --------------------------------------------------------------------------
# Projections
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def projected(dynamodb, itbl):
    """One item with every kind of attribute; returns (gpk, item)."""
    g = uid()
    item = {"pk": "proj" + g, "sk": "1", "gpk": g, "gsk": 3, "lsk": "l", "lsk2": 4,
            "inc1": "one", "inc2": ["two"], "other1": {"deep": True}, "other2": "x"}
    put(dynamodb, itbl, **item)
    return g, item


def pick(item, *names):
    return {k: v for k, v in item.items() if k in names}


def test_gsi_projections(dynamodb, itbl, projected):
    # KEYS_ONLY returns table and index keys, INCLUDE adds the listed attributes, ALL returns the item; Query and Scan alike.
    g, item = projected
    assert iquery(dynamodb, itbl, "gsi_keys", "gpk", g) == [pick(item, "pk", "sk", "gpk")]
    assert iquery(dynamodb, itbl, "gsi_inc", "gpk", g) == [
        pick(item, "pk", "sk", "gpk", "gsk", "inc1", "inc2")]
    assert iquery(dynamodb, itbl, "gsi_all", "gpk", g) == [item]
    assert iquery(dynamodb, itbl, "gsi_inc", "gpk", g, Select="ALL_PROJECTED_ATTRIBUTES") == [
        pick(item, "pk", "sk", "gpk", "gsk", "inc1", "inc2")]
    assert iquery(dynamodb, itbl, "gsi_all", "gpk", g, Select="ALL_ATTRIBUTES") == [item]
    assert iquery(dynamodb, itbl, "gsi_inc", "gpk", g, ProjectionExpression="inc2[0], pk") == [
        {"inc2": ["two"], "pk": item["pk"]}]
    for index, names in (("gsi_keys", ("pk", "sk", "gpk")),
                         ("gsi_inc", ("pk", "sk", "gpk", "gsk", "inc1", "inc2"))):
        scan = dynamodb.scan(TableName=itbl, IndexName=index, FilterExpression="pk = :p",
                             ExpressionAttributeValues=avs({":p": item["pk"]}))
        assert [plain(i) for i in scan["Items"]] == [pick(item, *names)]


def test_gsi_projection_of_unprojected_attribute_rejected(dynamodb, itbl, projected):
    # A GSI query may only project attributes the index holds; filtering on a projected one works.
    g, item = projected
    with expect_error(VE, exact("One or more parameter values were invalid: Global secondary index "
                                "gsi_inc does not project [other2]")):
        iquery(dynamodb, itbl, "gsi_inc", "gpk", g, ProjectionExpression="inc1, other2")
    got = iquery(dynamodb, itbl, "gsi_inc", "gpk", g, {":v": "one"}, FilterExpression="inc1 = :v",
                 ProjectionExpression="pk, inc1")
    assert got == [{"pk": item["pk"], "inc1": "one"}]


def test_lsi_fetches_unprojected_attributes_from_table(dynamodb, itbl, projected):
    # An LSI returns its projection by default; Select=ALL_ATTRIBUTES or a ProjectionExpression naming other attributes fetches them from the table.
    _, item = projected
    p = item["pk"]

    def lq(index, **kwargs):
        resp = dynamodb.query(TableName=itbl, IndexName=index, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=avs({":p": p}), **kwargs)
        return [plain(i) for i in resp["Items"]]

    assert lq("lsi_keys") == [pick(item, "pk", "sk", "lsk")]
    assert lq("lsi_inc") == [pick(item, "pk", "sk", "lsk2", "inc1")]
    assert lq("lsi_keys", Select="ALL_PROJECTED_ATTRIBUTES") == [pick(item, "pk", "sk", "lsk")]
    assert lq("lsi_keys", Select="ALL_ATTRIBUTES") == [item]
    assert lq("lsi_inc", Select="ALL_ATTRIBUTES") == [item]
    assert lq("lsi_keys", ProjectionExpression="other1.deep, inc2, lsk") == [
        {"other1": {"deep": True}, "inc2": ["two"], "lsk": "l"}]
    scan = dynamodb.scan(TableName=itbl, IndexName="lsi_inc", Select="ALL_ATTRIBUTES",
                         FilterExpression="pk = :p", ExpressionAttributeValues=avs({":p": p}))
    assert [plain(i) for i in scan["Items"]] == [item]


# --------------------------------------------------------------------------
# Multi-attribute GSI keys
# --------------------------------------------------------------------------

MULTI_INDEX = "by_tenant_date"


@pytest.fixture(scope="module")
def multi_tbl(dynamodb, tables, server_url):
    """GSI by_tenant_date: HASH tnt, ste; RANGE yr (N), mo (N), dd (S). Created
    with a raw request since botocore 1.29 allows at most one key of each kind."""
    name = unique_name("multi")
    status, body = raw_op(server_url, "CreateTable", {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": defs(pk="S", tnt="S", ste="S", yr="N", mo="N", dd="S"),
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": MULTI_INDEX,
            "KeySchema": [{"AttributeName": "tnt", "KeyType": "HASH"},
                          {"AttributeName": "ste", "KeyType": "HASH"},
                          {"AttributeName": "yr", "KeyType": "RANGE"},
                          {"AttributeName": "mo", "KeyType": "RANGE"},
                          {"AttributeName": "dd", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}]})
    assert status == 200, body
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


# --------------------------------------------------------------------------
# UpdateTable: creating and deleting GSIs
# --------------------------------------------------------------------------

def s_size(item):
    """DynamoDB item size of an item holding only string attributes."""
    return sum(len(k.encode()) + len(v.encode()) for k, v in item.items())


def wait_index_active(db, table, index, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        desc = db.describe_table(TableName=table)["Table"]
        found = [i for i in desc.get("GlobalSecondaryIndexes", []) if i["IndexName"] == index]
        if found and found[0]["IndexStatus"] == "ACTIVE" and desc["TableStatus"] == "ACTIVE":
            return desc, found[0]
        assert time.monotonic() < deadline, "index {} not ACTIVE: {}".format(index, found)
        time.sleep(0.2)


def test_create_gsi_on_populated_table_then_delete(dynamodb, tables):
    # UpdateTable Create backfills a new GSI (CREATING, then ACTIVE with matching counts and sizes, queryable), keeps it current, then Delete removes it.
    name = tables(prefix="idx-upd")
    rows = [{"pk": "item%02d" % i, "color": "red" if i % 3 else "blue", "note": "n" * i}
            for i in range(20)]
    rows += [{"pk": "plain%02d" % i, "note": "no color"} for i in range(5)]
    for row in rows:
        put(dynamodb, name, **row)

    resp = dynamodb.update_table(
        TableName=name, AttributeDefinitions=defs(pk="S", color="S"),
        GlobalSecondaryIndexUpdates=[{"Create": gsi("by_color", "color")}])
    created = [i for i in resp["TableDescription"]["GlobalSecondaryIndexes"]
               if i["IndexName"] == "by_color"]
    assert created and created[0]["IndexStatus"] == "CREATING"
    assert resp["TableDescription"]["TableStatus"] == "UPDATING"

    desc, index = wait_index_active(dynamodb, name, "by_color")
    indexed = [r for r in rows if "color" in r]
    assert desc["ItemCount"] == 25
    assert desc["TableSizeBytes"] == sum(s_size(r) for r in rows)
    assert index["ItemCount"] == 20
    assert index["IndexSizeBytes"] == sum(s_size(r) for r in indexed)
    assert index.get("Backfilling") in (None, False)

    blue = iquery(dynamodb, name, "by_color", "color", "blue")
    assert sorted(i["pk"] for i in blue) == ["item%02d" % i for i in range(0, 20, 3)]
    assert blue[0] == [r for r in rows if r["pk"] == blue[0]["pk"]][0]

    # New writes are maintained.
    put(dynamodb, name, pk="late", color="blue")
    dynamodb.update_item(TableName=name, Key=avs({"pk": "item00"}), UpdateExpression="REMOVE color")
    blue = iquery(dynamodb, name, "by_color", "color", "blue")
    assert "late" in [i["pk"] for i in blue] and "item00" not in [i["pk"] for i in blue]

    with expect_error(VE, exact("Attempting to create an index which already exists")):
        dynamodb.update_table(TableName=name, AttributeDefinitions=defs(pk="S", color="S"),
                              GlobalSecondaryIndexUpdates=[{"Create": gsi("by_color", "color")}])

    resp = dynamodb.update_table(TableName=name,
                                 GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by_color"}}])
    for index in resp["TableDescription"].get("GlobalSecondaryIndexes", []):
        if index["IndexName"] == "by_color":
            assert index["IndexStatus"] == "DELETING"
    deadline = time.monotonic() + 30
    while True:
        desc = dynamodb.describe_table(TableName=name)["Table"]
        if not desc.get("GlobalSecondaryIndexes") and desc["TableStatus"] == "ACTIVE":
            break
        assert time.monotonic() < deadline, desc.get("GlobalSecondaryIndexes")
        time.sleep(0.2)
    with expect_error(VE, exact("The table does not have the specified index: by_color")):
        iquery(dynamodb, name, "by_color", "color", "blue")
    # The table itself is untouched.
    assert dynamodb.describe_table(TableName=name)["Table"]["ItemCount"] == 26


def test_delete_missing_gsi_is_resource_not_found(dynamodb, tables):
    # Deleting an index the table does not have is ResourceNotFoundException.
    name = tables(prefix="idx-del")
    with expect_error(RNF):
        dynamodb.update_table(TableName=name,
                              GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "nope"}}])


def test_create_gsi_with_sort_key_and_include_projection(dynamodb, tables):
    # A GSI created later with a sort key and an INCLUDE projection backfills in sort order with only the projected attributes.
    name = tables(range_key=("sk", "S"), prefix="idx-upd2")
    for i in (3, 1, 2):
        put(dynamodb, name, pk="p", sk="s%d" % i, cat="c", rnk="r%d" % (10 - i), keep="k",
            drop="d")
    dynamodb.update_table(TableName=name, AttributeDefinitions=defs(cat="S", rnk="S"),
                          GlobalSecondaryIndexUpdates=[{"Create": gsi("by_cat_rank", "cat", "rnk",
                                                                      "INCLUDE", ["keep"])}])
    wait_index_active(dynamodb, name, "by_cat_rank")
    got = iquery(dynamodb, name, "by_cat_rank", "cat", "c")
    assert got == [{"pk": "p", "sk": "s%d" % i, "cat": "c", "rnk": "r%d" % (10 - i), "keep": "k"}
                   for i in (3, 2, 1)]


def test_backfill_skips_index_key_violations(dynamodb, tables):
    # Backfilling a new GSI leaves out items whose index key has the wrong type or is an empty string; later writes of such values are rejected.
    name = tables(prefix="idx-viol")
    put(dynamodb, name, pk="num", color=1)
    put(dynamodb, name, pk="empty", color="")
    put(dynamodb, name, pk="good", color="red")
    dynamodb.update_table(TableName=name, AttributeDefinitions=defs(pk="S", color="S"),
                          GlobalSecondaryIndexUpdates=[{"Create": gsi("by_color", "color")}])
    _, index = wait_index_active(dynamodb, name, "by_color")
    assert index["ItemCount"] == 1
    scan = dynamodb.scan(TableName=name, IndexName="by_color")
    assert [plain(i) for i in scan["Items"]] == [{"pk": "good", "color": "red"}]
    with expect_error(VE, exact("One or more parameter values were invalid: Type mismatch for "
                                "Index Key color Expected: S Actual: N IndexName: by_color")):
        put(dynamodb, name, pk="num2", color=2)
    # The violating items themselves are still in the table.
    assert dynamodb.describe_table(TableName=name)["Table"]["ItemCount"] == 3


def test_numeric_and_binary_index_keys(dynamodb, tables):
    # Numeric index keys are compared by value (1.50 = 15E-1), sort numerically, and binary index keys work as hash keys.
    name = tables(prefix="idx-num", AttributeDefinitions=defs(pk="S", n="N", b="B", r="N"),
                  KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                  GlobalSecondaryIndexes=[gsi("by_n", "n"), gsi("by_b_r", "b", "r")])
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "a"}, "n": {"N": "1.50"}})
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "b"}, "n": {"N": "15E-1"}})
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "c"}, "n": {"N": "-1.5"}})
    got = dynamodb.query(TableName=name, IndexName="by_n", KeyConditionExpression="n = :n",
                         ExpressionAttributeValues={":n": {"N": "1.5"}})["Items"]
    assert sorted(i["pk"]["S"] for i in got) == ["a", "b"]
    assert all(i["n"] == {"N": "1.5"} for i in got)
    for pk, r in (("x1", "10"), ("x2", "-3"), ("x3", "2.5"), ("x4", "-20"), ("x5", "0")):
        dynamodb.put_item(TableName=name, Item={"pk": {"S": pk}, "b": {"B": b"\x00\xff"},
                                                "r": {"N": r}})
    got = dynamodb.query(TableName=name, IndexName="by_b_r",
                         KeyConditionExpression="b = :b AND r > :r",
                         ExpressionAttributeValues={":b": {"B": b"\x00\xff"}, ":r": {"N": "-5"}})
    assert [i["r"]["N"] for i in got["Items"]] == ["-3", "0", "2.5", "10"]


def test_index_exclusive_start_key_must_hold_table_and_index_keys(dynamodb, itbl):
    # On an index, ExclusiveStartKey needs the index keys and the table keys.
    for start in ({"gpk": "g", "gsk": 1}, {"pk": "p", "sk": "s"}, {"pk": "p", "sk": "s", "gpk": "g"}):
        with expect_error(VE, "^The provided starting key is invalid"):
            dynamodb.query(TableName=itbl, IndexName="gsi_all", KeyConditionExpression="gpk = :g",
                           ExpressionAttributeValues=avs({":g": "g"}),
                           ExclusiveStartKey=avs(start))


def test_lsi_equal_sort_values_reverse(dynamodb, itbl):
    # Items sharing an LSI sort value come back by table sort key, and exactly reversed with ScanIndexForward=False.
    p = uid("p")
    for sk in ("d", "a", "c", "b"):
        put(dynamodb, itbl, pk=p, sk=sk, lsk="same")
    put(dynamodb, itbl, pk=p, sk="e", lsk="earlier")

    def order(forward):
        resp = dynamodb.query(TableName=itbl, IndexName="lsi_keys", KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=avs({":p": p}), ScanIndexForward=forward)
        return [plain(i)["sk"] for i in resp["Items"]]

    assert order(True) == ["e", "a", "b", "c", "d"]
    assert order(False) == ["d", "c", "b", "a", "e"]


# --------------------------------------------------------------------------
# DescribeTable statistics
# --------------------------------------------------------------------------

def test_describe_table_counts_follow_writes(dynamodb, tables):
    # Table ItemCount/TableSizeBytes and each index's ItemCount/IndexSizeBytes follow puts, updates and deletes.
    name = tables(
        prefix="idx-cnt", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                     {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=defs(pk="S", sk="S", gk="S", lk="S"),
        GlobalSecondaryIndexes=[gsi("g_all", "gk"), gsi("g_keys", "gk", projection="KEYS_ONLY")],
        LocalSecondaryIndexes=[lsi("l_all", "lk")])

    def stats():
        desc = dynamodb.describe_table(TableName=name)["Table"]
        idx = {i["IndexName"]: (i["ItemCount"], i["IndexSizeBytes"])
               for i in desc["GlobalSecondaryIndexes"] + desc["LocalSecondaryIndexes"]}
        return desc["ItemCount"], desc["TableSizeBytes"], idx

    def keys_size(item):
        return s_size(pick(item, "pk", "sk", "gk"))

    assert stats() == (0, 0, {"g_all": (0, 0), "g_keys": (0, 0), "l_all": (0, 0)})

    a = {"pk": "a", "sk": "1", "gk": "x", "v": "hello"}
    b = {"pk": "b", "sk": "1", "lk": "y", "v": "world!"}
    c = {"pk": "c", "sk": "1", "v": "plain"}
    for item in (a, b, c):
        put(dynamodb, name, **item)
    assert stats() == (3, s_size(a) + s_size(b) + s_size(c), {
        "g_all": (1, s_size(a)), "g_keys": (1, keys_size(a)), "l_all": (1, s_size(b))})

    # UpdateItem adding the GSI key to c and growing b.
    dynamodb.update_item(TableName=name, Key=avs({"pk": "c", "sk": "1"}),
                         UpdateExpression="SET gk = :g", ExpressionAttributeValues=avs({":g": "x"}))
    c["gk"] = "x"
    dynamodb.update_item(TableName=name, Key=avs({"pk": "b", "sk": "1"}),
                         UpdateExpression="SET v = :v", ExpressionAttributeValues=avs({":v": "w" * 50}))
    b["v"] = "w" * 50
    assert stats() == (3, s_size(a) + s_size(b) + s_size(c), {
        "g_all": (2, s_size(a) + s_size(c)), "g_keys": (2, keys_size(a) + keys_size(c)),
        "l_all": (1, s_size(b))})

    # Overwrite a without its GSI key, delete b.
    a = {"pk": "a", "sk": "1", "v": "hi"}
    put(dynamodb, name, **a)
    dynamodb.delete_item(TableName=name, Key=avs({"pk": "b", "sk": "1"}))
    assert stats() == (2, s_size(a) + s_size(c), {
        "g_all": (1, s_size(c)), "g_keys": (1, keys_size(c)), "l_all": (0, 0)})

    # Deleting a missing item and an unconditional no-op update change nothing.
    dynamodb.delete_item(TableName=name, Key=avs({"pk": "zz", "sk": "1"}))
    before = stats()
    dynamodb.update_item(TableName=name, Key=avs({"pk": "c", "sk": "1"}),
                         UpdateExpression="SET v = :v", ExpressionAttributeValues=avs({":v": "plain"}))
    assert stats() == before

    for item in (a, c):
        dynamodb.delete_item(TableName=name, Key=avs(pick(item, "pk", "sk")))
    assert stats() == (0, 0, {"g_all": (0, 0), "g_keys": (0, 0), "l_all": (0, 0)})
