"""Counters: increments of one test never reach the next test, nor another
worker incrementing the same counter at the same time."""

from seed_data import SEED_VISITS


def visits(client):
    return int(client.get_item(TableName="counters", Key={"pk": {"S": "visits"}},
                               ConsistentRead=True)["Item"]["n"]["N"])


def test_increments_the_shared_counter_alone(same_keys):
    same_keys()


def test_counter_starts_from_the_seed(dynamodb_client):
    assert visits(dynamodb_client) == SEED_VISITS
    for _ in range(5):
        dynamodb_client.update_item(TableName="counters", Key={"pk": {"S": "visits"}},
                                    UpdateExpression="ADD n :one",
                                    ExpressionAttributeValues={":one": {"N": "1"}})
    assert visits(dynamodb_client) == SEED_VISITS + 5


def test_counter_starts_from_the_seed_again(dynamodb_client):
    assert visits(dynamodb_client) == SEED_VISITS


def test_a_table_made_by_a_test_is_gone_after_it(dynamodb_client):
    assert sorted(dynamodb_client.list_tables()["TableNames"]) == ["counters", "orders"]
    dynamodb_client.create_table(
        TableName="scratch", BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}])
    assert "scratch" in dynamodb_client.list_tables()["TableNames"]


def test_no_scratch_table_here(dynamodb_client):
    assert sorted(dynamodb_client.list_tables()["TableNames"]) == ["counters", "orders"]
