"""ReturnConsumedCapacity: the TOTAL and INDEXES shapes (one object for
single-item operations and Query/Scan, a list with one entry per table for
batches and transactions; ReadCapacityUnits/WriteCapacityUnits only on
transactions) and the arithmetic (reads in 4 KB units, half for eventually
consistent reads; writes in 1 KB units on the larger of the old and new
item; GSI writes charged per index; Query rounds the summed size once;
transactions cost twice the table part).

Item sizes are exact: every attribute here is a string, so an item's size
is the sum of its attribute names' and values' lengths in bytes."""

import pytest

from .e2e_util import avs, key, raw_op

KB = 1024


@pytest.fixture(scope="module")
def htbl(tables):
    """Hash key pk (S), no indexes."""
    return tables(prefix="cap-h")


@pytest.fixture(scope="module")
def h2tbl(tables):
    """A second plain table (for per-table lists)."""
    return tables(prefix="cap-h2")


@pytest.fixture(scope="module")
def gtbl(tables):
    """Hash key pk (S); GSI gsi_all (g, ALL) and GSI gsi_keys (h, KEYS_ONLY)."""
    return tables(
        prefix="cap-g",
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "g", "h")],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[
            {"IndexName": "gsi_all", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "gsi_keys", "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}}])


def sized(pk, size, **attrs):
    """An item of exactly `size` bytes: pk, the given string attributes, and padding in d."""
    used = len("pk") + len(pk) + len("d") + sum(len(n) + len(v) for n, v in attrs.items())
    assert size >= used, "item too small for its attributes"
    return dict(attrs, pk=pk, d="x" * (size - used))


def put(dynamodb, table, item):
    dynamodb.put_item(TableName=table, Item=avs(item))


def cc(resp):
    return resp["ConsumedCapacity"]


# ==========================================================================
# Reads: GetItem, Query, Scan
# ==========================================================================

def test_get_item_shapes(dynamodb, htbl, gtbl):
    # GetItem: no ConsumedCapacity unless asked (or NONE); TOTAL is {TableName, CapacityUnits}; INDEXES adds Table only, even on a table with GSIs.
    a = key()
    put(dynamodb, htbl, {"pk": a, "v": "small"})
    put(dynamodb, gtbl, {"pk": a, "g": "x", "h": "y"})
    assert "ConsumedCapacity" not in dynamodb.get_item(TableName=htbl, Key=avs({"pk": a}))
    assert "ConsumedCapacity" not in dynamodb.get_item(TableName=htbl, Key=avs({"pk": a}),
                                                       ReturnConsumedCapacity="NONE")
    resp = dynamodb.get_item(TableName=htbl, Key=avs({"pk": a}), ReturnConsumedCapacity="TOTAL")
    assert cc(resp) == {"TableName": htbl, "CapacityUnits": 0.5}
    resp = dynamodb.get_item(TableName=htbl, Key=avs({"pk": a}), ReturnConsumedCapacity="TOTAL",
                             ConsistentRead=True)
    assert cc(resp) == {"TableName": htbl, "CapacityUnits": 1.0}
    resp = dynamodb.get_item(TableName=gtbl, Key=avs({"pk": a}), ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 0.5, "Table": {"CapacityUnits": 0.5}}


def test_get_item_missing_still_charged(dynamodb, htbl):
    # A GetItem that finds nothing costs 0.5 (eventual) or 1 (consistent).
    resp = dynamodb.get_item(TableName=htbl, Key=avs({"pk": key()}), ReturnConsumedCapacity="TOTAL")
    assert "Item" not in resp and cc(resp) == {"TableName": htbl, "CapacityUnits": 0.5}
    resp = dynamodb.get_item(TableName=htbl, Key=avs({"pk": key()}), ReturnConsumedCapacity="TOTAL",
                             ConsistentRead=True)
    assert cc(resp)["CapacityUnits"] == 1.0


@pytest.mark.parametrize("size, consistent_units", [
    (100, 1), (4 * KB, 1), (4 * KB + 1, 2), (8 * KB, 2), (10000, 3), (100 * KB, 25)])
def test_get_item_4kb_units(dynamodb, htbl, size, consistent_units):
    # GetItem rounds the item size up to 4 KB: one unit per 4 KB consistent, half that eventually consistent.
    a = key()
    put(dynamodb, htbl, sized(a, size))
    resp = dynamodb.get_item(TableName=htbl, Key=avs({"pk": a}), ReturnConsumedCapacity="TOTAL",
                             ConsistentRead=True)
    assert cc(resp)["CapacityUnits"] == consistent_units
    resp = dynamodb.get_item(TableName=htbl, Key=avs({"pk": a}), ReturnConsumedCapacity="TOTAL")
    assert cc(resp)["CapacityUnits"] == consistent_units / 2


def test_get_item_projection_does_not_reduce_cost(dynamodb, htbl):
    # A projection returns less but the whole item is read: a 10000-byte item costs 1.5 either way.
    a = key()
    put(dynamodb, htbl, sized(a, 10000))
    resp = dynamodb.get_item(TableName=htbl, Key=avs({"pk": a}), ProjectionExpression="pk",
                             ReturnConsumedCapacity="TOTAL")
    assert resp["Item"] == avs({"pk": a}) and cc(resp)["CapacityUnits"] == 1.5


def test_query_rounds_summed_size_once(dynamodb, tables):
    # Query and Scan sum the sizes of the items read and round once: three 1500-byte items (4500 bytes) are 2 units consistent, not 3.
    name = tables(range_key=("sk", "S"), prefix="cap-q")
    p = key()
    for s in ("1", "2", "3"):
        item = sized(p, 1500, sk=s)
        put(dynamodb, name, item)
    q = {"TableName": name, "KeyConditionExpression": "pk = :p",
         "ExpressionAttributeValues": avs({":p": p})}
    resp = dynamodb.query(ReturnConsumedCapacity="TOTAL", ConsistentRead=True, **q)
    assert resp["Count"] == 3
    assert cc(resp) == {"TableName": name, "CapacityUnits": 2.0}
    resp = dynamodb.query(ReturnConsumedCapacity="TOTAL", **q)
    assert cc(resp) == {"TableName": name, "CapacityUnits": 1.0}
    resp = dynamodb.query(ReturnConsumedCapacity="INDEXES", ConsistentRead=True, **q)
    assert cc(resp) == {"TableName": name, "CapacityUnits": 2.0, "Table": {"CapacityUnits": 2.0}}
    # A whole-table Scan costs at least 4 units consistent (test_reads_as_captured.py).
    resp = dynamodb.scan(TableName=name, ReturnConsumedCapacity="TOTAL", ConsistentRead=True)
    assert cc(resp) == {"TableName": name, "CapacityUnits": 4.0}


# ==========================================================================
# Single-item writes
# ==========================================================================

@pytest.mark.parametrize("size, units", [(10, 1), (KB, 1), (KB + 1, 2), (2 * KB + 1, 3), (10 * KB, 10)])
def test_put_item_1kb_units(dynamodb, htbl, size, units):
    # PutItem of a new item: one unit per 1 KB, rounded up; the shape is {TableName, CapacityUnits}.
    resp = dynamodb.put_item(TableName=htbl, Item=avs(sized(key(), max(size, 30))),
                             ReturnConsumedCapacity="TOTAL")
    assert cc(resp) == {"TableName": htbl, "CapacityUnits": float(units)}


def test_put_item_charges_larger_of_old_and_new(dynamodb, htbl):
    # Replacing a 2.5 KB item with a tiny one costs 3 (the old item); growing a tiny one to 3000 bytes costs 3 (the new).
    a, b = key(), key()
    put(dynamodb, htbl, sized(a, 2560))
    resp = dynamodb.put_item(TableName=htbl, Item=avs({"pk": a}), ReturnConsumedCapacity="TOTAL")
    assert cc(resp)["CapacityUnits"] == 3
    put(dynamodb, htbl, {"pk": b})
    resp = dynamodb.put_item(TableName=htbl, Item=avs(sized(b, 3000)), ReturnConsumedCapacity="TOTAL")
    assert cc(resp)["CapacityUnits"] == 3


def test_update_and_delete_capacity(dynamodb, htbl):
    # UpdateItem and DeleteItem: larger of old and new; a missing item costs 1; INDEXES on a table without indexes adds Table only.
    a = key()
    resp = dynamodb.update_item(TableName=htbl, Key=avs({"pk": a}), UpdateExpression="SET v = :v",
                                ExpressionAttributeValues=avs({":v": "x" * 1500}),
                                ReturnConsumedCapacity="TOTAL")
    assert cc(resp) == {"TableName": htbl, "CapacityUnits": 2.0}      # missing -> 1507 bytes
    resp = dynamodb.update_item(TableName=htbl, Key=avs({"pk": a}), UpdateExpression="REMOVE v",
                                ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": htbl, "CapacityUnits": 2.0, "Table": {"CapacityUnits": 2.0}}
    put(dynamodb, htbl, sized(a, 2 * KB + 1))
    resp = dynamodb.delete_item(TableName=htbl, Key=avs({"pk": a}), ReturnConsumedCapacity="TOTAL")
    assert cc(resp) == {"TableName": htbl, "CapacityUnits": 3.0}
    resp = dynamodb.delete_item(TableName=htbl, Key=avs({"pk": a}), ReturnConsumedCapacity="TOTAL")
    assert cc(resp) == {"TableName": htbl, "CapacityUnits": 1.0}
    resp = dynamodb.update_item(TableName=htbl, Key=avs({"pk": key()}), UpdateExpression="SET v = :v",
                                ExpressionAttributeValues=avs({":v": "s"}), ReturnConsumedCapacity="TOTAL")
    assert cc(resp)["CapacityUnits"] == 1.0


def test_gsi_writes_charged(dynamodb, gtbl):
    # Each GSI whose entry changes is charged (1 per KB of entry, 2 when its key moves); untouched indexes are left out of the map, and the map is left out when empty.
    a = key()
    resp = dynamodb.put_item(TableName=gtbl, Item=avs({"pk": a, "v": "1"}), ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}

    resp = dynamodb.put_item(TableName=gtbl, Item=avs({"pk": a, "g": "g1", "v": "1"}),
                             ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 2.0, "Table": {"CapacityUnits": 1.0},
                        "GlobalSecondaryIndexes": {"gsi_all": {"CapacityUnits": 1.0}}}
    resp = dynamodb.put_item(TableName=gtbl, Item=avs({"pk": a, "g": "g1", "h": "h1", "v": "1"}),
                             ReturnConsumedCapacity="TOTAL")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 3.0}       # table 1, gsi_all 1, gsi_keys 1

    # A non-key attribute change: the ALL index entry changes, the KEYS_ONLY one does not.
    resp = dynamodb.update_item(TableName=gtbl, Key=avs({"pk": a}), UpdateExpression="SET v = :v",
                                ExpressionAttributeValues=avs({":v": "2"}), ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 2.0, "Table": {"CapacityUnits": 1.0},
                        "GlobalSecondaryIndexes": {"gsi_all": {"CapacityUnits": 1.0}}}

    # Moving the GSI key: delete + insert in that index.
    resp = dynamodb.update_item(TableName=gtbl, Key=avs({"pk": a}), UpdateExpression="SET g = :g",
                                ExpressionAttributeValues=avs({":g": "g2"}), ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0},
                        "GlobalSecondaryIndexes": {"gsi_all": {"CapacityUnits": 2.0}}}

    # An identical overwrite charges no index.
    resp = dynamodb.put_item(TableName=gtbl, Item=avs({"pk": a, "g": "g2", "h": "h1", "v": "2"}),
                             ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}

    # Deleting an item that is in both indexes.
    resp = dynamodb.delete_item(TableName=gtbl, Key=avs({"pk": a}), ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0},
                        "GlobalSecondaryIndexes": {"gsi_all": {"CapacityUnits": 1.0},
                                                   "gsi_keys": {"CapacityUnits": 1.0}}}


def test_gsi_write_sized_on_projected_entry(dynamodb, gtbl):
    # A 2500-byte item: table 3, the ALL index holds the whole item (3), the KEYS_ONLY index a small entry (1).
    resp = dynamodb.put_item(TableName=gtbl, Item=avs(sized(key(), 2500, g="g", h="h")),
                             ReturnConsumedCapacity="INDEXES")
    assert cc(resp) == {"TableName": gtbl, "CapacityUnits": 7.0, "Table": {"CapacityUnits": 3.0},
                        "GlobalSecondaryIndexes": {"gsi_all": {"CapacityUnits": 3.0},
                                                   "gsi_keys": {"CapacityUnits": 1.0}}}


# ==========================================================================
# Batches
# ==========================================================================

def test_batch_get_capacity(dynamodb, htbl, h2tbl):
    # BatchGetItem: a list with one entry per table; each item rounded to 4 KB separately (1.5 KB + 6.5 KB = 3 units consistent), a missing key 1 (0.5 eventual).
    a, b = key(), key()
    put(dynamodb, htbl, sized(a, 1536))
    put(dynamodb, htbl, sized(b, 6656))
    request = {htbl: {"Keys": [avs({"pk": a}), avs({"pk": b}), avs({"pk": key()})]},
               h2tbl: {"Keys": [avs({"pk": key()})]}}
    resp = dynamodb.batch_get_item(RequestItems=request, ReturnConsumedCapacity="TOTAL")
    assert sorted(cc(resp), key=lambda c: c["TableName"]) == sorted(
        [{"TableName": htbl, "CapacityUnits": 2.0}, {"TableName": h2tbl, "CapacityUnits": 0.5}],
        key=lambda c: c["TableName"])
    for t in request:
        request[t]["ConsistentRead"] = True
    resp = dynamodb.batch_get_item(RequestItems=request, ReturnConsumedCapacity="INDEXES")
    assert sorted(cc(resp), key=lambda c: c["TableName"]) == sorted(
        [{"TableName": htbl, "CapacityUnits": 4.0, "Table": {"CapacityUnits": 4.0}},
         {"TableName": h2tbl, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}],
        key=lambda c: c["TableName"])
    assert "ConsumedCapacity" not in dynamodb.batch_get_item(RequestItems=request)


def test_batch_write_capacity(dynamodb, htbl, gtbl):
    # BatchWriteItem: a list per table; each request rounded to 1 KB separately (500 B + 3.5 KB = 5); a missing delete 1; GSI writes in the INDEXES map.
    a, b, c = key(), key(), key()
    resp = dynamodb.batch_write_item(RequestItems={
        htbl: [{"PutRequest": {"Item": avs(sized(a, 500))}},
               {"PutRequest": {"Item": avs(sized(b, 3584))}},
               {"DeleteRequest": {"Key": avs({"pk": key()})}}],
        gtbl: [{"PutRequest": {"Item": avs({"pk": c, "g": "g"})}}]},
        ReturnConsumedCapacity="INDEXES")
    assert resp["UnprocessedItems"] == {}
    assert sorted(cc(resp), key=lambda e: e["TableName"]) == sorted([
        {"TableName": htbl, "CapacityUnits": 6.0, "Table": {"CapacityUnits": 6.0}},
        {"TableName": gtbl, "CapacityUnits": 2.0, "Table": {"CapacityUnits": 1.0},
         "GlobalSecondaryIndexes": {"gsi_all": {"CapacityUnits": 1.0}}}],
        key=lambda e: e["TableName"])
    # Deleting them again: costed on the stored items (1 + 4); TOTAL has no index detail.
    resp = dynamodb.batch_write_item(RequestItems={
        htbl: [{"DeleteRequest": {"Key": avs({"pk": a})}}, {"DeleteRequest": {"Key": avs({"pk": b})}}]},
        ReturnConsumedCapacity="TOTAL")
    assert cc(resp) == [{"TableName": htbl, "CapacityUnits": 5.0}]


# ==========================================================================
# Transactions
# ==========================================================================

def test_transact_write_capacity_total(dynamodb, htbl, h2tbl):
    # TransactWriteItems: twice the table part, with WriteCapacityUnits next to CapacityUnits, one entry per table.
    a, b, c = key(), key(), key()
    resp = dynamodb.transact_write_items(ReturnConsumedCapacity="TOTAL", TransactItems=[
        {"Put": {"TableName": htbl, "Item": avs({"pk": a})}},
        {"Put": {"TableName": htbl, "Item": avs({"pk": b})}}])
    assert cc(resp) == [{"TableName": htbl, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0}]
    put(dynamodb, htbl, sized(c, 2560))
    resp = dynamodb.transact_write_items(ReturnConsumedCapacity="TOTAL", TransactItems=[
        {"Put": {"TableName": htbl, "Item": avs({"pk": c})}},                     # old image 2.5 KB: 6
        {"Delete": {"TableName": h2tbl, "Key": avs({"pk": key()})}},              # missing: 2
        {"ConditionCheck": {"TableName": htbl, "Key": avs({"pk": a}),             # a check: 2 write units
                            "ConditionExpression": "attribute_exists(pk)"}},
        {"Update": {"TableName": h2tbl, "Key": avs({"pk": key()}),                # 1507-byte new item: 4
                    "UpdateExpression": "SET v = :v",
                    "ExpressionAttributeValues": avs({":v": "x" * 1500})}}])
    assert sorted(cc(resp), key=lambda e: e["TableName"]) == sorted([
        {"TableName": htbl, "CapacityUnits": 8.0, "WriteCapacityUnits": 8.0},
        {"TableName": h2tbl, "CapacityUnits": 6.0, "WriteCapacityUnits": 6.0}],
        key=lambda e: e["TableName"])


def test_transact_write_capacity_indexes(dynamodb, gtbl):
    # INDEXES: Table carries the doubled table part with WriteCapacityUnits; the GSI part is not doubled.
    resp = dynamodb.transact_write_items(ReturnConsumedCapacity="INDEXES", TransactItems=[
        {"Put": {"TableName": gtbl, "Item": avs({"pk": key(), "g": "g"})}}])
    (entry,) = cc(resp)
    assert entry["TableName"] == gtbl
    assert entry["CapacityUnits"] == 3.0 and entry["WriteCapacityUnits"] == 3.0
    assert entry["Table"] == {"CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}
    assert set(entry["GlobalSecondaryIndexes"]) == {"gsi_all"}
    assert entry["GlobalSecondaryIndexes"]["gsi_all"]["CapacityUnits"] == 1.0
    assert "ReadCapacityUnits" not in entry


def test_transact_get_capacity(dynamodb, htbl, h2tbl):
    # TransactGetItems: 2 units per 4 KB per item, missing items included, with ReadCapacityUnits; INDEXES puts the split in Table too.
    a, b = key(), key()
    put(dynamodb, htbl, {"pk": a})
    put(dynamodb, h2tbl, sized(b, 5000))
    resp = dynamodb.transact_get_items(ReturnConsumedCapacity="TOTAL", TransactItems=[
        {"Get": {"TableName": htbl, "Key": avs({"pk": a})}},
        {"Get": {"TableName": htbl, "Key": avs({"pk": key()})}}])
    assert cc(resp) == [{"TableName": htbl, "CapacityUnits": 4.0, "ReadCapacityUnits": 4.0}]
    resp = dynamodb.transact_get_items(ReturnConsumedCapacity="INDEXES", TransactItems=[
        {"Get": {"TableName": htbl, "Key": avs({"pk": a})}},
        {"Get": {"TableName": h2tbl, "Key": avs({"pk": b})}}])
    assert sorted(cc(resp), key=lambda e: e["TableName"]) == sorted([
        {"TableName": htbl, "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0,
         "Table": {"CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}},
        {"TableName": h2tbl, "CapacityUnits": 4.0, "ReadCapacityUnits": 4.0,
         "Table": {"CapacityUnits": 4.0, "ReadCapacityUnits": 4.0}}],
        key=lambda e: e["TableName"])
    resp = dynamodb.transact_get_items(TransactItems=[{"Get": {"TableName": htbl, "Key": avs({"pk": a})}}])
    assert "ConsumedCapacity" not in resp


def test_cancelled_transaction_has_no_capacity(server_url, htbl):
    # A cancelled transaction's error body carries no ConsumedCapacity.
    status, doc = raw_op(server_url, "TransactWriteItems", {
        "ReturnConsumedCapacity": "TOTAL",
        "TransactItems": [{"ConditionCheck": {"TableName": htbl, "Key": {"pk": {"S": key()}},
                                              "ConditionExpression": "attribute_exists(pk)"}}]})
    assert status == 400 and doc["__type"].endswith("TransactionCanceledException")
    assert "ConsumedCapacity" not in doc


def test_idempotent_replay_reports_read_units(dynamodb, htbl):
    # A replay with the same ClientRequestToken writes nothing and is charged as a transactional read of the item: a 1.5 KB put costs 4 write units, its replay 2 read units.
    a, token = key(), key()
    items = [{"Put": {"TableName": htbl, "Item": avs(sized(a, 1536))}}]
    first = dynamodb.transact_write_items(TransactItems=items, ClientRequestToken=token,
                                          ReturnConsumedCapacity="TOTAL")
    assert cc(first) == [{"TableName": htbl, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0}]
    again = dynamodb.transact_write_items(TransactItems=items, ClientRequestToken=token,
                                          ReturnConsumedCapacity="TOTAL")
    assert cc(again) == [{"TableName": htbl, "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}]
