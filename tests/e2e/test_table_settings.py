"""The table settings infrastructure tools read on every refresh:
continuous backups / point-in-time recovery (kept per table, also across a
restart), Kinesis streaming destinations (none) and contributor insights
(DISABLED)."""

import time

from .e2e_util import expect_error, unique_name


def test_point_in_time_recovery_round_trip(dynamodb, tables):
    name = tables()
    desc = dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert desc == {"ContinuousBackupsStatus": "ENABLED",
                    "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}}
    before = time.time()
    resp = dynamodb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    pitr = resp["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
    assert pitr["PointInTimeRecoveryStatus"] == "ENABLED"
    assert abs(pitr["EarliestRestorableDateTime"].timestamp() - before) < 60
    assert pitr["LatestRestorableDateTime"] >= pitr["EarliestRestorableDateTime"]
    desc = dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert desc["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"
    dynamodb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False})
    desc = dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert desc["PointInTimeRecoveryDescription"] == {"PointInTimeRecoveryStatus": "DISABLED"}
    # Another table is not affected.
    other = tables()
    desc = dynamodb.describe_continuous_backups(TableName=other)["ContinuousBackupsDescription"]
    assert desc["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "DISABLED"


def test_continuous_backups_missing_table_and_validation(dynamodb):
    missing = unique_name("gone")
    with expect_error("TableNotFoundException", "^Table not found: " + missing + "$"):
        dynamodb.describe_continuous_backups(TableName=missing)
    with expect_error("TableNotFoundException", "^Table not found: " + missing + "$"):
        dynamodb.update_continuous_backups(
            TableName=missing,
            PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    with expect_error("ValidationException", "pointInTimeRecoverySpecification"):
        dynamodb.update_continuous_backups(TableName=missing)


def test_point_in_time_recovery_survives_restart(start_server, tmp_path):
    data = tmp_path / "db"
    with start_server("--data-dir", str(data)) as server:
        client = server.client()
        client.create_table(TableName="pitr", BillingMode="PAY_PER_REQUEST",
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        client.update_continuous_backups(
            TableName="pitr", PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    with start_server("--data-dir", str(data)) as server:
        client = server.client()
        desc = client.describe_continuous_backups(TableName="pitr")["ContinuousBackupsDescription"]
        assert desc["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"


def test_kinesis_destinations_and_contributor_insights(dynamodb, tables):
    name = tables()
    resp = dynamodb.describe_kinesis_streaming_destination(TableName=name)
    assert resp["TableName"] == name and resp["KinesisDataStreamDestinations"] == []
    resp = dynamodb.describe_contributor_insights(TableName=name)
    assert resp["TableName"] == name and resp["ContributorInsightsStatus"] == "DISABLED"
    missing = unique_name("gone")
    with expect_error("ResourceNotFoundException"):
        dynamodb.describe_kinesis_streaming_destination(TableName=missing)
    with expect_error("ResourceNotFoundException"):
        dynamodb.describe_contributor_insights(TableName=missing)
