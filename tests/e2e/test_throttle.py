"""The throttle, end to end (--throttle): provisioned tables and global
secondary indexes refuse reads and writes beyond their capacity with
DynamoDB's ProvisionedThroughputExceededException (message and
ThrottlingReasons), refilled by the emulator's clock — frozen here, so every
count is exact — with 300 seconds of burst; a GSI out of write capacity
throttles its table's writes; UpdateTable takes effect at once; batches
answer UnprocessedItems for a throttled table and fail when nothing could
run; transactions are cancelled; boto3's standard retry mode retries a
throttled PutItem until the capacity is back; on-demand tables and a
server without the flag never throttle.
"""

import boto3
import pytest
from botocore.config import Config

from .e2e_util import ACCESS_KEY, REGION, SECRET_KEY, raw_op
from .server_util import admin_ok, own_server_fixtures, run_server

server, ddb, tables = own_server_fixtures("--in-memory", "--no-models", "--throttle")

TABLE_MESSAGE = ("The level of configured provisioned throughput for the table was exceeded. "
                 "Consider increasing your provisioning level with the UpdateTable API.")
INDEX_MESSAGE = ("The level of configured provisioned throughput for one or more global "
                 "secondary indexes of the table was exceeded. Consider increasing your "
                 "provisioning level for the under-provisioned global secondary indexes with the "
                 "UpdateTable API")


@pytest.fixture(autouse=True)
def frozen_clock(server):
    admin_ok(server.url, "clock", {"Reset": True, "Freeze": True})
    yield
    admin_ok(server.url, "clock", {"Reset": True})


def provisioned(tables, read=1, write=1, **kwargs):
    return tables(ProvisionedThroughput={"ReadCapacityUnits": read, "WriteCapacityUnits": write},
                  **kwargs)


def advance(server, seconds):
    admin_ok(server.url, "clock", {"AdvanceMillis": int(seconds * 1000)})


def try_put(ddb, table, pk, **item):
    try:
        ddb.put_item(TableName=table, Item={"pk": {"S": pk}, **item})
        return True
    except ddb.exceptions.ProvisionedThroughputExceededException:
        return False


def raw_put(server, table, pk):
    return raw_op(server.url, "PutItem", {"TableName": table, "Item": {"pk": {"S": pk}}})


def bucket(server, table, capacity, index=None):
    for b in admin_ok(server.url, "throttle")["Buckets"]:
        if b["TableName"] == table and b["Capacity"] == capacity and b.get("IndexName") == index:
            return b
    return None


def test_writes_beyond_capacity_are_refused_until_the_clock_refills_it(server, ddb, tables):
    table = provisioned(tables, write=5)
    assert [try_put(ddb, table, str(i)) for i in range(7)] == [True] * 5 + [False] * 2
    status, body = raw_put(server, table, "x")
    assert status == 400
    assert body["__type"] == "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"
    assert body["message"] == TABLE_MESSAGE
    assert body["ThrottlingReasons"] == [{
        "reason": "TableWriteProvisionedThroughputExceeded",
        "resource": "arn:aws:dynamodb:{}:000000000000:table/{}".format(REGION, table)}]
    advance(server, 0.6)  # three units back
    assert [try_put(ddb, table, "b" + str(i)) for i in range(4)] == [True] * 3 + [False]
    b = bucket(server, table, "Write")
    assert b["ConsumedUnits"] == 8 and b["ThrottledRequests"] == 4
    assert b["UnitsPerSecond"] == 5


def test_a_large_item_costs_its_units(server, ddb, tables):
    table = provisioned(tables, write=3)
    # 2.5 KB: three write units; the next write finds the bucket empty.
    assert try_put(ddb, table, "big", blob={"S": "x" * 2500})
    assert not try_put(ddb, table, "small")
    advance(server, 1)
    assert try_put(ddb, table, "small")


def test_unused_capacity_bursts_up_to_300_seconds(server, ddb, tables):
    table = provisioned(tables, read=2, write=1)
    ddb.put_item(TableName=table, Item={"pk": {"S": "k"}})
    advance(server, 400)
    assert bucket(server, table, "Write")["Available"] == 300
    # Strongly consistent reads of a small item cost one unit each.
    reads = 0
    while True:
        try:
            ddb.get_item(TableName=table, Key={"pk": {"S": "k"}}, ConsistentRead=True)
            reads += 1
        except ddb.exceptions.ProvisionedThroughputExceededException:
            break
        assert reads <= 601
    assert reads == 600  # 300 s of 2 units, not 400 s
    # Eventually consistent reads cost half.
    advance(server, 1)
    ok = 0
    for _ in range(5):
        try:
            ddb.get_item(TableName=table, Key={"pk": {"S": "k"}})
            ok += 1
        except ddb.exceptions.ProvisionedThroughputExceededException:
            pass
    assert ok == 4


def gsi_table(tables, table_write, index_write, index_read=1):
    return tables(
        ProvisionedThroughput={"ReadCapacityUnits": 10, "WriteCapacityUnits": table_write},
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "by-g", "Projection": {"ProjectionType": "ALL"},
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": index_read,
                                      "WriteCapacityUnits": index_write}}])


def test_an_index_out_of_write_capacity_throttles_its_tables_writes(server, ddb, tables):
    table = gsi_table(tables, table_write=100, index_write=1)
    assert try_put(ddb, table, "1", g={"S": "a"})
    status, body = raw_op(server.url, "PutItem", {
        "TableName": table, "Item": {"pk": {"S": "3"}, "g": {"S": "a"}}})
    assert status == 400 and body["message"] == INDEX_MESSAGE
    assert body["ThrottlingReasons"] == [{
        "reason": "IndexWriteProvisionedThroughputExceeded",
        "resource": "arn:aws:dynamodb:{}:000000000000:table/{}/index/by-g".format(REGION, table)}]
    assert bucket(server, table, "Write", "by-g")["ConsumedUnits"] == 1


def test_queries_on_an_index_use_its_read_capacity(server, ddb, tables):
    table = gsi_table(tables, table_write=100, index_write=100, index_read=1)
    ddb.put_item(TableName=table, Item={"pk": {"S": "1"}, "g": {"S": "a"}})
    query = dict(TableName=table, IndexName="by-g", KeyConditionExpression="g = :g",
                 ExpressionAttributeValues={":g": {"S": "a"}})
    ddb.query(**query)
    ddb.query(**query)  # half a unit each: the bucket is at zero now
    status, body = raw_op(server.url, "Query", query)
    assert status == 400 and body["ThrottlingReasons"][0]["reason"] == \
        "IndexReadProvisionedThroughputExceeded"
    ddb.get_item(TableName=table, Key={"pk": {"S": "1"}})  # the table's own reads are fine


def test_update_table_takes_effect_at_once(server, ddb, tables):
    table = provisioned(tables, write=1)
    assert try_put(ddb, table, "1") and not try_put(ddb, table, "2")
    ddb.update_table(TableName=table, ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                             "WriteCapacityUnits": 10})
    advance(server, 1)
    assert [try_put(ddb, table, str(i)) for i in range(11)] == [True] * 10 + [False]


def test_batches_leave_a_throttled_table_unprocessed(server, ddb, tables):
    tight, roomy = provisioned(tables, write=1), provisioned(tables, write=100)
    assert try_put(ddb, tight, "0")
    request = {tight: [{"PutRequest": {"Item": {"pk": {"S": "t"}}}}],
               roomy: [{"PutRequest": {"Item": {"pk": {"S": "r"}}}}]}
    answer = ddb.batch_write_item(RequestItems=request, ReturnConsumedCapacity="TOTAL")
    assert answer["UnprocessedItems"] == {tight: request[tight]}
    assert answer["ConsumedCapacity"] == [{"TableName": roomy, "CapacityUnits": 1.0}]
    with pytest.raises(ddb.exceptions.ProvisionedThroughputExceededException):
        ddb.batch_write_item(RequestItems={tight: request[tight]})


def test_a_batch_runs_what_the_capacity_holds_and_leaves_the_rest_unprocessed(server, ddb, tables):
    # DynamoDB writes a batch's requests one by one: those that find the
    # table out of capacity come back unprocessed, uncharged.
    table = provisioned(tables, read=5, write=5)  # one second's worth: 5 units
    puts = [{"PutRequest": {"Item": {"pk": {"S": "i%02d" % i}}}} for i in range(25)]
    answer = ddb.batch_write_item(RequestItems={table: puts}, ReturnConsumedCapacity="TOTAL")
    assert answer["UnprocessedItems"] == {table: puts[5:]}
    assert answer["ConsumedCapacity"] == [{"TableName": table, "CapacityUnits": 5.0}]
    keys = [{"pk": {"S": "i%02d" % i}} for i in range(5)]
    got = ddb.batch_get_item(RequestItems={table: {"Keys": keys, "ConsistentRead": True}})
    assert sorted(i["pk"]["S"] for i in got["Responses"][table]) == ["i00", "i01", "i02", "i03", "i04"]
    assert got["UnprocessedKeys"] == {}
    rounds, pending = 1, answer["UnprocessedItems"]
    while pending:
        advance(server, 1)
        pending = ddb.batch_write_item(RequestItems=pending)["UnprocessedItems"]
        rounds += 1
    assert rounds == 5
    assert ddb.scan(TableName=table, Select="COUNT")["Count"] == 25


def test_a_throttled_transaction_is_cancelled(server, ddb, tables):
    tight, roomy = provisioned(tables, write=1), provisioned(tables, write=100)
    assert try_put(ddb, tight, "0")
    with pytest.raises(ddb.exceptions.TransactionCanceledException) as raised:
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": roomy, "Item": {"pk": {"S": "r"}}}},
            {"Put": {"TableName": tight, "Item": {"pk": {"S": "t"}}}}])
    assert [r["Code"] for r in raised.value.response["CancellationReasons"]] == [
        "None", "ProvisionedThroughputExceeded"]


def test_the_client_sees_only_the_capacity_it_asked_for(server, ddb, tables):
    table = gsi_table(tables, table_write=100, index_write=100)
    item = {"pk": {"S": "1"}, "g": {"S": "a"}}
    assert "ConsumedCapacity" not in ddb.put_item(TableName=table, Item=item)
    assert ddb.put_item(TableName=table, Item=item, ReturnConsumedCapacity="TOTAL")[
        "ConsumedCapacity"] == {"TableName": table, "CapacityUnits": 1.0}
    indexes = ddb.put_item(TableName=table, Item=dict(item, g={"S": "b"}),
                           ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert indexes["GlobalSecondaryIndexes"] == {"by-g": {"CapacityUnits": 2.0}}


def test_standard_retry_mode_retries_a_throttled_put_until_capacity_is_back(server, ddb, tables):
    table = provisioned(tables, write=1)
    assert try_put(ddb, table, "first")
    client = boto3.session.Session(
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY, region_name=REGION,
    ).client("dynamodb", endpoint_url=server.url,
             config=Config(retries={"mode": "standard", "max_attempts": 5}))
    attempts = []

    def before_send(**kwargs):
        attempts.append(1)
        if len(attempts) == 3:  # a second passes while the SDK backs off
            advance(server, 1)
    client.meta.events.register("before-send.dynamodb.PutItem", before_send)
    answer = client.put_item(TableName=table, Item={"pk": {"S": "second"}})
    assert answer["ResponseMetadata"]["RetryAttempts"] == 2
    assert bucket(server, table, "Write")["ThrottledRequests"] == 2


def test_on_demand_tables_are_never_throttled(server, ddb, tables):
    table = tables()
    assert all(try_put(ddb, table, str(i)) for i in range(50))


def test_without_the_flag_nothing_throttles_until_the_admin_api_says_so(tables):
    with run_server("--in-memory", "--no-models") as s:
        client = s.client()
        admin_ok(s.url, "clock", {"Freeze": True})
        client.create_table(TableName="tight", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
        assert all(try_put(client, "tight", str(i)) for i in range(20))
        assert admin_ok(s.url, "throttle") == {"Enabled": False, "Buckets": []}
        assert admin_ok(s.url, "throttle", {"Enabled": True})["Enabled"] is True
        assert [try_put(client, "tight", str(i)) for i in range(2)] == [True, False]
        admin_ok(s.url, "throttle", {"Enabled": False})
        assert try_put(client, "tight", "again")


def test_accuracy_over_a_minute_of_test_clock_time(server, ddb, tables):
    """Writes as fast as admitted for 60 s of clock time in 100 ms steps: the
    units admitted are the configured capacity times 60 plus the first
    second's (a new table's bucket starts with one second's worth)."""
    capacity = 10
    table = provisioned(tables, write=capacity)
    admitted = refused = 0
    for step in range(601):  # t = 0.0, 0.1, ..., 60.0 s
        if step:
            advance(server, 0.1)
        while try_put(ddb, table, "k"):
            admitted += 1
        refused += 1
    expected = capacity * 60 + capacity
    print("throttle accuracy: {} units admitted, {} expected, {} refusals".format(
        admitted, expected, refused))
    assert admitted == expected


def test_on_demand_tables_honour_their_maximum_throughput(server, ddb, tables):
    name = tables.unique_name()
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        OnDemandThroughput={"MaxWriteRequestUnits": 3})
    tables.register(name)
    assert [try_put_any(ddb, name, str(i)) for i in range(4)] == [True] * 3 + [False]
    status, body = raw_put(server, name, "x")
    assert status == 400
    assert body["__type"] == "com.amazon.coral.availability#ThrottlingException"
    assert body["ThrottlingReasons"] == [{
        "reason": "TableWriteMaxOnDemandThroughputExceeded",
        "resource": "arn:aws:dynamodb:{}:000000000000:table/{}".format(REGION, name)}]
    # No burst: a minute idle gives one second's worth.
    advance(server, 60)
    assert [try_put_any(ddb, name, str(i)) for i in range(4)] == [True] * 3 + [False]
    # Reads have no maximum here.
    for _ in range(20):
        ddb.get_item(TableName=name, Key={"pk": {"S": "1"}})


def try_put_any(ddb, table, pk):
    try:
        ddb.put_item(TableName=table, Item={"pk": {"S": pk}})
        return True
    except ddb.exceptions.ClientError as error:
        assert error.response["Error"]["Code"] == "ThrottlingException"
        return False
