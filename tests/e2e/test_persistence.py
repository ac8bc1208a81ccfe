"""Durability across restarts (--data-dir) versus --in-memory."""

from .e2e_util import all_table_names, expect_error, unique_name, wait_active

STABLE_FIELDS = ("TableName", "TableArn", "TableId", "KeySchema", "CreationDateTime",
                 "BillingModeSummary")


def index_shape(desc):
    """GSI descriptions without the (possibly refreshed) size/count statistics."""
    return [{k: v for k, v in gsi.items() if k not in ("ItemCount", "IndexSizeBytes")}
            for gsi in desc.get("GlobalSecondaryIndexes", [])]


def describe(client, name):
    return client.describe_table(TableName=name)["Table"]


def create_table(client, name):
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "by_g",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }],
        Tags=[{"Key": "owner", "Value": "e2e"}],
    )
    wait_active(client, name)


def key(pk, sk):
    return {"pk": {"S": pk}, "sk": {"N": sk}}


def test_data_dir_survives_restart(start_server, tmp_path):
    # With --data-dir, tables, their descriptions and items survive a SIGTERM shutdown (exit 0) and restart on the same directory.
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    name = unique_name("persist")
    dropped = unique_name("dropped")
    items = [
        dict(key("a", "1"), g={"S": "x"}, v={"S": "first"}),
        dict(key("a", "2"), g={"S": "y"}, n={"N": "3.14"}, b={"B": b"\x00\xff"},
             l={"L": [{"S": "q"}, {"NULL": True}]}, ss={"SS": ["s1", "s2"]}),
        dict(key("b", "1"), m={"M": {"deep": {"BOOL": True}}}),
    ]

    with start_server("--data-dir", str(data_dir)) as srv:
        client = srv.client()
        create_table(client, name)
        create_table(client, dropped)
        for item in items:
            client.put_item(TableName=name, Item=item)
        before = describe(client, name)
        tags_before = client.list_tags_of_resource(ResourceArn=before["TableArn"])["Tags"]
    assert srv.returncode == 0

    with start_server("--data-dir", str(data_dir)) as srv:
        client = srv.client()
        after = describe(client, name)
        assert after["TableStatus"] == "ACTIVE"
        for field in STABLE_FIELDS:
            assert after.get(field) == before.get(field), field
        assert index_shape(after) == index_shape(before)
        assert sorted(map(str, after["AttributeDefinitions"])) == \
            sorted(map(str, before["AttributeDefinitions"]))
        assert client.list_tags_of_resource(ResourceArn=after["TableArn"])["Tags"] == tags_before
        for item in items:
            got = client.get_item(TableName=name, Key={"pk": item["pk"], "sk": item["sk"]},
                                  ConsistentRead=True)["Item"]
            if "ss" in item:
                assert sorted(got.pop("ss")["SS"]) == sorted(item["ss"]["SS"])
                item = {k: v for k, v in item.items() if k != "ss"}
            assert got == item
        listed = all_table_names(client)
        assert name in listed and dropped in listed

        # Changes made after a restart are persisted too.
        client.delete_item(TableName=name, Key=key("b", "1"))
        client.put_item(TableName=name, Item=dict(key("c", "9"), v={"S": "late"}))
        client.delete_table(TableName=dropped)
    assert srv.returncode == 0

    with start_server("--data-dir", str(data_dir)) as srv:
        client = srv.client()
        assert "Item" not in client.get_item(TableName=name, Key=key("b", "1"),
                                             ConsistentRead=True)
        assert client.get_item(TableName=name, Key=key("c", "9"),
                               ConsistentRead=True)["Item"]["v"] == {"S": "late"}
        assert client.get_item(TableName=name, Key=key("a", "1"),
                               ConsistentRead=True)["Item"] == items[0]
        with expect_error("ResourceNotFoundException"):
            describe(client, dropped)
        assert dropped not in all_table_names(client)
    assert srv.returncode == 0


def test_in_memory_is_not_persisted(start_server):
    # An --in-memory server starts without the tables a previous --in-memory run created.
    name = unique_name("volatile")
    with start_server("--in-memory") as srv:
        client = srv.client()
        create_table(client, name)
        client.put_item(TableName=name, Item=key("a", "1"))
        assert name in all_table_names(client)
    assert srv.returncode == 0

    with start_server("--in-memory") as srv:
        client = srv.client()
        with expect_error("ResourceNotFoundException"):
            describe(client, name)
        assert name not in all_table_names(client)
    assert srv.returncode == 0
