"""Table lifecycles: boto3's waiters, a TTL expiry read from the stream with
the dynamodbstreams client, and a vector index (SCENARIOS.md)."""

import pytest

from tables import create_table, table_name

MAX_READS = 20


def test_waiters(client):
    name = table_name("waiters")
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1})
    assert client.describe_table(TableName=name)["Table"]["TableStatus"] == "ACTIVE"

    client.delete_table(TableName=name)
    client.get_waiter("table_not_exists").wait(TableName=name, WaiterConfig={"Delay": 1})
    with pytest.raises(client.exceptions.ResourceNotFoundException):
        client.describe_table(TableName=name)


def stream_records(streams, arn):
    """Every record of every shard, from TRIM_HORIZON, in shard order."""
    records = []
    for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        for _ in range(MAX_READS):
            answer = streams.get_records(ShardIterator=iterator)
            records += answer["Records"]
            iterator = answer.get("NextShardIterator")
            if not iterator or not answer["Records"]:
                break
    return records


def test_streams_ttl(client, make_client, admin):
    name = create_table(client, "streams_ttl", StreamSpecification={
        "StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    client.update_time_to_live(TableName=name, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires"})
    admin.freeze_clock()
    expires = str(admin.now_millis() // 1000 + 60)
    item = {"pk": {"S": "short-lived"}, "expires": {"N": expires}}
    client.put_item(TableName=name, Item=item)
    admin.advance_clock(120)
    admin.sweep()

    streams = make_client("dynamodbstreams")
    arn = client.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    records = stream_records(streams, arn)
    assert [r["eventName"] for r in records] == ["INSERT", "REMOVE"]
    insert, remove = records
    assert insert["dynamodb"]["NewImage"] == item
    assert "userIdentity" not in insert
    assert remove["dynamodb"]["OldImage"] == item
    assert remove["userIdentity"] == {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
    assert client.get_item(TableName=name, Key={"pk": item["pk"]}, ConsistentRead=True) \
        .get("Item") is None


def vector(*values):
    return {"L": [{"N": str(v)} for v in values]}


def test_vector_search(client):
    if "SearchVectors" not in client.meta.service_model.operation_names:
        pytest.skip("n/a: this botocore has no SearchVectors operation")
    name = create_table(client, "vector_search", VectorIndexes=[{
        "IndexName": "near", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 3,
        "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "ALL"}}])
    for pk, values in {"origin": (0, 0, 0), "east": (1, 0, 0), "far": (10, 10, 10),
                       "north": (0, 3, 0)}.items():
        client.put_item(TableName=name, Item={"pk": {"S": pk}, "v": vector(*values)})
    answer = client.search_vectors(TableName=name, IndexName="near", TopK=2,
                                   SearchVector=[{"N": "0.9"}, {"N": "0.1"}, {"N": "0"}])
    assert [r["Item"]["pk"]["S"] for r in answer["SearchResults"]] == ["east", "origin"]
    scores = [r["Score"] for r in answer["SearchResults"]]
    assert scores == sorted(scores), "nearest first"
