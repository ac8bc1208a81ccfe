"""Orders: the default reset before every test puts the seed back, whatever
the previous test (or another worker, writing the same keys) did."""

from boto3.dynamodb.conditions import Key

from seed_data import SEED_PENDING, SEED_ROWS


def test_writes_the_shared_keys_alone(same_keys):
    same_keys()


def test_place_and_cancel(dynamodb_resource):
    orders = dynamodb_resource.Table("orders")
    orders.put_item(Item={"PK": "USER#1", "SK": "ORDER#999", "status": "PENDING", "total": 1})
    orders.delete_item(Key={"PK": "USER#1", "SK": "ORDER#001"})
    orders.update_item(Key={"PK": "USER#1", "SK": "PROFILE"},
                       UpdateExpression="SET #n = :n", ExpressionAttributeNames={"#n": "name"},
                       ExpressionAttributeValues={":n": "changed"})
    skus = [i["SK"] for i in orders.query(KeyConditionExpression=Key("PK").eq("USER#1"))["Items"]]
    assert skus == ["ORDER#002", "ORDER#999", "PROFILE"]


def test_the_seed_is_back(dynamodb_resource):
    orders = dynamodb_resource.Table("orders")
    items = orders.scan(ConsistentRead=True)["Items"]
    assert len(items) == SEED_ROWS
    user1 = {i["SK"]: i for i in items if i["PK"] == "USER#1"}
    assert sorted(user1) == ["ORDER#001", "ORDER#002", "PROFILE"]
    assert user1["PROFILE"]["name"] == "Ada" and user1["PROFILE"]["owner"] == "seed"


def test_the_index_follows_the_reset(dynamodb_resource):
    orders = dynamodb_resource.Table("orders")
    pending = orders.query(IndexName="by-status",
                           KeyConditionExpression=Key("status").eq("PENDING"))["Items"]
    assert len(pending) == SEED_PENDING
    orders.put_item(Item={"PK": "USER#1", "SK": "ORDER#003", "status": "PENDING"})
    pending = orders.query(IndexName="by-status",
                           KeyConditionExpression=Key("status").eq("PENDING"))["Items"]
    assert len(pending) == SEED_PENDING + 1
