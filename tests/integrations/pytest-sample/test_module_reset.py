"""reset="module": the database goes back to the seed before this module's
first test only, so its tests build on each other (run with --dist loadfile,
or serially, so that one worker runs them in order)."""

import pytest

from seed_data import SEED_VISITS, ROUNDS

pytestmark = pytest.mark.localdynamo(reset="module")


def test_starts_from_the_seed(dynamodb_client):
    profile = dynamodb_client.get_item(TableName="orders",
                                       Key={"PK": {"S": "USER#1"}, "SK": {"S": "PROFILE"}})["Item"]
    assert profile["owner"] == {"S": "seed"}


def test_writes_the_shared_keys_alone(same_keys):
    same_keys()


def test_sees_the_previous_tests_writes(dynamodb_client, worker_tag):
    profile = dynamodb_client.get_item(TableName="orders",
                                       Key={"PK": {"S": "USER#1"}, "SK": {"S": "PROFILE"}},
                                       ConsistentRead=True)["Item"]
    assert profile["owner"] == {"S": worker_tag}
    assert profile["round"] == {"N": str(ROUNDS - 1)}
    visits = dynamodb_client.get_item(TableName="counters", Key={"pk": {"S": "visits"}},
                                      ConsistentRead=True)["Item"]["n"]["N"]
    assert int(visits) == SEED_VISITS + ROUNDS


@pytest.mark.localdynamo(reset="test")
def test_a_test_can_ask_for_its_own_reset(dynamodb_client):
    profile = dynamodb_client.get_item(TableName="orders",
                                       Key={"PK": {"S": "USER#1"}, "SK": {"S": "PROFILE"}})["Item"]
    assert profile["owner"] == {"S": "seed"}
