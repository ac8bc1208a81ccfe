"""A pytest project as a user of the wheels has it: pytest-localdynamo and
localdynamo installed with pip from dist/python (tests/packages/in-root.sh),
nothing from the source tree, no LOCALDYNAMO_BIN."""

import os
import subprocess

import localdynamo


def test_the_server_is_the_wheels_binary():
    assert "LOCALDYNAMO_BIN" not in os.environ
    binary = localdynamo.binary_path()
    assert "/site-packages/localdynamo/bin/localdynamo" in binary
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("localdynamo ")


def test_preloaded_model_round_trip(dynamodb_client):
    key = {"PK": {"S": "USER#sample"}, "SK": {"S": "PROFILE"}}
    dynamodb_client.put_item(TableName="ecommerce", Item={**key, "name": {"S": "Sam"}})
    item = dynamodb_client.get_item(TableName="ecommerce", Key=key, ConsistentRead=True)["Item"]
    assert item["name"] == {"S": "Sam"}


def test_each_test_starts_from_the_seed(dynamodb_client):
    key = {"PK": {"S": "USER#sample"}, "SK": {"S": "PROFILE"}}
    assert "Item" not in dynamodb_client.get_item(TableName="ecommerce", Key=key)
