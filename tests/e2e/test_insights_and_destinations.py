"""Contributor Insights and Kinesis streaming destinations through boto3
(raw requests for the members Debian's botocore predates): the settings
kept per table and index, the statuses a change answers and settles to,
DynamoDB's rule names, one live destination at a time, and the texts real
DynamoDB answered (docs/compatibility.md)."""

import re

from .e2e_util import expect_error, unique_name
from .server_util import admin_ok

KINESIS = "arn:aws:kinesis:us-east-1:000000000000:stream/{}"
NOT_VALID = "^Table is not in a valid state to enable Kinesis Streaming Destination: "


def table_with_index(table):
    return table(
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"},
                              {"AttributeName": "s", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "by_g",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                               {"AttributeName": "s", "KeyType": "RANGE"}],
                                 "Projection": {"ProjectionType": "ALL"}}])


def test_contributor_insights_per_table_and_index(dynamodb, table):
    name = table_with_index(table)
    assert dynamodb.describe_contributor_insights(TableName=name)[
        "ContributorInsightsStatus"] == "DISABLED"
    fresh = table.raw("DescribeContributorInsights", {"TableName": name})
    assert fresh == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}
    # Disabling what was never enabled changes nothing.
    assert dynamodb.update_contributor_insights(
        TableName=name, ContributorInsightsAction="DISABLE")["ContributorInsightsStatus"] == \
        "DISABLED"
    assert table.raw("DescribeContributorInsights", {"TableName": name}) == fresh

    enabled = table.raw("UpdateContributorInsights",
                        {"TableName": name, "ContributorInsightsAction": "ENABLE"})
    assert enabled == {"TableName": name, "ContributorInsightsStatus": "ENABLING",
                       "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"}
    described = table.raw("DescribeContributorInsights", {"TableName": name})
    assert described["ContributorInsightsStatus"] == "ENABLED"
    rules = described["ContributorInsightsRuleList"]
    # No sort key on the table: partition-key rules only, accessed then throttled.
    assert [r.split("-")[1] for r in rules] == ["PKC", "PKT"]
    assert all(re.fullmatch(r"DynamoDBContributorInsights-PK[CT]-" + re.escape(name) +
                            r"-\d{13}", r) for r in rules), rules
    # The same setting again answers ENABLED at once.
    assert table.raw("UpdateContributorInsights", {
        "TableName": name, "ContributorInsightsAction": "ENABLE"})[
        "ContributorInsightsStatus"] == "ENABLED"

    index = table.raw("UpdateContributorInsights", {
        "TableName": name, "IndexName": "by_g", "ContributorInsightsAction": "ENABLE",
        "ContributorInsightsMode": "THROTTLED_KEYS"})
    assert index["IndexName"] == "by_g" and index["ContributorInsightsStatus"] == "ENABLING"
    index_rules = table.raw("DescribeContributorInsights", {
        "TableName": name, "IndexName": "by_g"})["ContributorInsightsRuleList"]
    # The index has a sort key; throttled keys only.
    assert [r.split("-")[1] for r in index_rules] == ["PKT", "SKT"]
    assert all(("-" + name + "-by_g-") in r for r in index_rules)

    listed = [s for s in dynamodb.list_contributor_insights()["ContributorInsightsSummaries"]
              if s["TableName"] == name]
    assert [(s.get("IndexName"), s["ContributorInsightsStatus"]) for s in listed] == [
        (None, "ENABLED"), ("by_g", "ENABLED")]
    paged = table.raw("ListContributorInsights", {"TableName": name, "MaxResults": 1})
    assert len(paged["ContributorInsightsSummaries"]) == 1 and "NextToken" in paged
    rest = table.raw("ListContributorInsights", {"TableName": name, "MaxResults": 1,
                                                 "NextToken": paged["NextToken"]})
    assert rest["ContributorInsightsSummaries"][0]["IndexName"] == "by_g"
    assert "NextToken" not in rest
    for token in ("abc", "", "1x"):
        with expect_error("ValidationException", "^Invalid NextToken$"):
            table.raw("ListContributorInsights", {"TableName": name, "NextToken": token})
    # A position past the end is an empty last page.
    assert table.raw("ListContributorInsights", {"TableName": name,
                                                 "NextToken": "18446744073709551615"}) == {
        "ContributorInsightsSummaries": []}

    disabled = dynamodb.update_contributor_insights(TableName=name,
                                                    ContributorInsightsAction="DISABLE")
    assert disabled["ContributorInsightsStatus"] == "DISABLING"
    after = table.raw("DescribeContributorInsights", {"TableName": name})
    assert after["ContributorInsightsStatus"] == "DISABLED"
    assert "ContributorInsightsRuleList" not in after and "LastUpdateDateTime" in after
    # A disabled setting is not listed.
    assert [s.get("IndexName") for s in dynamodb.list_contributor_insights(TableName=name)[
        "ContributorInsightsSummaries"]] == ["by_g"]

    with expect_error("ResourceNotFoundException",
                      "^Requested resource not found: Index: nope not found for table: "
                      + name + "$"):
        dynamodb.describe_contributor_insights(TableName=name, IndexName="nope")
    missing = unique_name("missing")
    with expect_error("ResourceNotFoundException",
                      "^Requested resource not found: Table: " + missing + " not found$"):
        dynamodb.update_contributor_insights(TableName=missing, ContributorInsightsAction="ENABLE")


def test_transitions_last_as_long_as_the_transient_delay(start_server):
    # With DynamoDB Local's transient-status delay (500 ms), a change is seen
    # in its transition until the delay has passed on the emulator's clock,
    # frozen here so that only the test moves it.
    with start_server("--in-memory", "--no-models", "-delayTransientStatuses") as srv:
        client = srv.client()
        admin_ok(srv.url, "clock", {"AdvanceMillis": 0, "Freeze": True})
        name = unique_name("slow")
        client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        admin_ok(srv.url, "clock", {"AdvanceSeconds": 1, "Freeze": True})
        client.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE")
        assert client.describe_contributor_insights(TableName=name)[
            "ContributorInsightsStatus"] == "ENABLING"
        arn = KINESIS.format("slow-stream-0001")
        client.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        destination = client.describe_kinesis_streaming_destination(TableName=name)[
            "KinesisDataStreamDestinations"][0]
        assert destination["DestinationStatus"] == "ENABLING"
        admin_ok(srv.url, "clock", {"AdvanceSeconds": 1, "Freeze": True})
        assert client.describe_contributor_insights(TableName=name)[
            "ContributorInsightsStatus"] == "ENABLED"
        assert client.describe_kinesis_streaming_destination(TableName=name)[
            "KinesisDataStreamDestinations"][0]["DestinationStatus"] == "ACTIVE"


def test_kinesis_destinations(dynamodb, table):
    name = table()
    assert dynamodb.describe_kinesis_streaming_destination(TableName=name)[
        "KinesisDataStreamDestinations"] == []
    first, second = KINESIS.format("orders-changes-1"), KINESIS.format("orders-changes-2")

    enabled = table.raw("EnableKinesisStreamingDestination", {"TableName": name,
                                                              "StreamArn": first})
    assert enabled == {"DestinationStatus": "ENABLING", "EnableKinesisStreamingConfiguration": {},
                       "StreamArn": first, "TableName": name}
    # Settled ACTIVE, no precision described until one is set.
    assert table.raw("DescribeKinesisStreamingDestination", {"TableName": name}) == {
        "KinesisDataStreamDestinations": [{"DestinationStatus": "ACTIVE", "StreamArn": first}],
        "TableName": name}
    # One live destination at a time.
    for arn in (first, second):
        with expect_error("ValidationException", NOT_VALID + "EnableKinesisStreamingDestination "
                                                             "must be DISABLED or ENABLE_FAILED"):
            dynamodb.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)

    updated = table.raw("UpdateKinesisStreamingDestination", {
        "TableName": name, "StreamArn": first,
        "UpdateKinesisStreamingConfiguration": {
            "ApproximateCreationDateTimePrecision": "MICROSECOND"}})
    assert updated["DestinationStatus"] == "UPDATING"
    assert updated["UpdateKinesisStreamingConfiguration"] == {
        "ApproximateCreationDateTimePrecision": "MICROSECOND"}
    assert table.raw("DescribeKinesisStreamingDestination", {"TableName": name})[
        "KinesisDataStreamDestinations"][0]["ApproximateCreationDateTimePrecision"] == \
        "MICROSECOND"
    table_id = dynamodb.describe_table(TableName=name)["Table"]["TableId"]
    with expect_error("ValidationException", "^Invalid Request: Precision is already set to the "
                                             "desired value of MICROSECOND for tableId: "
                                             + table_id):
        table.raw("UpdateKinesisStreamingDestination", {
            "TableName": name, "StreamArn": first,
            "UpdateKinesisStreamingConfiguration": {
                "ApproximateCreationDateTimePrecision": "MICROSECOND"}})
    with expect_error("ValidationException", "^Streaming destination cannot be updated with given "
                                             "parameters"):
        table.raw("UpdateKinesisStreamingDestination", {"TableName": name, "StreamArn": first})
    with expect_error("ValidationException", NOT_VALID + "No streaming destination with "
                                                         "streamArn: " + re.escape(second)):
        table.raw("UpdateKinesisStreamingDestination", {
            "TableName": name, "StreamArn": second,
            "UpdateKinesisStreamingConfiguration": {
                "ApproximateCreationDateTimePrecision": "MICROSECOND"}})

    disabled = dynamodb.disable_kinesis_streaming_destination(TableName=name, StreamArn=first)
    assert disabled["DestinationStatus"] == "DISABLING"
    with expect_error("ValidationException", NOT_VALID + "KinesisStreamingDestination must be "
                                                         "ACTIVE to perform DISABLE operation."):
        dynamodb.disable_kinesis_streaming_destination(TableName=name, StreamArn=first)
    # Disabled, another stream may go live; the first stays listed, DISABLED.
    dynamodb.enable_kinesis_streaming_destination(TableName=name, StreamArn=second)
    listed = dynamodb.describe_kinesis_streaming_destination(TableName=name)[
        "KinesisDataStreamDestinations"]
    assert [(d["StreamArn"], d["DestinationStatus"]) for d in listed] == [
        (first, "DISABLED"), (second, "ACTIVE")]
    # Enabled again, a destination starts without its old precision.
    dynamodb.disable_kinesis_streaming_destination(TableName=name, StreamArn=second)
    dynamodb.enable_kinesis_streaming_destination(TableName=name, StreamArn=first)
    again = table.raw("DescribeKinesisStreamingDestination", {"TableName": name})[
        "KinesisDataStreamDestinations"][0]
    assert again == {"DestinationStatus": "ACTIVE", "StreamArn": first}

    missing = unique_name("missing")
    with expect_error("ResourceNotFoundException",
                      "^Requested resource not found: Table: " + missing + " not found$"):
        dynamodb.describe_kinesis_streaming_destination(TableName=missing)
