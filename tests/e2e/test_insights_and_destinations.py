"""Contributor Insights and Kinesis streaming destinations through boto3: the settings
kept per table and index, the statuses a change answers and settles to,
DynamoDB's rule names, one live destination at a time, and the texts real
DynamoDB answered (docs/compatibility.md); and the keys the insights count,
as the admin API reports them."""

import json
import re

from .e2e_util import body_of, client_for, expect_error, unique_name
from .server_util import admin, admin_ok

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
    fresh = body_of(dynamodb.describe_contributor_insights(TableName=name))
    assert fresh == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}
    # Disabling what was never enabled changes nothing.
    assert dynamodb.update_contributor_insights(
        TableName=name, ContributorInsightsAction="DISABLE")["ContributorInsightsStatus"] == \
        "DISABLED"
    assert body_of(dynamodb.describe_contributor_insights(TableName=name)) == fresh

    enabled = dynamodb.update_contributor_insights(TableName=name,
                                                   ContributorInsightsAction="ENABLE")
    assert body_of(enabled) == {"TableName": name, "ContributorInsightsStatus": "ENABLING",
                                "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"}
    described = dynamodb.describe_contributor_insights(TableName=name)
    assert described["ContributorInsightsStatus"] == "ENABLED"
    rules = described["ContributorInsightsRuleList"]
    # No sort key on the table: partition-key rules only, accessed then throttled.
    assert [r.split("-")[1] for r in rules] == ["PKC", "PKT"]
    assert all(re.fullmatch(r"DynamoDBContributorInsights-PK[CT]-" + re.escape(name) +
                            r"-\d{13}", r) for r in rules), rules
    # The same setting again answers ENABLED at once.
    assert dynamodb.update_contributor_insights(
        TableName=name, ContributorInsightsAction="ENABLE")[
        "ContributorInsightsStatus"] == "ENABLED"

    index = dynamodb.update_contributor_insights(
        TableName=name, IndexName="by_g", ContributorInsightsAction="ENABLE",
        ContributorInsightsMode="THROTTLED_KEYS")
    assert index["IndexName"] == "by_g" and index["ContributorInsightsStatus"] == "ENABLING"
    index_rules = dynamodb.describe_contributor_insights(
        TableName=name, IndexName="by_g")["ContributorInsightsRuleList"]
    # The index has a sort key; throttled keys only.
    assert [r.split("-")[1] for r in index_rules] == ["PKT", "SKT"]
    assert all(("-" + name + "-by_g-") in r for r in index_rules)

    listed = [s for s in dynamodb.list_contributor_insights()["ContributorInsightsSummaries"]
              if s["TableName"] == name]
    assert [(s.get("IndexName"), s["ContributorInsightsStatus"]) for s in listed] == [
        (None, "ENABLED"), ("by_g", "ENABLED")]
    paged = dynamodb.list_contributor_insights(TableName=name, MaxResults=1)
    assert len(paged["ContributorInsightsSummaries"]) == 1 and "NextToken" in paged
    rest = dynamodb.list_contributor_insights(TableName=name, MaxResults=1,
                                              NextToken=paged["NextToken"])
    assert rest["ContributorInsightsSummaries"][0]["IndexName"] == "by_g"
    assert "NextToken" not in rest
    for token in ("abc", "", "1x"):
        with expect_error("ValidationException", "^Invalid NextToken$"):
            dynamodb.list_contributor_insights(TableName=name, NextToken=token)
    # A position past the end is an empty last page.
    assert body_of(dynamodb.list_contributor_insights(
        TableName=name, NextToken="18446744073709551615")) == {
        "ContributorInsightsSummaries": []}

    disabled = dynamodb.update_contributor_insights(TableName=name,
                                                    ContributorInsightsAction="DISABLE")
    assert disabled["ContributorInsightsStatus"] == "DISABLING"
    after = dynamodb.describe_contributor_insights(TableName=name)
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

    enabled = dynamodb.enable_kinesis_streaming_destination(TableName=name, StreamArn=first)
    assert body_of(enabled) == {"DestinationStatus": "ENABLING",
                                "EnableKinesisStreamingConfiguration": {},
                                "StreamArn": first, "TableName": name}
    # Settled ACTIVE, no precision described until one is set.
    assert body_of(dynamodb.describe_kinesis_streaming_destination(TableName=name)) == {
        "KinesisDataStreamDestinations": [{"DestinationStatus": "ACTIVE", "StreamArn": first}],
        "TableName": name}
    # One live destination at a time.
    for arn in (first, second):
        with expect_error("ValidationException", NOT_VALID + "EnableKinesisStreamingDestination "
                                                             "must be DISABLED or ENABLE_FAILED"):
            dynamodb.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)

    updated = dynamodb.update_kinesis_streaming_destination(
        TableName=name, StreamArn=first,
        UpdateKinesisStreamingConfiguration={
            "ApproximateCreationDateTimePrecision": "MICROSECOND"})
    assert updated["DestinationStatus"] == "UPDATING"
    assert updated["UpdateKinesisStreamingConfiguration"] == {
        "ApproximateCreationDateTimePrecision": "MICROSECOND"}
    assert dynamodb.describe_kinesis_streaming_destination(TableName=name)[
        "KinesisDataStreamDestinations"][0]["ApproximateCreationDateTimePrecision"] == \
        "MICROSECOND"
    table_id = dynamodb.describe_table(TableName=name)["Table"]["TableId"]
    with expect_error("ValidationException", "^Invalid Request: Precision is already set to the "
                                             "desired value of MICROSECOND for tableId: "
                                             + table_id):
        dynamodb.update_kinesis_streaming_destination(
            TableName=name, StreamArn=first,
            UpdateKinesisStreamingConfiguration={
                "ApproximateCreationDateTimePrecision": "MICROSECOND"})
    with expect_error("ValidationException", "^Streaming destination cannot be updated with given "
                                             "parameters"):
        dynamodb.update_kinesis_streaming_destination(TableName=name, StreamArn=first)
    with expect_error("ValidationException", NOT_VALID + "No streaming destination with "
                                                         "streamArn: " + re.escape(second)):
        dynamodb.update_kinesis_streaming_destination(
            TableName=name, StreamArn=second,
            UpdateKinesisStreamingConfiguration={
                "ApproximateCreationDateTimePrecision": "MICROSECOND"})

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
    again = dynamodb.describe_kinesis_streaming_destination(TableName=name)[
        "KinesisDataStreamDestinations"][0]
    assert again == {"DestinationStatus": "ACTIVE", "StreamArn": first}

    missing = unique_name("missing")
    with expect_error("ResourceNotFoundException",
                      "^Requested resource not found: Table: " + missing + " not found$"):
        dynamodb.describe_kinesis_streaming_destination(TableName=missing)


def insights(srv_url, name):
    return {rule["RuleName"].split("-")[1] + ("@" + rule["IndexName"] if "IndexName" in rule
                                               else ""):
            [(json.dumps(c["Keys"], sort_keys=True), c["Count"]) for c in rule["Contributors"]]
            for rule in admin_ok(srv_url, "insights/" + name)["Rules"]}


def keys(**values):
    return json.dumps({name: {"S" if isinstance(v, str) else "N": str(v)}
                       for name, v in values.items()}, sort_keys=True)


def test_contributor_insights_count_the_keys_requests_name(start_server):
    with start_server("--in-memory", "--no-models", "--throttle") as srv:
        client = srv.client()
        name = unique_name("ci")
        client.create_table(
            TableName=name, BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                                  for a in ("pk", "sk", "g")],
            GlobalSecondaryIndexes=[{"IndexName": "by_g", "Projection": {"ProjectionType": "ALL"},
                                     "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}])
        # Before insights are on, nothing is counted.
        client.put_item(TableName=name, Item={"pk": {"S": "early"}, "sk": {"S": "0"}})
        assert admin_ok(srv.url, "insights/" + name)["Rules"] == []
        client.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE")
        client.update_contributor_insights(TableName=name, IndexName="by_g",
                                           ContributorInsightsAction="ENABLE")
        for i in range(3):
            client.put_item(TableName=name, Item={"pk": {"S": "hot"}, "sk": {"S": str(i)},
                                                  "g": {"S": "G"}})
        client.get_item(TableName=name, Key={"pk": {"S": "hot"}, "sk": {"S": "0"}})
        client.query(TableName=name, KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": {"S": "hot"}})
        client.query(TableName=name, IndexName="by_g", KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": {"S": "G"}})
        client.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": {"S": "cold"}, "sk": {"S": "0"}}}}]})
        client.transact_write_items(TransactItems=[
            {"Delete": {"TableName": name, "Key": {"pk": {"S": "cold"}, "sk": {"S": "0"}}}}])
        # A failed condition writes nothing and is not counted here.
        with expect_error("ConditionalCheckFailedException"):
            client.put_item(TableName=name, Item={"pk": {"S": "cold"}, "sk": {"S": "9"}},
                            ConditionExpression="attribute_exists(pk)")

        report = insights(srv.url, name)
        assert sorted(report) == ["PKC", "PKC@by_g", "PKT", "PKT@by_g", "SKC", "SKT"]
        # hot: 3 puts, a get, a query; cold: a batch put and a transacted delete.
        assert report["PKC"] == [(keys(pk="hot"), 5), (keys(pk="cold"), 2)]
        # Ties are ordered by key: cold before hot.
        assert report["SKC"][:2] == [(keys(pk="cold", sk="0"), 2), (keys(pk="hot", sk="0"), 2)]
        # The index: three writes of items in it and one query.
        assert report["PKC@by_g"] == [(keys(g="G"), 4)]
        assert report["PKT"] == [] and report["PKT@by_g"] == []

        # Throttled keys: a provisioned table at one write unit a second, on
        # a frozen clock, so the second write of a second is refused.
        admin_ok(srv.url, "clock", {"AdvanceMillis": 0, "Freeze": True})
        tight = unique_name("cit")
        client.create_table(
            TableName=tight, BillingMode="PROVISIONED",
            ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        throttled_only = {"TableName": tight, "ContributorInsightsAction": "ENABLE",
                          "ContributorInsightsMode": "THROTTLED_KEYS"}
        client_for(srv.url).update_contributor_insights(**throttled_only)
        throttled = 0
        for i in range(400):  # past the 300-second burst
            try:
                client.put_item(TableName=tight, Item={"pk": {"S": "k%d" % (i % 2)}})
            except Exception as error:  # noqa: BLE001 - the client's throttling error
                assert "ProvisionedThroughputExceeded" in str(error)
                throttled += 1
        assert throttled > 0
        report = insights(srv.url, tight)
        # THROTTLED_KEYS: only the throttled rule, and it counts every refusal.
        assert sorted(report) == ["PKT"]
        assert sum(count for _, count in report["PKT"]) == throttled

        # Enabling again makes new rules, counting from zero.
        client.update_contributor_insights(TableName=tight, ContributorInsightsAction="DISABLE")
        assert admin_ok(srv.url, "insights/" + tight)["Rules"] == []
        admin_ok(srv.url, "clock", {"AdvanceMillis": 1})
        client_for(srv.url).update_contributor_insights(**throttled_only)
        assert insights(srv.url, tight) == {"PKT": []}
        status, answer = admin(srv.url, "insights/no-such-table")
        assert status == 400 and answer["__type"].endswith("ResourceNotFoundException")
