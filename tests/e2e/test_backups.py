"""On-demand backups through boto3: CreateBackup, DescribeBackup,
ListBackups, DeleteBackup and RestoreTableFromBackup, with the shapes,
statuses and texts real DynamoDB answered (docs/compatibility.md). A backup
is the table as of one moment, outlives the table and the server's restart,
and restores as a new table without tags, TTL, stream or deletion
protection."""

import re
import time

from .e2e_util import REGION, expect_error, unique_name, wait_active

ARN = re.compile(r"^arn:aws:dynamodb:" + REGION + r":\d{12}:table/(?P<table>[^/]+)"
                 r"/backup/(?P<millis>\d{14})-[0-9a-f]{8}$")


def make_table(table, index_throughput=None, **kwargs):
    """A table keyed pk/sk with the KEYS_ONLY index by_g on g."""
    index = {"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}}
    if index_throughput:
        index["ProvisionedThroughput"] = index_throughput
    return table(
        range_key=("sk", "N"),
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[index], **kwargs)


def item(pk, sk, g=None, **more):
    out = {"pk": {"S": pk}, "sk": {"N": str(sk)}}
    if g:
        out["g"] = {"S": g}
    out.update(more)
    return out


def scan_all(client, name):
    items, kwargs = [], {"TableName": name, "ConsistentRead": True}
    while True:
        page = client.scan(**kwargs)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return sorted(items, key=lambda i: (i["pk"]["S"], int(i["sk"]["N"])))
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def by_g(client, name, g, index="by_g"):
    return client.query(TableName=name, IndexName=index, KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": {"S": g}})["Count"]


def test_a_backup_is_the_table_at_one_moment_and_restores_as_a_new_table(dynamodb, table):
    name = make_table(table, Tags=[{"Key": "team", "Value": "e2e"}],
                      StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires"})
    before = [item("a", i, g="x" if i % 2 else "y", v={"S": "v%d" % i}) for i in range(30)]
    for it in before:
        dynamodb.put_item(TableName=name, Item=it)
    table.client.update_table(TableName=name, DeletionProtectionEnabled=True)

    created = dynamodb.create_backup(TableName=name, BackupName="nightly.1")["BackupDetails"]
    arn = created["BackupArn"]
    match = ARN.match(arn)
    assert match and match["table"] == name, arn
    assert created["BackupStatus"] == "CREATING"
    assert created["BackupType"] == "USER" and created["BackupName"] == "nightly.1"
    assert "BackupExpiryDateTime" not in created
    # The id's milliseconds are the creation time's.
    assert int(match["millis"]) == round(created["BackupCreationDateTime"].timestamp() * 1000)

    table.client.update_table(TableName=name, DeletionProtectionEnabled=False)
    # Writes after the backup are not in it.
    dynamodb.put_item(TableName=name, Item=item("b", 1, g="x"))
    dynamodb.delete_item(TableName=name, Key={"pk": {"S": "a"}, "sk": {"N": "0"}})

    described = dynamodb.describe_backup(BackupArn=arn)["BackupDescription"]
    assert described["BackupDetails"]["BackupStatus"] == "AVAILABLE"
    assert described["BackupDetails"]["BackupArn"] == arn
    source = described["SourceTableDetails"]
    assert source["TableName"] == name and source["ItemCount"] == 30
    assert source["BillingMode"] == "PAY_PER_REQUEST"
    assert source["ProvisionedThroughput"] == {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0}
    assert source["TableId"] == dynamodb.describe_table(TableName=name)["Table"]["TableId"]
    features = described["SourceTableFeatureDetails"]
    assert [g["IndexName"] for g in features["GlobalSecondaryIndexes"]] == ["by_g"]
    assert features["StreamDescription"] == {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
    assert features["TimeToLiveDescription"] == {"TimeToLiveStatus": "ENABLED",
                                                 "AttributeName": "expires"}

    target = table.register(unique_name("restored"))
    restored = dynamodb.restore_table_from_backup(TargetTableName=target,
                                                  BackupArn=arn)["TableDescription"]
    assert restored["TableName"] == target and restored["TableStatus"] == "CREATING"
    summary = restored["RestoreSummary"]
    assert summary["SourceBackupArn"] == arn and summary["RestoreInProgress"] is True
    assert summary["SourceTableArn"].endswith(":table/" + name)
    assert summary["RestoreDateTime"] == created["BackupCreationDateTime"]
    wait_active(dynamodb, target)

    desc = dynamodb.describe_table(TableName=target)["Table"]
    assert "RestoreSummary" not in desc  # only while the restore runs
    assert desc["ItemCount"] == 30 and desc["TableId"] != source["TableId"]
    assert "StreamSpecification" not in desc and "LatestStreamArn" not in desc
    assert table.client.describe_table(TableName=target)["Table"][
        "DeletionProtectionEnabled"] is False
    assert dynamodb.describe_time_to_live(TableName=target)["TimeToLiveDescription"][
        "TimeToLiveStatus"] == "DISABLED"
    assert dynamodb.list_tags_of_resource(ResourceArn=desc["TableArn"])["Tags"] == []
    assert scan_all(dynamodb, target) == before
    # The index came back with its entries: it answers without a backfill.
    assert by_g(dynamodb, target, "x") == 15 and by_g(dynamodb, target, "y") == 15
    # The restored table is a table like any other.
    dynamodb.put_item(TableName=target, Item=item("c", 1, g="x"))
    assert by_g(dynamodb, target, "x") == 16
    assert by_g(dynamodb, name, "x") == 16  # the source's own writes, untouched


def test_a_backup_outlives_its_table(dynamodb, table):
    name = make_table(table)
    dynamodb.put_item(TableName=name, Item=item("a", 1, g="x"))
    arn = dynamodb.create_backup(TableName=name, BackupName="before-drop")["BackupDetails"][
        "BackupArn"]
    dynamodb.delete_table(TableName=name)

    described = dynamodb.describe_backup(BackupArn=arn)["BackupDescription"]
    assert described["BackupDetails"]["BackupStatus"] == "AVAILABLE"
    assert described["SourceTableDetails"]["TableName"] == name
    listed = dynamodb.list_backups(TableName=name)["BackupSummaries"]
    assert [b["BackupArn"] for b in listed] == [arn]

    # Restored under the deleted table's own name.
    dynamodb.restore_table_from_backup(TargetTableName=name, BackupArn=arn)
    wait_active(dynamodb, name)
    assert scan_all(dynamodb, name) == [item("a", 1, g="x")]

    with expect_error("TableAlreadyExistsException", "^Table already exists: " + name + "$"):
        dynamodb.restore_table_from_backup(TargetTableName=name, BackupArn=arn)


def test_delete_backup_answers_deleted_then_the_backup_is_gone(dynamodb, table):
    name = make_table(table)
    arn = dynamodb.create_backup(TableName=name, BackupName="gone")["BackupDetails"]["BackupArn"]
    deleted = dynamodb.delete_backup(BackupArn=arn)["BackupDescription"]
    assert deleted["BackupDetails"]["BackupStatus"] == "DELETED"
    assert deleted["SourceTableDetails"]["TableName"] == name
    for call in (dynamodb.describe_backup, dynamodb.delete_backup):
        with expect_error("BackupNotFoundException", "^Backup not found: " + re.escape(arn) + "$"):
            call(BackupArn=arn)
    with expect_error("BackupNotFoundException"):
        dynamodb.restore_table_from_backup(TargetTableName=unique_name("never"), BackupArn=arn)
    assert dynamodb.list_backups(TableName=name)["BackupSummaries"] == []


def test_errors_as_dynamodb_words_them(dynamodb, table):
    name = make_table(table)
    missing = unique_name("missing")
    with expect_error("TableNotFoundException", "^Table not found: " + missing + "$"):
        dynamodb.create_backup(TableName=missing, BackupName="b-1")
    with expect_error("ValidationException",
                      "Value 'bad name!' at 'backupName' failed to satisfy constraint: Member must "
                      r"satisfy regular expression pattern: \[a-zA-Z0-9_.-\]\+"):
        dynamodb.create_backup(TableName=name, BackupName="bad name!")
    table_arn = dynamodb.describe_table(TableName=name)["Table"]["TableArn"]
    with expect_error("ValidationException", "^Invalid Backup ARN$"):
        dynamodb.describe_backup(BackupArn=table_arn + "/not-a-backup-at-all")
    with expect_error("ValidationException",
                      "^Time range lower bound must be less than or equal to upper bound$"):
        dynamodb.list_backups(TimeRangeLowerBound=2000000000, TimeRangeUpperBound=1000000000)
    with expect_error("ValidationException", "Member must have value less than or equal to 100"):
        dynamodb.list_backups(Limit=101)


def test_list_backups_filters_pages_and_bounds(dynamodb, table):
    name = make_table(table)
    arns, times = [], []
    for i in range(5):
        details = dynamodb.create_backup(TableName=name, BackupName="bk%d" % i)["BackupDetails"]
        arns.append(details["BackupArn"])
        times.append(details["BackupCreationDateTime"])
        time.sleep(0.002)  # distinct milliseconds, so the bounds below are exact

    summaries = dynamodb.list_backups(TableName=name)["BackupSummaries"]
    assert [s["BackupArn"] for s in summaries] == arns  # oldest first
    assert set(summaries[0]) == {"TableName", "TableId", "TableArn", "BackupArn", "BackupName",
                                 "BackupCreationDateTime", "BackupStatus", "BackupType",
                                 "BackupSizeBytes"}

    pages, kwargs = [], {"TableName": name, "Limit": 2}
    while True:
        page = dynamodb.list_backups(**kwargs)
        pages.append([s["BackupArn"] for s in page["BackupSummaries"]])
        if "LastEvaluatedBackupArn" not in page:
            break
        kwargs["ExclusiveStartBackupArn"] = page["LastEvaluatedBackupArn"]
    assert pages == [arns[0:2], arns[2:4], arns[4:5]]
    # A page that ends on the last backup says nothing more follows.
    assert "LastEvaluatedBackupArn" not in dynamodb.list_backups(TableName=name, Limit=5)

    # Lower bound inclusive, upper bound exclusive, to the millisecond.
    bounded = table.client.list_backups(TableName=name,
                                        TimeRangeLowerBound=times[1].timestamp(),
                                        TimeRangeUpperBound=times[3].timestamp())[
        "BackupSummaries"]
    assert [s["BackupArn"] for s in bounded] == arns[1:3]
    # Every backup here is a user's: SYSTEM lists none, ALL lists them all.
    assert dynamodb.list_backups(TableName=name, BackupType="SYSTEM")["BackupSummaries"] == []
    assert len(dynamodb.list_backups(TableName=name, BackupType="ALL")["BackupSummaries"]) == 5
    assert dynamodb.list_backups(TableName=unique_name("none"))["BackupSummaries"] == []


def test_restore_overrides(dynamodb, table):
    name = make_table(table, index_throughput={"ReadCapacityUnits": 3, "WriteCapacityUnits": 3},
                      ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                      TableClass="STANDARD_INFREQUENT_ACCESS")
    dynamodb.put_item(TableName=name, Item=item("a", 1, g="x"))
    arn = dynamodb.create_backup(TableName=name, BackupName="overrides")["BackupDetails"][
        "BackupArn"]
    gsi = {"IndexName": "renamed",
           "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
           "Projection": {"ProjectionType": "KEYS_ONLY"}}

    # On demand, the index renamed (an override matches by key and projection).
    on_demand = table.register(unique_name("ondemand"))
    desc = dynamodb.restore_table_from_backup(
        TargetTableName=on_demand, BackupArn=arn, BillingModeOverride="PAY_PER_REQUEST",
        GlobalSecondaryIndexOverride=[gsi])["TableDescription"]
    assert desc["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert [g["IndexName"] for g in desc["GlobalSecondaryIndexes"]] == ["renamed"]
    assert "TableClassSummary" not in desc  # the table class is not restored
    wait_active(dynamodb, on_demand)
    assert by_g(dynamodb, on_demand, "x", index="renamed") == 1

    # An empty override restores no index at all.
    bare = table.register(unique_name("bare"))
    dynamodb.restore_table_from_backup(TargetTableName=bare, BackupArn=arn,
                                       GlobalSecondaryIndexOverride=[])
    wait_active(dynamodb, bare)
    assert "GlobalSecondaryIndexes" not in dynamodb.describe_table(TableName=bare)["Table"]
    assert scan_all(dynamodb, bare) == [item("a", 1, g="x")]

    # New provisioned throughput for the table.
    faster = table.register(unique_name("faster"))
    desc = dynamodb.restore_table_from_backup(
        TargetTableName=faster, BackupArn=arn,
        ProvisionedThroughputOverride={"ReadCapacityUnits": 20, "WriteCapacityUnits": 10})[
        "TableDescription"]
    assert desc["ProvisionedThroughput"]["ReadCapacityUnits"] == 20
    assert desc["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"] == 3

    refused = unique_name("refused")
    with expect_error("ValidationException",
                      "^Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED$"):
        dynamodb.restore_table_from_backup(
            TargetTableName=refused, BackupArn=arn, BillingModeOverride="PAY_PER_REQUEST",
            ProvisionedThroughputOverride={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    with expect_error("ValidationException", "^Must override ProvisionedThroughput if BillingMode "
                                             "is overridden to PROVISIONED$"):
        dynamodb.restore_table_from_backup(TargetTableName=refused, BackupArn=arn,
                                           BillingModeOverride="PROVISIONED")
    other = dict(gsi, Projection={"ProjectionType": "ALL"})
    with expect_error("ValidationException", "^Index renamed does not match a secondary index that "
                                             "existed in the source table"):
        dynamodb.restore_table_from_backup(TargetTableName=refused, BackupArn=arn,
                                           GlobalSecondaryIndexOverride=[other])
    # A refused restore creates nothing.
    with expect_error("ResourceNotFoundException"):
        dynamodb.describe_table(TableName=refused)


def test_backups_survive_a_restart(start_server, tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    name = unique_name("durable")
    with start_server("--data-dir", str(data_dir)) as srv:
        client = srv.client()
        client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        wait_active(client, name)
        client.put_item(TableName=name, Item={"pk": {"S": "kept"}})
        arn = client.create_backup(TableName=name, BackupName="durable")["BackupDetails"][
            "BackupArn"]
        client.delete_table(TableName=name)
    assert srv.returncode == 0

    with start_server("--data-dir", str(data_dir)) as srv:
        client = srv.client()
        assert [b["BackupArn"] for b in client.list_backups()["BackupSummaries"]] == [arn]
        target = unique_name("again")
        client.restore_table_from_backup(TargetTableName=target, BackupArn=arn)
        wait_active(client, target)
        assert client.scan(TableName=target)["Items"] == [{"pk": {"S": "kept"}}]
        # A second backup after the restart gets its own data: deleting the
        # first leaves the second whole.
        second = client.create_backup(TableName=target, BackupName="second")["BackupDetails"][
            "BackupArn"]
        client.delete_backup(BackupArn=arn)
        client.delete_table(TableName=target)
        client.restore_table_from_backup(TargetTableName=target, BackupArn=second)
        wait_active(client, target)
        assert client.scan(TableName=target)["Items"] == [{"pk": {"S": "kept"}}]
    assert srv.returncode == 0
