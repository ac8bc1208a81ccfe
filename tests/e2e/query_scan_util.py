"""Tables, items and helpers the Query and Scan modules share (test_query,
test_query_scan_errors, test_filter_select, test_pagination): module-scoped
tables keyed by S and N sort keys and a hash-only one, a partition of
sort keys a..c, a fresh partition key per test, and a walk that follows
LastEvaluatedKey to the end."""

import pytest

from .e2e_util import avs, plain, unique_name

VE = "ValidationException"


@pytest.fixture(scope="module")
def str_tbl(tables):
    """pk (S) + sk (S)."""
    return tables(range_key=("sk", "S"), prefix="qs-s")


@pytest.fixture(scope="module")
def num_tbl(tables):
    """pk (S) + sk (N)."""
    return tables(range_key=("sk", "N"), prefix="qs-n")


@pytest.fixture(scope="module")
def hash_tbl(tables):
    """pk (S) only."""
    return tables(prefix="qs-h")


def part():
    """A fresh partition key value."""
    return unique_name("p")


def put_all(db, table, items):
    for item in items:
        db.put_item(TableName=table, Item=avs(item))


def query(db, table, pk, cond=None, values=None, **kwargs):
    """Query partition `pk` with an optional sort condition on sk; returns the response."""
    expr = "pk = :pk" + (" AND " + cond if cond else "")
    vals = {":pk": pk}
    vals.update(values or {})
    return db.query(TableName=table, KeyConditionExpression=expr,
                    ExpressionAttributeValues=avs(vals), **kwargs)


def walk(call, max_pages=10000, **kwargs):
    """Follow LastEvaluatedKey to the end; returns (items, list of responses)."""
    items, pages = [], []
    start = None
    for _ in range(max_pages):
        if start is not None:
            kwargs["ExclusiveStartKey"] = start
        resp = call(**kwargs)
        pages.append(resp)
        items.extend(resp.get("Items", []))
        start = resp.get("LastEvaluatedKey")
        if not start:
            return items, pages
    raise AssertionError("pagination did not terminate")


def sks(items):
    return [plain(i)["sk"] for i in items]


STR_SKS = ["a", "ab", "abc", "b", "ba", "c"]


@pytest.fixture(scope="module")
def str_part(dynamodb, str_tbl):
    p = part()
    put_all(dynamodb, str_tbl, [{"pk": p, "sk": s, "v": i} for i, s in enumerate(STR_SKS)])
    # A neighbouring partition that must never leak into results.
    put_all(dynamodb, str_tbl, [{"pk": p + "x", "sk": s} for s in STR_SKS])
    return p
