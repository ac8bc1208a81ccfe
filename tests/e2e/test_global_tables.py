"""Global tables (version 2019.11.21) through boto3 clients in two and three
regions: replicas made and deleted with UpdateTable's ReplicaUpdates, writes
replicated after a delay on the emulator's clock (and at once when a test
settles them), conflicts resolved last-writer-wins with both streams showing
it, DynamoDB's refusals, and the legacy operations' answers."""

import re
import threading
import time

import pytest
from botocore.exceptions import ClientError

from .e2e_util import client_for, expect_error, wait_gone
from .server_util import admin_ok, make_streams_client, wait_for

NAME = "orders-global"
KEY = {"pk": {"S": "order-1"}}


def make_table(client, name=NAME, billing="PAY_PER_REQUEST"):
    extra = ({"BillingMode": "PAY_PER_REQUEST"} if billing == "PAY_PER_REQUEST" else
             {"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}})
    client.create_table(
        TableName=name,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        **extra,
    )


def add_replica(client, region, name=NAME):
    return client.update_table(TableName=name,
                               ReplicaUpdates=[{"Create": {"RegionName": region}}])


def read(client, key=KEY, name=NAME):
    return client.get_item(TableName=name, Key=key, ConsistentRead=True).get("Item")


def freeze(url):
    return admin_ok(url, "clock", {"Freeze": True})["NowMillis"]


@pytest.fixture
def regions(start_server):
    """A fresh server (no models) and a client factory by region."""
    with start_server("--in-memory", "--no-models") as srv:
        yield srv


def test_a_replica_is_made_described_from_both_regions_and_deleted(regions):
    east = regions.client(region="us-east-1")
    west = regions.client(region="eu-west-1")
    make_table(east)
    east.put_item(TableName=NAME, Item={**KEY, "state": {"S": "new"}})

    answer = add_replica(east, "eu-west-1")["TableDescription"]
    assert answer["TableStatus"] == "UPDATING"
    assert answer["GlobalTableVersion"] == "2019.11.21"
    assert [(r["RegionName"], r["ReplicaStatus"]) for r in answer["Replicas"]] == [
        ("eu-west-1", "CREATING")]
    # DynamoDB turns a stream on for a table that had none.
    assert answer["StreamSpecification"] == {"StreamEnabled": True,
                                             "StreamViewType": "NEW_AND_OLD_IMAGES"}

    home = east.describe_table(TableName=NAME)["Table"]
    replica = west.describe_table(TableName=NAME)["Table"]
    # Each region lists the others, never itself.
    assert [(r["RegionName"], r["ReplicaStatus"]) for r in home["Replicas"]] == [
        ("eu-west-1", "ACTIVE")]
    assert [r["RegionName"] for r in replica["Replicas"]] == ["us-east-1"]
    assert replica["TableArn"].startswith("arn:aws:dynamodb:eu-west-1:")
    assert replica["TableId"] != home["TableId"]
    assert replica["LatestStreamArn"].startswith("arn:aws:dynamodb:eu-west-1:")
    assert replica["StreamSpecification"]["StreamViewType"] == "NEW_AND_OLD_IMAGES"
    # The items the table had are the new replica's from the start.
    assert read(west)["state"] == {"S": "new"}

    answer = east.update_table(TableName=NAME,
                               ReplicaUpdates=[{"Delete": {"RegionName": "eu-west-1"}}])
    assert answer["TableDescription"]["TableStatus"] == "UPDATING"
    wait_gone(west, NAME)
    home = east.describe_table(TableName=NAME)["Table"]
    assert "Replicas" not in home and "GlobalTableVersion" not in home
    # The stream DynamoDB turned on stays.
    assert home["StreamSpecification"]["StreamEnabled"] is True
    assert read(east)["state"] == {"S": "new"}


def test_a_write_reaches_the_other_region_after_the_delay_or_a_settle(regions):
    east = regions.client(region="us-east-1")
    west = regions.client(region="eu-west-1")
    make_table(east)
    add_replica(east, "eu-west-1")
    freeze(regions.url)

    east.put_item(TableName=NAME, Item={**KEY, "state": {"S": "placed"}})
    backlog = admin_ok(regions.url, "replication")
    assert backlog["DelayMillis"] == 1000
    member = next(m for m in backlog["Members"] if m["Region"] == "us-east-1")
    assert member["Pending"] == 1 and member["TableName"] == NAME
    # The clock is frozen: a second of the emulator's time never passes.
    assert read(west) is None
    admin_ok(regions.url, "clock", {"AdvanceMillis": 999})
    assert read(west) is None
    admin_ok(regions.url, "clock", {"AdvanceMillis": 1})
    wait_for(lambda: read(west), what="the write replicated once its delay passed")
    assert read(west)["state"] == {"S": "placed"}

    # Replicated both ways; a settle applies what is pending at once.
    west.update_item(TableName=NAME, Key=KEY, UpdateExpression="SET #s = :s",
                     ExpressionAttributeNames={"#s": "state"},
                     ExpressionAttributeValues={":s": {"S": "shipped"}})
    assert read(east)["state"] == {"S": "placed"}
    assert admin_ok(regions.url, "replication/settle", {})["Applied"] == 1
    assert read(east)["state"] == {"S": "shipped"}
    assert all(m["Pending"] == 0 for m in admin_ok(regions.url, "replication")["Members"])

    # A table's own delay: zero replicates at once, even on a frozen clock.
    admin_ok(regions.url, "replication", {"TableName": NAME, "Region": "us-east-1",
                                          "DelayMillis": 0})
    east.delete_item(TableName=NAME, Key=KEY)
    wait_for(lambda: read(west) is None, what="the delete replicated at once")


def test_conflicting_writes_resolve_last_writer_wins_in_both_streams(regions):
    east = regions.client(region="us-east-1")
    west = regions.client(region="eu-west-1")
    make_table(east)
    add_replica(east, "eu-west-1")
    freeze(regions.url)

    # Both regions write the item before either hears of the other: the
    # later write (eu-west-1's) wins everywhere.
    east.put_item(TableName=NAME, Item={**KEY, "by": {"S": "east"}})
    admin_ok(regions.url, "clock", {"AdvanceMillis": 5})
    west.put_item(TableName=NAME, Item={**KEY, "by": {"S": "west"}})
    admin_ok(regions.url, "replication/settle", {})
    assert read(east)["by"] == {"S": "west"}
    assert read(west)["by"] == {"S": "west"}

    east_records = stream_events(regions, "us-east-1")
    west_records = stream_events(regions, "eu-west-1")
    # us-east-1 saw its own insert, then the replicated winner.
    assert east_records == [("INSERT", "east"), ("MODIFY", "west")]
    # eu-west-1 wrote the winner; the older write from us-east-1 was not applied.
    assert west_records == [("INSERT", "west")]


def stream_records(srv, region, name=NAME):
    """Every record of the table's stream in `region`, in order."""
    client = srv.client(region=region)
    arn = client.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    streams = make_streams_client(srv.url, region=region)
    records = []
    for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records += streams.get_records(ShardIterator=iterator)["Records"]
    return records


def stream_events(srv, region):
    """(eventName, the new image's "by") of each record of the region's stream."""
    return [(r["eventName"], r["dynamodb"].get("NewImage", {}).get("by", {}).get("S"))
            for r in stream_records(srv, region)]


def test_three_regions_and_a_transaction(regions):
    clients = {r: regions.client(region=r) for r in ("us-east-1", "eu-west-1", "ap-southeast-2")}
    make_table(clients["us-east-1"])
    add_replica(clients["us-east-1"], "eu-west-1")
    # Any member may add the next replica.
    add_replica(clients["eu-west-1"], "ap-southeast-2")
    for region, client in clients.items():
        listed = [r["RegionName"] for r in client.describe_table(TableName=NAME)["Table"]["Replicas"]]
        assert sorted(listed) == sorted(set(clients) - {region})

    freeze(regions.url)
    clients["ap-southeast-2"].transact_write_items(TransactItems=[
        {"Put": {"TableName": NAME, "Item": {"pk": {"S": "a"}, "n": {"N": "1"}}}},
        {"Put": {"TableName": NAME, "Item": {"pk": {"S": "b"}, "n": {"N": "2"}}}},
    ])
    assert read(clients["us-east-1"], {"pk": {"S": "a"}}) is None
    admin_ok(regions.url, "replication/settle", {})
    for client in clients.values():
        assert read(client, {"pk": {"S": "a"}})["n"] == {"N": "1"}
        assert read(client, {"pk": {"S": "b"}})["n"] == {"N": "2"}

    # DeleteTable in a replica's own region takes it out of the group.
    clients["ap-southeast-2"].delete_table(TableName=NAME)
    wait_gone(clients["ap-southeast-2"], NAME)
    listed = [r["RegionName"] for r in
              clients["us-east-1"].describe_table(TableName=NAME)["Table"]["Replicas"]]
    assert listed == ["eu-west-1"]


def test_replica_updates_are_refused_as_dynamodb_refuses_them(regions):
    east = regions.client(region="us-east-1")
    make_table(east)
    make_table(east, "provisioned-table", billing="PROVISIONED")

    def refused(fragment, **request):
        with expect_error("ValidationException", fragment):
            east.update_table(TableName=NAME, **request)

    refused("Replica modification must be the only operation in the request",
            ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}], BillingMode="PAY_PER_REQUEST")
    refused("more than one create or delete replica actions not allowed",
            ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}},
                            {"Create": {"RegionName": "eu-west-2"}}])
    refused("more than one type of replica actions not allowed",
            ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}},
                            {"Delete": {"RegionName": "eu-west-2"}}])
    refused("Cannot add or delete the local region through ReplicaUpdates",
            ReplicaUpdates=[{"Create": {"RegionName": "us-east-1"}}])
    refused("Region us-fake-1 is not supported",
            ReplicaUpdates=[{"Create": {"RegionName": "us-fake-1"}}])
    refused(re.escape("not part of the global table. Please retry the request without these "
                      "replicas: [ca-central-1]."),
            ReplicaUpdates=[{"Delete": {"RegionName": "ca-central-1"}}])
    with expect_error("ValidationException",
                      "Table write capacity should either be Pay-Per-Request or AutoScaled."):
        east.update_table(TableName="provisioned-table",
                          ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])

    add_replica(east, "eu-west-1")
    refused("because one or more replicas already existed as tables",
            ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
    refused("There are no actions specified in the Replica Update Action of the request.",
            ReplicaUpdates=[{"Update": {"RegionName": "eu-west-1"}}])
    refused("Disabling Stream is not allowed for a Global Table replica",
            StreamSpecification={"StreamEnabled": False})
    with expect_error("ResourceNotFoundException"):
        east.update_table(TableName="no-such-table",
                          ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])

    # A replica's own settings: its table class, shown where it is overridden.
    east.update_table(TableName=NAME, ReplicaUpdates=[{"Update": {
        "RegionName": "eu-west-1", "TableClassOverride": "STANDARD_INFREQUENT_ACCESS"}}])
    replica = east.describe_table(TableName=NAME)["Table"]["Replicas"][0]
    assert replica["ReplicaTableClassSummary"]["TableClass"] == "STANDARD_INFREQUENT_ACCESS"
    west = regions.client(region="eu-west-1")
    assert (west.describe_table(TableName=NAME)["Table"]["TableClassSummary"]["TableClass"]
            == "STANDARD_INFREQUENT_ACCESS")


def test_legacy_operations_answer_as_dynamodb_does_since_2026(regions):
    east = regions.client(region="us-east-1")
    make_table(east)
    with expect_error("ValidationException", "DynamoDB global tables version 2017.11.29 is not "
                                             "supported"):
        east.create_global_table(GlobalTableName=NAME,
                                 ReplicationGroup=[{"RegionName": "us-east-1"}])
    # A 2019.11.21 global table is not a legacy one.
    add_replica(east, "eu-west-1")
    with expect_error("GlobalTableNotFoundException",
                      "Global table not found: Global table with name: 'orders-global' does "
                      "not exist."):
        east.describe_global_table(GlobalTableName=NAME)
    with expect_error("GlobalTableNotFoundException"):
        east.describe_global_table_settings(GlobalTableName=NAME)
    assert east.list_global_tables()["GlobalTables"] == []

    scaling = east.describe_table_replica_auto_scaling(TableName=NAME)
    regions_listed = [r["RegionName"] for r in scaling["TableAutoScalingDescription"]["Replicas"]]
    assert regions_listed == ["eu-west-1", "us-east-1"]
    # On demand, there is nothing to scale: turning scaling off is all it takes.
    east.update_table_replica_auto_scaling(
        TableName=NAME, ProvisionedWriteCapacityAutoScalingUpdate={"AutoScalingDisabled": True})
    with expect_error("ValidationException", "BillingMode is PayPerRequest."):
        east.update_table_replica_auto_scaling(TableName=NAME, ReplicaUpdates=[
            {"RegionName": "eu-west-1", "ReplicaGlobalSecondaryIndexUpdates": [{
                "IndexName": "g", "ProvisionedReadCapacityAutoScalingUpdate": {"MaximumUnits": 9}}]}])
    make_table(east, "regional-table")
    with expect_error("ResourceNotFoundException",
                      "Global table with name: 'regional-table' does not exist."):
        east.describe_table_replica_auto_scaling(TableName="regional-table")


def test_pending_replication_survives_a_restart(start_server, tmp_path):
    with start_server("--data-dir", str(tmp_path), "--no-models",
                      "--replication-delay-ms", "3600000") as srv:
        east = srv.client(region="us-east-1")
        west = srv.client(region="eu-west-1")
        make_table(east)
        add_replica(east, "eu-west-1")
        east.put_item(TableName=NAME, Item={**KEY, "state": {"S": "kept"}})
        assert read(west) is None
    with start_server("--data-dir", str(tmp_path), "--no-models",
                      "--replication-delay-ms", "0") as srv:
        west = srv.client(region="eu-west-1")
        assert [r["RegionName"] for r in
                west.describe_table(TableName=NAME)["Table"]["Replicas"]] == ["us-east-1"]
        wait_for(lambda: read(west), what="the write kept across the restart replicated")
        assert read(west)["state"] == {"S": "kept"}


def test_synchronised_settings_reach_every_replica(regions):
    east = regions.client(region="us-east-1")
    west = regions.client(region="eu-west-1")
    make_table(east)
    east.put_item(TableName=NAME, Item={**KEY, "customer": {"S": "c-1"}})
    add_replica(east, "eu-west-1")

    # A GSI made in one region is made, and filled, in the other.
    west.update_table(
        TableName=NAME,
        AttributeDefinitions=[{"AttributeName": "customer", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "by-customer",
            "KeySchema": [{"AttributeName": "customer", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}}])
    indexes = east.describe_table(TableName=NAME)["Table"]["GlobalSecondaryIndexes"]
    assert [i["IndexName"] for i in indexes] == ["by-customer"]
    found = east.query(TableName=NAME, IndexName="by-customer",
                       KeyConditionExpression="customer = :c",
                       ExpressionAttributeValues={":c": {"S": "c-1"}})["Items"]
    assert [i["pk"]["S"] for i in found] == ["order-1"]

    # TTL, turned on in one region, is on in both.
    east.update_time_to_live(TableName=NAME, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires"})
    assert west.describe_time_to_live(TableName=NAME)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}


def test_multi_region_strong_consistency(regions):
    def update(region, **payload):
        return regions.client(region=region).update_table(TableName="strong", **payload)

    east = regions.client(region="us-east-1")
    make_table(east, "strong")

    with expect_error("ValidationException", "Unsupported replica count for global tables "
                                             "with MultiRegionConsistency set to STRONG."):
        update("us-east-1", MultiRegionConsistency="STRONG",
               ReplicaUpdates=[{"Create": {"RegionName": "us-east-2"}}])
    with expect_error("ValidationException", re.escape(
            "Unsupported Region(s) specified for global tables with MultiRegionConsistency set "
            "to STRONG: [us-west-1].")):
        update("us-east-1", MultiRegionConsistency="STRONG",
               ReplicaUpdates=[{"Create": {"RegionName": "us-west-1"}},
                               {"Create": {"RegionName": "us-east-2"}}])
    with expect_error("ValidationException", "MultiRegionConsistency must be set as STRONG when "
                                             "GlobalTableWitnessUpdates parameter is present."):
        update("us-east-1", ReplicaUpdates=[{"Create": {"RegionName": "us-east-2"}}],
               GlobalTableWitnessUpdates=[{"Create": {"RegionName": "us-west-2"}}])
    with expect_error("ValidationException", "Cannot add a witness in the same region as an "
                                             "existing replica"):
        update("us-east-1", MultiRegionConsistency="STRONG",
               ReplicaUpdates=[{"Create": {"RegionName": "us-east-2"}}],
               GlobalTableWitnessUpdates=[{"Create": {"RegionName": "us-east-2"}}])

    # Two regions and a witness, made in one request.
    answer = update("us-east-1", MultiRegionConsistency="STRONG",
                    ReplicaUpdates=[{"Create": {"RegionName": "us-east-2"}}],
                    GlobalTableWitnessUpdates=[{"Create": {"RegionName": "us-west-2"}}])
    described = answer["TableDescription"]
    assert described["MultiRegionConsistency"] == "STRONG"
    assert described["GlobalTableWitnesses"] == [{"RegionName": "us-west-2",
                                                  "WitnessStatus": "CREATING"}]
    table = regions.client(region="us-east-2").describe_table(TableName="strong")["Table"]
    assert table["MultiRegionConsistency"] == "STRONG"
    assert [r["RegionName"] for r in table["Replicas"]] == ["us-east-1"]
    assert table["GlobalTableWitnesses"] == [{"RegionName": "us-west-2",
                                              "WitnessStatus": "ACTIVE"}]

    # A strongly consistent read anywhere sees the latest write, even with
    # the clock frozen and eventual replication held back.
    freeze(regions.url)
    ohio = regions.client(region="us-east-2")
    key = {"pk": {"S": "k"}}
    east.put_item(TableName="strong", Item={**key, "v": {"N": "1"}})
    assert read(ohio, key, "strong")["v"] == {"N": "1"}
    ohio.update_item(TableName="strong", Key=key, UpdateExpression="SET v = v + :one",
                     ExpressionAttributeValues={":one": {"N": "1"}})
    assert read(east, key, "strong")["v"] == {"N": "2"}
    ohio.delete_item(TableName="strong", Key=key)
    assert read(east, key, "strong") is None

    # What DynamoDB does not allow on such a table.
    with expect_error("ValidationException", "not supported for global tables with "
                                             "MultiRegionConsistency set to STRONG"):
        east.transact_write_items(TransactItems=[{"Put": {"TableName": "strong", "Item": key}}])
    with expect_error("ValidationException", "Cannot add replicas to a global table with strong "
                                             "MultiRegionConsistency"):
        update("us-east-1", ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
    with expect_error("ValidationException", "Update table delete operation does not include "
                                             "all witnesses."):
        update("us-east-1", ReplicaUpdates=[{"Delete": {"RegionName": "us-east-2"}}])
    with expect_error("ValidationException", "Deletion of only one table replica is not "
                                             "supported"):
        ohio.delete_table(TableName="strong")

    # Dismantled in one request: a regional table again.
    update("us-east-1", ReplicaUpdates=[{"Delete": {"RegionName": "us-east-2"}}],
           GlobalTableWitnessUpdates=[{"Delete": {"RegionName": "us-west-2"}}])
    wait_gone(ohio, "strong")
    table = east.describe_table(TableName="strong")["Table"]
    assert "MultiRegionConsistency" not in table and "Replicas" not in table


def make_strong(url, name, regions_to_add=("us-east-2",), witness="us-west-2"):
    """Makes the us-east-1 table `name` a strongly consistent global table."""
    client_for(url, region="us-east-1").update_table(
        TableName=name, MultiRegionConsistency="STRONG",
        ReplicaUpdates=[{"Create": {"RegionName": r}} for r in regions_to_add],
        GlobalTableWitnessUpdates=[{"Create": {"RegionName": witness}}])


def test_a_held_strong_write_meets_other_regions_with_a_conflict(start_server):
    # --replication-hold-ms keeps a strongly consistent write's item claimed
    # in every region before it commits, as DynamoDB's write is in flight
    # while it reaches the other regions.
    with start_server("--in-memory", "--no-models", "--replication-hold-ms", "2000") as srv:
        east = srv.client(region="us-east-1")
        ohio = srv.client(region="us-east-2")
        make_table(east, "strong")
        make_strong(srv.url, "strong")
        key = {"pk": {"S": "k"}}
        outcome = []

        def write_in_east():
            east.put_item(TableName="strong", Item={**key, "by": {"S": "east"}})
            outcome.append("written")

        holder = threading.Thread(target=write_in_east)
        holder.start()
        # Probe with a write that cannot succeed: it fails its condition
        # (writing nothing) until the claim makes it conflict.
        deadline = time.monotonic() + 30
        seen = None
        while time.monotonic() < deadline and seen is None:
            try:
                ohio.put_item(TableName="strong", Item=key,
                              ConditionExpression="attribute_exists(never)")
            except ClientError as error:
                code = error.response["Error"]["Code"]
                if code == "ReplicatedWriteConflictException":
                    seen = error.response["Error"]["Message"]
                else:
                    assert code == "ConditionalCheckFailedException"
                    time.sleep(0.01)
        assert seen == ("The request was rejected because one or more items in the request "
                        "are being modified by a request in another Region.")
        # Other items are free meanwhile.
        ohio.put_item(TableName="strong", Item={"pk": {"S": "other"}})
        holder.join()
        assert outcome == ["written"]
        assert read(ohio, key, "strong")["by"] == {"S": "east"}
        # Once the write is in, the other region's retry succeeds.
        ohio.put_item(TableName="strong", Item={**key, "by": {"S": "ohio"}})
        assert read(east, key, "strong")["by"] == {"S": "ohio"}


def test_a_replicated_write_conflict_can_be_injected(regions):
    # Without a hold, strongly consistent writes never meet in flight; a
    # test can still inject DynamoDB's ReplicatedWriteConflictException.
    east = regions.client(region="us-east-1")
    make_table(east)
    admin_ok(regions.url, "faults", {"Operations": ["PutItem"], "Tables": [NAME], "Count": 1,
                                     "Error": {"Type": "ReplicatedWriteConflictException"}})
    with expect_error("ReplicatedWriteConflictException", "being modified by a request in "
                                                          "another Region"):
        east.put_item(TableName=NAME, Item=KEY)
    east.put_item(TableName=NAME, Item=KEY)


def test_a_ttl_deletion_happens_where_the_item_was_written_and_replicates(regions):
    east = regions.client(region="us-east-1")
    west = regions.client(region="eu-west-1")
    make_table(east)
    east.update_time_to_live(TableName=NAME, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires"})
    add_replica(east, "eu-west-1")
    now = freeze(regions.url) // 1000
    east.put_item(TableName=NAME, Item={**KEY, "by": {"S": "east"},
                                        "expires": {"N": str(now + 60)}})
    admin_ok(regions.url, "replication/settle", {})
    assert read(west)["by"] == {"S": "east"}

    admin_ok(regions.url, "clock", {"AdvanceSeconds": 120})
    swept = admin_ok(regions.url, "sweep", {})
    # Only the region that wrote the item deletes it by TTL...
    assert [d["TableName"] for d in swept["Deleted"]] == [NAME]
    assert read(east) is None and read(west) is not None
    admin_ok(regions.url, "replication/settle", {})
    assert read(west) is None

    def removes(region):
        return [r for r in stream_records(regions, region) if r["eventName"] == "REMOVE"]

    # ...and its record names the service; the replicated one does not.
    [east_remove] = removes("us-east-1")
    assert east_remove["userIdentity"] == {"Type": "Service",
                                           "PrincipalId": "dynamodb.amazonaws.com"}
    [west_remove] = removes("eu-west-1")
    assert "userIdentity" not in west_remove


def test_replicas_need_a_database_per_region(start_server):
    with start_server("--in-memory", "--no-models", "--shared-db") as srv:
        east = srv.client(region="us-east-1")
        make_table(east)
        with expect_error("ValidationException", "Replicas need a database per region; this "
                                                 "localdynamo was started with --shared-db"):
            add_replica(east, "eu-west-1")
