"""DynamoDB Streams through boto3's dynamodb and dynamodbstreams clients:
StreamSpecification on CreateTable/UpdateTable, the records every kind of
write leaves, every shard iterator type, paging, expiry, rollover and
trimming (with the admin API's clock), and DynamoDB's errors.
"""

import re

import pytest

from .e2e_util import exact, expect_error, raw_op
from .server_util import (
    own_server_fixtures,
    advance_clock,
    make_streams_client,
    raw_streams,
    read_stream,
    run_server,
    server_now,
    sweep,
)

VIEW_TYPES = ["KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"]
SEQUENCE_RE = re.compile(r"^\d{21,40}$")
SHARD_RE = re.compile(r"^shardId-\d{20}-[0-9a-f]{8}$")


server, ddb, tables = own_server_fixtures("--in-memory", "--ttl-interval", "0")


@pytest.fixture(scope="module")
def streams(server):
    return make_streams_client(server.url)



def stream_table(ddb, tables, view_type="NEW_AND_OLD_IMAGES", **kwargs):
    name = tables(prefix="st", range_key=("sk", "N"), StreamSpecification={
        "StreamEnabled": True, "StreamViewType": view_type}, **kwargs)
    return name, ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]


def item(pk, sk, **attrs):
    result = {"pk": {"S": pk}, "sk": {"N": str(sk)}}
    result.update({k: {"S": v} for k, v in attrs.items()})
    return result


def key(pk, sk):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}}


def only_shard(streams, arn):
    shards = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
    assert len(shards) == 1
    return shards[0]["ShardId"]


# --- The stream on the table -------------------------------------------------

def test_describe_table_shows_the_stream(ddb, tables, server):
    name, arn = stream_table(ddb, tables, "NEW_IMAGE")
    table = ddb.describe_table(TableName=name)["Table"]
    assert table["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
    label = table["LatestStreamLabel"]
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$", label)
    assert arn == "arn:aws:dynamodb:us-east-1:000000000000:table/{}/stream/{}".format(name, label)


def test_enable_disable_reenable(ddb, tables, streams):
    name = tables(prefix="st")
    assert "StreamSpecification" not in ddb.describe_table(TableName=name)["Table"]
    ddb.update_table(TableName=name, StreamSpecification={
        "StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    first = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    with expect_error("ValidationException",
                      exact("Table already has an enabled stream: TableName: " + name)):
        ddb.update_table(TableName=name, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    table = ddb.describe_table(TableName=name)["Table"]
    assert "StreamSpecification" not in table
    assert table["LatestStreamArn"] == first  # the latest stream stays named
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}})  # no stream: no record
    with expect_error("ValidationException",
                      exact("Table has no stream to disable: TableName: " + name)):
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    ddb.update_table(TableName=name, StreamSpecification={
        "StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    second = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    assert second != first
    old = streams.describe_stream(StreamArn=first)["StreamDescription"]
    assert old["StreamStatus"] == "DISABLED"
    assert "EndingSequenceNumber" in old["Shards"][-1]["SequenceNumberRange"]
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in read_stream(streams, first)] == ["a"]
    assert streams.describe_stream(StreamArn=second)["StreamDescription"]["StreamStatus"] == \
        "ENABLED"
    listed = streams.list_streams(TableName=name)["Streams"]
    assert [s["StreamArn"] for s in listed] == [first, second]


@pytest.mark.parametrize("spec,message", [
    ({"StreamEnabled": True},
     "One or more parameter values were invalid: If stream is being enabled then "
     "UpdateViewType is required"),
    ({"StreamEnabled": False, "StreamViewType": "KEYS_ONLY"},
     "One or more parameter values were invalid: If stream is being disabled, then "
     "UpdateViewType must not be specified"),
    ({"StreamEnabled": True, "StreamViewType": "EVERYTHING"},
     "1 validation error detected: Value 'EVERYTHING' at 'streamSpecification.streamViewType' "
     "failed to satisfy constraint: Member must satisfy enum value set: "
     "[NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]"),
])
def test_update_table_stream_validation(ddb, tables, spec, message):
    name = tables(prefix="st")
    with expect_error("ValidationException", exact(message)):
        ddb.update_table(TableName=name, StreamSpecification=spec)


# --- Records -----------------------------------------------------------------

@pytest.mark.parametrize("view_type", VIEW_TYPES)
def test_insert_modify_remove_with_the_view_types_images(ddb, tables, streams, view_type):
    name, arn = stream_table(ddb, tables, view_type)
    ddb.put_item(TableName=name, Item=item("a", 1, v="one"))
    ddb.update_item(TableName=name, Key=key("a", 1), UpdateExpression="SET v = :v",
                    ExpressionAttributeValues={":v": {"S": "two"}})
    ddb.delete_item(TableName=name, Key=key("a", 1))
    records = read_stream(streams, arn)
    assert [r["eventName"] for r in records] == ["INSERT", "MODIFY", "REMOVE"]
    images = {"OLD_IMAGE": ("OldImage",), "NEW_IMAGE": ("NewImage",), "KEYS_ONLY": (),
              "NEW_AND_OLD_IMAGES": ("NewImage", "OldImage")}[view_type]
    expected_members = [
        [m for m in images if m == "NewImage"],
        list(images),
        [m for m in images if m == "OldImage"],
    ]
    for record, members in zip(records, expected_members):
        data = record["dynamodb"]
        assert record["eventVersion"] == "1.1"
        assert record["eventSource"] == "aws:dynamodb"
        assert record["awsRegion"] == "us-east-1"
        assert re.match(r"^[0-9a-f]{32}$", record["eventID"])
        assert "userIdentity" not in record
        assert data["Keys"] == key("a", 1)
        assert data["StreamViewType"] == view_type
        assert SEQUENCE_RE.match(data["SequenceNumber"])
        assert data["SizeBytes"] > 0
        assert sorted(m for m in ("NewImage", "OldImage") if m in data) == sorted(members)
    if view_type == "NEW_AND_OLD_IMAGES":
        assert records[1]["dynamodb"]["OldImage"]["v"] == {"S": "one"}
        assert records[1]["dynamodb"]["NewImage"]["v"] == {"S": "two"}
        assert records[2]["dynamodb"]["OldImage"]["v"] == {"S": "two"}
    numbers = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert numbers == sorted(numbers) and len(set(numbers)) == 3
    assert len({r["eventID"] for r in records}) == 3


def test_writes_that_change_nothing_leave_no_record(ddb, tables, streams):
    name, arn = stream_table(ddb, tables)
    ddb.put_item(TableName=name, Item=item("a", 1, v="x"))
    ddb.put_item(TableName=name, Item=item("a", 1, v="x"))
    ddb.update_item(TableName=name, Key=key("a", 1), UpdateExpression="SET v = :v",
                    ExpressionAttributeValues={":v": {"S": "x"}})
    ddb.delete_item(TableName=name, Key=key("missing", 1))
    with expect_error("ConditionalCheckFailedException"):
        ddb.put_item(TableName=name, Item=item("a", 1, v="y"),
                     ConditionExpression="attribute_not_exists(pk)")
    assert [r["eventName"] for r in read_stream(streams, arn)] == ["INSERT"]


def test_a_transaction_writes_one_record_per_changed_item(ddb, tables, streams):
    name, arn = stream_table(ddb, tables)
    ddb.put_item(TableName=name, Item=item("keep", 1, v="same"))
    ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": name, "Item": item("t", 1)}},
        {"Put": {"TableName": name, "Item": item("t", 2)}},
        {"Update": {"TableName": name, "Key": key("keep", 1), "UpdateExpression": "SET v = :v",
                    "ExpressionAttributeValues": {":v": {"S": "same"}}}},
        {"ConditionCheck": {"TableName": name, "Key": key("absent", 1),
                            "ConditionExpression": "attribute_not_exists(pk)"}},
    ])
    records = read_stream(streams, arn)
    assert [(r["eventName"], r["dynamodb"]["Keys"]["pk"]["S"]) for r in records] == [
        ("INSERT", "keep"), ("INSERT", "t"), ("INSERT", "t")]
    # A cancelled transaction leaves nothing.
    with expect_error("TransactionCanceledException"):
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": name, "Item": item("t", 3)}},
            {"ConditionCheck": {"TableName": name, "Key": key("nobody", 1),
                                "ConditionExpression": "attribute_exists(pk)"}},
        ])
    assert len(read_stream(streams, arn)) == 3


def test_batch_write_writes_one_record_per_changing_request(ddb, tables, streams):
    name, arn = stream_table(ddb, tables)
    ddb.put_item(TableName=name, Item=item("same", 1))
    ddb.batch_write_item(RequestItems={name: [
        {"PutRequest": {"Item": item("b", 1)}},
        {"PutRequest": {"Item": item("same", 1)}},
        {"DeleteRequest": {"Key": key("absent", 1)}},
        {"PutRequest": {"Item": item("b", 2)}},
    ]})
    ddb.batch_write_item(RequestItems={name: [{"DeleteRequest": {"Key": key("b", 1)}}]})
    assert [r["eventName"] for r in read_stream(streams, arn)] == [
        "INSERT", "INSERT", "INSERT", "REMOVE"]


def test_ttl_deletes_carry_the_service_identity(server, ddb, tables, streams):
    name, arn = stream_table(ddb, tables)
    ddb.update_time_to_live(TableName=name,
                            TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    ddb.put_item(TableName=name, Item={"pk": {"S": "x"}, "sk": {"N": "1"}, "ttl": {"N": "1"}})
    ddb.delete_item(TableName=name, Key=key("x", 1))
    expiry = str(server_now(server.url) - 10)
    ddb.put_item(TableName=name, Item={"pk": {"S": "y"}, "sk": {"N": "1"}, "ttl": {"N": expiry}})
    sweep(server.url)
    records = read_stream(streams, arn)
    assert [r["eventName"] for r in records] == ["INSERT", "REMOVE", "INSERT", "REMOVE"]
    assert "userIdentity" not in records[1]  # a user's DeleteItem
    assert records[3]["userIdentity"] == {"Type": "Service",
                                          "PrincipalId": "dynamodb.amazonaws.com"}
    assert records[3]["dynamodb"]["OldImage"]["ttl"] == {"N": expiry}


# --- Iterators and paging ------------------------------------------------------

def test_every_iterator_type(ddb, tables, streams):
    name, arn = stream_table(ddb, tables)
    for i in range(5):
        ddb.put_item(TableName=name, Item=item("p", i))
    shard = only_shard(streams, arn)
    all_records = read_stream(streams, arn)
    numbers = [r["dynamodb"]["SequenceNumber"] for r in all_records]

    def read(**kwargs):
        it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, **kwargs)["ShardIterator"]
        return [r["dynamodb"]["SequenceNumber"] for r in streams.get_records(ShardIterator=it)[
            "Records"]]

    assert read(ShardIteratorType="TRIM_HORIZON") == numbers
    assert read(ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=numbers[2]) == numbers[2:]
    assert read(ShardIteratorType="AFTER_SEQUENCE_NUMBER", SequenceNumber=numbers[2]) == \
        numbers[3:]
    latest = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                        ShardIteratorType="LATEST")["ShardIterator"]
    page = streams.get_records(ShardIterator=latest)
    assert page["Records"] == [] and page["NextShardIterator"]
    ddb.put_item(TableName=name, Item=item("p", 99))
    page = streams.get_records(ShardIterator=page["NextShardIterator"])
    assert [r["dynamodb"]["Keys"]["sk"]["N"] for r in page["Records"]] == ["99"]


def test_limit_and_next_iterator_page_through_in_order(ddb, tables, streams):
    name, arn = stream_table(ddb, tables)
    for i in range(7):
        ddb.put_item(TableName=name, Item=item("p", i))
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=only_shard(streams, arn),
                                    ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    seen = []
    for expected in (3, 3, 1, 0):
        page = streams.get_records(ShardIterator=it, Limit=3)
        assert len(page["Records"]) == expected
        seen += [int(r["dynamodb"]["Keys"]["sk"]["N"]) for r in page["Records"]]
        it = page["NextShardIterator"]  # the shard is open: always another iterator
    assert seen == list(range(7))


def test_iterators_expire_after_fifteen_minutes(server, ddb, tables, streams):
    name, arn = stream_table(ddb, tables)
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=only_shard(streams, arn),
                                    ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    streams.get_records(ShardIterator=it)  # fresh: fine
    advance_clock(server.url, 15 * 60 + 1)
    with expect_error("ExpiredIteratorException", exact("Shard iterator has expired")):
        streams.get_records(ShardIterator=it)


# --- Errors ----------------------------------------------------------------------

def test_unknown_and_malformed_streams(ddb, tables, streams):
    name, arn = stream_table(ddb, tables)
    missing = arn.rsplit("/", 1)[0] + "/1999-01-01T00:00:00.000"
    with expect_error("ResourceNotFoundException",
                      exact("Requested resource not found: Stream: {} not found".format(missing))):
        streams.describe_stream(StreamArn=missing)
    with expect_error("ValidationException", "Invalid StreamArn"):
        streams.describe_stream(StreamArn="arn:aws:dynamodb:us-east-1:000000000000:table/x")
    with expect_error("ResourceNotFoundException", "Shard"):
        streams.get_shard_iterator(StreamArn=arn, ShardId="shardId-00000000000000000000-00000000",
                                   ShardIteratorType="LATEST")
    with expect_error("ValidationException", "Invalid ShardIterator"):
        streams.get_records(ShardIterator="not-an-iterator")
    shard = only_shard(streams, arn)
    with expect_error("ValidationException", "SequenceNumber"):
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                   ShardIteratorType="AT_SEQUENCE_NUMBER")
    with expect_error("ValidationException", "shardIteratorType"):
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="OLDEST")


@pytest.mark.parametrize("operation,payload,path", [
    ("GetRecords", {"ShardIterator": "x", "Limit": 1001}, "limit"),
    ("GetRecords", {"ShardIterator": "x", "Limit": 0}, "limit"),
    ("ListStreams", {"Limit": 101}, "limit"),
    ("DescribeStream", {"StreamArn": "a" * 40, "Limit": 0}, "limit"),
])
def test_limits(server, operation, payload, path):
    import json
    import urllib.request
    from .e2e_util import signed_headers
    body = json.dumps(payload).encode()
    headers = signed_headers(server.url, operation, body)
    headers["X-Amz-Target"] = "DynamoDBStreams_20120810." + operation
    request = urllib.request.Request(server.url + "/", data=body, headers=headers)
    try:
        urllib.request.urlopen(request)
        pytest.fail("accepted")
    except urllib.error.HTTPError as error:
        answer = json.loads(error.read())
    assert answer["__type"].endswith("ValidationException")
    assert "at '{}' failed to satisfy constraint".format(path) in answer["message"]


def test_list_streams_pages(ddb, tables, streams):
    names = [stream_table(ddb, tables)[0] for _ in range(3)]
    arns = []
    page = streams.list_streams(Limit=1)
    while True:
        arns += [s["StreamArn"] for s in page["Streams"]]
        if "LastEvaluatedStreamArn" not in page:
            break
        page = streams.list_streams(Limit=1, ExclusiveStartStreamArn=page["LastEvaluatedStreamArn"])
    listed_tables = [arn.split("/")[1] for arn in arns]
    for name in names:
        assert listed_tables.count(name) == 1, (name, listed_tables)
    assert len(arns) == len(set(arns))


def test_an_empty_shards_starting_sequence_number_is_a_valid_position(ddb, tables, streams):
    # DynamoDB hands out a shard's StartingSequenceNumber before the shard
    # holds any record; AT_ and AFTER_SEQUENCE_NUMBER accept it.
    name, arn = stream_table(ddb, tables)
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]
    start = shard["SequenceNumberRange"]["StartingSequenceNumber"]
    at = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                    ShardIteratorType="AT_SEQUENCE_NUMBER",
                                    SequenceNumber=start)["ShardIterator"]
    streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                               ShardIteratorType="AFTER_SEQUENCE_NUMBER", SequenceNumber=start)
    assert streams.get_records(ShardIterator=at)["Records"] == []
    # The iterator taken on the empty shard sees the first record.
    ddb.put_item(TableName=name, Item=item("a", 1))
    records = streams.get_records(ShardIterator=at)["Records"]
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in records] == ["a"]
    # One past the start is still outside an (otherwise) empty range.
    name2, arn2 = stream_table(ddb, tables)
    shard2 = streams.describe_stream(StreamArn=arn2)["StreamDescription"]["Shards"][0]
    past = str(int(shard2["SequenceNumberRange"]["StartingSequenceNumber"]) + 1).zfill(21)
    with expect_error("ValidationException", "is not in the range of shard"):
        streams.get_shard_iterator(StreamArn=arn2, ShardId=shard2["ShardId"],
                                   ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=past)


def test_malformed_exclusive_start_stream_arn(server):
    status, body = raw_streams(server.url, "ListStreams", {"ExclusiveStartStreamArn": "x" * 40})
    assert status == 400 and body["__type"].endswith("ValidationException")
    assert body["message"] == "Invalid ExclusiveStartStreamArn"
    status, body = raw_streams(server.url, "ListStreams", {"ExclusiveStartStreamArn": "x"})
    assert status == 400
    assert body["message"] == ("1 validation error detected: Value 'x' at 'exclusiveStartStreamArn' "
                               "failed to satisfy constraint: Member must have length greater "
                               "than or equal to 37")


@pytest.mark.parametrize("shard_filter,message", [
    ({"Type": "PARENT_SHARDS", "ShardId": "shardId-00000000000000000000-00000000"},
     "1 validation error detected: Value 'PARENT_SHARDS' at 'shardFilter.type' failed to "
     "satisfy constraint: Member must satisfy enum value set: [CHILD_SHARDS]"),
    ({"Type": "CHILD_SHARDS", "ShardId": "short"},
     "1 validation error detected: Value 'short' at 'shardFilter.shardId' failed to satisfy "
     "constraint: Member must have length greater than or equal to 28"),
    ({"Type": "BAD", "ShardId": "x" * 66},
     "2 validation errors detected: Value 'BAD' at 'shardFilter.type' failed to satisfy "
     "constraint: Member must satisfy enum value set: [CHILD_SHARDS]; Value '" + "x" * 66 +
     "' at 'shardFilter.shardId' failed to satisfy constraint: Member must have length less "
     "than or equal to 65"),
    ({"Type": "CHILD_SHARDS"}, "ShardFilter must specify both Type and ShardId"),
])
def test_shard_filter_validation(ddb, tables, server, shard_filter, message):
    _, arn = stream_table(ddb, tables)
    with expect_error("ValidationException", exact(message)):
        make_streams_client(server.url).describe_stream(StreamArn=arn, ShardFilter=shard_filter)


# --- Rollover and trimming (their own servers: they move the clock far) ----------

def test_shard_filter_lists_a_shards_children():
    with run_server("--in-memory", "--ttl-interval", "0", "--shard-rollover-seconds", "60") as srv:
        ddb = srv.client()
        ddb.create_table(TableName="filtered", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
        arn = ddb.describe_table(TableName="filtered")["Table"]["LatestStreamArn"]
        for round_number in range(2):
            ddb.put_item(TableName="filtered", Item={"pk": {"S": "r{}".format(round_number)}})
            advance_clock(srv.url, 61)
            sweep(srv.url)
        streams = make_streams_client(srv.url)
        shards = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        assert len(shards) == 3
        for parent, child in zip(shards, shards[1:]):
            described = streams.describe_stream(StreamArn=arn, ShardFilter={
                "Type": "CHILD_SHARDS", "ShardId": parent["ShardId"]})["StreamDescription"]
            assert described["Shards"] == [child]
            assert "LastEvaluatedShardId" not in described
        # The open shard has no children yet.
        assert streams.describe_stream(StreamArn=arn, ShardFilter={
            "Type": "CHILD_SHARDS", "ShardId": shards[-1]["ShardId"]})[
                "StreamDescription"]["Shards"] == []



def test_shards_roll_over_into_children():
    with run_server("--in-memory", "--ttl-interval", "0", "--shard-rollover-seconds", "60") as srv:
        ddb, streams = srv.client(), make_streams_client(srv.url)
        ddb.create_table(TableName="rolling", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
        arn = ddb.describe_table(TableName="rolling")["Table"]["LatestStreamArn"]
        for round_number in range(3):
            ddb.put_item(TableName="rolling", Item={"pk": {"S": "r{}".format(round_number)}})
            advance_clock(srv.url, 61)
            sweep(srv.url)
        shards = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        assert len(shards) == 4
        assert "ParentShardId" not in shards[0]
        for parent, child in zip(shards, shards[1:]):
            assert SHARD_RE.match(child["ShardId"])
            assert child["ParentShardId"] == parent["ShardId"]
            assert int(parent["SequenceNumberRange"]["EndingSequenceNumber"]) < \
                int(child["SequenceNumberRange"]["StartingSequenceNumber"])
        assert "EndingSequenceNumber" not in shards[-1]["SequenceNumberRange"]
        # A closed shard drains: its records, then no NextShardIterator.
        it = streams.get_shard_iterator(StreamArn=arn, ShardId=shards[0]["ShardId"],
                                        ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        page = streams.get_records(ShardIterator=it)
        assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in page["Records"]] == ["r0"]
        assert page.get("NextShardIterator") is None
        assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in read_stream(streams, arn)] == \
            ["r0", "r1", "r2"]
        # DescribeStream pages shards.
        first = streams.describe_stream(StreamArn=arn, Limit=2)["StreamDescription"]
        assert [s["ShardId"] for s in first["Shards"]] == [s["ShardId"] for s in shards[:2]]
        rest = streams.describe_stream(StreamArn=arn, ExclusiveStartShardId=first[
            "LastEvaluatedShardId"])["StreamDescription"]
        assert [s["ShardId"] for s in rest["Shards"]] == [s["ShardId"] for s in shards[2:]]
        # Past the last shard (its own id, or one after it): no shards, no
        # LastEvaluatedShardId.
        last = shards[-1]["ShardId"]
        for start in (last, "shardId-99999999999999999999-ffffffff"):
            past = streams.describe_stream(StreamArn=arn, ExclusiveStartShardId=start)
            assert past["StreamDescription"]["Shards"] == []
            assert "LastEvaluatedShardId" not in past["StreamDescription"]


def test_records_older_than_a_day_are_trimmed():
    with run_server("--in-memory", "--ttl-interval", "0") as srv:
        ddb, streams = srv.client(), make_streams_client(srv.url)
        ddb.create_table(TableName="trimmed", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
        arn = ddb.describe_table(TableName="trimmed")["Table"]["LatestStreamArn"]
        ddb.put_item(TableName="trimmed", Item={"pk": {"S": "old"}})
        old = read_stream(streams, arn)[0]["dynamodb"]["SequenceNumber"]
        shard = only_shard(streams, arn)
        advance_clock(srv.url, 12 * 3600)
        ddb.put_item(TableName="trimmed", Item={"pk": {"S": "new"}})
        advance_clock(srv.url, 12 * 3600 + 60)
        # Taken before the trim, used after it: the data it points at is gone.
        before = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                            ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        sweep(srv.url)
        assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in read_stream(streams, arn)] == ["new"]
        with expect_error("TrimmedDataAccessException"):
            streams.get_records(ShardIterator=before)
        with expect_error("TrimmedDataAccessException"):
            streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                       ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=old)


def test_a_deleted_tables_stream_stays_readable(ddb, streams):
    ddb.create_table(TableName="st-deleted", BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    arn = ddb.describe_table(TableName="st-deleted")["Table"]["LatestStreamArn"]
    ddb.put_item(TableName="st-deleted", Item={"pk": {"S": "a"}})
    ddb.delete_table(TableName="st-deleted")
    description = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert description["StreamStatus"] == "DISABLED"
    assert [r["eventName"] for r in read_stream(streams, arn)] == ["INSERT"]


def test_raw_streams_target_is_routed(server):
    status, body = raw_op(server.url, "ListStreams", {})
    # DynamoDB_20120810.ListStreams is not an operation of DynamoDB's own API.
    assert status == 400 and body["__type"].endswith("UnknownOperationException")
