"""A release binary where a user would run it, driven through boto3
(scripts/release-test.sh runs this file once per place): LOCALDYNAMO_BIN is a
wrapper that starts the binary there — in a root holding only the binary, in
a Debian bullseye root, under qemu-user for arm64 — with its arguments.

LOCALDYNAMO_RELEASE_COMMIT: the commit `--version` must name.
LOCALDYNAMO_RELEASE_MODELS: 1 when the preloaded models are beside the
  binary (the release trees' share/localdynamo/fixtures), 0 when it is alone.
LOCALDYNAMO_RELEASE_DATA_DIR: a data directory as the binary sees it, for
  the restart test (skipped when unset)."""

import os
import subprocess

import pytest

from e2e.e2e_util import unique_name
from e2e.server_util import make_streams_client, run_server, server_binary

COMMIT = os.environ.get("LOCALDYNAMO_RELEASE_COMMIT", "")
MODELS = os.environ.get("LOCALDYNAMO_RELEASE_MODELS") == "1"
DATA_DIR = os.environ.get("LOCALDYNAMO_RELEASE_DATA_DIR")


def make_table(client, name, **extra):
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "sk", "AttributeType": "N"}],
                        **extra)


def test_version_names_the_release_commit():
    out = subprocess.run([str(server_binary()), "--version"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("localdynamo "), out.stdout
    assert "(commit {}".format(COMMIT) in out.stdout, out.stdout


def test_models_are_preloaded_only_where_they_ship():
    with run_server("--in-memory") as server:
        tables = server.client().list_tables()["TableNames"]
    if MODELS:
        assert {"ecommerce", "tenants", "wrhs_package", "AliasTable"} <= set(tables), tables
    else:
        assert tables == [], tables


def test_items_queries_transactions_and_streams():
    with run_server("--in-memory", "--no-models") as server:
        client = server.client()
        name = unique_name("release")
        make_table(client, name, StreamSpecification={"StreamEnabled": True,
                                                      "StreamViewType": "NEW_AND_OLD_IMAGES"})
        for sk in range(5):
            client.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": str(sk)},
                                                  "v": {"S": "x" * sk}})
        page = client.query(TableName=name, KeyConditionExpression="pk = :p AND sk > :s",
                            ExpressionAttributeValues={":p": {"S": "a"}, ":s": {"N": "1"}},
                            ScanIndexForward=False)
        assert [item["sk"]["N"] for item in page["Items"]] == ["4", "3", "2"]
        client.transact_write_items(TransactItems=[
            {"Update": {"TableName": name, "Key": {"pk": {"S": "a"}, "sk": {"N": "0"}},
                        "UpdateExpression": "SET n = if_not_exists(n, :z) + :one",
                        "ExpressionAttributeValues": {":z": {"N": "0"}, ":one": {"N": "1"}}}},
            {"ConditionCheck": {"TableName": name, "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}},
                                "ConditionExpression": "attribute_exists(pk)"}}])
        item = client.get_item(TableName=name, Key={"pk": {"S": "a"}, "sk": {"N": "0"}})["Item"]
        assert item["n"] == {"N": "1"}
        with pytest.raises(client.exceptions.TransactionCanceledException):
            client.transact_write_items(TransactItems=[
                {"Put": {"TableName": name, "Item": {"pk": {"S": "b"}, "sk": {"N": "0"}}}},
                {"ConditionCheck": {"TableName": name, "Key": {"pk": {"S": "zz"}, "sk": {"N": "0"}},
                                    "ConditionExpression": "attribute_exists(pk)"}}])
        assert "Item" not in client.get_item(TableName=name, Key={"pk": {"S": "b"}, "sk": {"N": "0"}})
        arn = client.describe_table(TableName=name)["Table"]["LatestStreamArn"]
        streams = make_streams_client(server.url)
        shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records = streams.get_records(ShardIterator=iterator)["Records"]
        assert [r["eventName"] for r in records] == ["INSERT"] * 5 + ["MODIFY"]


def test_names_resolve_through_etc_hosts():
    """Statically linked, the C library resolves names itself (its files and
    dns sources are built in): the health check reaches the server by the
    name /etc/hosts gives it, where the root has one."""
    with run_server("--in-memory", "--no-models") as server:
        for host in ("127.0.0.1", "localhost") if MODELS else ("127.0.0.1",):
            url = "http://{}:{}/".format(host, server.port)
            probe = subprocess.run([str(server_binary()), "--healthcheck", url],
                                   capture_output=True, text=True, timeout=60)
            assert probe.returncode == 0, (url, probe.stderr)


@pytest.mark.skipif(not DATA_DIR, reason="LOCALDYNAMO_RELEASE_DATA_DIR not set")
def test_data_survives_a_restart():
    name = unique_name("persist")
    with run_server("--data-dir", DATA_DIR, "--no-models") as server:
        client = server.client()
        make_table(client, name)
        client.put_item(TableName=name, Item={"pk": {"S": "kept"}, "sk": {"N": "1"}})
    with run_server("--data-dir", DATA_DIR, "--no-models") as server:
        item = server.client().get_item(TableName=name, Key={"pk": {"S": "kept"}, "sk": {"N": "1"}})
        assert item["Item"]["pk"] == {"S": "kept"}
