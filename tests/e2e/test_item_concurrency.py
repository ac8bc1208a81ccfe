"""Concurrent single-item writes: atomic ADD counters, put-if-absent races,
optimistic locking with retries, and concurrent set/list growth.  Each
thread uses its own boto3 client (own connection pool)."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from botocore.exceptions import ClientError

from .e2e_util import make_client, unique_name

CCF = "ConditionalCheckFailedException"
THREADS = 16


@pytest.fixture(scope="module")
def tbl(tables):
    return tables(prefix="conc")


@pytest.fixture(scope="module")
def clients(server_url):
    """One client per thread (creating boto3 clients is slow, so they are shared by the tests)."""
    return [make_client(server_url) for _ in range(THREADS)]


def run_threads(clients, count, body):
    """Run body(index, client) in `count` threads, each with its own client,
    started together through a barrier; returns the results in index order
    (re-raising the first exception)."""
    barrier = threading.Barrier(count)

    def work(i):
        barrier.wait(timeout=30)
        return body(i, clients[i])

    with ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(work, i) for i in range(count)]
        return [f.result(timeout=120) for f in futures]


def get_item(dynamodb, table, k):
    return dynamodb.get_item(TableName=table, Key={"pk": {"S": k}}, ConsistentRead=True).get("Item")


def test_concurrent_add_counter_is_exact(clients, dynamodb, tbl):
    # 16 threads each doing 40 `ADD n :one` on one item end at exactly 640, and every increment saw a distinct previous value.
    k = unique_name("ctr")
    per_thread = 40

    def body(i, client):
        seen = []
        for _ in range(per_thread):
            resp = client.update_item(TableName=tbl, Key={"pk": {"S": k}}, UpdateExpression="ADD n :one",
                                      ExpressionAttributeValues={":one": {"N": "1"}},
                                      ReturnValues="UPDATED_NEW")
            seen.append(int(resp["Attributes"]["n"]["N"]))
        return seen

    results = run_threads(clients, THREADS, body)
    total = THREADS * per_thread
    assert get_item(dynamodb, tbl, k)["n"] == {"N": str(total)}
    returned = [v for seen in results for v in seen]
    assert sorted(returned) == list(range(1, total + 1))
    for seen in results:
        assert seen == sorted(seen)


def test_concurrent_set_arithmetic_counter_is_exact(clients, dynamodb, tbl):
    # SET n = if_not_exists(n, :zero) + :one from 16 threads is just as atomic as ADD.
    k = unique_name("ctr")
    per_thread = 25

    def body(i, client):
        for _ in range(per_thread):
            client.update_item(TableName=tbl, Key={"pk": {"S": k}},
                               UpdateExpression="SET n = if_not_exists(n, :zero) + :one",
                               ExpressionAttributeValues={":zero": {"N": "0"}, ":one": {"N": "1"}})

    run_threads(clients, THREADS, body)
    assert get_item(dynamodb, tbl, k)["n"] == {"N": str(THREADS * per_thread)}


@pytest.mark.parametrize("round_", range(5))
def test_put_if_absent_race_has_one_winner(clients, dynamodb, tbl, round_):
    # 16 threads racing PutItem with attribute_not_exists(pk) on one key: exactly one succeeds, the others get ConditionalCheckFailedException, and the stored item is the winner's.
    k = unique_name("race")

    def body(i, client):
        try:
            client.put_item(TableName=tbl, Item={"pk": {"S": k}, "writer": {"N": str(i)}},
                            ConditionExpression="attribute_not_exists(pk)")
            return "won"
        except ClientError as e:
            code = e.response["Error"]["Code"]
            assert code == CCF, code
            assert e.response["Error"]["Message"] == "The conditional request failed"
            return "lost"

    outcomes = run_threads(clients, THREADS, body)
    assert outcomes.count("won") == 1
    assert outcomes.count("lost") == THREADS - 1
    winner = outcomes.index("won")
    assert get_item(dynamodb, tbl, k) == {"pk": {"S": k}, "writer": {"N": str(winner)}}


def test_conditional_delete_race_has_one_winner(clients, dynamodb, tbl):
    # 16 threads deleting one item with attribute_exists(pk): exactly one deletes it (and gets it back with ALL_OLD).
    k = unique_name("race")
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": k}, "v": {"S": "x"}})

    def body(i, client):
        try:
            resp = client.delete_item(TableName=tbl, Key={"pk": {"S": k}},
                                      ConditionExpression="attribute_exists(pk)", ReturnValues="ALL_OLD")
            return resp["Attributes"]
        except ClientError as e:
            assert e.response["Error"]["Code"] == CCF
            return None

    outcomes = [o for o in run_threads(clients, THREADS, body) if o is not None]
    assert outcomes == [{"pk": {"S": k}, "v": {"S": "x"}}]
    assert get_item(dynamodb, tbl, k) is None


def test_optimistic_locking_never_loses_updates(clients, dynamodb, tbl):
    # 6 threads each make 15 read-modify-write increments guarded by a version check, retrying on conflict: no update is lost and each version is won once.
    k = unique_name("olock")
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": k}, "version": {"N": "0"}, "count": {"N": "0"}})
    threads, per_thread = 6, 15

    def body(i, client):
        won_versions = []
        conflicts = 0
        for _ in range(per_thread):
            for attempt in range(10000):
                item = client.get_item(TableName=tbl, Key={"pk": {"S": k}}, ConsistentRead=True)["Item"]
                version = int(item["version"]["N"])
                count = int(item["count"]["N"])
                try:
                    client.update_item(
                        TableName=tbl, Key={"pk": {"S": k}},
                        UpdateExpression="SET #c = :c, version = :nv",
                        ConditionExpression="version = :v",
                        ExpressionAttributeNames={"#c": "count"},
                        ExpressionAttributeValues={":c": {"N": str(count + 1)},
                                                   ":nv": {"N": str(version + 1)},
                                                   ":v": {"N": str(version)}})
                    won_versions.append(version + 1)
                    break
                except ClientError as e:
                    assert e.response["Error"]["Code"] == CCF
                    conflicts += 1
            else:
                raise AssertionError("thread {} never got its update in".format(i))
        return won_versions, conflicts

    results = run_threads(clients, threads, body)
    total = threads * per_thread
    item = get_item(dynamodb, tbl, k)
    assert item["count"] == {"N": str(total)}
    assert item["version"] == {"N": str(total)}
    versions = sorted(v for won, _ in results for v in won)
    assert versions == list(range(1, total + 1))


def test_concurrent_set_and_list_growth(clients, dynamodb, tbl):
    # 16 threads each ADD distinct members to one string set and list_append distinct entries to one list: nothing is lost or duplicated.
    k = unique_name("grow")
    per_thread = 10

    def body(i, client):
        for j in range(per_thread):
            tag = "t{}-{}".format(i, j)
            client.update_item(
                TableName=tbl, Key={"pk": {"S": k}},
                UpdateExpression="ADD tags :t SET trail = list_append(if_not_exists(trail, :empty), :e)",
                ExpressionAttributeValues={":t": {"SS": [tag]}, ":empty": {"L": []},
                                           ":e": {"L": [{"S": tag}]}})

    run_threads(clients, THREADS, body)
    item = get_item(dynamodb, tbl, k)
    expected = {"t{}-{}".format(i, j) for i in range(THREADS) for j in range(per_thread)}
    assert set(item["tags"]["SS"]) == expected and len(item["tags"]["SS"]) == len(expected)
    trail = [e["S"] for e in item["trail"]["L"]]
    assert sorted(trail) == sorted(expected)
    for i in range(THREADS):
        mine = [e for e in trail if e.startswith("t{}-".format(i))]
        assert mine == ["t{}-{}".format(i, j) for j in range(per_thread)]
