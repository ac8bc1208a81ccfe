"""Smoke test of the linux/arm64 image's server, run under Debian's
qemu-user-static by scripts/arm64-smoke.sh: LOCALDYNAMO_BIN is a wrapper
that runs the image's own arm64 binary (`qemu-aarch64-static -L <image root>`:
the binary is static; the root is where its shell finds its commands), and
LOCALDYNAMO_ARM64_ROOT the image's mounted file system.

Tables, items, a query, a stream read and TTL expiry driven by the emulator's
test clock, through boto3; the preloaded models load from the image's
fixtures; the image's busybox shell runs."""

import os
import struct
import subprocess
import time
from pathlib import Path

import pytest

from e2e.server_util import (advance_clock, make_streams_client, read_stream, run_server,
                             server_now, sweep)

ROOT = Path(os.environ.get("LOCALDYNAMO_ARM64_ROOT", "/nonexistent"))
EM_AARCH64 = 183

pytestmark = pytest.mark.skipif(not ROOT.is_dir(), reason="LOCALDYNAMO_ARM64_ROOT not set")


def elf_machine(path):
    with open(path, "rb") as f:
        header = f.read(20)
    assert header[:4] == b"\x7fELF", path
    return struct.unpack_from("<H", header, 18)[0]


def qemu(*argv):
    return subprocess.run(["qemu-aarch64-static", "-L", str(ROOT), *argv], capture_output=True,
                          text=True, timeout=60)


def test_the_image_holds_arm64_code_only():
    assert elf_machine(ROOT / "usr/local/bin/localdynamo") == EM_AARCH64
    assert elf_machine(ROOT / "bin/busybox") == EM_AARCH64
    # Both are linked statically: the image holds no loader and no library.
    assert [p for p in ROOT.rglob("*.so*") if p.is_file()] == []


def test_the_shell_runs_and_the_version_answers():
    shell = qemu(str(ROOT / "bin/busybox"), "sh", "-c", "echo $((6 * 7)) | grep -c 42")
    assert (shell.returncode, shell.stdout) == (0, "1\n"), shell.stderr
    version = qemu(str(ROOT / "usr/local/bin/localdynamo"), "--version")
    assert version.returncode == 0 and version.stdout.startswith("localdynamo "), version.stderr


def create_table(ddb, name, **extra):
    ddb.create_table(TableName=name,
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "N"}],
                     BillingMode="PAY_PER_REQUEST", **extra)


def test_tables_items_query_stream_and_ttl():
    started = time.monotonic()
    with run_server("--in-memory", "--no-models", "--ttl-interval", "0") as server:
        print("arm64 server under qemu answered after {:.2f} s".format(
            time.monotonic() - started))
        ddb = server.client()
        create_table(ddb, "orders",
                     StreamSpecification={"StreamEnabled": True,
                                          "StreamViewType": "NEW_AND_OLD_IMAGES"})
        assert ddb.describe_table(TableName="orders")["Table"]["TableStatus"] == "ACTIVE"
        assert ddb.list_tables()["TableNames"] == ["orders"]

        for sk in range(1, 6):
            ddb.put_item(TableName="orders",
                         Item={"pk": {"S": "customer#1"}, "sk": {"N": str(sk)},
                               "total": {"N": str(sk * 10)}})
        ddb.update_item(TableName="orders", Key={"pk": {"S": "customer#1"}, "sk": {"N": "2"}},
                        UpdateExpression="SET #t = #t + :d",
                        ExpressionAttributeNames={"#t": "total"},
                        ExpressionAttributeValues={":d": {"N": "5"}})
        item = ddb.get_item(TableName="orders",
                            Key={"pk": {"S": "customer#1"}, "sk": {"N": "2"}})["Item"]
        assert item["total"] == {"N": "25"}

        page = ddb.query(TableName="orders",
                         KeyConditionExpression="pk = :p AND sk BETWEEN :a AND :b",
                         FilterExpression="#t > :min",
                         ExpressionAttributeNames={"#t": "total"},
                         ExpressionAttributeValues={":p": {"S": "customer#1"}, ":a": {"N": "2"},
                                                    ":b": {"N": "4"}, ":min": {"N": "26"}},
                         ScanIndexForward=False)
        assert [i["sk"]["N"] for i in page["Items"]] == ["4", "3"]
        assert page["ScannedCount"] == 3

        arn = ddb.describe_table(TableName="orders")["Table"]["LatestStreamArn"]
        records = read_stream(make_streams_client(server.url), arn)
        assert [r["eventName"] for r in records] == ["INSERT"] * 5 + ["MODIFY"]
        assert records[-1]["dynamodb"]["OldImage"]["total"] == {"N": "20"}
        assert records[-1]["dynamodb"]["NewImage"]["total"] == {"N": "25"}

        # TTL: an item due in a minute is gone once the test clock passes it.
        ddb.update_time_to_live(TableName="orders", TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
        now = server_now(server.url)
        ddb.put_item(TableName="orders", Item={"pk": {"S": "session"}, "sk": {"N": "1"},
                                               "expires": {"N": str(now + 60)}})
        sweep(server.url)
        assert "Item" in ddb.get_item(TableName="orders",
                                      Key={"pk": {"S": "session"}, "sk": {"N": "1"}})
        advance_clock(server.url, 120)
        sweep(server.url)
        assert "Item" not in ddb.get_item(TableName="orders",
                                          Key={"pk": {"S": "session"}, "sk": {"N": "1"}})
        removed = read_stream(make_streams_client(server.url), arn)[-1]
        assert removed["eventName"] == "REMOVE"
        assert removed["userIdentity"] == {"Type": "Service",
                                           "PrincipalId": "dynamodb.amazonaws.com"}


def test_the_preloaded_models_load_from_the_image():
    with run_server("--in-memory", "--models-dir",
                    str(ROOT / "usr/share/localdynamo/fixtures")) as server:
        tables = server.client().list_tables()["TableNames"]
        assert "lambda-layers" in tables, tables
