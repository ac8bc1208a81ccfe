"""Named snapshots and per-database reset through the admin API, checked
with boto3 as a test suite would use them: seed one database, save it,
restore it into every worker's database, reset one database alone."""

import threading

import pytest

from .e2e_util import ACCESS_KEY, client_for, unique_name
from .server_util import (ServerProcess, admin, admin_ok, advance_clock, make_streams_client,
                          sweep)
from .vector_util import create_vector_table, hits, put, search, vector_index

REGION = "us-east-1"


@pytest.fixture(scope="module")
def server():
    # Preloaded models (the default), one database per access key, and a
    # clock of its own that the TTL test moves.
    process = ServerProcess(["--in-memory", "--per-key-databases"]).start()
    yield process
    assert process.stop() == 0, process.log_tail()
    process.remove_log()


def ns(key):
    return "{}/{}".format(key, REGION)


def create_orders(client, name="orders"):
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "status", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "byStatus",
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})


def keys(client, table="orders"):
    return sorted(item["pk"]["S"] for item in client.scan(TableName=table)["Items"])


def by_status(client, status):
    answer = client.query(TableName="orders", IndexName="byStatus",
                          KeyConditionExpression="#s = :s",
                          ExpressionAttributeNames={"#s": "status"},
                          ExpressionAttributeValues={":s": {"S": status}})
    return sorted(item["pk"]["S"] for item in answer["Items"])


def model_tables(server):
    """The preloaded models' tables, as a new database gets them."""
    return sorted(server.client(access_key=unique_name("fresh")).list_tables()["TableNames"])


def test_a_seeded_database_restores_into_every_worker(server):
    seed_key = unique_name("seed")
    seed = server.client(access_key=seed_key)
    create_orders(seed)
    for pk, status in [("o1", "NEW"), ("o2", "SHIPPED"), ("o3", "NEW")]:
        seed.put_item(TableName="orders", Item={"pk": {"S": pk}, "status": {"S": status}})
    name = unique_name("seed")
    saved = admin_ok(server.url, "snapshots", {"Name": name, "Namespace": ns(seed_key)})
    assert (saved["Name"], saved["Namespace"], saved["Tables"], saved["Items"]) == \
        (name, ns(seed_key), len(model_tables(server)) + 1, saved["Items"])
    assert saved["Items"] >= 3 and saved["Bytes"] > 0

    workers = [unique_name("w") for _ in range(3)]
    for worker in workers:
        restored = admin_ok(server.url, "snapshots/{}/restore".format(name),
                            {"Namespace": ns(worker)})
        assert restored["Namespace"] == ns(worker)
        assert restored["Items"] == saved["Items"]
    # Each worker writes the same key; each sees only its own write.
    for worker in workers:
        server.client(access_key=worker).put_item(
            TableName="orders", Item={"pk": {"S": "same"}, "status": {"S": worker}})
    for worker in workers:
        client = server.client(access_key=worker)
        assert keys(client) == ["o1", "o2", "o3", "same"]
        assert by_status(client, "NEW") == ["o1", "o3"]
        assert by_status(client, worker) == ["same"]
        assert client.describe_table(TableName="orders")["Table"]["ItemCount"] == 4
        # The restored database holds exactly the snapshot's tables: the
        # models are not loaded again on top at its first request.
        assert sorted(client.list_tables()["TableNames"]) == sorted(model_tables(server) +
                                                                    ["orders"])
    assert keys(seed) == ["o1", "o2", "o3"]


def test_restore_undoes_writes_deletes_and_new_tables(server):
    key = unique_name("undo")
    client = server.client(access_key=key)
    create_orders(client)
    client.put_item(TableName="orders", Item={"pk": {"S": "kept"}, "status": {"S": "NEW"}})
    name = unique_name("undo")
    admin_ok(server.url, "snapshots", {"Name": name, "Namespace": ns(key)})

    client.put_item(TableName="orders", Item={"pk": {"S": "kept"}, "status": {"S": "CHANGED"}})
    client.put_item(TableName="orders", Item={"pk": {"S": "added"}, "status": {"S": "NEW"}})
    create_orders(client, "later")
    tables_before = sorted(client.list_tables()["TableNames"])
    admin_ok(server.url, "snapshots/{}/restore".format(name), {})

    assert keys(client) == ["kept"]
    assert by_status(client, "NEW") == ["kept"]
    assert by_status(client, "CHANGED") == []
    assert "later" not in client.list_tables()["TableNames"]
    assert "later" in tables_before
    client.delete_table(TableName="orders")
    admin_ok(server.url, "snapshots/{}/restore".format(name), {})
    assert keys(client) == ["kept"]


def test_a_restored_table_has_a_fresh_stream(server):
    key = unique_name("stream")
    client = server.client(access_key=key)
    create_orders(client)
    client.put_item(TableName="orders", Item={"pk": {"S": "before"}, "status": {"S": "NEW"}})
    old_arn = client.describe_table(TableName="orders")["Table"]["LatestStreamArn"]
    name = unique_name("stream")
    admin_ok(server.url, "snapshots", {"Name": name, "Namespace": ns(key)})
    advance_clock(server.url, 1)  # stream labels are timestamps
    admin_ok(server.url, "snapshots/{}/restore".format(name), {})
    arn = client.describe_table(TableName="orders")["Table"]["LatestStreamArn"]
    assert arn != old_arn
    client.put_item(TableName="orders", Item={"pk": {"S": "after"}, "status": {"S": "NEW"}})
    streams = make_streams_client(server.url, access_key=key)
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = streams.get_records(ShardIterator=iterator)["Records"]
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in records] == ["after"]
    old = streams.describe_stream(StreamArn=old_arn)["StreamDescription"]
    assert old["StreamStatus"] == "DISABLED"


def test_restored_items_keep_their_ttl(server):
    key = unique_name("ttl")
    client = server.client(access_key=key)
    create_orders(client)
    client.update_time_to_live(TableName="orders", TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires"})
    now = admin_ok(server.url, "clock")["NowMillis"] // 1000
    client.put_item(TableName="orders", Item={"pk": {"S": "due"}, "status": {"S": "NEW"},
                                              "expires": {"N": str(now + 60)}})
    client.put_item(TableName="orders", Item={"pk": {"S": "stays"}, "status": {"S": "NEW"}})
    name = unique_name("ttl")
    admin_ok(server.url, "snapshots", {"Name": name, "Namespace": ns(key)})
    target = unique_name("ttl-target")
    admin_ok(server.url, "snapshots/{}/restore".format(name), {"Namespace": ns(target)})
    advance_clock(server.url, 120)
    deleted = sweep(server.url)["Deleted"]
    assert sorted(d["Namespace"] for d in deleted if d["TableName"] == "orders"
                  and d["Namespace"] in (ns(key), ns(target))) == sorted([ns(key), ns(target)])
    assert keys(server.client(access_key=target)) == ["stays"]
    assert by_status(server.client(access_key=target), "NEW") == ["stays"]


def test_vector_indexes_come_back_with_their_rows(server):
    # The vector helpers sign with e2e_util's default key: its database is
    # the source, restored into another key's.
    url, target = server.url, unique_name("vec")
    name, _ = create_vector_table(url, [vector_index(dimensions=3, distance="EUCLIDEAN")])
    for pk, vector in [("a", [0, 0, 0]), ("b", [1, 0, 0]), ("c", [5, 5, 5])]:
        put(url, name, pk, vector)
    snapshot = unique_name("vec")
    admin_ok(url, "snapshots", {"Name": snapshot, "Namespace": ns(ACCESS_KEY)})
    admin_ok(url, "snapshots/{}/restore".format(snapshot), {"Namespace": ns(target)})
    put(url, name, "d", [0.1, 0, 0])  # only in the source database
    answer = client_for(url, access_key=target).search_vectors(
        TableName=name, IndexName="vix", TopK=3,
        SearchVector=[{"N": "0.2"}, {"N": "0"}, {"N": "0"}])
    assert [pk for pk, _ in hits(answer)] == ["a", "b", "c"]
    assert [pk for pk, _ in hits(search(url, name, [0.2, 0, 0], top_k=3))] == ["d", "a", "b"]


def test_whole_database_snapshot_restores_every_database(server):
    a, b = unique_name("wa"), unique_name("wb")
    create_orders(server.client(access_key=a))
    server.client(access_key=a).put_item(TableName="orders",
                                         Item={"pk": {"S": "x"}, "status": {"S": "NEW"}})
    name = unique_name("all")
    saved = admin_ok(server.url, "snapshots", {"Name": name})
    assert "Namespace" not in saved
    # A database first used after the snapshot starts afresh after the
    # restore: the models again, nothing of its own.
    create_orders(server.client(access_key=b))
    server.client(access_key=a).delete_table(TableName="orders")
    status, answer = admin(server.url, "snapshots/{}/restore".format(name), {"Namespace": ns(a)})
    assert status == 400 and answer["__type"].endswith("#ValidationException")
    admin_ok(server.url, "snapshots/{}/restore".format(name), {})
    assert keys(server.client(access_key=a)) == ["x"]
    assert sorted(server.client(access_key=b).list_tables()["TableNames"]) == model_tables(server)


def test_reset_of_one_database_leaves_the_others(server):
    a, b = unique_name("ra"), unique_name("rb")
    for key in (a, b):
        create_orders(server.client(access_key=key))
    reset = admin_ok(server.url, "reset", {"Namespace": ns(a)})
    assert reset["Tables"] == len(model_tables(server))
    assert sorted(server.client(access_key=a).list_tables()["TableNames"]) == model_tables(server)
    assert "orders" in server.client(access_key=b).list_tables()["TableNames"]
    admin_ok(server.url, "reset", {"Namespace": ns(b), "Models": False})
    assert server.client(access_key=b).list_tables()["TableNames"] == []
    status, answer = admin(server.url, "reset", {"Models": False})
    assert status == 400 and answer["__type"].endswith("#ValidationException")


def test_snapshot_listing_deleting_and_errors(server):
    name = unique_name("list")
    admin_ok(server.url, "snapshots", {"Name": name, "Namespace": ns(unique_name("l"))})
    listed = {s["Name"]: s for s in admin_ok(server.url, "snapshots")["Snapshots"]}
    assert listed[name]["Tables"] == len(model_tables(server))
    assert listed[name]["CreatedMillis"] > 0
    assert admin_ok(server.url, "snapshots/" + name, method="DELETE") == {"Name": name}
    assert name not in {s["Name"] for s in admin_ok(server.url, "snapshots")["Snapshots"]}
    for path, body, method, code in [
            ("snapshots/" + name + "/restore", {}, "POST", 404),
            ("snapshots/" + name, None, "DELETE", 404),
            ("snapshots", {"Name": ""}, "POST", 400),
            ("snapshots", {"Name": "a/b"}, "POST", 400),
            ("snapshots", {"Namespace": "x"}, "POST", 400),
            ("snapshots/" + name + "/restore", None, "GET", 405)]:
        status, answer = admin(server.url, path, body, method)
        assert status == code, (path, body, answer)
        assert "message" in answer


def test_a_name_escaped_in_the_path_is_found(server):
    name = unique_name("a b")
    admin_ok(server.url, "snapshots", {"Name": name, "Namespace": ns(unique_name("esc"))})
    escaped = name.replace(" ", "%20")
    assert admin_ok(server.url, "snapshots/{}/restore".format(escaped), {})["Name"] == name
    assert admin_ok(server.url, "snapshots/" + escaped, method="DELETE") == {"Name": name}


def test_restores_while_writes_run_leave_the_snapshot_exactly(server):
    key = unique_name("race")
    client = server.client(access_key=key)
    create_orders(client)
    for i in range(20):
        client.put_item(TableName="orders", Item={"pk": {"S": "s%02d" % i}, "status": {"S": "NEW"}})
    name = unique_name("race")
    admin_ok(server.url, "snapshots", {"Name": name, "Namespace": ns(key)})
    stop = threading.Event()
    errors = []

    def write():
        writer = server.client(access_key=key)
        i = 0
        while not stop.is_set():
            try:
                writer.put_item(TableName="orders",
                                Item={"pk": {"S": "w%d" % i}, "status": {"S": "NEW"}})
            except writer.exceptions.ResourceNotFoundException:
                pass  # between a restore's drop and its tables: not a half state
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)
            i += 1

    thread = threading.Thread(target=write)
    thread.start()
    try:
        for _ in range(20):
            admin_ok(server.url, "snapshots/{}/restore".format(name), {})
    finally:
        stop.set()
        thread.join()
    assert errors == []
    admin_ok(server.url, "snapshots/{}/restore".format(name), {})
    assert keys(client) == ["s%02d" % i for i in range(20)]
    assert len(by_status(client, "NEW")) == 20
    assert client.describe_table(TableName="orders")["Table"]["ItemCount"] == 20
