"""Named snapshots from a test, and code under test that builds its own
plain boto3 clients: the plugin's environment points them at this worker's
database."""

import os

import boto3

from seed_data import SEED_ITEMS, SEED_ROWS


def test_writes_the_shared_keys_alone(same_keys):
    same_keys()


def test_snapshot_and_restore(localdynamo, dynamodb_resource, dynamodb_client):
    orders = dynamodb_resource.Table("orders")
    orders.put_item(Item={"PK": "USER#1", "SK": "ORDER#100", "status": "PAID"})
    taken = localdynamo.snapshot("one-paid-order")
    assert taken["Items"] == SEED_ITEMS + 1

    orders.delete_item(Key={"PK": "USER#1", "SK": "ORDER#001"})
    orders.put_item(Item={"PK": "USER#1", "SK": "ORDER#101", "status": "PAID"})
    dynamodb_client.create_table(
        TableName="made-after-the-snapshot", BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}])

    localdynamo.restore("one-paid-order")
    sks = {i["SK"] for i in orders.scan(ConsistentRead=True)["Items"] if i["PK"] == "USER#1"}
    assert sks == {"PROFILE", "ORDER#001", "ORDER#002", "ORDER#100"}
    assert sorted(dynamodb_client.list_tables()["TableNames"]) == ["counters", "orders"]


def test_snapshots_survive_the_reset_between_tests(localdynamo, dynamodb_resource):
    orders = dynamodb_resource.Table("orders")
    assert len(orders.scan(ConsistentRead=True)["Items"]) == SEED_ROWS
    localdynamo.restore("one-paid-order")
    assert orders.get_item(Key={"PK": "USER#1", "SK": "ORDER#100"})["Item"]["status"] == "PAID"


def test_plain_boto3_reaches_this_workers_database(localdynamo, dynamodb_client):
    plain = boto3.client("dynamodb")
    assert plain.meta.endpoint_url == localdynamo.url
    assert plain.meta.region_name == localdynamo.region
    plain.put_item(TableName="orders", Item={"PK": {"S": "PLAIN"}, "SK": {"S": "1"}})
    assert "Item" in dynamodb_client.get_item(TableName="orders",
                                              Key={"PK": {"S": "PLAIN"}, "SK": {"S": "1"}})
    table = boto3.resource("dynamodb").Table("orders")
    assert table.get_item(Key={"PK": "PLAIN", "SK": "1"})["Item"] == {"PK": "PLAIN", "SK": "1"}
    assert os.environ["AWS_ACCESS_KEY_ID"] == localdynamo.access_key
