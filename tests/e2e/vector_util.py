"""Helpers for the vector index suites: vector indexes and SearchVectors
through boto3's client, in DynamoDB JSON (the server's URL picks the client)."""

import math

from .e2e_util import client_for, unique_name


def vector_index(name="vix", attribute="v", dimensions=3, distance="COSINE",
                 projection=None, search_schema=None):
    index = {
        "IndexName": name,
        "VectorAttribute": {"AttributeName": attribute},
        "Dimensions": dimensions,
        "DistanceFunction": distance,
        "Projection": projection or {"ProjectionType": "ALL"},
    }
    if search_schema:
        index["SearchSchema"] = [{"AttributeName": a, "SearchSchemaElementType": t}
                                 for a, t in search_schema]
    return index


def create_vector_table(url, indexes, definitions=(), name=None, billing="PAY_PER_REQUEST",
                        range_key=None):
    """Creates a table keyed by pk (S) [and `range_key` (S)] with the given
    vector indexes; `definitions` are extra (name, type) attribute
    definitions. Returns the table name and the CreateTable answer."""
    name = name or unique_name("vec")
    request = {
        "TableName": name,
        "BillingMode": billing,
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "VectorIndexes": indexes,
    }
    if range_key:
        request["KeySchema"].append({"AttributeName": range_key, "KeyType": "RANGE"})
        request["AttributeDefinitions"].append({"AttributeName": range_key, "AttributeType": "S"})
    for attribute, kind in definitions:
        request["AttributeDefinitions"].append({"AttributeName": attribute, "AttributeType": kind})
    if billing == "PROVISIONED":
        request["ProvisionedThroughput"] = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
    return name, client_for(url).create_table(**request)


def vec(values):
    return {"L": [{"N": repr(float(x)) if not float(x).is_integer() else str(int(x))}
                  for x in values]}


def put(url, table, pk, vector=None, **attributes):
    item = {"pk": {"S": pk}}
    if vector is not None:
        item["v"] = vec(vector)
    item.update(attributes)
    client_for(url).put_item(TableName=table, Item=item)


def search(url, table, vector, top_k=10, index="vix", condition=None, values=None,
           names=None, projection=None, **extra):
    request = {"TableName": table, "IndexName": index,
               "SearchVector": [{"N": repr(float(x))} for x in vector], "TopK": top_k}
    if condition:
        request["SearchConditionExpression"] = condition
    if values:
        request["ExpressionAttributeValues"] = values
    if names:
        request["ExpressionAttributeNames"] = names
    if projection:
        request["ProjectionExpression"] = projection
    request.update(extra)
    return client_for(url).search_vectors(**request)


def hits(answer):
    """[(pk, score)] of a SearchVectors answer, in its order."""
    return [(r["Item"]["pk"]["S"], r["Score"]) for r in answer["SearchResults"]]


def describe_vector_indexes(url, table):
    return client_for(url).describe_table(TableName=table)["Table"].get("VectorIndexes", [])


# DynamoDB's scores, computed independently of the server (in f32-rounded
# inputs, as the index stores them).
def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def expected_score(distance, a, b):
    a = [f32(x) for x in a]
    b = [f32(x) for x in b]
    dot = sum(x * y for x, y in zip(a, b))
    if distance == "DOT_PRODUCT":
        return dot
    if distance == "EUCLIDEAN":
        return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return 1.0 if norms == 0 else 1.0 - max(-1.0, min(1.0, dot / norms))


def expected_ranking(distance, query, items, top_k):
    """[(pk, score)] of the exact nearest neighbours: best score first, then
    by key (ties broken deterministically, as localdynamo does)."""
    scored = [(pk, expected_score(distance, vector, query)) for pk, vector in items.items()]
    descending = distance == "DOT_PRODUCT"
    scored.sort(key=lambda s: ((-s[1] if descending else s[1]), s[0]))
    return scored[:top_k]
