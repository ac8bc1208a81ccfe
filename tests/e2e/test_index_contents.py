"""What secondary indexes hold and return: sparse GSIs and LSIs following
puts, updates and deletes, non-unique index keys, walks and capacity on an
index, index key validation on writes, KEYS_ONLY / INCLUDE / ALL
projections (and LSI fetches from the table), numeric and binary index key
values, start keys on an index, and the order of equal LSI sort values."""

import random

import pytest

from .e2e_util import avs, exact, expect_error, plain, unique_name
from .indexes_util import VE, defs, gsi, iquery, lsi, pick, put


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


def get(db, table, pk, sk):
    resp = db.get_item(TableName=table, Key=avs({"pk": pk, "sk": sk}), ConsistentRead=True)
    return plain(resp["Item"]) if "Item" in resp else None


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
# Index key values, start keys and order
# --------------------------------------------------------------------------


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
