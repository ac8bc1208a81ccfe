"""What a Query or Scan page holds: FilterExpression applied after Limit
(Count after the filter, ScannedCount before it, LastEvaluatedKey of the
last item evaluated), the legacy ScanFilter and AttributesToGet,
Select=COUNT and SPECIFIC_ATTRIBUTES, ProjectionExpression of nested
paths, and the capacity ReturnConsumedCapacity reports."""

import pytest

from .e2e_util import av, avs, plain
from .query_scan_util import part, put_all, query, sks, walk
from .query_scan_util import str_tbl  # fixtures


@pytest.fixture(scope="module")
def ten(dynamodb, str_tbl):
    """Partition with sk 00..09; even items have even=True, odd ones even=False."""
    p = part()
    put_all(dynamodb, str_tbl, [{"pk": p, "sk": "%02d" % i, "even": i % 2 == 0, "n": i}
                                for i in range(10)])
    return p


def test_filter_applies_after_limit(dynamodb, str_tbl, ten):
    # Limit bounds the items evaluated: Count counts matches, ScannedCount evaluated items, and the key of the last evaluated item is returned.
    resp = query(dynamodb, str_tbl, ten, values={":t": True}, Limit=4,
                 FilterExpression="even = :t")
    assert sks(resp["Items"]) == ["00", "02"]
    assert resp["Count"] == 2 and resp["ScannedCount"] == 4
    assert plain(resp["LastEvaluatedKey"]) == {"pk": ten, "sk": "03"}


def test_filter_matching_nothing_still_pages(dynamodb, str_tbl, ten):
    # A page whose items all fail the filter is empty but still carries LastEvaluatedKey; the walk visits every item once.
    items, pages = walk(dynamodb.query, TableName=str_tbl, KeyConditionExpression="pk = :p",
                        FilterExpression="n > :big",
                        ExpressionAttributeValues=avs({":p": ten, ":big": 100}), Limit=3)
    assert items == []
    assert [p["ScannedCount"] for p in pages] == [3, 3, 3, 1]
    assert all(p["Count"] == 0 for p in pages)
    assert plain(pages[0]["LastEvaluatedKey"]) == {"pk": ten, "sk": "02"}


def test_limit_reached_exactly_returns_last_evaluated_key(dynamodb, str_tbl, ten):
    # When Limit equals the number of remaining items the page still has LastEvaluatedKey and the next page is empty without one.
    first = query(dynamodb, str_tbl, ten, Limit=10)
    assert len(first["Items"]) == 10
    assert plain(first["LastEvaluatedKey"]) == {"pk": ten, "sk": "09"}
    second = query(dynamodb, str_tbl, ten, Limit=10, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert second["Items"] == [] and second["Count"] == 0 and second["ScannedCount"] == 0
    assert "LastEvaluatedKey" not in second
    more = query(dynamodb, str_tbl, ten, Limit=11)
    assert len(more["Items"]) == 10 and "LastEvaluatedKey" not in more


def test_filter_may_use_attributes_outside_projection(dynamodb, str_tbl, ten):
    # The filter sees the whole item; the projection is applied afterwards.
    resp = query(dynamodb, str_tbl, ten, values={":t": True}, FilterExpression="even = :t",
                 ProjectionExpression="n")
    assert [plain(i) for i in resp["Items"]] == [{"n": n} for n in range(0, 10, 2)]


def test_scan_filter_limit_and_legacy_scan_filter(dynamodb, str_tbl, ten):
    # Scan counts like Query: Count after the filter, ScannedCount before it; the legacy ScanFilter/AttributesToGet work as well.
    items, pages = walk(dynamodb.scan, TableName=str_tbl, Limit=7,
                        FilterExpression="pk = :p AND even = :t",
                        ExpressionAttributeValues=avs({":p": ten, ":t": True}))
    assert sorted(sks(items)) == ["00", "02", "04", "06", "08"]
    assert all(p["ScannedCount"] <= 7 for p in pages)
    assert sum(p["Count"] for p in pages) == 5
    assert sum(p["ScannedCount"] for p in pages) == dynamodb.scan(
        TableName=str_tbl, Select="COUNT")["ScannedCount"]
    legacy = dynamodb.scan(TableName=str_tbl, AttributesToGet=["sk"], ScanFilter={
        "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [av(ten)]},
        "n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [av(3), av(5)]}})
    assert sorted(plain(i)["sk"] for i in legacy["Items"]) == ["03", "04", "05"]
    assert all(set(i) == {"sk"} for i in legacy["Items"])


def test_select_count(dynamodb, str_tbl, ten):
    # Select=COUNT returns Count/ScannedCount and no Items, with filters and limits applied.
    resp = query(dynamodb, str_tbl, ten, Select="COUNT")
    assert "Items" not in resp
    assert resp["Count"] == 10 and resp["ScannedCount"] == 10
    resp = query(dynamodb, str_tbl, ten, values={":t": False}, Select="COUNT",
                 FilterExpression="even = :t", Limit=5)
    assert "Items" not in resp
    assert resp["Count"] == 2 and resp["ScannedCount"] == 5
    assert "LastEvaluatedKey" in resp
    scan = dynamodb.scan(TableName=str_tbl, Select="COUNT", FilterExpression="pk = :p",
                         ExpressionAttributeValues=avs({":p": ten}))
    assert "Items" not in scan and scan["Count"] == 10


def test_select_specific_attributes_and_attributes_to_get(dynamodb, str_tbl, ten):
    # SPECIFIC_ATTRIBUTES with a ProjectionExpression, and the legacy AttributesToGet, return only those attributes.
    resp = query(dynamodb, str_tbl, ten, "sk < :s", {":s": "02"}, Select="SPECIFIC_ATTRIBUTES",
                 ProjectionExpression="n")
    assert [plain(i) for i in resp["Items"]] == [{"n": 0}, {"n": 1}]
    resp = dynamodb.query(TableName=str_tbl, KeyConditions={
        "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [av(ten)]},
        "sk": {"ComparisonOperator": "LT", "AttributeValueList": [av("02")]}},
        AttributesToGet=["sk", "even"])
    assert [plain(i) for i in resp["Items"]] == [{"sk": "00", "even": True},
                                                  {"sk": "01", "even": False}]


DOC = {"m": {"a": {"b": 1, "c": 2}, "d": [10, 20, 30]}, "l": [{"x": 1}, {"x": 2, "y": 3}],
       "name": "doc", "other1": "o"}


def test_projection_expression_nested_paths(dynamodb, str_tbl):
    # ProjectionExpression on Query and Scan returns the requested nested paths only (keys only when asked for).
    p = part()
    put_all(dynamodb, str_tbl, [dict(DOC, pk=p, sk="1"), dict(DOC, pk=p, sk="2", name="two")])
    proj = "m.a.b, m.d[2], l[1].y, #n"
    names = {"#n": "name"}
    resp = query(dynamodb, str_tbl, p, ProjectionExpression=proj, ExpressionAttributeNames=names)
    expected = [{"m": {"a": {"b": 1}, "d": [30]}, "l": [{"y": 3}], "name": "doc"},
                {"m": {"a": {"b": 1}, "d": [30]}, "l": [{"y": 3}], "name": "two"}]
    assert [plain(i) for i in resp["Items"]] == expected
    scan = dynamodb.scan(TableName=str_tbl, ProjectionExpression=proj + ", sk",
                         FilterExpression="pk = :p", ExpressionAttributeNames=names,
                         ExpressionAttributeValues=avs({":p": p}))
    got = sorted((plain(i) for i in scan["Items"]), key=lambda i: i["sk"])
    assert got == [dict(e, sk=s) for e, s in zip(expected, ["1", "2"])]
    missing = query(dynamodb, str_tbl, p, ProjectionExpression="nothing.here, m.zz")
    assert [plain(i) for i in missing["Items"]] == [{}, {}]


def test_consumed_capacity(dynamodb, tables):
    # ReturnConsumedCapacity=TOTAL: a Query or Scan costs the summed size of the items read, rounded up to 4 KB, half a unit per 4 KB unless ConsistentRead.
    name = tables(range_key=("sk", "S"), prefix="qs-cap")
    # Each item: pk(2+1) + sk(2+1) + data1(5+5000) = 5011 bytes; five of them = 25055 bytes = 7 blocks of 4 KB.
    put_all(dynamodb, name, [{"pk": "p", "sk": str(i), "data1": "y" * 5000} for i in range(5)])
    q = {"TableName": name, "KeyConditionExpression": "pk = :p",
         "ExpressionAttributeValues": avs({":p": "p"})}
    assert "ConsumedCapacity" not in dynamodb.query(**q)
    resp = dynamodb.query(ReturnConsumedCapacity="TOTAL", **q)
    assert resp["ConsumedCapacity"]["TableName"] == name
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 3.5
    resp = dynamodb.query(ReturnConsumedCapacity="TOTAL", ConsistentRead=True, **q)
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 7.0
    # Filtered-out items were still read.
    resp = dynamodb.query(ReturnConsumedCapacity="TOTAL", FilterExpression="attribute_not_exists(data1)",
                          **q)
    assert resp["Count"] == 0 and resp["ConsumedCapacity"]["CapacityUnits"] == 3.5
    resp = dynamodb.scan(TableName=name, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 3.5
    # An empty result still costs the minimum half unit.
    resp = dynamodb.query(TableName=name, KeyConditionExpression="pk = :p",
                          ExpressionAttributeValues=avs({":p": "none"}), ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 0.5
