"""SearchVectors: DynamoDB's scores and ordering for each distance function,
exact results (ties broken by key), search schema filters, projections, and
the index kept in step by every kind of write."""

import random
import re

import pytest

from .e2e_util import client_for, exact, expect_error, raw_op
from .server_util import advance_clock, server_now, sweep
from .vector_util import (create_vector_table, describe_vector_indexes, expected_ranking,
                          hits, put, search, vec, vector_index)


@pytest.mark.parametrize("distance", ["COSINE", "EUCLIDEAN", "DOT_PRODUCT"])
def test_results_are_the_exact_nearest_neighbours(server_url, distance):
    # 200 random 16-dimension vectors, some repeated so that scores tie:
    # the answer is the true top K, best score first, ties by key.
    table, _ = create_vector_table(server_url, [vector_index(dimensions=16, distance=distance)])
    rng = random.Random(7)
    items = {}
    for i in range(200):
        vector = [round(rng.uniform(-1, 1), 3) for _ in range(16)]
        if i % 10 == 9:
            vector = items["k{:03d}".format(i - 9)]  # a tie with an earlier item
        items["k{:03d}".format(i)] = vector
    for pk, vector in items.items():
        put(server_url, table, pk, vector)
    for _ in range(5):
        query = [round(rng.uniform(-1, 1), 3) for _ in range(16)]
        got = hits(search(server_url, table, query, top_k=25))
        want = expected_ranking(distance, query, items, 25)
        assert [pk for pk, _ in got] == [pk for pk, _ in want]
        for (_, score), (_, expected) in zip(got, want):
            assert score == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_score_semantics(server_url):
    # COSINE: 0 for the same direction, 1 orthogonal, 2 opposite, 1 for a
    # zero vector; EUCLIDEAN ascending distances; DOT_PRODUCT descending,
    # negative allowed.
    table, _ = create_vector_table(server_url, [
        vector_index("cos", "v", 2, "COSINE"), vector_index("euclid", "v", 2, "EUCLIDEAN"),
        vector_index("dot", "v", 2, "DOT_PRODUCT")])
    for pk, vector in {"same": [2, 0], "orth": [0, 3], "opp": [-1, 0], "zero": [0, 0]}.items():
        put(server_url, table, pk, vector)
    assert hits(search(server_url, table, [1, 0], index="cos")) == [
        ("same", 0.0), ("orth", 1.0), ("zero", 1.0), ("opp", 2.0)]
    assert hits(search(server_url, table, [1, 0], index="euclid")) == [
        ("same", 1.0), ("zero", 1.0), ("opp", 2.0), ("orth", pytest.approx(10 ** 0.5))]
    assert hits(search(server_url, table, [1, 0], index="dot")) == [
        ("same", 2.0), ("orth", 0.0), ("zero", 0.0), ("opp", -1.0)]
    assert hits(search(server_url, table, [0, 0], index="cos", top_k=1)) == [("opp", 1.0)]


def test_search_schema_filters(server_url):
    table, _ = create_vector_table(
        server_url,
        [vector_index(search_schema=[("tenant", "HASH"), ("kind", "INLINE_FILTER"),
                                     ("level", "INLINE_FILTER")])],
        definitions=[("tenant", "S"), ("kind", "S"), ("level", "N")])
    put(server_url, table, "a1", [1, 0, 0], tenant={"S": "a"}, kind={"S": "doc"}, level={"N": "1"})
    put(server_url, table, "a2", [0.9, 0.1, 0], tenant={"S": "a"}, kind={"S": "img"},
        level={"N": "1.0"})
    put(server_url, table, "a3", [0, 1, 0], tenant={"S": "a"})  # no inline filter: still indexed
    put(server_url, table, "b1", [1, 0, 0], tenant={"S": "b"}, kind={"S": "doc"})
    put(server_url, table, "none", [1, 0, 0], kind={"S": "doc"})  # no HASH value: not indexed

    def pks(condition, values, names=None):
        answer = search(server_url, table, [1, 0, 0], condition=condition, values=values,
                        names=names)
        return [pk for pk, _ in hits(answer)]

    assert pks("tenant = :t", {":t": {"S": "a"}}) == ["a1", "a2", "a3"]
    assert pks("tenant = :t AND kind = :k", {":t": {"S": "a"}, ":k": {"S": "doc"}}) == ["a1"]
    # Numbers match by value: 1 finds the item stored with 1.0.
    assert pks("#t = :t AND (#l = :l)", {":t": {"S": "a"}, ":l": {"N": "1"}},
               {"#t": "tenant", "#l": "level"}) == ["a1", "a2"]
    assert pks("tenant = :t AND tenant = :u", {":t": {"S": "a"}, ":u": {"S": "b"}}) == []
    assert describe_vector_indexes(server_url, table)[0]["ItemCount"] == 4

    def refused(condition, values, message):
        with expect_error("ValidationException", exact(message)):
            search(server_url, table, [1, 0, 0], condition=condition, values=values)

    with expect_error("ValidationException", exact(
            "SearchConditionExpression must be provided when SearchSchema has a HASH key")):
        search(server_url, table, [1, 0, 0])
    refused("tenant > :t", {":t": {"S": "a"}},
            "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression")
    refused("tenant = :t OR kind = :t", {":t": {"S": "a"}},
            "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression")
    refused("tenant = :t AND extra = :t", {":t": {"S": "a"}},
            "SearchConditionExpression must not contain any attributes that is not in "
            "SearchSchema. Invalid attribute: extra")
    refused("tenant = :t", {":t": {"N": "1"}},
            "Type of 'tenant' attribute in SearchConditionExpression (N) does not match type in "
            "search schema (S)")
    refused("tenant = :t", {":t": {"S": ""}},
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty string value. Key: tenant")
    refused("tenant = :t", {},
            "Invalid SearchConditionExpression: An expression attribute value used in expression "
            "is not defined; attribute value: :t")


def test_projection_and_the_vector_attribute(server_url):
    table, _ = create_vector_table(server_url, [
        vector_index("all", "v", 3),
        vector_index("keys", "v", 3, projection={"ProjectionType": "KEYS_ONLY"}),
        vector_index("some", "v", 3, projection={"ProjectionType": "INCLUDE",
                                                   "NonKeyAttributes": ["title", "v"]})])
    put(server_url, table, "p", [0.1, 1, 3], title={"S": "t"}, body={"S": "b"})
    only = lambda answer: answer["SearchResults"][0]["Item"]  # noqa: E731
    # The vector attribute is left out unless named, even with ALL.
    assert only(search(server_url, table, [1, 0, 0], index="all")) == {
        "pk": {"S": "p"}, "title": {"S": "t"}, "body": {"S": "b"}}
    assert only(search(server_url, table, [1, 0, 0], index="keys")) == {"pk": {"S": "p"}}
    assert only(search(server_url, table, [1, 0, 0], index="some")) == {
        "pk": {"S": "p"}, "title": {"S": "t"}}
    # Named: as the index stores it, rounded to f32; 0.1 reads back as 0.1.
    assert only(search(server_url, table, [1, 0, 0], index="some", projection="v, body")) == {
        "v": {"L": [{"N": "0.1"}, {"N": "1"}, {"N": "3"}]}}
    # An attribute the index does not project is simply absent.
    assert only(search(server_url, table, [1, 0, 0], index="keys", projection="pk, title")) == {
        "pk": {"S": "p"}}



def test_writes_keep_the_index_in_step(server_url):
    # Put, update, removal of the vector, delete, a transaction and a batch
    # each change what a search finds at once.
    table, _ = create_vector_table(server_url, [vector_index()])
    put(server_url, table, "a", [1, 0, 0])
    put(server_url, table, "b", [0, 1, 0])
    assert [pk for pk, _ in hits(search(server_url, table, [1, 0, 0]))] == ["a", "b"]
    client_for(server_url).update_item(
        TableName=table, Key={"pk": {"S": "b"}}, UpdateExpression="SET v = :v",
        ExpressionAttributeValues={":v": vec([1, 0.1, 0])})
    assert [pk for pk, _ in hits(search(server_url, table, [0, 1, 0]))] == ["b", "a"]
    client_for(server_url).update_item(
        TableName=table, Key={"pk": {"S": "a"}}, UpdateExpression="REMOVE v")
    assert hits(search(server_url, table, [1, 0, 0]))[0][0] == "b"
    assert len(hits(search(server_url, table, [1, 0, 0]))) == 1
    client_for(server_url).transact_write_items(TransactItems=[
        {"Put": {"TableName": table, "Item": {"pk": {"S": "t"}, "v": vec([0, 0, 1])}}},
        {"Delete": {"TableName": table, "Key": {"pk": {"S": "b"}}}}])
    client_for(server_url).batch_write_item(RequestItems={table: [
        {"PutRequest": {"Item": {"pk": {"S": "c"}, "v": vec([0, 0, 2])}}}]})
    assert [pk for pk, _ in hits(search(server_url, table, [0, 0, 1]))] == ["c", "t"]
    assert describe_vector_indexes(server_url, table)[0]["ItemCount"] == 2


def test_ttl_expiry_removes_from_the_index(start_server):
    # Its own server: moving the clock of the shared one would disturb the
    # tests that compare its timestamps with the wall clock.
    with start_server("--in-memory", "--ttl-interval", "0") as srv:
        table, _ = create_vector_table(srv.url, [vector_index()])
        client_for(srv.url).update_time_to_live(TableName=table, TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
        now = server_now(srv.url)
        put(srv.url, table, "old", [1, 0, 0], expires={"N": str(now + 60)})
        put(srv.url, table, "new", [1, 0, 0])
        assert len(hits(search(srv.url, table, [1, 0, 0]))) == 2
        advance_clock(srv.url, 120)
        sweep(srv.url)
        assert hits(search(srv.url, table, [1, 0, 0])) == [("new", 0.0)]


def test_writes_with_a_bad_vector_are_refused(server_url):
    table, _ = create_vector_table(server_url, [vector_index(search_schema=[("tenant", "HASH")])],
                                   definitions=[("tenant", "S")])
    # The texts captured in eu-west-2 (2026-08): a period after "invalid".
    with expect_error("ValidationException", exact(
            "One or more parameter values were invalid. Invalid size for parameter v, "
            "Expected: 3, Actual: 2 IndexName: vix")):
        put(server_url, table, "short", [1, 0], tenant={"S": "a"})
    element = ("One or more parameter values were invalid. Invalid type for parameter v[{}], "
               "Expected: 32-bit floating point number, Actual: {}. IndexName: vix")
    for bad, message in (
            ({"S": "not a vector"}, "One or more parameter values were invalid. Invalid type for "
             "parameter v, Expected: 32-bit floating point number list IndexName: vix"),
            ({"L": [{"N": "1"}, {"S": "x"}, {"N": "1"}]}, element.format(1, "S")),
            ({"L": [{"N": "0"}, {"N": "0"}, {"N": "1e39"}]}, element.format(2, "N"))):
        with expect_error("ValidationException", exact(message)):
            client_for(server_url).put_item(TableName=table, Item={
                "pk": {"S": "bad"}, "tenant": {"S": "a"}, "v": bad})
    with expect_error("ValidationException", exact(
            "One or more parameter values are not valid. A value specified for a secondary index "
            "key is not supported. The AttributeValue for a key attribute cannot contain an empty "
            "string value. IndexName: vix, IndexKey: tenant")):
        put(server_url, table, "empty", [1, 0, 0], tenant={"S": ""})
    with expect_error("ValidationException", exact(
            "One or more parameter values were invalid: Type mismatch for Index Key tenant "
            "Expected: S Actual: N IndexName: vix")):
        put(server_url, table, "typed", [1, 0, 0], tenant={"N": "1"})
    # In a transaction, as a GSI key of the wrong type: the action's cancellation reason.
    with expect_error("TransactionCanceledException", r"\[ValidationError\]"):
        client_for(server_url).transact_write_items(TransactItems=[
            {"Put": {"TableName": table, "Item": {"pk": {"S": "x"}, "v": vec([1])}}}])
    assert client_for(server_url).scan(TableName=table, Select="COUNT")["Count"] == 0


def test_search_request_errors(server_url):
    table, _ = create_vector_table(server_url, [vector_index()])
    put(server_url, table, "a", [1, 0, 0])

    def refused(message, code="ValidationException", **request):
        body = {"TableName": table, "IndexName": "vix",
                "SearchVector": [{"N": "1"}, {"N": "0"}, {"N": "0"}], "TopK": 1}
        body.update(request)
        with expect_error(code, exact(message)):
            client_for(server_url).search_vectors(**{k: v for k, v in body.items() if v is not None})

    refused("1 validation error detected: Value '0' at 'topK' failed to satisfy constraint: "
            "Member must have value greater than or equal to 1", TopK=0)
    refused("Provided TopK value '101' is out of valid range. The value must be between 1 and "
            "100 inclusive", TopK=101)
    refused("Input search vector dimension 2 does not match vector index dimension 3",
            SearchVector=[{"N": "1"}, {"N": "2"}])
    refused("Search vector contains invalid values. All values in the search vector must be a "
            "32-bit floating-point number attribute",
            SearchVector=[{"N": "1e39"}, {"N": "0"}, {"N": "0"}])
    refused("Search vector contains invalid values. All values in the search vector must be a "
            "32-bit floating-point number attribute",
            SearchVector=[{"L": [{"N": "1"}]}, {"N": "0"}, {"N": "0"}])
    refused("The table does not have the specified index: absent", IndexName="absent")
    refused("Requested resource not found", "ResourceNotFoundException", TableName="no-such-table")
    refused("SearchConditionExpression must not contain any attributes that is not in "
            "SearchSchema. Invalid attribute: a", SearchConditionExpression="a = :a",
            ExpressionAttributeValues={":a": {"S": "x"}})
    # TopK larger than the index: every item, no pagination.
    answer = client_for(server_url).search_vectors(
        TableName=table, IndexName="vix", SearchVector=[{"N": "0"}, {"N": "1"}, {"N": "0"}],
        TopK=100)
    assert hits(answer) == [("a", 1.0)] and "LastEvaluatedKey" not in answer


def test_request_shape_errors_are_the_strict_deserialisers(server_url):
    # An explicit null for a required member is a SerializationException and
    # a missing TableName a ValidationException naming the field, ahead of a
    # too-short IndexName, pointing into the text (captured 2026-10).
    valid = {"TableName": "vec_shape_absent", "IndexName": "vix", "SearchVector": [{"N": "1"}],
             "TopK": 1}
    expected = {"TableName": "a string", "IndexName": "a string", "SearchVector": "a sequence",
                "TopK": "i32"}
    for member, kind in expected.items():
        status, body = raw_op(server_url, "SearchVectors", {**valid, member: None})
        assert status == 400 and body["__type"].endswith("#SerializationException"), body
        message = body.get("Message", body.get("message"))
        assert re.fullmatch(r"invalid type: null, expected %s at line 1 column \d+" % kind,
                            message), message
    without_name = {k: v for k, v in valid.items() if k != "TableName"}
    for request in (without_name, {**without_name, "IndexName": "ab"}):
        status, body = raw_op(server_url, "SearchVectors", request)
        assert status == 400 and body["__type"].endswith("#ValidationException"), body
        assert re.fullmatch(r"missing field `TableName` at line 1 column \d+", body["message"])
