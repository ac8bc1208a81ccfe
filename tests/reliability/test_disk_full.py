"""A full disk: the server's data directory on a small tmpfs, written past
full, then space given back, round after round. Throughout, the server stays
up, refuses writes with DynamoDB's InternalServerError and a message that
says the disk is full, keeps answering reads, says in the admin API's health
view and in its log that writes stopped, and takes writes again within
seconds of space coming back, without a restart. After a restart every
acknowledged write is there, the GSI agrees with the table and the stream
holds exactly one record per item written (a write that got a 500 may or may
not have happened, but never half).

Needs root (it mounts a tmpfs); skipped otherwise.
"""

import os
import subprocess
import tempfile
import time

import pytest
from botocore.exceptions import ClientError

from e2e.e2e_util import make_client, wait_active
from e2e.server_util import ServerProcess, admin_ok, make_streams_client, read_stream, wait_for

from .reliability_util import size

ROUNDS = size(3, 10)
# Each round keeps what it wrote (its items, their point-in-time history,
# then the log they were in until it is flushed): room for all of it, so that
# freeing the filler is enough to take writes again.
DISK_MB = 64 + 16 * ROUNDS
# What the filler leaves free at the start of a round: the writes fill it.
FREE_KB = 2048
ITEM_BYTES = 8 * 1024
RESUME_DEADLINE_S = 20.0

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")


@pytest.fixture
def disk():
    root = tempfile.mkdtemp(prefix="localdynamo-disk-")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size={}m".format(DISK_MB), "tmpfs", root],
                   check=True)
    try:
        yield root
    finally:
        subprocess.run(["umount", "-l", root], check=False)
        os.rmdir(root)


def free_kb(path):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize // 1024


def fill_leaving(path, kb):
    """A filler file that leaves about `kb` free on the disk."""
    filler = os.path.join(path, "filler")
    have = free_kb(path) + (os.path.getsize(filler) // 1024 if os.path.exists(filler) else 0)
    with open(filler, "wb") as f:
        f.truncate(0)
        block = b"\0" * (1 << 20)
        left = max(0, have - kb) * 1024
        while left > 0:
            n = f.write(block[:min(len(block), left)])
            left -= n
        f.flush()
        os.fsync(f.fileno())
    return filler


def health(url):
    return admin_ok(url, "health")["Storage"]


def create_table(client, name, stream):
    request = dict(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "owner", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "by-owner",
            "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"},
                          {"AttributeName": "pk", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}])
    if stream:
        request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
    client.create_table(**request)
    wait_active(client, name)


def item(round_, n):
    return {"pk": {"S": "r{}-{:05d}".format(round_, n)}, "owner": {"S": "o{}".format(n % 7)},
            "blob": {"B": os.urandom(ITEM_BYTES)}}


def write_until_refused(client, table, round_):
    """Puts items until one is refused; returns (acknowledged items, the
    refused keys, the refusal)."""
    acked = []
    for n in range(100_000):
        it = item(round_, n)
        try:
            client.put_item(TableName=table, Item=it)
        except ClientError as e:
            return acked, [it["pk"]["S"]], e
        acked.append(it)
    raise AssertionError("the disk never filled")


def assert_disk_full_error(e):
    error = e.response["Error"]
    assert e.response["ResponseMetadata"]["HTTPStatusCode"] == 500, e.response
    assert error["Code"] == "InternalServerError", error
    assert "disk holding the data directory is full" in error["Message"], error


def run_rounds(server, disk, table, stream):
    client = make_client(server.url)
    create_table(client, table, stream)
    acked, unknown = [], []
    for round_ in range(ROUNDS):
        filler = fill_leaving(disk, FREE_KB)
        got, refused, error = write_until_refused(client, table, round_)
        assert got, "round {}: no write fitted in {} KB".format(round_, FREE_KB)
        assert_disk_full_error(error)
        acked += got
        unknown += refused
        state = health(server.url)
        assert state["State"] == "WRITES_STOPPED" and state["Fault"] == "DISK_FULL", state
        # Writes stay refused, reads go on.
        for n in range(3):
            with pytest.raises(ClientError) as refusal:
                client.put_item(TableName=table, Item=item(round_, 90_000 + n))
            assert_disk_full_error(refusal.value)
            unknown.append(item(round_, 90_000 + n)["pk"]["S"])
        last = got[-1]
        assert client.get_item(TableName=table, Key={"pk": last["pk"]})["Item"] == last
        assert server.proc.poll() is None, "the server exited on a full disk"
        # Space back: writes are taken again, with no restart.
        os.unlink(filler)
        started = time.monotonic()
        wait_for(lambda: health(server.url)["State"] == "WRITABLE", timeout=RESUME_DEADLINE_S,
                 interval=0.1, what="writes accepted again (round {})".format(round_))
        resumed = item(round_, 99_999)
        client.put_item(TableName=table, Item=resumed)
        acked.append(resumed)
        print("round {}: {} writes acknowledged, writes again after {:.1f} s".format(
            round_, len(got), time.monotonic() - started))
    assert health(server.url)["Stops"] == ROUNDS
    client.close()
    return acked, unknown


def check_after_restart(server, table, acked, unknown, stream):
    client = make_client(server.url)
    scanned = {}
    for page in client.get_paginator("scan").paginate(TableName=table):
        for it in page["Items"]:
            scanned[it["pk"]["S"]] = it
    for it in acked:
        assert scanned.get(it["pk"]["S"]) == it, "acknowledged {} lost".format(it["pk"]["S"])
    extra = set(scanned) - {it["pk"]["S"] for it in acked}
    assert extra <= set(unknown), "items no one wrote: {}".format(sorted(extra - set(unknown)))
    # The GSI holds exactly the table's items.
    indexed = {}
    for owner in {it["owner"]["S"] for it in scanned.values()}:
        pages = client.get_paginator("query").paginate(
            TableName=table, IndexName="by-owner", KeyConditionExpression="#o = :o",
            ExpressionAttributeNames={"#o": "owner"},
            ExpressionAttributeValues={":o": {"S": owner}})
        for page in pages:
            for it in page["Items"]:
                indexed[it["pk"]["S"]] = it
    assert indexed == scanned
    if stream:
        streams = make_streams_client(server.url)
        arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
        records = read_stream(streams, arn)
        keys = [r["dynamodb"]["Keys"]["pk"]["S"] for r in records]
        assert sorted(keys) == sorted(scanned), "one stream record per item written"
    client.close()


@pytest.mark.parametrize("stream", [False, True], ids=["table", "with-stream"])
def test_full_disk_refuses_writes_then_takes_them_again(disk, stream):
    data = os.path.join(disk, "data")
    server = ServerProcess(["--data-dir", data, "--no-models"]).start()
    try:
        acked, unknown = run_rounds(server, disk, "disk", stream)
        log = server.log_tail(200_000)
        assert log.count("storage: writes stopped: Storage error: the disk holding the data "
                         "directory is full") == ROUNDS, log
        assert log.count("storage: writes accepted again") == ROUNDS, log
        assert server.stop() == 0
        server = ServerProcess(["--data-dir", data, "--no-models"]).start()
        check_after_restart(server, "disk", acked, unknown, stream)
    finally:
        server.stop()
        server.remove_log()
