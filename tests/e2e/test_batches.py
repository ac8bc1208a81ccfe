"""BatchGetItem and BatchWriteItem: several tables in one call, the 100-key
and 25-request limits, projections and ConsistentRead per table, missing
keys and tables, duplicate keys, per-item validation (one bad request
means nothing of the batch is written), the response shapes
(UnprocessedKeys / UnprocessedItems always present, {} when everything was
processed) and secondary index maintenance."""

import json

import pytest

from .e2e_util import av, avs, exact, expect_error, key, plain, raw_op

VE = "ValidationException"
RNF = "ResourceNotFoundException"
DUPLICATES = "Provided list of item keys contains duplicates"
TOO_MANY = "Too many items requested for the BatchGetItem call"
SCHEMA = "The provided key element does not match the schema"


@pytest.fixture(scope="module")
def htbl(tables):
    """Hash key pk (S)."""
    return tables(prefix="bat-h")


@pytest.fixture(scope="module")
def rtbl(tables):
    """Hash key pk (S), range key sk (N)."""
    return tables(range_key=("sk", "N"), prefix="bat-r")


@pytest.fixture(scope="module")
def gtbl(tables):
    """Hash key pk (S) with a GSI on (g S, gs N), projection ALL."""
    return tables(
        prefix="bat-g",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"},
                              {"AttributeName": "gs", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "by_g",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                          {"AttributeName": "gs", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}])


def body(resp):
    """The response without botocore's ResponseMetadata."""
    return {k: v for k, v in resp.items() if k != "ResponseMetadata"}


def put_req(**attrs):
    return {"PutRequest": {"Item": avs(attrs)}}


def del_req(**key_attrs):
    return {"DeleteRequest": {"Key": avs(key_attrs)}}


def get(dynamodb, table, **key_attrs):
    resp = dynamodb.get_item(TableName=table, Key=avs(key_attrs), ConsistentRead=True)
    return plain(resp["Item"]) if "Item" in resp else None


def write_all(dynamodb, table, items):
    """Store items with BatchWriteItem, 25 at a time."""
    for start in range(0, len(items), 25):
        chunk = items[start:start + 25]
        resp = dynamodb.batch_write_item(
            RequestItems={table: [{"PutRequest": {"Item": avs(i)}} for i in chunk]})
        assert resp["UnprocessedItems"] == {}


def responses(resp, table):
    """One table's BatchGetItem items as plain dicts, sorted by key (order is not guaranteed)."""
    return sorted((plain(i) for i in resp["Responses"][table]),
                  key=lambda i: (str(i.get("pk")), str(i.get("sk"))))


def gsi_query(dynamodb, table, g):
    resp = dynamodb.query(TableName=table, IndexName="by_g", KeyConditionExpression="g = :g",
                          ExpressionAttributeValues=avs({":g": g}))
    return [(i["pk"], i["gs"]) for i in map(plain, resp["Items"])]


# ==========================================================================
# BatchGetItem
# ==========================================================================

def test_batch_get_several_tables(dynamodb, htbl, rtbl):
    # Keys from two tables in one call: found items come back per table, missing keys are simply absent, UnprocessedKeys is {}.
    a, b, missing = key(), key(), key()
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": a, "v": 1}))
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": b, "v": 2, "m": {"x": [1, "y"]}}))
    dynamodb.put_item(TableName=rtbl, Item=avs({"pk": a, "sk": 1, "w": "r1"}))
    dynamodb.put_item(TableName=rtbl, Item=avs({"pk": a, "sk": 2, "w": "r2"}))
    resp = dynamodb.batch_get_item(RequestItems={
        htbl: {"Keys": [avs({"pk": a}), avs({"pk": missing}), avs({"pk": b})]},
        rtbl: {"Keys": [avs({"pk": a, "sk": 2}), avs({"pk": a, "sk": 3}), avs({"pk": a, "sk": 1})]},
    })
    assert set(body(resp)) == {"Responses", "UnprocessedKeys"}
    assert resp["UnprocessedKeys"] == {}
    assert set(resp["Responses"]) == {htbl, rtbl}
    assert responses(resp, htbl) == sorted([{"pk": a, "v": 1}, {"pk": b, "v": 2, "m": {"x": [1, "y"]}}],
                                           key=lambda i: i["pk"])
    assert responses(resp, rtbl) == [{"pk": a, "sk": 1, "w": "r1"}, {"pk": a, "sk": 2, "w": "r2"}]


def test_batch_get_table_without_hits_listed_empty(dynamodb, htbl, rtbl):
    # A requested table none of whose keys exist still appears in Responses, with [].
    a = key()
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": a}))
    resp = dynamodb.batch_get_item(RequestItems={
        htbl: {"Keys": [avs({"pk": a})]},
        rtbl: {"Keys": [avs({"pk": key(), "sk": 1})]},
    })
    assert resp["Responses"][rtbl] == []
    assert [plain(i) for i in resp["Responses"][htbl]] == [{"pk": a}]
    assert resp["UnprocessedKeys"] == {}


def test_batch_get_100_keys(dynamodb, rtbl):
    # Exactly 100 keys on one table is allowed; all 100 items come back (none unprocessed for small items).
    p = key()
    items = [{"pk": p, "sk": n, "data": "x" * 100} for n in range(100)]
    write_all(dynamodb, rtbl, items)
    resp = dynamodb.batch_get_item(RequestItems={
        rtbl: {"Keys": [avs({"pk": p, "sk": n}) for n in range(100)], "ConsistentRead": True}})
    assert resp["UnprocessedKeys"] == {}
    assert responses(resp, rtbl) == sorted(items, key=lambda i: (str(i["pk"]), str(i["sk"])))


def test_batch_get_100_keys_over_two_tables(dynamodb, htbl, rtbl):
    # The 100-key limit counts keys over all tables: 60 + 40 is allowed.
    p = key()
    resp = dynamodb.batch_get_item(RequestItems={
        htbl: {"Keys": [avs({"pk": "%s-%d" % (p, n)}) for n in range(60)]},
        rtbl: {"Keys": [avs({"pk": p, "sk": n}) for n in range(40)]},
    })
    assert resp["Responses"] == {htbl: [], rtbl: []}
    assert resp["UnprocessedKeys"] == {}


def test_batch_get_101_keys_over_two_tables_rejected(dynamodb, htbl, rtbl):
    # 60 + 41 keys: ValidationException "Too many items requested for the BatchGetItem call" (no "1 validation error" prefix).
    p = key()
    with expect_error(VE, exact(TOO_MANY)):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": "%s-%d" % (p, n)}) for n in range(60)]},
            rtbl: {"Keys": [avs({"pk": p, "sk": n}) for n in range(41)]},
        })


def test_batch_get_101_keys_one_table_rejected(dynamodb, htbl):
    # 101 keys on one table break the per-table list constraint (length <= 100); a ValidationException either way.
    p = key()
    with expect_error(VE, "(less than or equal to 100|" + TOO_MANY + ")"):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": "%s-%d" % (p, n)}) for n in range(101)]}})


def test_batch_get_101_keys_checked_before_table_lookup(dynamodb, tables, htbl):
    # The limit is checked before the tables are looked up: 101 keys naming a missing table is still the limit error.
    p = key()
    with expect_error(VE, exact(TOO_MANY)):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": "%s-%d" % (p, n)}) for n in range(51)]},
            tables.unique_name("nope"): {"Keys": [avs({"pk": "%s-%d" % (p, n)}) for n in range(50)]},
        })


def test_batch_get_projection_per_table(dynamodb, htbl, rtbl):
    # Each table has its own ProjectionExpression (with its own names); items lacking every projected attribute come back as {}.
    a, b = key(), key()
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": a, "name": "n", "size": 3, "m": {"x": 1, "y": 2}}))
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": b, "other": True}))
    dynamodb.put_item(TableName=rtbl, Item=avs({"pk": a, "sk": 7, "c1": "one", "c2": "two", "c3": 3}))
    resp = dynamodb.batch_get_item(RequestItems={
        htbl: {"Keys": [avs({"pk": a}), avs({"pk": b})],
               "ProjectionExpression": "#n, #s, m.y",
               "ExpressionAttributeNames": {"#n": "name", "#s": "size"}},
        rtbl: {"Keys": [avs({"pk": a, "sk": 7})], "ProjectionExpression": "c1, c3, absent"},
    })
    got = [plain(i) for i in resp["Responses"][htbl]]
    assert sorted(got, key=len) == [{}, {"name": "n", "size": 3, "m": {"y": 2}}]
    assert [plain(i) for i in resp["Responses"][rtbl]] == [{"c1": "one", "c3": 3}]
    # AttributesToGet on every table is as good.
    resp = dynamodb.batch_get_item(RequestItems={
        htbl: {"Keys": [avs({"pk": a})], "AttributesToGet": ["size"]},
        rtbl: {"Keys": [avs({"pk": a, "sk": 7})], "AttributesToGet": ["c1", "c3", "absent"]},
    })
    assert [plain(i) for i in resp["Responses"][htbl]] == [{"size": 3}]
    assert [plain(i) for i in resp["Responses"][rtbl]] == [{"c1": "one", "c3": 3}]


def test_batch_get_projection_and_attributes_to_get_together_rejected(dynamodb, htbl):
    # ProjectionExpression and AttributesToGet in one table's request: ValidationException.
    with expect_error(VE, "Can not use both expression and non-expression parameters in the same "
                          "request: Non-expression parameters: {AttributesToGet} Expression "
                          "parameters: {ProjectionExpression}"):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": key()})], "ProjectionExpression": "a",
                   "AttributesToGet": ["a"]}})


def test_batch_get_bad_projection_fails_whole_batch(dynamodb, htbl, rtbl):
    # A bad projection on one table fails the whole call with GetItem's message.
    with expect_error(VE, "Invalid ProjectionExpression: Two document paths overlap"):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": key()})]},
            rtbl: {"Keys": [avs({"pk": key(), "sk": 1})], "ProjectionExpression": "a, a"}})
    with expect_error(VE, "unused"):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": key()})], "ProjectionExpression": "a",
                   "ExpressionAttributeNames": {"#unused": "b"}}})


def test_batch_get_consistent_read(dynamodb, htbl, rtbl):
    # ConsistentRead is per table; a consistent batch read sees the latest write.
    a = key()
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": a, "v": 1}))
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": a, "v": 2}))
    resp = dynamodb.batch_get_item(RequestItems={
        htbl: {"Keys": [avs({"pk": a})], "ConsistentRead": True},
        rtbl: {"Keys": [avs({"pk": a, "sk": 1})], "ConsistentRead": False}})
    assert [plain(i) for i in resp["Responses"][htbl]] == [{"pk": a, "v": 2}]
    assert resp["Responses"][rtbl] == []


def test_batch_get_duplicate_keys_rejected(dynamodb, htbl, rtbl):
    # The same key twice in one table's Keys (in any position, key attributes in any order) is rejected.
    a, b = key(), key()
    with expect_error(VE, exact(DUPLICATES)):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": a}), avs({"pk": b}), avs({"pk": a})]}})
    with expect_error(VE, exact(DUPLICATES)):
        dynamodb.batch_get_item(RequestItems={
            rtbl: {"Keys": [{"pk": av(a), "sk": av(1)}, {"sk": av(1), "pk": av(a)}]}})
    # The same key in two different tables is fine; so is the same hash key with different range keys.
    resp = dynamodb.batch_get_item(RequestItems={
        htbl: {"Keys": [avs({"pk": a})]},
        rtbl: {"Keys": [avs({"pk": a, "sk": 1}), avs({"pk": a, "sk": 2})]}})
    assert resp["UnprocessedKeys"] == {}


def test_batch_get_missing_table(dynamodb, tables, htbl):
    # A table that does not exist fails the whole call with ResourceNotFoundException.
    with expect_error(RNF):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": key()})]},
            tables.unique_name("nope"): {"Keys": [avs({"pk": key()})]}})


def test_batch_get_key_not_matching_schema(dynamodb, htbl, rtbl):
    # Keys are checked against each table's schema: wrong type, missing range key, extra attribute.
    with expect_error(VE, SCHEMA):
        dynamodb.batch_get_item(RequestItems={htbl: {"Keys": [{"pk": {"N": "1"}}]}})
    with expect_error(VE, SCHEMA):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": key()})]}, rtbl: {"Keys": [avs({"pk": key()})]}})
    with expect_error(VE, SCHEMA):
        dynamodb.batch_get_item(RequestItems={htbl: {"Keys": [avs({"pk": key(), "x": 1})]}})


def test_batch_get_empty_requests_rejected(dynamodb, htbl):
    # Empty RequestItems or an empty Keys list: ValidationException, the
    # latter in the form DynamoDB answers over 100 keys in.
    with expect_error(VE, exact("The requestItems parameter is required for BatchGetItem")):
        dynamodb.batch_get_item(RequestItems={})
    with expect_error(VE, exact(
            "1 validation error detected: Value at 'RequestItems.%s.member.Keys' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1" % htbl)):
        dynamodb.batch_get_item(RequestItems={htbl: {"Keys": []}})


TABLE_NAME_KEYS = ("failed to satisfy constraint: Map keys must satisfy constraint: [Member must "
                   "have length less than or equal to 255, Member must have length greater than "
                   "or equal to 3, Member must satisfy regular expression pattern: "
                   "[a-zA-Z0-9_.-]+]")


@pytest.mark.parametrize("operation", ["BatchGetItem", "BatchWriteItem"])
def test_batch_bad_table_name_among_the_keys(server_url, htbl, operation):
    # A bad table name breaks the RequestItems map's key constraint.
    # BatchGetItem states it once, echoing the whole map as JSON (captured
    # 2026); BatchWriteItem in Java's form, its values elided.
    request = ({"Keys": [avs({"pk": "a"})]} if operation == "BatchGetItem"
               else [{"PutRequest": {"Item": avs({"pk": "a"})}}])
    items = {htbl: request, "a!": request}
    status, body = raw_op(server_url, operation, {"RequestItems": items})
    assert status == 400 and body["__type"].endswith(VE), body
    echo = (json.dumps(items, separators=(",", ":")) if operation == "BatchGetItem"
            else "{a!=...}")
    assert body["message"] == ("1 validation error detected: Value '%s' at 'requestItems' %s"
                               % (echo, TABLE_NAME_KEYS))


def test_batch_get_reports_a_bad_table_name_ahead_of_an_unknown_enum(server_url):
    # Captured 2026: the map's constraint first, then ReturnConsumedCapacity's.
    status, body = raw_op(server_url, "BatchGetItem", {
        "RequestItems": {"bad!name": {"Keys": [{"pk": {"S": "a"}}]}},
        "ReturnConsumedCapacity": "BOGUS"})
    assert status == 400 and body["message"] == (
        "2 validation errors detected: Value '{\"bad!name\":{\"Keys\":[{\"pk\":{\"S\":\"a\"}}]}}' "
        "at 'requestItems' " + TABLE_NAME_KEYS + "; Value 'BOGUS' at 'returnConsumedCapacity' "
        "failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"), body


def test_batch_write_unknown_return_item_collection_metrics(server_url, htbl):
    status, body = raw_op(server_url, "BatchWriteItem", {
        "RequestItems": {htbl: [{"PutRequest": {"Item": avs({"pk": "a"})}}]},
        "ReturnConsumedCapacity": "BAD", "ReturnItemCollectionMetrics": "BAD"})
    assert status == 400 and body["__type"].endswith(VE), body
    assert body["message"] == (
        "2 validation errors detected: Value 'BAD' at 'returnConsumedCapacity' failed to satisfy "
        "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value 'BAD' at "
        "'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum "
        "value set: [SIZE, NONE]")


def test_batch_get_projection_and_attributes_to_get_across_tables_rejected(dynamodb, htbl, rtbl):
    # One table with ProjectionExpression, another with AttributesToGet: the
    # request mixes the two kinds of parameter.
    with expect_error(VE, exact(
            "Can not use both expression and non-expression parameters in the same request: "
            "Non-expression parameters: {AttributesToGet} Expression parameters: "
            "{ProjectionExpression}")):
        dynamodb.batch_get_item(RequestItems={
            htbl: {"Keys": [avs({"pk": key()})], "ProjectionExpression": "a"},
            rtbl: {"Keys": [avs({"pk": key(), "sk": 1})], "AttributesToGet": ["a"]}})


# ==========================================================================
# BatchWriteItem
# ==========================================================================

def test_batch_write_puts_and_deletes_over_tables(dynamodb, htbl, rtbl):
    # Puts (new and replacing) and deletes (existing and missing) over two tables in one call; the response is exactly {"UnprocessedItems": {}}.
    a, b, c = key(), key(), key()
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": a, "old": True}))
    dynamodb.put_item(TableName=rtbl, Item=avs({"pk": c, "sk": 1, "v": "gone soon"}))
    resp = dynamodb.batch_write_item(RequestItems={
        htbl: [put_req(pk=a, new=1), put_req(pk=b, l=[1, {"m": "x"}], ss={"p", "q"}),
               del_req(pk=key())],
        rtbl: [del_req(pk=c, sk=1), put_req(pk=c, sk=2, v="two"), put_req(pk=a, sk=1)],
    })
    assert body(resp) == {"UnprocessedItems": {}}
    assert get(dynamodb, htbl, pk=a) == {"pk": a, "new": 1}
    assert get(dynamodb, htbl, pk=b) == {"pk": b, "l": [1, {"m": "x"}], "ss": {"p", "q"}}
    assert get(dynamodb, rtbl, pk=c, sk=1) is None
    assert get(dynamodb, rtbl, pk=c, sk=2) == {"pk": c, "sk": 2, "v": "two"}
    assert get(dynamodb, rtbl, pk=a, sk=1) == {"pk": a, "sk": 1}


def test_batch_write_25_requests_allowed(dynamodb, rtbl):
    # 25 requests for one table is the maximum and is accepted.
    p = key()
    resp = dynamodb.batch_write_item(RequestItems={rtbl: [put_req(pk=p, sk=n) for n in range(25)]})
    assert resp["UnprocessedItems"] == {}
    q = dynamodb.query(TableName=rtbl, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": p}), Select="COUNT")
    assert q["Count"] == 25


def test_batch_write_26_requests_rejected(dynamodb, rtbl):
    # 26 requests: ValidationException (length constraint); nothing is written.
    p = key()
    with expect_error(VE, "less than or equal to 25"):
        dynamodb.batch_write_item(RequestItems={rtbl: [put_req(pk=p, sk=n) for n in range(26)]})
    q = dynamodb.query(TableName=rtbl, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": p}), Select="COUNT",
                       ConsistentRead=True)
    assert q["Count"] == 0


def test_batch_write_over_25_in_total_rejected(dynamodb, htbl, rtbl):
    # The 25-request limit is for the whole call: 13 + 13 over two tables is rejected too.
    p = key()
    with expect_error(VE):
        dynamodb.batch_write_item(RequestItems={
            htbl: [put_req(pk="%s-%d" % (p, n)) for n in range(13)],
            rtbl: [put_req(pk=p, sk=n) for n in range(13)]})
    assert get(dynamodb, htbl, pk=p + "-0") is None
    assert get(dynamodb, rtbl, pk=p, sk=0) is None


@pytest.mark.parametrize("requests", [
    pytest.param(lambda a: [put_req(pk=a, v=1), put_req(pk=a, v=2)], id="put+put"),
    pytest.param(lambda a: [put_req(pk=a, v=1), del_req(pk=a)], id="put+delete"),
    pytest.param(lambda a: [del_req(pk=a), put_req(pk=a, v=1)], id="delete+put"),
    pytest.param(lambda a: [del_req(pk=a), del_req(pk=a)], id="delete+delete"),
])
def test_batch_write_duplicate_keys_rejected(dynamodb, htbl, requests):
    # Two requests on one item (put/put, put/delete, delete/put, delete/delete): ValidationException, and the rest of the batch is not written.
    a, other = key(), key()
    dynamodb.put_item(TableName=htbl, Item=avs({"pk": a, "v": 0}))
    with expect_error(VE, exact(DUPLICATES)):
        dynamodb.batch_write_item(RequestItems={
            htbl: [put_req(pk=other, v=9)] + requests(a)})
    assert get(dynamodb, htbl, pk=a) == {"pk": a, "v": 0}
    assert get(dynamodb, htbl, pk=other) is None


def test_batch_write_duplicate_range_key_rejected(dynamodb, rtbl):
    # Duplicates are compared on the full primary key; the same hash key with different range keys is fine.
    p = key()
    with expect_error(VE, exact(DUPLICATES)):
        dynamodb.batch_write_item(RequestItems={rtbl: [put_req(pk=p, sk=1, v="a"), put_req(pk=p, sk=2),
                                                       put_req(sk=1, pk=p, v="b")]})
    assert get(dynamodb, rtbl, pk=p, sk=2) is None
    resp = dynamodb.batch_write_item(RequestItems={rtbl: [put_req(pk=p, sk=1), put_req(pk=p, sk=2)]})
    assert resp["UnprocessedItems"] == {}


def test_batch_write_same_key_in_two_tables_allowed(dynamodb, htbl, gtbl):
    # The same key value in different tables is not a duplicate.
    a = key()
    resp = dynamodb.batch_write_item(RequestItems={htbl: [put_req(pk=a, t="h")],
                                                   gtbl: [put_req(pk=a, t="g")]})
    assert resp["UnprocessedItems"] == {}
    assert get(dynamodb, htbl, pk=a) == {"pk": a, "t": "h"}
    assert get(dynamodb, gtbl, pk=a) == {"pk": a, "t": "g"}


@pytest.mark.parametrize("bad, fragment", [
    pytest.param({"PutRequest": {"Item": {"pk": {"N": "1"}, "sk": {"N": "1"}}}},
                 "(" + SCHEMA + "|Type mismatch for key)", id="put-hash-wrong-type"),
    pytest.param({"PutRequest": {"Item": {"pk": {"S": "x"}, "sk": {"S": "1"}}}},
                 "(" + SCHEMA + "|Type mismatch for key)", id="put-range-wrong-type"),
    pytest.param({"PutRequest": {"Item": {"pk": {"S": "x"}, "v": {"S": "1"}}}},
                 "(" + SCHEMA + "|Missing the key)", id="put-missing-range"),
    pytest.param({"PutRequest": {"Item": {"pk": {"SS": ["x"]}, "sk": {"N": "1"}}}},
                 "(" + SCHEMA + "|Type mismatch for key)", id="put-set-key"),
    pytest.param({"DeleteRequest": {"Key": {"pk": {"N": "1"}, "sk": {"N": "1"}}}}, SCHEMA,
                 id="delete-wrong-type"),
    pytest.param({"DeleteRequest": {"Key": {"pk": {"S": "x"}}}}, SCHEMA, id="delete-missing-range"),
    pytest.param({"DeleteRequest": {"Key": {"pk": {"S": "x"}, "sk": {"N": "1"}, "v": {"S": "1"}}}},
                 SCHEMA, id="delete-extra-attribute"),
    pytest.param({"PutRequest": {"Item": {"pk": {"S": ""}, "sk": {"N": "1"}}}},
                 "empty string value", id="put-empty-string-key"),
    pytest.param({"PutRequest": {"Item": {"pk": {"S": "x"}, "sk": {"N": "1"},
                                          "big": {"S": "x" * (400 * 1024)}}}},
                 exact("Item size has exceeded the maximum allowed size"), id="put-too-large"),
])
def test_batch_write_invalid_request_writes_nothing(dynamodb, htbl, rtbl, bad, fragment):
    # Each request is validated as PutItem/DeleteItem would be; one bad request fails the whole batch and nothing of it is written.
    a, p = key(), key()
    dynamodb.put_item(TableName=rtbl, Item=avs({"pk": p, "sk": 0, "keep": True}))
    with expect_error(VE, fragment):
        dynamodb.batch_write_item(RequestItems={
            htbl: [put_req(pk=a, v=1)],
            rtbl: [put_req(pk=p, sk=1), del_req(pk=p, sk=0), bad, put_req(pk=p, sk=2)]})
    assert get(dynamodb, htbl, pk=a) is None
    assert get(dynamodb, rtbl, pk=p, sk=0) == {"pk": p, "sk": 0, "keep": True}
    assert get(dynamodb, rtbl, pk=p, sk=1) is None
    assert get(dynamodb, rtbl, pk=p, sk=2) is None


def test_batch_write_put_and_delete_in_one_request_rejected(dynamodb, htbl):
    # A WriteRequest with both PutRequest and DeleteRequest, or with neither, is a ValidationException; nothing is written.
    a, b = key(), key()
    with expect_error(VE):
        dynamodb.batch_write_item(RequestItems={htbl: [
            put_req(pk=b),
            {"PutRequest": {"Item": avs({"pk": a})}, "DeleteRequest": {"Key": avs({"pk": a})}}]})
    with expect_error(VE):
        dynamodb.batch_write_item(RequestItems={htbl: [put_req(pk=b), {}]})
    assert get(dynamodb, htbl, pk=a) is None
    assert get(dynamodb, htbl, pk=b) is None


def test_batch_write_missing_table_writes_nothing(dynamodb, tables, htbl):
    # A missing table fails the whole call with ResourceNotFoundException; the other table's requests are not applied.
    a = key()
    with expect_error(RNF):
        dynamodb.batch_write_item(RequestItems={
            htbl: [put_req(pk=a)],
            tables.unique_name("nope"): [put_req(pk=a)]})
    assert get(dynamodb, htbl, pk=a) is None


def test_batch_write_empty_rejected(dynamodb, htbl):
    # Empty RequestItems or an empty request list for a table: ValidationException.
    with expect_error(VE):
        dynamodb.batch_write_item(RequestItems={})
    with expect_error(VE):
        dynamodb.batch_write_item(RequestItems={htbl: []})


def test_batch_write_maintains_gsi(dynamodb, gtbl):
    # Index entries follow batch puts (insert, key change, leaving the sparse index) and batch deletes.
    g1, g2 = key(), key()
    a, b, c, d = key(), key(), key(), key()
    resp = dynamodb.batch_write_item(RequestItems={gtbl: [
        put_req(pk=a, g=g1, gs=1), put_req(pk=b, g=g1, gs=2), put_req(pk=c, g=g1, gs=3),
        put_req(pk=d, other="not indexed")]})
    assert resp["UnprocessedItems"] == {}
    assert gsi_query(dynamodb, gtbl, g1) == [(a, 1), (b, 2), (c, 3)]

    resp = dynamodb.batch_write_item(RequestItems={gtbl: [
        put_req(pk=a, g=g2, gs=10),          # moves to another index partition
        put_req(pk=b, g=g1, gs=20),          # moves within the partition
        del_req(pk=c),                       # leaves the index
        put_req(pk=d, g=g2, gs=5)]})         # enters the index
    assert resp["UnprocessedItems"] == {}
    assert gsi_query(dynamodb, gtbl, g1) == [(b, 20)]
    assert gsi_query(dynamodb, gtbl, g2) == [(d, 5), (a, 10)]

    resp = dynamodb.batch_write_item(RequestItems={gtbl: [
        put_req(pk=a, x="no index key any more"), del_req(pk=b), del_req(pk=d)]})
    assert resp["UnprocessedItems"] == {}
    assert gsi_query(dynamodb, gtbl, g1) == []
    assert gsi_query(dynamodb, gtbl, g2) == []


def test_batch_write_index_key_type_mismatch_writes_nothing(dynamodb, gtbl):
    # A GSI key of the wrong type in one put fails the batch with the PutItem text; the index stays as it was.
    g = key()
    a, b = key(), key()
    with expect_error(VE, exact("One or more parameter values were invalid: Type mismatch for Index "
                                "Key gs Expected: N Actual: S IndexName: by_g")):
        dynamodb.batch_write_item(RequestItems={gtbl: [put_req(pk=a, g=g, gs=1),
                                                       put_req(pk=b, g=g, gs="two")]})
    assert gsi_query(dynamodb, gtbl, g) == []
    assert get(dynamodb, gtbl, pk=a) is None


def test_batch_write_raw_response_shape(server_url, htbl):
    # On the wire the success body is exactly {"UnprocessedItems": {}}; BatchGetItem always carries UnprocessedKeys.
    a = key()
    status, doc = raw_op(server_url, "BatchWriteItem",
                         {"RequestItems": {htbl: [{"PutRequest": {"Item": {"pk": {"S": a}}}}]}})
    assert (status, doc) == (200, {"UnprocessedItems": {}})
    status, doc = raw_op(server_url, "BatchGetItem",
                         {"RequestItems": {htbl: {"Keys": [{"pk": {"S": a}}, {"pk": {"S": key()}}]}}})
    assert (status, doc) == (200, {"Responses": {htbl: [{"pk": {"S": a}}]}, "UnprocessedKeys": {}})
