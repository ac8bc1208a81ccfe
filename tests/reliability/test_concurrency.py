"""Concurrency through the public API at 64 clients (threads, each with its
own boto3 client): lost updates (ADD counters), competing conditional puts
(one winner), write skew (two transactions each checking the other's item),
transfers under transactions (the sum is invariant, also to concurrent
TransactGetItems and Query readers: no phantoms) — all on tables with
streams, whose records must follow each item's commit order.
"""

import random
import threading
import time

import pytest
from botocore.exceptions import ClientError

from e2e.e2e_util import make_client
from e2e.server_util import ServerProcess, make_streams_client, read_stream

from .reliability_util import run_threads, size

CLIENTS = 64
STREAM = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}


@pytest.fixture(scope="module")
def server():
    srv = ServerProcess(["--in-memory"]).start()
    yield srv
    rc = srv.stop()
    srv.remove_log()
    assert rc == 0


@pytest.fixture(scope="module")
def clients(server):
    return [make_client(server.url) for _ in range(CLIENTS)]


def create(client, name, range_key=False):
    keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
    defs = [{"AttributeName": "pk", "AttributeType": "S"}]
    if range_key:
        keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
        defs.append({"AttributeName": "sk", "AttributeType": "S"})
    client.create_table(TableName=name, KeySchema=keys, AttributeDefinitions=defs,
                        BillingMode="PAY_PER_REQUEST", StreamSpecification=STREAM)
    return client.describe_table(TableName=name)["Table"]["LatestStreamArn"]


def run_clients(clients, work):
    """Runs work(index, client) on every client at once; re-raises the first failure."""
    run_threads(len(clients), lambda i: work(i, clients[i]))


def records_by_key(server, arn):
    by_key = {}
    for r in read_stream(make_streams_client(server.url), arn):
        k = tuple(v["S"] for _, v in sorted(r["dynamodb"]["Keys"].items()))
        by_key.setdefault(k, []).append(r)
    return by_key


def number(image, attr):
    return int(image[attr]["N"]) if image and attr in image else None


def test_add_counters_lose_no_update(server, clients):
    arn = create(clients[0], "counters")
    counters, per_client = 4, size(25, 200)
    seen = {c: [] for c in range(counters)}
    lock = threading.Lock()

    def work(i, client):
        for n in range(per_client):
            c = (i + n) % counters
            answer = client.update_item(
                TableName="counters", Key={"pk": {"S": "c%d" % c}}, UpdateExpression="ADD n :one",
                ExpressionAttributeValues={":one": {"N": "1"}}, ReturnValues="UPDATED_NEW")
            with lock:
                seen[c].append(int(answer["Attributes"]["n"]["N"]))
    run_clients(clients, work)
    by_key = records_by_key(server, arn)
    for c in range(counters):
        total = len(seen[c])
        item = clients[0].get_item(TableName="counters", Key={"pk": {"S": "c%d" % c}})["Item"]
        assert int(item["n"]["N"]) == total
        # Each increment saw its own value: none was lost or applied twice.
        assert sorted(seen[c]) == list(range(1, total + 1))
        records = by_key[("c%d" % c,)]
        assert [number(r["dynamodb"].get("NewImage"), "n") for r in records] == list(
            range(1, total + 1)), "stream records out of commit order"
        assert [number(r["dynamodb"].get("OldImage"), "n") for r in records] == [None] + list(
            range(1, total))
    assert sum(len(v) for v in seen.values()) == CLIENTS * per_client


def test_competing_conditional_puts_have_one_winner(server, clients):
    arn = create(clients[0], "races")
    rounds = size(20, 100)
    barrier = threading.Barrier(CLIENTS)
    wins = {r: [] for r in range(rounds)}
    lock = threading.Lock()

    def work(i, client):
        for r in range(rounds):
            barrier.wait()
            try:
                client.put_item(TableName="races", Item={"pk": {"S": "race-%d" % r},
                                                        "owner": {"N": str(i)}},
                                ConditionExpression="attribute_not_exists(pk)")
            except ClientError as e:
                assert e.response["Error"]["Code"] == "ConditionalCheckFailedException", e
                continue
            with lock:
                wins[r].append(i)
    run_clients(clients, work)
    by_key = records_by_key(server, arn)
    for r in range(rounds):
        assert len(wins[r]) == 1, "round {} had winners {}".format(r, wins[r])
        item = clients[0].get_item(TableName="races", Key={"pk": {"S": "race-%d" % r}})["Item"]
        assert int(item["owner"]["N"]) == wins[r][0]
        records = by_key[("race-%d" % r,)]
        assert [rec["eventName"] for rec in records] == ["INSERT"]


def test_write_skew_is_prevented(server, clients):
    """Pairs of on-call doctors; each of two transactions takes one off call
    if the other is still on. Serializable transactions let exactly one win."""
    create(clients[0], "oncall")
    rounds, pairs = size(4, 20), CLIENTS // 2
    barrier = threading.Barrier(CLIENTS)
    outcomes = {}
    lock = threading.Lock()

    def doctor(r, p, side):
        return {"pk": {"S": "r%d-p%d-%s" % (r, p, side)}}

    def work(i, client):
        pair, side = i // 2, "ab"[i % 2]
        other = "ab"[1 - i % 2]
        for r in range(rounds):
            if i % 2 == 0:
                for s in "ab":
                    client.put_item(TableName="oncall", Item=dict(doctor(r, pair, s),
                                                                  on={"N": "1"}))
            barrier.wait()
            try:
                client.transact_write_items(TransactItems=[
                    {"ConditionCheck": {"TableName": "oncall", "Key": doctor(r, pair, other),
                                        "ConditionExpression": "#on = :one",
                                        "ExpressionAttributeNames": {"#on": "on"},
                                        "ExpressionAttributeValues": {":one": {"N": "1"}}}},
                    {"Update": {"TableName": "oncall", "Key": doctor(r, pair, side),
                                "UpdateExpression": "SET #on = :zero",
                                "ExpressionAttributeNames": {"#on": "on"},
                                "ExpressionAttributeValues": {":zero": {"N": "0"}}}}])
                won = True
            except ClientError as e:
                assert e.response["Error"]["Code"] == "TransactionCanceledException", e
                won = False
            with lock:
                outcomes[(r, pair, side)] = won
    run_clients(clients, work)
    for r in range(rounds):
        for p in range(pairs):
            assert outcomes[(r, p, "a")] != outcomes[(r, p, "b")], (r, p)
            on = [int(clients[0].get_item(TableName="oncall", Key=doctor(r, p, s))["Item"]["on"]
                      ["N"]) for s in "ab"]
            assert sorted(on) == [0, 1], (r, p, on)


def test_transfers_keep_the_sum(server, clients):
    check_transfers(server, clients, per_client=size(20, 150))


def test_transfers_keep_the_sum_when_transactions_conflict():
    """With --transaction-hold-ms, transactions claim their items for a while
    and meet each other as DynamoDB's do (TransactionConflict); retried,
    the sum still holds, and readers never see a claimed, uncommitted state."""
    srv = ServerProcess(["--in-memory", "--transaction-hold-ms", "3"]).start()
    try:
        conflicts = check_transfers(srv, [make_client(srv.url) for _ in range(CLIENTS)],
                                    per_client=size(6, 60))
        assert conflicts > 0, "no transaction ever met another"
    finally:
        assert srv.stop() == 0
        srv.remove_log()


def check_transfer_stream(server, arn, done, final):
    """One INSERT per account, then one MODIFY per committed transfer that
    touched it, each OldImage the NewImage before it (commit order)."""
    by_key = records_by_key(server, arn)
    for item in final:
        account = item["sk"]["S"]
        records = by_key[("bank", account)]
        touched = sum(1 for x, y in done if account in ("a%02d" % x, "a%02d" % y))
        assert len(records) == 1 + touched
        chain = [number(r["dynamodb"].get("NewImage"), "balance") for r in records]
        olds = [number(r["dynamodb"].get("OldImage"), "balance") for r in records]
        assert olds == [None] + chain[:-1], "stream records out of commit order"
        assert chain[-1] == int(item["balance"]["N"])


def is_conflict(error):
    """A transaction refused because another held its items: retry it."""
    reasons = error.response.get("CancellationReasons") or []
    return (error.response["Error"]["Code"] == "TransactionConflictException"
            or any(r.get("Code") == "TransactionConflict" for r in reasons))


def check_transfers(server, clients, per_client):
    """Transfers between 16 accounts from 48 clients while 16 audit the sum
    through TransactGetItems and Query. Returns how many conflicts were met."""
    arn = create(clients[0], "bank", range_key=True)
    accounts, start = 16, 1000
    for a in range(accounts):
        clients[0].put_item(TableName="bank", Item={"pk": {"S": "bank"}, "sk": {"S": "a%02d" % a},
                                                    "balance": {"N": str(start)}})
    total = accounts * start
    done = []
    snapshots = []
    conflicts = []
    lock = threading.Lock()

    def key(a):
        return {"pk": {"S": "bank"}, "sk": {"S": "a%02d" % a}}

    def transfer(client, rng):
        a, b = rng.sample(range(accounts), 2)
        amount = rng.randrange(1, 400)
        while True:
            try:
                client.transact_write_items(TransactItems=transfer_items(a, b, amount))
                break
            except ClientError as e:
                if is_conflict(e):
                    conflicts.append(1)
                    time.sleep(rng.uniform(0, 0.01))  # back off, as SDKs do
                    continue
                assert e.response["Error"]["Code"] == "TransactionCanceledException", e
                return
        with lock:
            done.append((a, b))

    def transfer_items(a, b, amount):
        return [
            {"Update": {"TableName": "bank", "Key": key(a),
                        "UpdateExpression": "SET balance = balance - :x",
                        "ConditionExpression": "balance >= :x",
                        "ExpressionAttributeValues": {":x": {"N": str(amount)}}}},
            {"Update": {"TableName": "bank", "Key": key(b),
                        "UpdateExpression": "SET balance = balance + :x",
                        "ExpressionAttributeValues": {":x": {"N": str(amount)}}}}]

    def audit(client):
        while True:
            try:
                got = client.transact_get_items(TransactItems=[
                    {"Get": {"TableName": "bank", "Key": key(a)}} for a in range(accounts)])
                break
            except ClientError as e:
                assert is_conflict(e), e
                conflicts.append(1)
        balances = [int(r["Item"]["balance"]["N"]) for r in got["Responses"]]
        page = client.query(TableName="bank", KeyConditionExpression="pk = :b",
                            ExpressionAttributeValues={":b": {"S": "bank"}})
        queried = [int(i["balance"]["N"]) for i in page["Items"]]
        with lock:
            snapshots.append((sum(balances), min(balances), sum(queried), len(queried)))

    def work(i, client):
        rng = random.Random(i)
        for _ in range(per_client):
            if i % 4 == 3:
                audit(client)
            else:
                transfer(client, rng)
    run_clients(clients, work)
    for s, lowest, queried, count in snapshots:
        assert (s, queried, count) == (total, total, accounts) and lowest >= 0, snapshots[:3]
    final = clients[0].query(TableName="bank", KeyConditionExpression="pk = :b",
                             ExpressionAttributeValues={":b": {"S": "bank"}})["Items"]
    assert sum(int(i["balance"]["N"]) for i in final) == total
    assert done, "no transfer succeeded"
    check_transfer_stream(server, arn, done, final)
    return len(conflicts)
