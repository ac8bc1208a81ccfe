"""Point-in-time recovery through boto3: UpdateContinuousBackups turns it on,
DescribeContinuousBackups gives the window, RestoreTableToPointInTime makes
a new table of exactly the items acknowledged by the instant asked for, with
its indexes, on the emulator's clock (frozen here, so only the test moves
it). Texts are those real DynamoDB answered (docs/compatibility.md). Times
with milliseconds go as botocore sends them, to the microsecond."""

from .e2e_util import client_for, expect_error, unique_name, wait_active
from .server_util import admin_ok

INVALID_TIME = ("^RestoreDateTime '{}' must be within EarliestRestorableDateTime '{}' and "
                "LatestRestorableDateTime '{}'$")


def now_millis(srv):
    return admin_ok(srv.url, "clock")["NowMillis"]


def advance(srv, millis):
    admin_ok(srv.url, "clock", {"AdvanceMillis": millis, "Freeze": True})


def iso(millis):
    import datetime
    at = datetime.datetime.fromtimestamp(millis // 1000, datetime.timezone.utc)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


def items(client, name):
    found = client.scan(TableName=name, ConsistentRead=True)["Items"]
    return sorted((i["pk"]["S"], i.get("v", {}).get("S")) for i in found)


def test_restores_exactly_what_was_acknowledged_by_the_instant(start_server):
    with start_server("--in-memory", "--no-models") as srv:
        advance(srv, 0)
        client = srv.client()
        name = unique_name("pitr")
        client.create_table(
            TableName=name, BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            GlobalSecondaryIndexes=[{"IndexName": "by_g",
                                     "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}])
        wait_active(client, name)
        client.put_item(TableName=name, Item={"pk": {"S": "before"}, "v": {"S": "0"}})
        with expect_error("PointInTimeRecoveryUnavailableException",
                          "^Point in time recovery is not enabled for table '" + name + "'$"):
            client.restore_table_to_point_in_time(SourceTableName=name,
                                                  TargetTableName=unique_name("never"),
                                                  UseLatestRestorableTime=True)

        enabled_at = now_millis(srv)
        description = client.update_continuous_backups(
            TableName=name, PointInTimeRecoverySpecification={
                "PointInTimeRecoveryEnabled": True})["ContinuousBackupsDescription"]
        assert description["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == \
            "ENABLED"

        advance(srv, 1500)
        client.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"S": "1"}, "g": {"S": "x"}})
        client.put_item(TableName=name, Item={"pk": {"S": "b"}, "v": {"S": "1"}, "g": {"S": "x"}})
        first = now_millis(srv)  # a and b written, at this very millisecond
        advance(srv, 1)
        client.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"S": "2"}, "g": {"S": "y"}})
        client.delete_item(TableName=name, Key={"pk": {"S": "b"}})
        client.put_item(TableName=name, Item={"pk": {"S": "c"}, "v": {"S": "2"}})
        advance(srv, 2000)
        latest = now_millis(srv)

        window = client.describe_continuous_backups(TableName=name)[
            "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
        assert round(window["EarliestRestorableDateTime"].timestamp() * 1000) == enabled_at
        assert round(window["LatestRestorableDateTime"].timestamp() * 1000) == latest

        expected = {
            enabled_at: [("before", "0")],
            first - 1: [("before", "0")],
            first: [("a", "1"), ("b", "1"), ("before", "0")],
            first + 1: [("a", "2"), ("before", "0"), ("c", "2")],
        }
        for at, want in expected.items():
            target = unique_name("at")
            answer = client_for(srv.url).restore_table_to_point_in_time(
                SourceTableName=name, TargetTableName=target,
                RestoreDateTime=at / 1000)["TableDescription"]
            assert answer["TableStatus"] == "CREATING"
            summary = answer["RestoreSummary"]
            assert summary["RestoreInProgress"] is True and "SourceBackupArn" not in summary
            assert summary["SourceTableArn"].endswith(":table/" + name)
            assert round(summary["RestoreDateTime"].timestamp() * 1000) == at
            wait_active(client, target)
            assert items(client, target) == want, at
            # The index is rebuilt for the items of that instant.
            indexed = client.scan(TableName=target, IndexName="by_g")["Items"]
            assert sorted(i["pk"]["S"] for i in indexed) == sorted(
                pk for pk, _ in want if pk in ("a", "b"))
            # Recovery is not restored: the copy has none.
            assert client.describe_continuous_backups(TableName=target)[
                "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"][
                "PointInTimeRecoveryStatus"] == "DISABLED"

        latest_copy = unique_name("latest")
        client.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=latest_copy,
                                              UseLatestRestorableTime=True)
        assert items(client, latest_copy) == items(client, name)

        for at in (enabled_at - 1000, latest + 1000):
            with expect_error("InvalidRestoreTimeException", INVALID_TIME.format(
                    iso(at), iso(enabled_at), iso(latest))):
                client_for(srv.url).restore_table_to_point_in_time(
                    SourceTableName=name, TargetTableName=unique_name("never"),
                    RestoreDateTime=at / 1000)
        with expect_error("TableAlreadyExistsException", "^Table already exists: " + latest_copy):
            client.restore_table_to_point_in_time(SourceTableName=name,
                                                  TargetTableName=latest_copy,
                                                  UseLatestRestorableTime=True)


def test_request_checks_in_dynamodb_order(dynamodb, table):
    name = table()
    target = unique_name("never")
    with expect_error("ValidationException", "^Invalid Request: Either one of RestoreDateTime or "
                                             "UseLatestRestorableTime must be specified"):
        dynamodb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=target)
    with expect_error("ValidationException", "^Invalid Request: Both RestoreDateTime and "
                                             "UseLatestRestorableTime cannot be set"):
        dynamodb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=target,
                                                UseLatestRestorableTime=True,
                                                RestoreDateTime=1700000000)
    arn = dynamodb.describe_table(TableName=name)["Table"]["TableArn"]
    with expect_error("ValidationException",
                      "^Must provide exactly one of: sourceTableArn, sourceTableName$"):
        dynamodb.restore_table_to_point_in_time(SourceTableName=name, SourceTableArn=arn,
                                                TargetTableName=target,
                                                UseLatestRestorableTime=True)
    missing = unique_name("missing")
    with expect_error("TableNotFoundException", "^Table not found: " + missing + "$"):
        dynamodb.restore_table_to_point_in_time(SourceTableName=missing, TargetTableName=target,
                                                UseLatestRestorableTime=True)
    with expect_error("TableNotFoundException", "^Table not found$"):
        dynamodb.restore_table_to_point_in_time(SourceTableArn=arn.replace(name, missing),
                                                TargetTableName=target,
                                                UseLatestRestorableTime=True)
