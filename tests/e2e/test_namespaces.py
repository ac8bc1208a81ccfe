"""Which clients share a database: --shared-db (default) vs --per-key-databases."""

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


def create_table(client, name):
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
    )
    wait_active(client, name)


def test_shared_mode_all_keys_and_regions_see_same_tables(server_url, external_endpoint):
    # In the default shared-db mode, clients with different access keys and regions see and modify the same tables and items.
    if external_endpoint:
        pytest.skip("shared-db is a localdynamo mode; real DynamoDB separates accounts/regions")
    a = make_client(server_url, access_key="AKIDSHAREDA", region="us-east-1")
    b = make_client(server_url, access_key="AKIDSHAREDB", region="eu-west-1")
    name = unique_name("shared")
    cleanup = TableFactory(a)
    cleanup.register(name)
    try:
        create_table(a, name)
        a.put_item(TableName=name, Item={"pk": {"S": "k"}, "who": {"S": "a"}})

        assert name in all_table_names(b)
        assert b.describe_table(TableName=name)["Table"]["TableName"] == name
        assert b.get_item(TableName=name, Key={"pk": {"S": "k"}},
                          ConsistentRead=True)["Item"]["who"] == {"S": "a"}

        b.put_item(TableName=name, Item={"pk": {"S": "k"}, "who": {"S": "b"}})
        assert a.get_item(TableName=name, Key={"pk": {"S": "k"}},
                          ConsistentRead=True)["Item"]["who"] == {"S": "b"}

        b.delete_table(TableName=name)
        wait_gone(a, name)
        with expect_error("ResourceNotFoundException"):
            a.describe_table(TableName=name)
    finally:
        cleanup.cleanup()


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
