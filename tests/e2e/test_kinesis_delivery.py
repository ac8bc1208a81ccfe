"""Kinesis Data Streams destinations deliver records: a trigger that names
the destination's Kinesis stream (KinesisStreamArn) gets Lambda's Kinesis
event, whose data is the record DynamoDB puts on that stream — its own JSON
shape, both images whatever the table's DynamoDB stream keeps (the table here
has none), the timestamp precision the destination asks for, the TTL
service identity — and nothing written while no destination to that stream
was enabled. The feed behind it survives a restart.

Every wait is for a condition (a delivery, the trigger's Lag), never a
fixed time; "nothing else follows" is checked once the trigger has read past
every record it was given (Lag 0)."""

import base64
import json
import re

import pytest

from .e2e_util import client_for, unique_name
from .server_util import (EventReceiver, admin, admin_ok, make_streams_client, run_server, sweep,
                          wait_for)

STREAM = "arn:aws:kinesis:us-east-1:000000000000:stream/orders-feed"
OTHER_STREAM = "arn:aws:kinesis:us-east-1:000000000000:stream/other-feed"


@pytest.fixture
def receiver():
    r = EventReceiver()
    yield r
    r.close()


def create_orders(ddb, name):
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "S"}])


def add_trigger(url, **definition):
    return admin_ok(url, "triggers", definition)


def trigger_status(url, name):
    return admin_ok(url, "triggers/" + name)


def caught_up(url, name):
    status = trigger_status(url, name)
    return status["State"] == "running" and status["Lag"] == 0


def data_of(record):
    return json.loads(base64.b64decode(record["kinesis"]["data"]))


def order(pk, sk, **extra):
    item = {"pk": {"S": pk}, "sk": {"S": sk}}
    item.update(extra)
    return item


def test_records_reach_a_kinesis_consumer_in_dynamodbs_kinesis_format(receiver):
    with run_server("--in-memory", "--ttl-interval", "0") as server:
        ddb, url = server.client(), server.url
        name = unique_name("orders")
        create_orders(ddb, name)
        ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
        add_trigger(url, Name="kinesis", TableName=name, Url=receiver.url,
                    KinesisStreamArn=STREAM, StartingPosition="TRIM_HORIZON")
        wait_for(lambda: trigger_status(url, "kinesis")["State"] ==
                 "waiting for the Kinesis destination", what="the trigger to wait")
        # Written before any destination: never on the Kinesis stream.
        ddb.put_item(TableName=name, Item=order("o#0", "early"))

        ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
        now = admin_ok(url, "clock", {"Freeze": True})["NowMillis"]
        ddb.put_item(TableName=name, Item=order("o#1", "line#1", qty={"N": "2"}))
        ddb.update_item(TableName=name, Key=order("o#1", "line#1"),
                        UpdateExpression="SET qty = :q", ExpressionAttributeValues={":q": {"N": "3"}})
        ddb.delete_item(TableName=name, Key=order("o#1", "line#1"))
        ddb.put_item(TableName=name, Item=order("o#2", "line#1", expires={"N": str(now // 1000 - 10)}))
        assert len(sweep(url)["Deleted"]) == 1

        wait_for(lambda: len(receiver.records()) >= 5, what="five Kinesis records")
        wait_for(lambda: caught_up(url, "kinesis"), what="the trigger to read past every write")
        records = receiver.records()
        assert len(records) == 5
        for record in records:
            assert record["eventSource"] == "aws:kinesis"
            assert record["eventName"] == "aws:kinesis:record"
            assert record["eventSourceARN"] == STREAM
            assert record["awsRegion"] == "us-east-1"
            assert record["eventID"] == "shardId-000000000000:" + record["kinesis"]["sequenceNumber"]
            assert record["kinesis"]["kinesisSchemaVersion"] == "1.0"
            assert re.fullmatch("[0-9A-F]{32}", record["kinesis"]["partitionKey"])
            assert record["kinesis"]["approximateArrivalTimestamp"] == now / 1000
        data = [data_of(r) for r in records]
        assert [d["eventName"] for d in data] == ["INSERT", "MODIFY", "REMOVE", "INSERT", "REMOVE"]
        insert, modify, remove, _, expired = data
        # The same item, the same partition key; another item, another key.
        keys = [r["kinesis"]["partitionKey"] for r in records]
        assert keys[0] == keys[1] == keys[2] and keys[3] == keys[4] and keys[0] != keys[3]
        # Sequence numbers increase.
        sequences = [int(r["kinesis"]["sequenceNumber"]) for r in records]
        assert sequences == sorted(sequences) and len(set(sequences)) == 5

        line = {"pk": {"S": "o#1"}, "sk": {"S": "line#1"}}
        assert insert == {
            "awsRegion": "us-east-1", "eventID": insert["eventID"], "eventName": "INSERT",
            "userIdentity": None, "recordFormat": "application/json", "tableName": name,
            "dynamodb": {"ApproximateCreationDateTime": now, "Keys": line,
                         "NewImage": dict(line, qty={"N": "2"}),
                         "SizeBytes": insert["dynamodb"]["SizeBytes"]},
            "eventSource": "aws:dynamodb"}
        assert re.fullmatch("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                            insert["eventID"])
        assert len({d["eventID"] for d in data}) == 5
        assert insert["dynamodb"]["SizeBytes"] > 0
        assert modify["dynamodb"]["OldImage"] == dict(line, qty={"N": "2"})
        assert modify["dynamodb"]["NewImage"] == dict(line, qty={"N": "3"})
        assert "NewImage" not in remove["dynamodb"]
        assert remove["dynamodb"]["OldImage"] == dict(line, qty={"N": "3"})
        assert remove["userIdentity"] is None
        assert expired["userIdentity"] == {"type": "Service", "principalId": "dynamodb.amazonaws.com"}
        assert expired["dynamodb"]["Keys"] == {"pk": {"S": "o#2"}, "sk": {"S": "line#1"}}

        # The feed is the destination's, not a DynamoDB stream of the table.
        table = ddb.describe_table(TableName=name)["Table"]
        assert "StreamSpecification" not in table and "LatestStreamArn" not in table
        assert make_streams_client(url).list_streams(TableName=name)["Streams"] == []


def test_precision_filters_and_which_destination_is_enabled(receiver):
    with run_server("--in-memory") as server:
        ddb, url = server.client(), server.url
        name = unique_name("orders")
        create_orders(ddb, name)
        status, answer = admin(url, "triggers", {"Name": "bad", "TableName": name,
                                                 "Url": receiver.url,
                                                 "KinesisStreamArn": "arn:aws:sqs:x"})
        assert status == 400 and "KinesisStreamArn" in answer["message"], answer
        other = EventReceiver()
        try:
            add_trigger(url, Name="removes", TableName=name, Url=receiver.url,
                        KinesisStreamArn=STREAM, FilterCriteria={"Filters": [
                            {"Pattern": {"data": {"eventName": ["REMOVE"]}}}]})
            add_trigger(url, Name="other", TableName=name, Url=other.url,
                        KinesisStreamArn=OTHER_STREAM, StartingPosition="TRIM_HORIZON")
            ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
            wait_for(lambda: caught_up(url, "removes"), what="the trigger to start")
            client_for(url).update_kinesis_streaming_destination(
                TableName=name, StreamArn=STREAM,
                UpdateKinesisStreamingConfiguration={
                    "ApproximateCreationDateTimePrecision": "MICROSECOND"})
            now = admin_ok(url, "clock", {"Freeze": True})["NowMillis"]
            ddb.put_item(TableName=name, Item=order("o#1", "a"))
            ddb.delete_item(TableName=name, Key=order("o#1", "a"))
            wait_for(lambda: receiver.records(), what="the REMOVE record")
            wait_for(lambda: caught_up(url, "removes"), what="the trigger to read past both")
            [removed] = [data_of(r) for r in receiver.records()]
            assert removed["eventName"] == "REMOVE"
            assert removed["dynamodb"]["ApproximateCreationDateTime"] == now * 1000
            assert removed["dynamodb"]["ApproximateCreationDateTimePrecision"] == "MICROSECOND"

            # Disabled, nothing goes to the stream; another stream's consumer
            # gets only what was written while its destination was enabled.
            ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
            ddb.put_item(TableName=name, Item=order("o#2", "between"))
            ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=OTHER_STREAM)
            ddb.put_item(TableName=name, Item=order("o#3", "after"))
            wait_for(lambda: other.records(), what="the other stream's record")
            wait_for(lambda: caught_up(url, "other"), what="the other trigger to catch up")
            assert [data_of(r)["dynamodb"]["Keys"]["pk"]["S"] for r in other.records()] == ["o#3"]
            assert all(r["eventSourceARN"] == OTHER_STREAM for r in other.records())
            assert len(receiver.records()) == 1
        finally:
            other.close()


def test_the_feed_survives_a_restart(tmp_path, receiver):
    data_dir = str(tmp_path / "data")
    with run_server("--data-dir", data_dir) as server:
        ddb = server.client()
        create_orders(ddb, "orders-restart")
        ddb.enable_kinesis_streaming_destination(TableName="orders-restart", StreamArn=STREAM)
        ddb.put_item(TableName="orders-restart", Item=order("o#1", "before"))
    with run_server("--data-dir", data_dir) as server:
        ddb = server.client()
        ddb.put_item(TableName="orders-restart", Item=order("o#2", "after"))
        add_trigger(server.url, Name="replay", TableName="orders-restart", Url=receiver.url,
                    KinesisStreamArn=STREAM, StartingPosition="TRIM_HORIZON")
        wait_for(lambda: len(receiver.records()) >= 2, what="both records")
        wait_for(lambda: caught_up(server.url, "replay"), what="the trigger to catch up")
        assert [data_of(r)["dynamodb"]["Keys"]["pk"]["S"] for r in receiver.records()] == [
            "o#1", "o#2"]
