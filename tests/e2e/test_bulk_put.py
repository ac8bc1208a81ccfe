"""StartBulkPutItems, DescribeBulkOperation, ListBulkOperations and
CancelBulkOperation through boto3, reading objects from a real S3 API
server (s3rver, s3rver_util.py) into an existing table."""

import gzip
import json

import pytest
from botocore.exceptions import ClientError

from .e2e_util import unique_name
from .s3rver_util import s3, s3_env  # noqa: F401 (s3 is a fixture)
from .server_util import admin_ok, wait_for

BUCKET = "exports"


def make_table(client, name):
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])


def json_lines(items):
    return "".join(json.dumps({"Item": item}) + "\n" for item in items).encode()


def start(client, table, prefix, fmt="DYNAMODB_JSON", compression=None, **extra):
    source = {"S3Bucket": BUCKET, "S3KeyPrefix": prefix, "InputFormat": fmt}
    if compression:
        source["InputCompressionType"] = compression
    return client.start_bulk_put_items(
        TableName=table, InputS3Configuration=source,
        OutputS3Configuration={"S3Bucket": BUCKET, "S3KeyPrefix": "reports",
                               "OutputType": ["ERROR"]},
        **extra)["BulkOperationDescription"]


def describe(client, arn):
    return client.describe_bulk_operation(BulkOperationArn=arn)["BulkOperationDescription"]


def error_of(call):
    with pytest.raises(ClientError) as info:
        call()
    return info.value.response["Error"]


@pytest.fixture
def bulk(start_server, s3):
    with start_server("--in-memory", "--no-models", "--s3-endpoint", s3.endpoint,
                      env=s3_env()) as srv:
        yield srv.client(), s3


def test_items_from_json_gzip_and_ion_objects_overwrite_the_table(bulk):
    client, s3 = bulk
    table = unique_name("bulk")
    make_table(client, table)
    client.put_item(TableName=table, Item={"pk": {"S": "a"}, "old": {"S": "yes"}})
    s3.put_object(Bucket=BUCKET, Key="in/one.json",
                  Body=json_lines([{"pk": {"S": "a"}, "n": {"N": "1"}},
                                   {"pk": {"S": "b"}, "n": {"N": "2"}}]))
    s3.put_object(Bucket=BUCKET, Key="gz/two.json.gz",
                  Body=gzip.compress(json_lines([{"pk": {"S": "c"}, "n": {"N": "3"}}])))
    s3.put_object(Bucket=BUCKET, Key="ion/three.ion",
                  Body=b'$ion_1_0 {Item:{pk:"d",n:4.}}\n$ion_1_0 {Item:{pk:"e",s:"five"}}\n')

    first = start(client, table, "in/")
    assert first["BulkOperationStatus"] == "IN_PROGRESS"
    assert "EndTime" not in first
    arn = first["BulkOperationArn"]
    assert arn.startswith(
        "arn:aws:dynamodb:us-east-1:000000000000:table/{}/bulk-operation/".format(table))
    done = describe(client, arn)
    assert done["BulkOperationStatus"] == "COMPLETED", done
    assert done["ProcessedItemCount"] == 2 and done["FailedItemCount"] == 0
    assert done["TableDetails"][0]["TableName"] == table
    assert done["TableDetails"][0]["TableId"] == \
        client.describe_table(TableName=table)["Table"]["TableId"]
    assert done["TotalInputBytes"] == done["ProcessedInputBytes"] > 0
    assert done["BulkOperationUsage"][0]["BulkPutBytes"] > 0
    assert done["PerformanceTier"] == "STANDARD"
    assert done["EndTime"] >= done["StartTime"]

    # The table given by its ARN; the gzip and ION objects.
    table_arn = client.describe_table(TableName=table)["Table"]["TableArn"]
    gz = start(client, table_arn, "gz/", compression="GZIP")
    ion = start(client, table, "ion/", fmt="ION")
    for op in (gz, ion):
        assert describe(client, op["BulkOperationArn"])["BulkOperationStatus"] == "COMPLETED"

    items = {i["pk"]["S"]: i for i in client.scan(TableName=table)["Items"]}
    assert items["a"] == {"pk": {"S": "a"}, "n": {"N": "1"}}  # overwritten, not merged
    assert items["c"]["n"] == {"N": "3"}
    assert items["d"]["n"] == {"N": "4"} and items["e"]["s"] == {"S": "five"}
    assert sorted(items) == ["a", "b", "c", "d", "e"]

    # Newest first, a page at a time.
    listed = client.list_bulk_operations()["BulkOperationsSummaryList"]
    assert [o["BulkOperationArn"] for o in listed] == \
        [ion["BulkOperationArn"], gz["BulkOperationArn"], arn]
    assert listed[0]["BulkOperationStatus"] == "COMPLETED" and "StartTime" in listed[0]
    seen, token = [], None
    while True:
        page = client.list_bulk_operations(MaxResults=1, **({"NextToken": token} if token else {}))
        assert len(page["BulkOperationsSummaryList"]) <= 1
        seen += [o["BulkOperationArn"] for o in page["BulkOperationsSummaryList"]]
        token = page.get("NextToken")
        if not token:
            break
    assert seen == [o["BulkOperationArn"] for o in listed]

    # A finished operation cannot be cancelled (inferred: docs/compatibility.md).
    err = error_of(lambda: client.cancel_bulk_operation(BulkOperationArn=arn))
    assert err["Code"] == "ValidationException"
    assert describe(client, arn)["BulkOperationStatus"] == "COMPLETED"


def test_client_token_is_idempotent_and_a_mismatch_is_refused(bulk):
    client, s3 = bulk
    table = unique_name("bulk")
    make_table(client, table)
    s3.put_object(Bucket=BUCKET, Key="tok/a.json", Body=json_lines([{"pk": {"S": "x"}}]))
    one = start(client, table, "tok/", ClientToken="token-1")
    again = start(client, table, "tok/", ClientToken="token-1")
    assert again["BulkOperationArn"] == one["BulkOperationArn"]
    assert len(client.list_bulk_operations()["BulkOperationsSummaryList"]) == 1
    err = error_of(lambda: start(client, table, "other/", ClientToken="token-1"))
    assert err["Code"] == "IdempotentParameterMismatchException"


def test_a_malformed_line_is_counted_and_reported(bulk):
    client, s3 = bulk
    table = unique_name("bulk")
    make_table(client, table)
    s3.put_object(Bucket=BUCKET, Key="bad/a.json",
                  Body=json_lines([{"pk": {"S": "ok"}}]) + b"{not json\n")
    s3.put_object(Bucket=BUCKET, Key="bad/b.json",
                  Body=json_lines([{"nokey": {"S": "v"}}, {"pk": {"S": "ok2"}}]))
    op = start(client, table, "bad/")
    done = describe(client, op["BulkOperationArn"])
    assert done["BulkOperationStatus"] == "COMPLETED_WITH_ERRORS", done
    assert done["FailedItemCount"] == 2 and done["ProcessedItemCount"] == 4
    assert sorted(i["pk"]["S"] for i in client.scan(TableName=table)["Items"]) == ["ok", "ok2"]
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET, Prefix="reports/")["Contents"]]
    assert len(keys) == 1 and op["BulkOperationArn"].rsplit("/", 1)[1] in keys[0]
    lines = [json.loads(x) for x in
             s3.get_object(Bucket=BUCKET, Key=keys[0])["Body"].read().decode().splitlines()]
    assert sorted((r["key"], r["itemIndex"]) for r in lines) == [("bad/a.json", 1),
                                                                 ("bad/b.json", 0)]


def test_missing_table_and_unknown_operations(bulk):
    client, _ = bulk
    err = error_of(lambda: start(client, unique_name("none"), "in/"))
    assert err["Code"] == "ResourceNotFoundException"
    unknown = "arn:aws:dynamodb:us-east-1:000000000000:table/t/bulk-operation/" \
              "00000000000000-00000000"
    for call in (client.describe_bulk_operation, client.cancel_bulk_operation):
        assert error_of(lambda: call(BulkOperationArn=unknown))["Code"] == \
            "ResourceNotFoundException"


def test_constraints_are_checked_in_dynamodbs_words(bulk):
    client, _ = bulk
    table = unique_name("bulk")
    make_table(client, table)
    err = error_of(lambda: start(client, table, "in/", MaxWriteRequestUnits=10))
    assert err["Code"] == "ValidationException"
    assert err["Message"] == (
        "1 validation error detected: Value '10' at 'maxWriteRequestUnits' failed to satisfy "
        "constraint: Member must have value greater than or equal to 1024")
    err = error_of(lambda: start(client, table, "in/", PerformanceTier="FAST"))
    assert err["Message"] == (
        "1 validation error detected: Value 'FAST' at 'performanceTier' failed to satisfy "
        "constraint: Member must satisfy enum value set: [STANDARD, ACCELERATED]")
    err = error_of(lambda: client.start_bulk_put_items(
        TableName=table,
        InputS3Configuration={"S3Bucket": BUCKET, "InputFormat": "CSV"},
        OutputS3Configuration={"OutputType": ["ALL"]}))
    assert err["Message"] == (
        "2 validation errors detected: Value 'CSV' at 'inputS3Configuration.inputFormat' "
        "failed to satisfy constraint: Member must satisfy enum value set: "
        "[DYNAMODB_JSON, ION]; Value '[ALL]' at 'outputS3Configuration.outputType' failed to "
        "satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value "
        "set: [ERROR, CONDITION_CHECK_FAILURE]]")
    err = error_of(lambda: client.list_bulk_operations(MaxResults=26))
    assert err["Message"] == (
        "1 validation error detected: Value '26' at 'maxResults' failed to satisfy constraint: "
        "Member must have value less than or equal to 25")


def test_cancel_while_in_progress(start_server, s3):
    # New statuses show for half a second; the frozen clock keeps it running.
    with start_server("--in-memory", "--no-models", "-delayTransientStatuses",
                      "--s3-endpoint", s3.endpoint, env=s3_env()) as srv:
        client = srv.client()
        table = unique_name("bulk")
        make_table(client, table)
        wait_for(lambda: client.describe_table(TableName=table)["Table"]["TableStatus"] ==
                 "ACTIVE", what="the table")
        admin_ok(srv.url, "clock", {"Freeze": True})
        s3.put_object(Bucket=BUCKET, Key="c/a.json", Body=json_lines([{"pk": {"S": "k"}}]))
        arn = start(client, table, "c/")["BulkOperationArn"]
        assert describe(client, arn)["BulkOperationStatus"] == "IN_PROGRESS"
        answer = client.cancel_bulk_operation(BulkOperationArn=arn)
        assert answer["BulkOperationArn"] == arn
        assert answer["BulkOperationStatus"] == "CANCELLING"
        assert describe(client, arn)["BulkOperationStatus"] == "CANCELLED"
