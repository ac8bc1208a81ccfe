"""TTL through boto3: UpdateTimeToLive / DescribeTimeToLive with DynamoDB's
validation, and expiry driven by the admin API's clock and sweep.

The module runs its own server (--ttl-interval 0: sweeps happen only when a
test asks), because moving the clock would disturb the shared one.
"""

import pytest

from .e2e_util import exact, expect_error, raw_op
from .server_util import (
    own_server_fixtures,
    advance_clock,
    run_server,
    server_now,
    sweep,
    wait_for,
)


server, ddb, tables = own_server_fixtures("--in-memory", "--ttl-interval", "0")


def ttl_table(ddb, tables, attribute="ttl"):
    name = tables(hash_key=("pk", "S"), prefix="ttl")
    ddb.update_time_to_live(TableName=name,
                            TimeToLiveSpecification={"Enabled": True, "AttributeName": attribute})
    return name


def present(ddb, table, pk):
    return "Item" in ddb.get_item(TableName=table, Key={"pk": {"S": pk}}, ConsistentRead=True)


# --- UpdateTimeToLive / DescribeTimeToLive ---------------------------------

def test_enable_describe_disable(ddb, tables):
    name = tables(hash_key=("pk", "S"), prefix="ttl")
    assert ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "DISABLED"}
    answer = ddb.update_time_to_live(
        TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})
    assert answer["TimeToLiveSpecification"] == {"Enabled": True, "AttributeName": "expires"}
    assert ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}
    answer = ddb.update_time_to_live(
        TableName=name, TimeToLiveSpecification={"Enabled": False, "AttributeName": "expires"})
    assert answer["TimeToLiveSpecification"] == {"Enabled": False, "AttributeName": "expires"}
    assert ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "DISABLED"}


def test_describe_table_does_not_mention_ttl(ddb, tables):
    name = ttl_table(ddb, tables)
    table = ddb.describe_table(TableName=name)["Table"]
    assert not [k for k in table if "TimeToLive" in k or "Ttl" in k]


def test_enabling_twice_is_refused(ddb, tables):
    name = ttl_table(ddb, tables)
    with expect_error("ValidationException", exact("TimeToLive is already enabled")):
        ddb.update_time_to_live(TableName=name,
                                TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})


def test_disabling_when_disabled_is_refused(ddb, tables):
    name = tables(hash_key=("pk", "S"), prefix="ttl")
    with expect_error("ValidationException", exact("TimeToLive is already disabled")):
        ddb.update_time_to_live(TableName=name,
                                TimeToLiveSpecification={"Enabled": False, "AttributeName": "ttl"})


@pytest.mark.parametrize("enabled", [True, False])
def test_another_attribute_while_enabled_is_refused(ddb, tables, enabled):
    name = ttl_table(ddb, tables)
    with expect_error("ValidationException", exact(
            "TimeToLive is active on a different AttributeName: current AttributeName is ttl")):
        ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={
            "Enabled": enabled, "AttributeName": "other"})


def test_missing_table(ddb):
    message = exact("Requested resource not found: Table: no-such-ttl-table not found")
    with expect_error("ResourceNotFoundException", message):
        ddb.describe_time_to_live(TableName="no-such-ttl-table")
    with expect_error("ResourceNotFoundException", message):
        ddb.update_time_to_live(TableName="no-such-ttl-table", TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "ttl"})


@pytest.mark.parametrize("attribute,constraint", [
    ("", "Member must have length greater than or equal to 1"),
    ("a" * 256, "Member must have length less than or equal to 255"),
])
def test_attribute_name_length(server, tables, attribute, constraint):
    name = tables(hash_key=("pk", "S"), prefix="ttl")
    status, body = raw_op(server.url, "UpdateTimeToLive", {
        "TableName": name,
        "TimeToLiveSpecification": {"Enabled": True, "AttributeName": attribute}})
    assert status == 400
    assert body["__type"].endswith("ValidationException")
    assert body["message"] == (
        "1 validation error detected: Value '{}' at 'timeToLiveSpecification.attributeName' "
        "failed to satisfy constraint: {}".format(attribute, constraint))


def test_missing_specification_members(server, tables):
    name = tables(hash_key=("pk", "S"), prefix="ttl")
    status, body = raw_op(server.url, "UpdateTimeToLive", {
        "TableName": name, "TimeToLiveSpecification": {"AttributeName": "ttl"}})
    assert status == 400
    assert body["message"] == (
        "1 validation error detected: Value null at 'timeToLiveSpecification.enabled' failed "
        "to satisfy constraint: Member must not be null")


# --- Expiry ------------------------------------------------------------------

def test_an_item_living_an_hour_expires_when_the_clock_moves(server, ddb, tables):
    name = ttl_table(ddb, tables)
    now = server_now(server.url)
    ddb.put_item(TableName=name, Item={"pk": {"S": "hour"}, "ttl": {"N": str(now + 3600)}})
    assert sweep(server.url)["DeletedCount"] == 0
    assert present(ddb, name, "hour")
    advance_clock(server.url, 3601)
    # Expired but not yet swept: still readable, as in DynamoDB.
    assert present(ddb, name, "hour")
    swept = sweep(server.url)
    assert {"TableName": name, "Key": {"pk": {"S": "hour"}}, "ExpiredAt": now + 3600} in \
        swept["Deleted"]
    assert not present(ddb, name, "hour")


def test_only_numbers_of_the_recent_past_expire(server, ddb, tables):
    name = ttl_table(ddb, tables)
    now = server_now(server.url)
    six_years = 6 * 365 * 24 * 3600
    items = {
        "number": {"N": str(now - 10)},
        "fraction": {"N": "{}.75".format(now - 10)},
        "string": {"S": str(now - 10)},
        "binary": {"B": b"1"},
        "list": {"L": [{"N": str(now - 10)}]},
        "ancient": {"N": str(now - six_years)},
        "future": {"N": str(now + 86400)},
        "milliseconds": {"N": str((now - 10) * 1000)},
    }
    for pk, value in items.items():
        ddb.put_item(TableName=name, Item={"pk": {"S": pk}, "ttl": value})
    ddb.put_item(TableName=name, Item={"pk": {"S": "other-attribute"},
                                       "expires": {"N": str(now - 10)}})
    deleted = {d["Key"]["pk"]["S"] for d in sweep(server.url)["Deleted"] if d["TableName"] == name}
    assert deleted == {"number", "fraction"}
    for pk in items:
        assert present(ddb, name, pk) == (pk not in deleted), pk


def test_updating_the_ttl_later_or_removing_it_keeps_the_item(server, ddb, tables):
    name = ttl_table(ddb, tables)
    now = server_now(server.url)
    for pk in ("later", "removed", "kept-due"):
        ddb.put_item(TableName=name, Item={"pk": {"S": pk}, "ttl": {"N": str(now + 60)}})
    ddb.update_item(TableName=name, Key={"pk": {"S": "later"}}, UpdateExpression="SET #t = :t",
                    ExpressionAttributeNames={"#t": "ttl"},
                    ExpressionAttributeValues={":t": {"N": str(now + 100000)}})
    ddb.update_item(TableName=name, Key={"pk": {"S": "removed"}}, UpdateExpression="REMOVE #t",
                    ExpressionAttributeNames={"#t": "ttl"})
    advance_clock(server.url, 120)
    deleted = {d["Key"]["pk"]["S"] for d in sweep(server.url)["Deleted"] if d["TableName"] == name}
    assert deleted == {"kept-due"}
    assert present(ddb, name, "later") and present(ddb, name, "removed")


def test_disabling_ttl_stops_expiry_and_enabling_schedules_existing_items(server, ddb, tables):
    name = ttl_table(ddb, tables)
    now = server_now(server.url)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "ttl": {"N": str(now + 30)}})
    ddb.update_time_to_live(TableName=name,
                            TimeToLiveSpecification={"Enabled": False, "AttributeName": "ttl"})
    advance_clock(server.url, 60)
    assert not [d for d in sweep(server.url)["Deleted"] if d["TableName"] == name]
    assert present(ddb, name, "a")
    ddb.update_time_to_live(TableName=name,
                            TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    deleted = [d for d in sweep(server.url)["Deleted"] if d["TableName"] == name]
    assert [d["Key"]["pk"]["S"] for d in deleted] == ["a"]


def test_ttl_delete_updates_indexes_and_counts(server, ddb, tables):
    name = tables(prefix="ttl", AttributeDefinitions=[
        {"AttributeName": "pk", "AttributeType": "S"},
        {"AttributeName": "g", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    ddb.update_time_to_live(TableName=name,
                            TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    now = server_now(server.url)
    ddb.put_item(TableName=name, Item={"pk": {"S": "gone"}, "g": {"S": "x"},
                                       "ttl": {"N": str(now + 5)}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "stays"}, "g": {"S": "x"}})
    advance_clock(server.url, 10)
    sweep(server.url)
    queried = ddb.query(TableName=name, IndexName="byG", KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": {"S": "x"}})["Items"]
    assert [i["pk"]["S"] for i in queried] == ["stays"]
    table = ddb.describe_table(TableName=name)["Table"]
    assert table["ItemCount"] == 1
    assert table["GlobalSecondaryIndexes"][0]["ItemCount"] == 1


def test_the_background_sweeper_runs_every_interval():
    with run_server("--in-memory", "--ttl-interval", "0.1") as server:
        ddb = server.client()
        ddb.create_table(TableName="bg-sweep", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        ddb.update_time_to_live(TableName="bg-sweep", TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "ttl"})
        now = server_now(server.url)
        ddb.put_item(TableName="bg-sweep", Item={"pk": {"S": "a"}, "ttl": {"N": str(now + 3600)}})
        advance_clock(server.url, 3601)
        wait_for(lambda: not present(ddb, "bg-sweep", "a"), timeout=10,
                 what="the background sweeper to delete the item")
