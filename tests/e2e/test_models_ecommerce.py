"""The ecommerce model (seed 002) as models.md specifies it: one table with
the inverted index GSI1 and the sparse GSI2, and its access patterns (a
user's profile and orders, an order's items, orders by status, a status
change moving an order in GSI2); and the document's Music walk-through."""

import time
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key

from .models_util import defs, index, keys, model_table, put_all
from .models_util import run_id  # fixtures


ECOMMERCE_ITEMS = [
    {"PK": "USER#junior", "SK": "#PROFILE#junior", "Username": "junior",
     "FullName": "Sarah Mamede", "Email": "sarah@email.com", "CreatedAt": "2018-10-03",
     "Addresses": {"Home": {"StreetAddress": "Rua X, 10", "State": "Rio de Janeiro"}}},
    {"PK": "USER#sarah", "SK": "#PROFILE#sarah", "Username": "sarah",
     "FullName": "Normandes Jr", "Email": "normandes@email.com", "CreatedAt": "2018-10-03",
     "Addresses": {"Home": {"StreetAddress": "Rua X, 10", "State": "Rio de Janeiro"},
                   "Business": {"StreetAddress": "Rua Floriano, 304 ap 302",
                                "State": "Rio de Janeiro"}}},
    {"PK": "USER#junior", "SK": "ORDER#5eaf12", "Username": "junior", "OrderId": "5eaf12",
     "Status": "SHIPPED", "CreatedAt": "2019-03-22", "OrderStatusDate": "SHIPPED#2019-12-22",
     "Addresses": {"Home": {"StreetAddress": "Rua X, 10", "State": "Rio de Janeiro"}}},
    {"PK": "USER#junior", "SK": "ORDER#ac630a", "Username": "junior", "OrderId": "ac630a",
     "Status": "PLACED", "CreatedAt": "2019-05-10", "OrderStatusDate": "PLACED#2019-05-10",
     "Addresses": {"Business": {"StreetAddress": "Rua Floriano, 304 ap 302",
                                "State": "Rio de Janeiro"}}},
    {"PK": "USER#junior", "SK": "ORDER#f3990a", "Username": "junior", "OrderId": "f3990a",
     "Status": "SHIPPED", "CreatedAt": "2019-11-23", "OrderStatusDate": "SHIPPED#2019-11-23",
     "Addresses": {"Home": {"StreetAddress": "Rua X, 10", "State": "Rio de Janeiro"}}},
    {"PK": "USER#sarah", "SK": "ORDER#B39AD", "Username": "sarah", "OrderId": "B39AD",
     "Status": "PLACED", "CreatedAt": "2019-02-03", "OrderStatusDate": "PLACED#2019-02-03",
     "Addresses": {"Business": {"StreetAddress": "Rua Floriano, 304 ap 302",
                                "State": "Rio de Janeiro"}}},
    {"PK": "ITEM#28291", "SK": "ORDER#5eaf12", "ItemId": "28291", "OrderId": "5eaf12",
     "ProductName": "Echo Dot", "Price": Decimal("59.99"), "Status": "FAILED"},
    {"PK": "ITEM#99834", "SK": "ORDER#5eaf12", "ItemId": "99834", "OrderId": "5eaf12",
     "ProductName": "Macbook", "Price": Decimal("1999"), "Status": "SUCCESS"},
    {"PK": "ITEM#17333", "SK": "ORDER#ac630a", "ItemId": "17333", "OrderId": "ac630a",
     "ProductName": "Mouse", "Price": Decimal("100"), "Status": "FAILED"},
]


@pytest.fixture(scope="module")
def ecommerce(tables, run_id, dynamodb_resource):
    name = model_table(
        tables, run_id, "ecommerce", KeySchema=keys("PK", "SK"),
        AttributeDefinitions=defs(("PK", "S"), ("SK", "S"), ("OrderStatusDate", "S")),
        GlobalSecondaryIndexes=[
            index("GSI1", "SK", "PK", {"ProjectionType": "ALL"}),
            index("GSI2", "PK", "OrderStatusDate", {"ProjectionType": "ALL"})])
    table = dynamodb_resource.Table(name)
    put_all(table, ECOMMERCE_ITEMS)
    return table


def test_ecommerce_table_as_specified(dynamodb, ecommerce):
    # ecommerce: PK/SK, GSI1 the inverted index (SK HASH, PK RANGE), GSI2 on PK/OrderStatusDate, both ALL.
    desc = dynamodb.describe_table(TableName=ecommerce.name)["Table"]
    assert desc["KeySchema"] == keys("PK", "SK")
    gsis = {g["IndexName"]: (g["KeySchema"], g["Projection"]["ProjectionType"])
            for g in desc["GlobalSecondaryIndexes"]}
    assert gsis == {"GSI1": (keys("SK", "PK"), "ALL"), "GSI2": (keys("PK", "OrderStatusDate"), "ALL")}
    assert desc["ItemCount"] == len(ECOMMERCE_ITEMS)


def test_ecommerce_user_profile(ecommerce):
    # Get user profile: GetItem USER#<u> / #PROFILE#<u>.
    item = ecommerce.get_item(Key={"PK": "USER#sarah", "SK": "#PROFILE#sarah"})["Item"]
    assert item == ECOMMERCE_ITEMS[1]


def test_ecommerce_orders_for_user(ecommerce):
    # Orders for a user: PK = USER#<u> AND begins_with(SK, 'ORDER#'), without the profile.
    resp = ecommerce.query(KeyConditionExpression=Key("PK").eq("USER#junior")
                           & Key("SK").begins_with("ORDER#"))
    assert [i["OrderId"] for i in resp["Items"]] == ["5eaf12", "ac630a", "f3990a"]
    everything = ecommerce.query(KeyConditionExpression=Key("PK").eq("USER#junior"))
    assert [i["SK"] for i in everything["Items"]] == ["#PROFILE#junior", "ORDER#5eaf12",
                                                     "ORDER#ac630a", "ORDER#f3990a"]


def test_ecommerce_order_items_via_inverted_index(ecommerce):
    # An order's items: Query GSI1 with SK = ORDER#<id> AND begins_with(PK, 'ITEM#'); without the condition the order itself comes too.
    resp = ecommerce.query(IndexName="GSI1", KeyConditionExpression=Key("SK").eq("ORDER#5eaf12")
                           & Key("PK").begins_with("ITEM#"))
    assert [(i["ProductName"], i["Price"]) for i in resp["Items"]] == [
        ("Echo Dot", Decimal("59.99")), ("Macbook", Decimal("1999"))]
    order_and_items = ecommerce.query(IndexName="GSI1",
                                      KeyConditionExpression=Key("SK").eq("ORDER#5eaf12"))
    assert [i["PK"] for i in order_and_items["Items"]] == ["ITEM#28291", "ITEM#99834",
                                                           "USER#junior"]
    assert order_and_items["Items"][2]["Status"] == "SHIPPED"
    profile = ecommerce.query(IndexName="GSI1", KeyConditionExpression=Key("SK").eq("#PROFILE#junior"))
    assert [i["PK"] for i in profile["Items"]] == ["USER#junior"]
    failed = ecommerce.query(IndexName="GSI1", KeyConditionExpression=Key("SK").eq("ORDER#5eaf12")
                             & Key("PK").begins_with("ITEM#"), FilterExpression=Attr("Status").eq("FAILED"))
    assert [i["ItemId"] for i in failed["Items"]] == ["28291"]
    assert failed["ScannedCount"] == 2


def test_ecommerce_orders_by_status(ecommerce):
    # A user's orders by status: Query GSI2 with PK = USER#<u> AND begins_with(OrderStatusDate, 'SHIPPED#'), ordered by date; GSI2 is sparse.
    resp = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#junior")
                           & Key("OrderStatusDate").begins_with("SHIPPED#"))
    assert [(i["OrderId"], i["OrderStatusDate"]) for i in resp["Items"]] == [
        ("f3990a", "SHIPPED#2019-11-23"), ("5eaf12", "SHIPPED#2019-12-22")]
    newest = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#junior")
                             & Key("OrderStatusDate").begins_with("SHIPPED#"),
                             ScanIndexForward=False, Limit=1)
    assert [i["OrderId"] for i in newest["Items"]] == ["5eaf12"]
    every = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#junior"))
    assert [i["OrderId"] for i in every["Items"]] == ["ac630a", "f3990a", "5eaf12"]
    placed_2019 = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#sarah")
                                  & Key("OrderStatusDate").between("PLACED#2019-01-01",
                                                                   "PLACED#2019-12-31"))
    assert [i["OrderId"] for i in placed_2019["Items"]] == ["B39AD"]


def test_ecommerce_status_change_moves_order_in_gsi2(ecommerce):
    # Shipping an order rewrites OrderStatusDate; the order moves from PLACED# to SHIPPED# in GSI2.
    ecommerce.put_item(Item={"PK": "USER#maria", "SK": "ORDER#C77XY", "Username": "maria",
                             "OrderId": "C77XY", "Status": "PLACED", "CreatedAt": "2020-01-15",
                             "OrderStatusDate": "PLACED#2020-01-15"})

    def by_status(prefix):
        resp = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#maria")
                               & Key("OrderStatusDate").begins_with(prefix))
        return [i["OrderId"] for i in resp["Items"]]

    assert by_status("PLACED#") == ["C77XY"] and by_status("SHIPPED#") == []
    ecommerce.update_item(Key={"PK": "USER#maria", "SK": "ORDER#C77XY"},
                          UpdateExpression="SET #s = :s, OrderStatusDate = :osd",
                          ConditionExpression=Attr("Status").eq("PLACED"),
                          ExpressionAttributeNames={"#s": "Status"},
                          ExpressionAttributeValues={":s": "SHIPPED", ":osd": "SHIPPED#2020-01-17"})
    assert by_status("PLACED#") == [] and by_status("SHIPPED#") == ["C77XY"]
    ecommerce.delete_item(Key={"PK": "USER#maria", "SK": "ORDER#C77XY"})
    assert ecommerce.query(IndexName="GSI2",
                           KeyConditionExpression=Key("PK").eq("USER#maria"))["Items"] == []


def test_music_walkthrough(dynamodb, tables, run_id):
    # The document's Music walk-through (create, scan, put, get, update ALL_NEW, query, add AlbumTitle-index, query it, scan) through boto3.
    name = model_table(tables, run_id, "Music",
                       AttributeDefinitions=defs(("Artist", "S"), ("SongTitle", "S")),
                       KeySchema=keys("Artist", "SongTitle"),
                       ProvisionedThroughput={"ReadCapacityUnits": 10, "WriteCapacityUnits": 5})
    assert dynamodb.scan(TableName=name)["Items"] == []
    dynamodb.put_item(TableName=name, Item={
        "Artist": {"S": "No One You Know"}, "SongTitle": {"S": "Call Me Today"},
        "AlbumTitle": {"S": "Somewhat Famous"}, "Awards": {"N": "1"}})
    dynamodb.put_item(TableName=name, Item={
        "Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"},
        "AlbumTitle": {"S": "Songs About Life"}, "Awards": {"N": "10"}})
    got = dynamodb.get_item(TableName=name, ConsistentRead=True, Key={
        "Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}})["Item"]
    assert got["AlbumTitle"] == {"S": "Songs About Life"}
    updated = dynamodb.update_item(
        TableName=name, Key={"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}},
        UpdateExpression="SET AlbumTitle = :newval",
        ExpressionAttributeValues={":newval": {"S": "Updated Album Title"}}, ReturnValues="ALL_NEW")
    assert updated["Attributes"] == {"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"},
                                     "AlbumTitle": {"S": "Updated Album Title"},
                                     "Awards": {"N": "10"}}
    resp = dynamodb.query(TableName=name, KeyConditionExpression="Artist = :name",
                          ExpressionAttributeValues={":name": {"S": "Acme Band"}}, Limit=100)
    assert [i["SongTitle"]["S"] for i in resp["Items"]] == ["Happy Day"]
    resp = dynamodb.update_table(
        TableName=name, AttributeDefinitions=defs(("AlbumTitle", "S")),
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "AlbumTitle-index",
            "KeySchema": keys("AlbumTitle"),
            "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5},
            "Projection": {"ProjectionType": "ALL"}}}])
    assert any(g["IndexName"] == "AlbumTitle-index"
               for g in resp["TableDescription"]["GlobalSecondaryIndexes"])
    deadline = time.monotonic() + 30
    while True:
        desc = dynamodb.describe_table(TableName=name)["Table"]
        if all(g["IndexStatus"] == "ACTIVE" for g in desc["GlobalSecondaryIndexes"]):
            break
        assert time.monotonic() < deadline
        time.sleep(0.2)
    found = dynamodb.query(TableName=name, IndexName="AlbumTitle-index",
                           KeyConditionExpression="AlbumTitle = :name",
                           ExpressionAttributeValues={":name": {"S": "Somewhat Famous"}})
    assert [i["SongTitle"]["S"] for i in found["Items"]] == ["Call Me Today"]
    assert dynamodb.scan(TableName=name)["Count"] == 2
