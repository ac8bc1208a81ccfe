"""Index and attribute-definition builders and the item and index-query
helpers the secondary-index modules share (test_index_contents,
test_index_multi_attribute_keys, test_index_create_delete)."""

from .e2e_util import avs, plain

VE = "ValidationException"


def gsi(name, hash_key, range_key=None, projection="ALL", include=None):
    keys = [{"AttributeName": hash_key, "KeyType": "HASH"}]
    if range_key:
        keys.append({"AttributeName": range_key, "KeyType": "RANGE"})
    proj = {"ProjectionType": projection}
    if include:
        proj["NonKeyAttributes"] = include
    return {"IndexName": name, "KeySchema": keys, "Projection": proj}


def lsi(name, range_key, projection="ALL", include=None):
    return gsi(name, "pk", range_key, projection, include)


def defs(**types):
    return [{"AttributeName": k, "AttributeType": v} for k, v in types.items()]


def put(db, table, **item):
    db.put_item(TableName=table, Item=avs(item))


def iquery(db, table, index, hash_attr, hash_value, values=None, **kwargs):
    vals = {":h": hash_value}
    vals.update(values or {})
    resp = db.query(TableName=table, IndexName=index,
                    KeyConditionExpression="#h = :h", ExpressionAttributeNames={"#h": hash_attr},
                    ExpressionAttributeValues=avs(vals), **kwargs)
    return [plain(i) for i in resp.get("Items", [])]


def pick(item, *names):
    return {k: v for k, v in item.items() if k in names}
