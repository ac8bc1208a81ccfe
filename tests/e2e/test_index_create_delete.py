"""UpdateTable creating and deleting GSIs on populated tables (the backfill,
its counts and sizes, index key violations left out, new writes
maintained), and the item counts and sizes DescribeTable reports for
tables and their indexes as items are written and deleted."""

import time

from .e2e_util import avs, exact, expect_error, plain
from .indexes_util import VE, defs, gsi, iquery, lsi, pick, put


RNF = "ResourceNotFoundException"


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
