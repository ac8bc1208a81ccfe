"""After a restart: settles each writer's pending request (all of it or none
of it must be there), then walks the tables, every GSI (Scan and Query),
the ledger's vector index (SearchVectors per owner), the TTL schedule and
both streams and compares them with the model."""

import math

from e2e.e2e_util import client_for
from e2e.server_util import admin_ok, read_stream, server_now

from .crash_model import (
    LAYERS, LAYERS_GSIS, LEDGER, LEDGER_GSI, LEDGER_VECTORS, REGIONS, SERVICE_IDENTITY,
    key_json, key_of, ledger_embedding)


def scan_all(client, table, index=None):
    kwargs = {"TableName": table}
    if index:
        kwargs["IndexName"] = index
    else:
        kwargs["ConsistentRead"] = True
    items = []
    for page in client.get_paginator("scan").paginate(**kwargs):
        items.extend(page["Items"])
    return items


def query_all(client, table, index, condition, values):
    items = []
    for page in client.get_paginator("query").paginate(
            TableName=table, IndexName=index, KeyConditionExpression=condition,
            ExpressionAttributeValues=values):
        items.extend(page["Items"])
    return items


def table_state(client, table):
    state = {}
    for item in scan_all(client, table):
        key = key_of(table, item)
        assert key not in state, "Scan returned {} twice".format(key)
        state[key] = item
    return state


def settle_pending(model, observed):
    """Each in-flight request happened entirely or not at all; the model
    learns which."""
    for wid, writes in sorted(model.pending.items()):
        before = [model.items.get(key) for key, _ in writes]
        after = [new for _, new in writes]
        seen = [observed.get(key) for key, _ in writes]
        if seen == after:
            model.apply(writes)
            model.acknowledged -= len(writes)  # not acknowledged, found applied
        else:
            assert seen == before, "writer {}'s request is half there: {}".format(
                wid, list(zip([k for k, _ in writes], before, after, seen)))
    model.pending.clear()


def projected(item, attributes):
    return {a: v for a, v in item.items() if a in attributes}


def check_indexes(client, model):
    layers = model.live(LAYERS)
    for index in LAYERS_GSIS:
        hash_attr = index.split("-")[0]
        expected = sorted((key_of(LAYERS, v), v) for v in layers.values()
                          if hash_attr in v and "dplySts" in v)
        got = sorted((key_of(LAYERS, v), v) for v in scan_all(client, LAYERS, index))
        assert got == expected, "GSI {} disagrees with the table".format(index)
        values = ["p{}".format(i) for i in range(5)] if hash_attr == "pckg" else REGIONS
        for value in values:
            got = query_all(client, LAYERS, index, "{} = :h".format(hash_attr),
                            {":h": {"S": value}})
            statuses = [g["dplySts"]["S"] for g in got]
            assert statuses == sorted(statuses), "Query on {} out of order".format(index)
            assert sorted((key_of(LAYERS, g), g) for g in got) == sorted(
                (k, v) for k, v in expected if v[hash_attr]["S"] == value)
    ledger = model.live(LEDGER)
    expected = sorted(key_of(LEDGER, v) for v in ledger.values())
    got = sorted(key_of(LEDGER, g) for g in scan_all(client, LEDGER, LEDGER_GSI))
    assert got == expected, "GSI {} disagrees with the table".format(LEDGER_GSI)
    for g in scan_all(client, LEDGER, LEDGER_GSI):
        assert set(g) == {"pk", "owner"}, "KEYS_ONLY entry carries {}".format(sorted(g))


def check_vectors(url, model, writers):
    """The ledger's vector index holds exactly the live items, each with the
    score its version's vector has from the origin, per owner. Returns the
    number of rows checked."""
    ledger = model.live(LEDGER)
    checked = 0
    for wid in range(writers):
        owner = "w{}".format(wid)
        answer = client_for(url).search_vectors(
            TableName=LEDGER, IndexName=LEDGER_VECTORS, TopK=100,
            SearchVector=[{"N": "0"}] * 3, SearchConditionExpression="#o = :o",
            ExpressionAttributeNames={"#o": "owner"},
            ExpressionAttributeValues={":o": {"S": owner}})
        got = sorted((r["Item"]["pk"]["S"], r["Score"]) for r in answer["SearchResults"])
        expected = sorted(
            (v["pk"]["S"], math.sqrt(sum(x * x for x in ledger_embedding(v["ver"]["N"]))))
            for v in ledger.values() if v["owner"]["S"] == owner)
        assert [pk for pk, _ in got] == [pk for pk, _ in expected], \
            "vector index {} disagrees with the table for {}".format(LEDGER_VECTORS, owner)
        for (_, score), (_, want) in zip(got, expected):
            assert abs(score - want) < 1e-6
        checked += len(got)
    return checked


def check_tables(client, model):
    for table in (LAYERS, LEDGER):
        observed = table_state(client, table)
        assert observed == model.live(table), "table {} disagrees with the model".format(table)


def check_streams(client, streams, model):
    """Every change has exactly one record, in the order of the changes."""
    for table in (LAYERS, LEDGER):
        arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
        by_key = {}
        for record in read_stream(streams, arn):
            data = record["dynamodb"]
            key = key_of(table, data["Keys"])
            by_key.setdefault(key, []).append(
                (data.get("OldImage"), data.get("NewImage"),
                 record.get("userIdentity") == SERVICE_IDENTITY, record["eventName"]))
        expected_keys = {k for k in model.changes if k[0] == table}
        assert set(by_key) == expected_keys, "stream {} names other keys".format(table)
        for key, records in by_key.items():
            want = model.changes[key]
            got = [(old, new, ttl) for old, new, ttl, _ in records]
            assert got == want, "stream records of {}: {} records, {} changes".format(
                key, len(got), len(want))
            for old, new, _, name in records:
                assert name == ("INSERT" if old is None else "REMOVE" if new is None
                                else "MODIFY")
    return sum(len(c) for c in model.changes.values())


def check_ttl(url, client, model, rng):
    """Moves the clock to a multiple of ten seconds ahead and sweeps: exactly
    the items whose expiry has passed go (the model records them as TTL
    deletes, which the next stream check expects as service REMOVEs)."""
    target = (server_now(url) + rng.randrange(600, 4000)) // 10 * 10
    admin_ok(url, "clock", {"SetMillis": target * 1000})
    due = {k for k, v in model.live(LAYERS).items()
           if "ttl" in v and int(v["ttl"]["N"]) <= target}
    answer = admin_ok(url, "sweep", {})
    swept = {key_of(d["TableName"], d["Key"]) for d in answer["Deleted"]}
    assert answer["DeletedCount"] == len(swept)
    assert swept == due, "sweep deleted {} items, {} were due; extra {}, missing {}".format(
        len(swept), len(due), sorted(swept - due)[:3], sorted(due - swept)[:3])
    model.apply([(k, None) for k in sorted(due)], by_ttl=True)
    model.acknowledged -= len(due)
    for key in sorted(due)[:20]:
        assert "Item" not in client.get_item(TableName=LAYERS, Key=key_json(key),
                                             ConsistentRead=True)
    return len(due)
