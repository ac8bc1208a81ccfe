"""TransactGetItems: responses in request order across tables (a missing
item is {}), a projection per Get, and a snapshot that sees a committed
transaction whole."""

from .e2e_util import expect_error, key, plain
from .transactions_util import VE, body, put, t_get, t_put, t_update
from .transactions_util import htbl, rtbl  # fixtures


def test_transact_get_in_request_order_with_missing(dynamodb, htbl, rtbl):
    # Responses follow the request order across tables; a missing item is {} (no Item member).
    a, b, c = key(), key(), key()
    put(dynamodb, htbl, pk=a, v="A")
    put(dynamodb, rtbl, pk=b, sk=2, v="B")
    put(dynamodb, htbl, pk=c, v="C", m={"n": [1]})
    resp = dynamodb.transact_get_items(TransactItems=[
        t_get(htbl, {"pk": c}), t_get(rtbl, {"pk": b, "sk": 1}), t_get(htbl, {"pk": a}),
        t_get(htbl, {"pk": key()}), t_get(rtbl, {"pk": b, "sk": 2})])
    assert set(body(resp)) == {"Responses"}
    got = [plain(r["Item"]) if "Item" in r else r for r in resp["Responses"]]
    assert got == [{"pk": c, "v": "C", "m": {"n": [1]}}, {}, {"pk": a, "v": "A"}, {},
                   {"pk": b, "sk": 2, "v": "B"}]


def test_transact_get_projection(dynamodb, htbl):
    # Each Get may project attributes (with names placeholders) independently.
    a = key()
    put(dynamodb, htbl, pk=a, name="n", size=3, m={"x": 1, "y": 2})
    resp = dynamodb.transact_get_items(TransactItems=[
        t_get(htbl, {"pk": a}, ProjectionExpression="#n, m.y", ExpressionAttributeNames={"#n": "name"}),
    ])
    assert [plain(r["Item"]) for r in resp["Responses"]] == [{"name": "n", "m": {"y": 2}}]
    with expect_error(VE, "Invalid ProjectionExpression"):
        dynamodb.transact_get_items(TransactItems=[t_get(htbl, {"pk": a}, ProjectionExpression="!!")])


def test_transact_get_sees_committed_transaction_whole(dynamodb, htbl, rtbl):
    # After a transaction commits, a TransactGetItems sees all of its writes.
    a = key()
    dynamodb.transact_write_items(TransactItems=[
        t_put(htbl, {"pk": a, "gen": 1}), t_put(rtbl, {"pk": a, "sk": 0, "gen": 1})])
    dynamodb.transact_write_items(TransactItems=[
        t_update(htbl, {"pk": a}, "SET gen = gen + :one", {":one": 1}),
        t_update(rtbl, {"pk": a, "sk": 0}, "SET gen = gen + :one", {":one": 1})])
    resp = dynamodb.transact_get_items(TransactItems=[t_get(htbl, {"pk": a}),
                                                      t_get(rtbl, {"pk": a, "sk": 0})])
    assert [plain(r["Item"])["gen"] for r in resp["Responses"]] == [2, 2]
