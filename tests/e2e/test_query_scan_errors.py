"""Query and Scan requests DynamoDB refuses, with its exact texts: malformed
or unsupported key conditions (expressions and legacy KeyConditions),
filters on key attributes, index misuse, Select combinations, an
ExclusiveStartKey that is invalid or outside the query, Segment and
TotalSegments, a missing table, unused placeholders; and the neighbouring
requests that are allowed (a Scan filtering on keys, a GSI query filtering
on the table's keys)."""

import pytest

from .e2e_util import av, avs, exact, expect_error, plain, unique_name
from .query_scan_util import VE, part, put_all, sks
from .query_scan_util import hash_tbl, str_part, str_tbl  # fixtures


RNF = "ResourceNotFoundException"


@pytest.fixture(scope="module")
def idx_tbl(tables):
    """pk/sk (S) with a KEYS_ONLY GSI on g, an INCLUDE GSI on g/sk and a
    KEYS_ONLY LSI on l."""
    return tables(
        prefix="qs-i",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"},
                              {"AttributeName": "l", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[
            {"IndexName": "by_g_keys", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
            {"IndexName": "by_g_inc", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                                    {"AttributeName": "sk", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["inc"]}},
        ],
        LocalSecondaryIndexes=[
            {"IndexName": "by_l", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                {"AttributeName": "l", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
        ])


# --------------------------------------------------------------------------
# Error texts
# --------------------------------------------------------------------------

KEY_ERRORS = [
    ("sk = :v", {":v": "x"}, "Query condition missed key schema element: pk"),
    ("begins_with(sk, :v)", {":v": "x"}, "Query condition missed key schema element: pk"),
    ("pk = :v AND other1 = :v", {":v": "x"}, "Query condition missed key schema element: sk"),
    ("pk > :v", {":v": "x"}, "Query key condition not supported"),
    ("pk <= :v AND sk = :v", {":v": "x"}, "Query key condition not supported"),
    ("begins_with(pk, :v)", {":v": "x"}, "Query key condition not supported"),
    ("pk BETWEEN :v AND :w", {":v": "a", ":w": "b"}, "Query key condition not supported"),
    ("pk = :v AND pk = :v", {":v": "x"},
     "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition "
     "per key"),
    ("pk = :v AND sk > :v AND sk < :w", {":v": "a", ":w": "b"},
     "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition "
     "per key"),
    ("pk = :v AND sk = :v AND other1 = :v", {":v": "x"},
     "The number of query conditions (3) exceeds the number of key attributes defined in the "
     "schema (2)"),
    ("pk = :v OR sk = :v", {":v": "x"}, "Invalid operator used in KeyConditionExpression: OR"),
    ("pk = :v AND NOT sk = :v", {":v": "x"},
     "Invalid operator used in KeyConditionExpression: NOT"),
    ("pk = :v AND sk IN (:v, :w)", {":v": "a", ":w": "b"},
     "Invalid operator used in KeyConditionExpression: IN"),
    ("pk = :v AND sk <> :v", {":v": "x"}, "Invalid operator used in KeyConditionExpression: <>"),
    ("pk = :v AND attribute_exists(sk)", {":v": "x"},
     "Invalid operator used in KeyConditionExpression: attribute_exists"),
    ("pk = :v AND contains(sk, :v)", {":v": "x"},
     "Invalid operator used in KeyConditionExpression: contains"),
    ("pk = :v AND sk.x = :v", {":v": "x"},
     "KeyConditionExpressions cannot have conditions on nested attributes"),
    ("pk = :v AND sk[0] = :v", {":v": "x"},
     "KeyConditionExpressions cannot have conditions on nested attributes"),
    ("pk = sk", None,
     "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
    ("pk = :v AND begins_with(sk, pk)", {":v": "x"},
     "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
    (":v = :v", {":v": "x"}, "Invalid condition in KeyConditionExpression: No key attribute specified"),
    ("pk = :n", {":n": 1},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ("pk = :v AND sk = :n", {":v": "x", ":n": 1},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ("pk = :v AND begins_with(sk, :b)", {":v": "x", ":b": b"\x01"},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ("pk = :v AND sk BETWEEN :hi AND :lo", {":v": "x", ":hi": "b", ":lo": "a"},
     "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than "
     "or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: "
     "AttributeValue: {S:a}"),
    ("pk = :v AND sk BETWEEN :lo AND :n", {":v": "x", ":lo": "a", ":n": 1},
     "Invalid KeyConditionExpression: The BETWEEN operator requires same data type for lower and "
     "upper bounds; lower bound operand: AttributeValue: {S:a}, upper bound operand: "
     "AttributeValue: {N:1}"),
    ("pk = :v", {":v": "x", ":unused": "y"},
     "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}"),
]


@pytest.mark.parametrize("expr,values,message", KEY_ERRORS, ids=[c[0] for c in KEY_ERRORS])
def test_key_condition_errors(dynamodb, str_tbl, expr, values, message):
    # Malformed or unsupported KeyConditionExpressions are rejected with DynamoDB's texts.
    kwargs = {"KeyConditionExpression": expr}
    if values:
        kwargs["ExpressionAttributeValues"] = avs(values)
    with expect_error(VE, exact(message)):
        dynamodb.query(TableName=str_tbl, **kwargs)


def test_hash_only_table_rejects_second_condition(dynamodb, hash_tbl):
    # On a table without a sort key any condition beyond pk equality is "Query key condition not supported".
    with expect_error(VE, exact("Query key condition not supported")):
        dynamodb.query(TableName=hash_tbl, KeyConditionExpression="pk = :v AND other1 = :v",
                       ExpressionAttributeValues=avs({":v": "x"}))


def test_key_condition_required(dynamodb, str_tbl):
    # A Query without any key condition names both parameters.
    with expect_error(VE, exact("Either the KeyConditions or KeyConditionExpression parameter "
                                "must be specified in the request.")):
        dynamodb.query(TableName=str_tbl)


def test_legacy_key_condition_errors(dynamodb, str_tbl):
    # Legacy KeyConditions: a missing hash key, a range operator on the hash key and a non-indexable operator.
    eq = {"ComparisonOperator": "EQ", "AttributeValueList": [av("x")]}
    with expect_error(VE, exact("Query condition missed key schema element: pk")):
        dynamodb.query(TableName=str_tbl, KeyConditions={"sk": eq})
    with expect_error(VE, exact("Query key condition not supported")):
        dynamodb.query(TableName=str_tbl, KeyConditions={
            "pk": {"ComparisonOperator": "GT", "AttributeValueList": [av("x")]}})
    with expect_error(VE, exact("Attempted conditional constraint is not an indexable operation")):
        dynamodb.query(TableName=str_tbl, KeyConditions={
            "pk": eq, "sk": {"ComparisonOperator": "NE", "AttributeValueList": [av("x")]}})


@pytest.mark.parametrize("filter_expr,attr", [
    ("sk = :f", "sk"), ("pk = :f", "pk"), ("attribute_exists(sk)", "sk"),
    ("v > :n AND begins_with(sk, :f)", "sk")])
def test_filter_on_key_attribute_rejected(dynamodb, str_tbl, filter_expr, attr):
    # A Query FilterExpression may not reference the key attributes of the table (or index) queried.
    values = {":p": "x", ":f": "y", ":n": 1}
    values = {k: v for k, v in values.items() if k == ":p" or k in filter_expr}
    with expect_error(VE, exact("Filter Expression can only contain non-primary key attributes: "
                                "Primary key attribute: " + attr)):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression="pk = :p",
                       FilterExpression=filter_expr, ExpressionAttributeValues=avs(values))


def test_scan_filter_may_use_key_attributes(dynamodb, str_tbl, str_part):
    # Scan, unlike Query, may filter on key attributes.
    resp = dynamodb.scan(TableName=str_tbl, FilterExpression="pk = :p AND begins_with(sk, :a)",
                         ExpressionAttributeValues=avs({":p": str_part, ":a": "ab"}))
    assert sorted(sks(resp["Items"])) == ["ab", "abc"]


def test_index_errors(dynamodb, idx_tbl):
    # Unknown index, ConsistentRead on a GSI, ALL_ATTRIBUTES on a non-ALL GSI, unprojected attributes and index keys in filters.
    q = {"KeyConditionExpression": "g = :g", "ExpressionAttributeValues": avs({":g": "x"})}
    with expect_error(VE, exact("The table does not have the specified index: nope")):
        dynamodb.query(TableName=idx_tbl, IndexName="nope", **q)
    with expect_error(VE, exact("The table does not have the specified index: nope")):
        dynamodb.scan(TableName=idx_tbl, IndexName="nope")
    with expect_error(VE, exact("Consistent reads are not supported on global secondary indexes")):
        dynamodb.query(TableName=idx_tbl, IndexName="by_g_keys", ConsistentRead=True, **q)
    with expect_error(VE, exact("Consistent reads are not supported on global secondary indexes")):
        dynamodb.scan(TableName=idx_tbl, IndexName="by_g_inc", ConsistentRead=True)
    for idx in ("by_g_keys", "by_g_inc"):
        with expect_error(VE, exact(
                "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not "
                "supported for global secondary index {} because its projection type is not ALL"
                .format(idx))):
            dynamodb.query(TableName=idx_tbl, IndexName=idx, Select="ALL_ATTRIBUTES", **q)
    with expect_error(VE, exact("One or more parameter values were invalid: Global secondary index "
                                "by_g_inc does not project [extra]")):
        dynamodb.query(TableName=idx_tbl, IndexName="by_g_inc", ProjectionExpression="inc, extra",
                       **q)
    with expect_error(VE, exact("One or more parameter values were invalid: Global secondary index "
                                "by_g_keys does not project [inc]")):
        dynamodb.query(TableName=idx_tbl, IndexName="by_g_keys", ProjectionExpression="pk, inc",
                       **q)
    with expect_error(VE, exact("Filter Expression can only contain non-primary key attributes: "
                                "Primary key attribute: sk")):
        dynamodb.query(TableName=idx_tbl, IndexName="by_g_inc", FilterExpression="sk = :g", **q)


def test_index_query_may_filter_on_table_keys(dynamodb, idx_tbl):
    # On a GSI the table's own key attributes are ordinary (projected) attributes and may be filtered on.
    g = part()
    put_all(dynamodb, idx_tbl, [{"pk": "a" + g, "sk": "1", "g": g}, {"pk": "b" + g, "sk": "1", "g": g}])
    resp = dynamodb.query(TableName=idx_tbl, IndexName="by_g_keys", KeyConditionExpression="g = :g",
                          FilterExpression="pk = :p",
                          ExpressionAttributeValues=avs({":g": g, ":p": "b" + g}))
    assert [plain(i) for i in resp["Items"]] == [{"pk": "b" + g, "sk": "1", "g": g}]
    assert resp["ScannedCount"] == 2


def test_select_errors(dynamodb, str_tbl):
    # Select must agree with ProjectionExpression/AttributesToGet, and ALL_PROJECTED_ATTRIBUTES needs an index.
    # Query answers inside the envelope, Scan bare (2026-08; Query's were bare here before).
    q = {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": avs({":p": "x"})}
    envelope = "1 validation error detected: "
    with expect_error(VE, exact(envelope + "Must specify the AttributesToGet or ProjectionExpression "
                                "when choosing to get SPECIFIC_ATTRIBUTES")):
        dynamodb.query(TableName=str_tbl, Select="SPECIFIC_ATTRIBUTES", **q)
    with expect_error(VE, exact(envelope + "Cannot specify the ProjectionExpression when choosing "
                                "to get ALL_ATTRIBUTES")):
        dynamodb.query(TableName=str_tbl, Select="ALL_ATTRIBUTES", ProjectionExpression="v", **q)
    with expect_error(VE, exact(envelope + "ALL_PROJECTED_ATTRIBUTES can be used only when "
                                "Querying using an IndexName")):
        dynamodb.query(TableName=str_tbl, Select="ALL_PROJECTED_ATTRIBUTES", **q)
    with expect_error(VE, exact("Must specify the AttributesToGet or ProjectionExpression when "
                                "choosing to get SPECIFIC_ATTRIBUTES")):
        dynamodb.scan(TableName=str_tbl, Select="SPECIFIC_ATTRIBUTES")


@pytest.mark.parametrize("start", [{"pk": "x"}, {"sk": "a"}, {"pk": "x", "sk": "a", "v": "extra"}],
                         ids=["no-sk", "no-pk", "extra-attr"])
def test_invalid_exclusive_start_key(dynamodb, str_tbl, start):
    # An ExclusiveStartKey that is not exactly the table's key is "The provided starting key is invalid".
    with expect_error(VE, "^The provided starting key is invalid"):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": "x"}), ExclusiveStartKey=avs(start))


def test_invalid_exclusive_start_key_missing_sort_key_exact(dynamodb, str_tbl):
    # A start key missing the sort key is answered with the bare text.
    with expect_error(VE, exact("The provided starting key is invalid")):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": "x"}),
                       ExclusiveStartKey=avs({"pk": "x"}))


@pytest.mark.parametrize("cond,start,message", [
    (None, {"pk": "other", "sk": "a"},
     "The provided starting key is outside query boundaries based on provided conditions"),
    ("sk > :s", {"pk": "x", "sk": "a"},
     "The provided starting key does not match the range key predicate"),
    ("sk = :s", {"pk": "x", "sk": "m"},
     "The query can return at most one row and cannot be restarted"),
], ids=["other-partition", "outside-range", "single-row"])
def test_exclusive_start_key_outside_query(dynamodb, str_tbl, cond, start, message):
    # A start key the query's conditions could never have produced is rejected, not silently answered.
    expr = "pk = :p" + (" AND " + cond if cond else "")
    values = {":p": "x"}
    if cond:
        values[":s"] = "m"
    with expect_error(VE, message):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression=expr,
                       ExpressionAttributeValues=avs(values), ExclusiveStartKey=avs(start))


def test_scan_segment_errors(dynamodb, hash_tbl):
    # Segment and TotalSegments must come together and Segment must be below TotalSegments.
    with expect_error(VE, exact("The TotalSegments parameter is required but was not present in "
                                "the request when Segment parameter is present")):
        dynamodb.scan(TableName=hash_tbl, Segment=1)
    with expect_error(VE, exact("The Segment parameter is required but was not present in the "
                                "request when parameter TotalSegments is present")):
        dynamodb.scan(TableName=hash_tbl, TotalSegments=2)
    with expect_error(VE, exact("The Segment parameter is zero-based and must be less than "
                                "parameter TotalSegments: Segment: 2 is not less than "
                                "TotalSegments: 2")):
        dynamodb.scan(TableName=hash_tbl, Segment=2, TotalSegments=2)


def test_missing_table(dynamodb):
    # Query and Scan on a table that does not exist: ResourceNotFoundException.
    name = unique_name("missing")
    with expect_error(RNF, exact("Requested resource not found")):
        dynamodb.query(TableName=name, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues=avs({":p": "x"}))
    with expect_error(RNF, exact("Requested resource not found")):
        dynamodb.scan(TableName=name)


def test_unused_expression_attribute_names(dynamodb, str_tbl):
    # Names placeholders must all be used by the key condition, filter or projection.
    with expect_error(VE, exact("Value provided in ExpressionAttributeNames unused in expressions: "
                                "keys: {#x}")):
        dynamodb.query(TableName=str_tbl, KeyConditionExpression="pk = :v",
                       ExpressionAttributeNames={"#x": "other1"},
                       ExpressionAttributeValues=avs({":v": "x"}))
