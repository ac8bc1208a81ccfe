"""Transactions as applications use them: the lambda-layers model's
layer-insert transaction (seed 000), atomic when the pointer moved or the
version exists and with one winner when writers race; and transfers
between accounts from many threads while readers check that every
TransactGetItems snapshot keeps the total."""

import random
import threading
import time

import pytest
from botocore.exceptions import ClientError

from .e2e_util import avs, expect_error, key, make_client, plain
from .transactions_util import (TCE, body, cancelled_message, get, put, reasons_of, t_get, t_put,
                                t_update)


# ==========================================================================
# lambda-layers (seed 000): inserting a layer version is one transaction
# ==========================================================================

LAYER_ARN = "arn:aws:lambda:{rgn}:123456789012:layer:{pckg}:{v}"


@pytest.fixture(scope="module")
def layers(tables):
    """The lambda-layers table as models.md specifies it (under a unique name)."""
    return tables(
        prefix="lambda-layers",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"}
                              for n in ("pk", "sk", "pckg", "rgn", "dplySts")],
        GlobalSecondaryIndexes=[
            {"IndexName": "pckg-dplySts",
             "KeySchema": [{"AttributeName": "pckg", "KeyType": "HASH"},
                           {"AttributeName": "dplySts", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "rgn-dplySts",
             "KeySchema": [{"AttributeName": "rgn", "KeyType": "HASH"},
                           {"AttributeName": "dplySts", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "ALL"}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})


def layer_item(rgn, pckg, version, status):
    return {"pk": "lyr#{}.{}".format(rgn, pckg), "sk": "lyrVrsn#v{}".format(version),
            "rgn": rgn, "pckg": pckg, "lyrVrsn": version, "dplySts": status,
            "arn": LAYER_ARN.format(rgn=rgn, pckg=pckg, v=version)}


def insert_layer_txn(table, rgn, pckg, prev, new, ttl):
    """The seed's layer insert as one transaction: move the lyrVrsn0# pointer
    from `prev` to `new` (only if it still points at `prev`), insert the new
    version as latest (only if it does not exist), deprecate `prev` with a TTL."""
    pk = "lyr#{}.{}".format(rgn, pckg)
    arn = LAYER_ARN.format(rgn=rgn, pckg=pckg, v=new)
    return [
        t_update(table, {"pk": pk, "sk": "lyrVrsn0#"}, "SET lyrVrsn = :new, arn = :arn",
                 {":new": new, ":arn": arn, ":prev": prev}, cond="lyrVrsn = :prev",
                 ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        t_put(table, layer_item(rgn, pckg, new, "latest"), cond="attribute_not_exists(pk)"),
        t_update(table, {"pk": pk, "sk": "lyrVrsn#v{}".format(prev)}, "SET dplySts = :dep, #t = :ttl",
                 {":dep": "deprecated", ":ttl": ttl, ":latest": "latest"}, cond="dplySts = :latest",
                 names={"#t": "ttl"}),
    ]


def layer_state(dynamodb, table, rgn, pckg):
    """(pointer version, {version: dplySts}, latest per pckg-dplySts, (version, status) per rgn-dplySts)."""
    pk = "lyr#{}.{}".format(rgn, pckg)
    pointer = get(dynamodb, table, pk=pk, sk="lyrVrsn0#")
    part = dynamodb.query(TableName=table, KeyConditionExpression="pk = :p AND begins_with(sk, :v)",
                          ExpressionAttributeValues=avs({":p": pk, ":v": "lyrVrsn#"}), ConsistentRead=True)
    versions = {i["lyrVrsn"]: i.get("dplySts") for i in map(plain, part["Items"])}
    latest = dynamodb.query(TableName=table, IndexName="pckg-dplySts",
                            KeyConditionExpression="pckg = :p AND dplySts = :l",
                            ExpressionAttributeValues=avs({":p": pckg, ":l": "latest"}))
    region = dynamodb.query(TableName=table, IndexName="rgn-dplySts", KeyConditionExpression="rgn = :r",
                            ExpressionAttributeValues=avs({":r": rgn}))
    return (pointer["lyrVrsn"], versions,
            sorted(i["lyrVrsn"] for i in map(plain, latest["Items"])),
            sorted((i["lyrVrsn"], i["dplySts"]) for i in map(plain, region["Items"])))


def seed_layer(dynamodb, table, rgn, pckg):
    pk = "lyr#{}.{}".format(rgn, pckg)
    put(dynamodb, table, **layer_item(rgn, pckg, 1, "latest"))
    put(dynamodb, table, pk=pk, sk="lyrVrsn0#", rgn=rgn, pckg=pckg, lyrVrsn=1,
        arn=LAYER_ARN.format(rgn=rgn, pckg=pckg, v=1))


def test_layer_insert_as_one_transaction(dynamodb, layers):
    # Seed 000's layer insert (pointer update conditioned on its version, new version with attribute_not_exists, previous deprecated with TTL) commits as one transaction; both GSIs follow.
    rgn, pckg = "ap-south-1", key()
    seed_layer(dynamodb, layers, rgn, pckg)
    ttl = int(time.time()) + 7 * 86400
    resp = dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 2, ttl))
    assert body(resp) == {}
    assert layer_state(dynamodb, layers, rgn, pckg) == (
        2, {1: "deprecated", 2: "latest"}, [2], [(1, "deprecated"), (2, "latest")])
    pk = "lyr#{}.{}".format(rgn, pckg)
    assert get(dynamodb, layers, pk=pk, sk="lyrVrsn0#")["arn"] == LAYER_ARN.format(rgn=rgn, pckg=pckg, v=2)
    assert get(dynamodb, layers, pk=pk, sk="lyrVrsn#v1")["ttl"] == ttl
    # And the next version on top of it.
    dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 2, 3, ttl))
    assert layer_state(dynamodb, layers, rgn, pckg) == (
        3, {1: "deprecated", 2: "deprecated", 3: "latest"}, [3],
        [(1, "deprecated"), (2, "deprecated"), (3, "latest")])


def test_layer_insert_fails_atomically_when_pointer_moved(dynamodb, layers):
    # A writer that still believes v1 is latest, after the pointer moved to v2, is cancelled on the pointer condition: nothing changes (no v3, v2 stays latest in both indexes).
    rgn, pckg = "ap-south-2", key()
    seed_layer(dynamodb, layers, rgn, pckg)
    ttl = int(time.time()) + 7 * 86400
    dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 2, ttl))
    before = layer_state(dynamodb, layers, rgn, pckg)
    with expect_error(TCE, cancelled_message("ConditionalCheckFailed", "None",
                                             "ConditionalCheckFailed")) as excinfo:
        dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 3, ttl + 1))
    reasons = reasons_of(excinfo)
    assert plain(reasons[0]["Item"])["lyrVrsn"] == 2      # ALL_OLD shows where the pointer is now
    assert "Item" not in reasons[2]
    assert layer_state(dynamodb, layers, rgn, pckg) == before == (
        2, {1: "deprecated", 2: "latest"}, [2], [(1, "deprecated"), (2, "latest")])
    pk = "lyr#{}.{}".format(rgn, pckg)
    assert get(dynamodb, layers, pk=pk, sk="lyrVrsn#v1")["ttl"] == ttl


def test_layer_insert_fails_atomically_when_version_exists(dynamodb, layers):
    # The pointer condition holds but the new version already exists: cancelled on the Put, and the pointer does not move.
    rgn, pckg = "ap-south-3", key()
    seed_layer(dynamodb, layers, rgn, pckg)
    put(dynamodb, layers, **layer_item(rgn, pckg, 2, "latest"))     # orphan written by someone else
    with expect_error(TCE, cancelled_message("None", "ConditionalCheckFailed", "None")):
        dynamodb.transact_write_items(TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 2, 1))
    assert layer_state(dynamodb, layers, rgn, pckg) == (
        1, {1: "latest", 2: "latest"}, [1, 2], [(1, "latest"), (2, "latest")])


def test_layer_insert_race_has_one_winner(server_url, dynamodb, layers):
    # Six writers race to insert the next version from the same pointer: exactly one transaction commits.
    rgn, pckg = "ap-south-4", key()
    seed_layer(dynamodb, layers, rgn, pckg)
    writers = 6
    clients = [make_client(server_url) for _ in range(writers)]
    barrier = threading.Barrier(writers)
    outcomes = [None] * writers

    def work(i):
        barrier.wait(timeout=30)
        try:
            clients[i].transact_write_items(
                TransactItems=insert_layer_txn(layers, rgn, pckg, 1, 2 + i, 1000 + i))
            outcomes[i] = "committed"
        except ClientError as e:
            outcomes[i] = e.response["Error"]["Code"]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert outcomes.count("committed") == 1, outcomes
    assert set(outcomes) == {"committed", TCE}, outcomes
    winner = 2 + outcomes.index("committed")
    assert layer_state(dynamodb, layers, rgn, pckg) == (
        winner, {1: "deprecated", winner: "latest"}, [winner], [(1, "deprecated"), (winner, "latest")])


# ==========================================================================
# Concurrency: transfers between accounts, readers check the total
# ==========================================================================

ACCOUNTS = 10
START_BALANCE = 100
WRITERS = 8
READERS = 4
TRANSFERS_PER_WRITER = 400


def test_concurrent_transfers_keep_total(server_url, dynamodb, tables):
    # 8 writers make random conditional transfers (bal >= :x) between 10 accounts while 4 readers TransactGetItems all accounts: every snapshot sums to 1000 with no negative balance, and the final balances match the committed transfers exactly.
    table = tables(prefix="txn-bank")
    accts = ["acct-%02d" % n for n in range(ACCOUNTS)]
    for a in accts:
        put(dynamodb, table, pk=a, bal=START_BALANCE)
    total = ACCOUNTS * START_BALANCE

    writer_clients = [make_client(server_url) for _ in range(WRITERS)]
    reader_clients = [make_client(server_url) for _ in range(READERS)]
    committed = [[] for _ in range(WRITERS)]          # (src, dst, amount) per writer
    stats = {"cancelled_ccf": 0, "cancelled_conflict": 0, "reads": 0, "read_conflicts": 0}
    lock = threading.Lock()
    errors = []
    bad_reads = []
    writers_done = threading.Event()
    barrier = threading.Barrier(WRITERS + READERS)
    read_items = [t_get(table, {"pk": a}) for a in accts]

    def writer(i):
        rng = random.Random(1000 + i)
        client = writer_clients[i]
        barrier.wait(timeout=30)
        for _ in range(TRANSFERS_PER_WRITER):
            src, dst = rng.sample(accts, 2)
            amount = rng.randint(1, 40)
            try:
                client.transact_write_items(TransactItems=[
                    t_update(table, {"pk": src}, "SET bal = bal - :x", {":x": amount},
                             cond="bal >= :x"),
                    t_update(table, {"pk": dst}, "SET bal = bal + :x", {":x": amount})])
                committed[i].append((src, dst, amount))
            except ClientError as e:
                err = e.response["Error"]["Code"]
                codes = [r["Code"] for r in e.response.get("CancellationReasons", [])]
                with lock:
                    if err == TCE and codes == ["ConditionalCheckFailed", "None"]:
                        stats["cancelled_ccf"] += 1
                    elif err == TCE and "TransactionConflict" in codes:
                        stats["cancelled_conflict"] += 1
                    else:
                        errors.append((err, codes, e.response["Error"].get("Message")))

    def reader(i):
        client = reader_clients[i]
        barrier.wait(timeout=30)
        while True:
            last = writers_done.is_set()
            try:
                resp = client.transact_get_items(TransactItems=read_items)
            except ClientError as e:
                codes = [r["Code"] for r in e.response.get("CancellationReasons", [])]
                with lock:
                    if e.response["Error"]["Code"] == TCE and "TransactionConflict" in codes:
                        stats["read_conflicts"] += 1
                    else:
                        errors.append((e.response["Error"]["Code"], codes,
                                       e.response["Error"].get("Message")))
                continue
            bals = [int(r["Item"]["bal"]["N"]) for r in resp["Responses"]]
            with lock:
                stats["reads"] += 1
                if sum(bals) != total or min(bals) < 0:
                    bad_reads.append(bals)
            if last:
                return

    started = time.monotonic()
    threads = ([threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
               + [threading.Thread(target=reader, args=(i,)) for i in range(READERS)])
    for t in threads:
        t.start()
    for t in threads[:WRITERS]:
        t.join(120)
    writers_done.set()
    for t in threads[WRITERS:]:
        t.join(60)
    elapsed = time.monotonic() - started
    assert not any(t.is_alive() for t in threads), "threads did not finish"

    n_committed = sum(len(c) for c in committed)
    print("\nconcurrent transfers: {} writers x {} transfers, {} readers, {:.1f} s: {} committed, "
          "{} cancelled (insufficient funds), {} cancelled (conflict), {} snapshot reads "
          "({} read conflicts), {} bad snapshots".format(
              WRITERS, TRANSFERS_PER_WRITER, READERS, elapsed, n_committed,
              stats["cancelled_ccf"], stats["cancelled_conflict"], stats["reads"],
              stats["read_conflicts"], len(bad_reads)))

    assert errors == []
    assert bad_reads == [], "snapshots not summing to {} (first 5): {}".format(total, bad_reads[:5])
    assert n_committed + stats["cancelled_ccf"] + stats["cancelled_conflict"] == \
        WRITERS * TRANSFERS_PER_WRITER
    assert stats["reads"] >= READERS
    assert n_committed > 0 and stats["cancelled_ccf"] > 0

    expected = {a: START_BALANCE for a in accts}
    for src, dst, amount in (t for c in committed for t in c):
        expected[src] -= amount
        expected[dst] += amount
    final = {a: get(dynamodb, table, pk=a)["bal"] for a in accts}
    assert sum(final.values()) == total
    assert min(final.values()) >= 0
    assert final == expected
