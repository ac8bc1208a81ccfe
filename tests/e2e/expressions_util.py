"""The table, the item of every attribute type and the constants the
expression modules share (test_conditions, test_projection,
test_expression_errors, test_legacy_expected)."""

from decimal import Decimal

import pytest

from .e2e_util import avs, key

CCF = "ConditionalCheckFailedException"
VE = "ValidationException"
N1 = {"N": "1"}


@pytest.fixture(scope="module")
def tbl(tables):
    """Table with hash key pk (S)."""
    return tables(prefix="expr")


# An item with one attribute of every type plus nested documents; the
# condition cases of test_conditions.py are evaluated against it.
RICH = {
    "n": 5,
    "neg": Decimal("-3.5"),
    "n38": Decimal("1234567890123456789012345678901234567.8"),
    "s": "abc",
    "b": b"\x01\x02",
    "t": True,
    "f": False,
    "z": None,
    "ss": {"a", "b"},
    "ns": {1, 2},
    "bs": {b"\x01", b"\x02"},
    "l": [1, "two", [3]],
    "lx": ["hi", {1, 2}, [3, 4]],
    "m": {"x": 1, "y": {"z": "deep"}, "e": ""},
    "a.b": "dotted",
    "status": "active",
    "es": "",
    "uni": "\u00e9",
    "astral": "\U0001F600",
}


@pytest.fixture(scope="module")
def rich_key(dynamodb, tbl):
    k = key()
    item = dict(RICH, pk=k)
    dynamodb.put_item(TableName=tbl, Item=avs(item))
    return k
