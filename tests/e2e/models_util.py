"""Helpers the data-model modules (test_models_*.py) share. Each of the
team's data models (the design notes' models.md and the seed documents it
cites) is built exactly as models.md specifies (same key, index and
attribute names; table names get a unique prefix so the tests never
collide with preloaded tables) and exercised through every access pattern
models.md lists, with a handful of realistic items each."""

import uuid

import pytest

CCF = "ConditionalCheckFailedException"


@pytest.fixture(scope="module")
def run_id():
    return uuid.uuid4().hex[:8]


def model_table(tables, run_id, model_name, **kwargs):
    """Create the models.md table `model_name` under a unique prefix."""
    return tables(name="e2e-{}-{}".format(run_id, model_name), **kwargs)


def defs(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


def keys(hash_key, range_key=None):
    ks = [{"AttributeName": hash_key, "KeyType": "HASH"}]
    if range_key:
        ks.append({"AttributeName": range_key, "KeyType": "RANGE"})
    return ks


def index(name, hash_key, range_key, projection):
    return {"IndexName": name, "KeySchema": keys(hash_key, range_key), "Projection": projection}


def put_all(table, items):
    """PutItem one by one (BatchWriteItem is not what these tests are about)."""
    for item in items:
        table.put_item(Item=item)


def all_pages(call, **kwargs):
    items = []
    for _ in range(1000):
        resp = call(**kwargs)
        items.extend(resp.get("Items", []))
        if "LastEvaluatedKey" not in resp:
            return items
        kwargs["ExclusiveStartKey"] = resp["LastEvaluatedKey"]
    raise AssertionError("pagination did not terminate")
