"""Paging through Query and Scan: LastEvaluatedKey walks at every small
Limit and in both directions, while another client writes, and after the
start item is deleted; the 1 MB page cap (which counts filtered-out items
too); and parallel scan segments that are disjoint and complete."""

import threading

import pytest

from .e2e_util import avs, make_client, plain
from .query_scan_util import part, put_all, query, sks, walk
from .query_scan_util import hash_tbl, num_tbl, str_tbl  # fixtures


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
# The 1 MB page cap
# --------------------------------------------------------------------------


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
