"""reset="session" on a test: no reset before it, so it sees what the test
before it (on this worker: run with --dist loadfile) left."""

import boto3
import pytest

JUNIOR = {"PK": {"S": "USER#junior"}, "SK": {"S": "#PROFILE#junior"}}


def test_starts_with_the_sample_row(dynamodb_client):
    assert "Item" in dynamodb_client.get_item(TableName="ecommerce", Key=JUNIOR)


@pytest.mark.localdynamo(reset="session")
def test_reset_session_keeps_what_the_test_before_left(dynamodb_client):
    dynamodb_client.delete_item(TableName="ecommerce", Key=JUNIOR)


@pytest.mark.localdynamo(reset="session")
def test_so_the_row_is_still_gone(dynamodb_client):
    assert "Item" not in boto3.client("dynamodb").get_item(TableName="ecommerce", Key=JUNIOR)
