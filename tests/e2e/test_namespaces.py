"""Which clients share a database: one per region (the default, as in DynamoDB),
--shared-db (everyone) and --per-key-databases (one per access key and region)."""

import subprocess

import pytest

from .e2e_util import (
    TableFactory,
    all_table_names,
    expect_error,
    make_client,
    unique_name,
    wait_active,
    wait_gone,
)
from .server_util import EventReceiver, admin_ok, server_binary, wait_for


def create_table(client, name):
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
    )
    wait_active(client, name)


def test_regions_are_apart_and_access_keys_share_one(server_url, external_endpoint):
    # By default each region has its own database, as in DynamoDB, and
    # every access key (one account) sees the same tables in a region.
    a_east = make_client(server_url, access_key="AKIDREGIONA", region="us-east-1")
    b_east = make_client(server_url, access_key="AKIDREGIONB", region="us-east-1")
    a_west = make_client(server_url, access_key="AKIDREGIONA", region="eu-west-1")
    name = unique_name("regional")
    east, west = TableFactory(a_east), TableFactory(a_west)
    east.register(name)
    west.register(name)
    try:
        create_table(a_east, name)
        a_east.put_item(TableName=name, Item={"pk": {"S": "k"}, "who": {"S": "a"}})
        assert b_east.get_item(TableName=name, Key={"pk": {"S": "k"}},
                               ConsistentRead=True)["Item"]["who"] == {"S": "a"}
        assert name in all_table_names(b_east)

        assert name not in all_table_names(a_west)
        with expect_error("ResourceNotFoundException"):
            a_west.describe_table(TableName=name)
        # A transaction signed for one region cannot reach another's table.
        with expect_error("ResourceNotFoundException"):
            a_west.transact_write_items(TransactItems=[{"Put": {
                "TableName": name, "Item": {"pk": {"S": "x"}}}}])

        # The same name, made in the other region, is another table: its
        # ARN names its region.
        create_table(a_west, name)
        a_west.put_item(TableName=name, Item={"pk": {"S": "k"}, "who": {"S": "west"}})
        east_arn = a_east.describe_table(TableName=name)["Table"]["TableArn"]
        west_arn = a_west.describe_table(TableName=name)["Table"]["TableArn"]
        assert east_arn.startswith("arn:aws:dynamodb:us-east-1:")
        assert west_arn.startswith("arn:aws:dynamodb:eu-west-1:")
        assert a_east.get_item(TableName=name, Key={"pk": {"S": "k"}},
                               ConsistentRead=True)["Item"]["who"] == {"S": "a"}
        a_west.delete_table(TableName=name)
        wait_gone(a_west, name)
        assert a_east.describe_table(TableName=name)["Table"]["TableStatus"] == "ACTIVE"
    finally:
        east.cleanup()
        west.cleanup()


def test_every_region_gets_the_preloaded_models(start_server):
    with start_server("--in-memory") as srv:
        east = srv.client(region="us-east-1")
        west = srv.client(region="ap-southeast-2")
        models = set(all_table_names(east))
        assert "lambda-layers" in models
        assert set(all_table_names(west)) == models
        west.put_item(TableName="lambda-layers", Item={"pk": {"S": "only-west"}, "sk": {"S": "x"}})
        assert "Item" not in east.get_item(TableName="lambda-layers", Key={
            "pk": {"S": "only-west"}, "sk": {"S": "x"}})
        stream_arn = west.describe_table(TableName="lambda-layers")["Table"]["LatestStreamArn"]
        assert stream_arn.startswith("arn:aws:dynamodb:ap-southeast-2:")
        # The admin API names each region's database for the tools that ask.
        assert admin_ok(srv.url, "namespace?accessKey=anyone&region=ap-southeast-2") == {
            "Namespace": "ap-southeast-2", "Region": "ap-southeast-2", "Scope": "PER_REGION"}
        assert admin_ok(srv.url, "namespace?accessKey=anyone&region=us-east-1")["Namespace"] == ""


def test_shared_db_puts_every_key_and_region_in_one_database(start_server):
    with start_server("--in-memory", "--no-models", "--shared-db") as srv:
        a = srv.client(access_key="AKIDSHAREDA", region="us-east-1")
        b = srv.client(access_key="AKIDSHAREDB", region="eu-west-1")
        name = unique_name("shared")
        create_table(a, name)
        a.put_item(TableName=name, Item={"pk": {"S": "k"}, "who": {"S": "a"}})
        assert name in all_table_names(b)
        assert b.get_item(TableName=name, Key={"pk": {"S": "k"}},
                          ConsistentRead=True)["Item"]["who"] == {"S": "a"}
        # ARNs still name the caller's region.
        assert b.describe_table(TableName=name)["Table"]["TableArn"].startswith(
            "arn:aws:dynamodb:eu-west-1:")
        assert admin_ok(srv.url, "namespace?accessKey=x&region=eu-west-1")["Scope"] == "SHARED"
    assert srv.returncode == 0


def test_a_shared_data_directory_opens_with_its_tables_in_the_default_region(start_server,
                                                                             tmp_path):
    # A data directory written before regions were kept apart (all callers
    # in one database, which --shared-db still writes) opens unchanged by
    # default: its tables are the default region's.
    data = str(tmp_path / "data")
    with start_server("--data-dir", data, "--no-models", "--shared-db") as srv:
        create_table(srv.client(region="eu-west-1"), "made-in-eu")
    with start_server("--data-dir", data, "--no-models") as srv:
        assert all_table_names(srv.client(region="us-east-1")) == ["made-in-eu"]
        assert all_table_names(srv.client(region="eu-west-1")) == []


def test_shared_db_and_per_key_databases_exclude_each_other():
    refused = subprocess.run([str(server_binary()), "--in-memory", "--shared-db",
                              "--per-key-databases"], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2
    assert "exclude each other" in refused.stderr


def test_per_key_databases_isolate_keys_and_regions(start_server):
    # With --per-key-databases each (access key, region) pair has its own database: a table made with key A is invisible to key B and to key A in another region.
    with start_server("--in-memory", "--per-key-databases") as srv:
        a_east = srv.client(access_key="AKIDISOLATEA", region="us-east-1")
        b_east = srv.client(access_key="AKIDISOLATEB", region="us-east-1")
        a_west = srv.client(access_key="AKIDISOLATEA", region="us-west-2")
        name = unique_name("perkey")

        create_table(a_east, name)
        a_east.put_item(TableName=name, Item={"pk": {"S": "k"}, "owner": {"S": "a-east"}})
        assert name in all_table_names(a_east)

        for other in (b_east, a_west):
            assert name not in all_table_names(other)
            with expect_error("ResourceNotFoundException"):
                other.describe_table(TableName=name)
            with expect_error("ResourceNotFoundException"):
                other.get_item(TableName=name, Key={"pk": {"S": "k"}})

        # The same name can be created independently in another namespace.
        create_table(b_east, name)
        b_east.put_item(TableName=name, Item={"pk": {"S": "k"}, "owner": {"S": "b-east"}})
        assert a_east.get_item(TableName=name, Key={"pk": {"S": "k"}},
                               ConsistentRead=True)["Item"]["owner"] == {"S": "a-east"}
        assert b_east.get_item(TableName=name, Key={"pk": {"S": "k"}},
                               ConsistentRead=True)["Item"]["owner"] == {"S": "b-east"}

        # Deleting it in one namespace leaves the other alone.
        b_east.delete_table(TableName=name)
        assert a_east.describe_table(TableName=name)["Table"]["TableName"] == name
        with expect_error("ResourceNotFoundException"):
            a_west.describe_table(TableName=name)
    assert srv.returncode == 0


def test_a_trigger_follows_the_table_of_its_region(start_server):
    receiver = EventReceiver()
    try:
        with start_server("--in-memory", "--no-models") as srv:
            east, west = srv.client(region="us-east-1"), srv.client(region="eu-west-1")
            for client in (east, west):
                client.create_table(
                    TableName="orders", BillingMode="PAY_PER_REQUEST",
                    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                    StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
            admin_ok(srv.url, "triggers", {"Name": "west", "TableName": "orders",
                                           "Region": "eu-west-1", "Url": receiver.url,
                                           "StartingPosition": "TRIM_HORIZON"})
            east.put_item(TableName="orders", Item={"pk": {"S": "east"}})
            west.put_item(TableName="orders", Item={"pk": {"S": "west"}})
            wait_for(lambda: receiver.records(), what="the west record")
            wait_for(lambda: admin_ok(srv.url, "triggers/west")["Lag"] == 0,
                     what="the trigger to read past every write")
            [record] = receiver.records()
            assert record["dynamodb"]["Keys"] == {"pk": {"S": "west"}}
            assert record["awsRegion"] == "eu-west-1"
            assert record["eventSourceARN"].startswith("arn:aws:dynamodb:eu-west-1:")
    finally:
        receiver.close()
