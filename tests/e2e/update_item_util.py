"""The table and the Items helper (put, get and update with plain Python
values) the UpdateItem modules share (test_update_actions,
test_update_responses, test_update_legacy, test_update_patterns)."""

import pytest

from .e2e_util import avs, key, plain

CCF = "ConditionalCheckFailedException"
VE = "ValidationException"


@pytest.fixture(scope="module")
def tbl(tables):
    """Table with hash key pk (S)."""
    return tables(prefix="upd")


class Items:
    """Small helper bound to one table: put/get/update with plain Python values."""

    def __init__(self, dynamodb, table):
        self.db = dynamodb
        self.table = table

    def put(self, **attrs):
        k = key()
        self.db.put_item(TableName=self.table, Item=avs(dict(attrs, pk=k)))
        return k

    def get(self, k):
        resp = self.db.get_item(TableName=self.table, Key={"pk": {"S": k}}, ConsistentRead=True)
        return plain(resp["Item"]) if "Item" in resp else None

    def update(self, k, expr=None, values=None, names=None, **kwargs):
        if expr is not None:
            kwargs["UpdateExpression"] = expr
        if values is not None:
            kwargs["ExpressionAttributeValues"] = avs(values)
        if names is not None:
            kwargs["ExpressionAttributeNames"] = names
        resp = self.db.update_item(TableName=self.table, Key={"pk": {"S": k}}, **kwargs)
        if "Attributes" in resp:
            return plain(resp["Attributes"])
        return None

    def updated(self, k, expr, values=None, names=None, **kwargs):
        """Apply the update and return the whole item afterwards (without pk)."""
        self.update(k, expr, values, names, **kwargs)
        got = self.get(k)
        got.pop("pk")
        return got


@pytest.fixture
def items(dynamodb, tbl):
    return Items(dynamodb, tbl)
