"""Exports and imports through a real S3 API server: s3rver (npm, pinned by
tests/js/package-lock.json), which checks each request's access key (not
its V4 signature: tests/server/s3_client_test.cc checks that against AWS's
example).
localdynamo is started with --s3-endpoint and the server's credentials in
its environment; the test reads and writes the bucket with boto3's S3
client, as a user's job would."""

import gzip
import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import boto3
import pytest
from botocore.config import Config

from .e2e_util import unique_name

S3RVER = Path(__file__).resolve().parents[1] / "js" / "node_modules" / "s3rver" / "bin" / \
    "s3rver.js"
# s3rver's own credentials; a request from another access key is refused.
S3_KEY = "S3RVER"


@pytest.fixture
def s3(tmp_path):
    if not S3RVER.is_file():
        pytest.fail("tests/js has no node_modules: run scripts/setup.sh --tests")
    process = subprocess.Popen(
        [shutil.which("node"), str(S3RVER), "-d", str(tmp_path / "s3rver"), "-p", "0",
         "--configure-bucket", "exports"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        port = None
        while port is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            match = re.search(r"listening on [^:]+:(\d+)", line)
            if match:
                port = int(match.group(1))
        assert port, "s3rver did not start"
        endpoint = "http://127.0.0.1:{}".format(port)
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                              aws_access_key_id=S3_KEY, aws_secret_access_key=S3_KEY,
                              config=Config(s3={"addressing_style": "path"}))
        client.endpoint = endpoint
        yield client
    finally:
        process.terminate()
        process.wait(timeout=10)


def make_table(client, name):
    """A table with point-in-time recovery on, as an export needs."""
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    client.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})


def s3_env():
    return {"AWS_ACCESS_KEY_ID": S3_KEY, "AWS_SECRET_ACCESS_KEY": S3_KEY,
            "AWS_REGION": "us-east-1"}


def test_export_and_import_through_an_s3_server(start_server, s3):
    with start_server("--in-memory", "--no-models", "--s3-endpoint", s3.endpoint,
                      env=s3_env()) as srv:
        client = srv.client()
        name = unique_name("s3x")
        make_table(client, name)
        for i in range(30):
            client.put_item(TableName=name, Item={"pk": {"S": "key %02d" % i},
                                                  "n": {"N": str(i)}})
        arn = client.export_table_to_point_in_time(
            TableArn="arn:aws:dynamodb:us-east-1:000000000000:table/" + name,
            S3Bucket="exports", S3Prefix="jobs/nightly")["ExportDescription"]["ExportArn"]
        done = client.describe_export(ExportArn=arn)["ExportDescription"]
        assert done["ExportStatus"] == "COMPLETED", done
        summary = json.loads(s3.get_object(Bucket="exports", Key=done["ExportManifest"])[
            "Body"].read())
        assert summary["itemCount"] == 30
        files = s3.get_object(Bucket="exports", Key=summary["manifestFilesS3Key"])[
            "Body"].read().decode().splitlines()
        data_key = json.loads(files[0])["dataFileS3Key"]
        lines = gzip.decompress(s3.get_object(Bucket="exports", Key=data_key)["Body"].read())
        assert len(lines.decode().splitlines()) == 30

        # A CSV object a job put in the bucket, imported into a new table.
        s3.put_object(Bucket="exports", Key="incoming/people.csv",
                      Body=b"pk,age\nann,41\nbob,\n")
        target = unique_name("s3i")
        imported = client.import_table(
            S3BucketSource={"S3Bucket": "exports", "S3KeyPrefix": "incoming/"},
            InputFormat="CSV",
            TableCreationParameters={
                "TableName": target, "BillingMode": "PAY_PER_REQUEST",
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]},
        )["ImportTableDescription"]
        assert client.describe_import(ImportArn=imported["ImportArn"])[
            "ImportTableDescription"]["ImportStatus"] == "COMPLETED"
        items = sorted(client.scan(TableName=target)["Items"], key=lambda i: i["pk"]["S"])
        assert items == [{"pk": {"S": "ann"}, "age": {"S": "41"}}, {"pk": {"S": "bob"}}]

        # The export round-trips through ImportTable too.
        copy = unique_name("s3c")
        imported = client.import_table(
            S3BucketSource={"S3Bucket": "exports",
                            "S3KeyPrefix": data_key.rsplit("/", 1)[0] + "/"},
            InputFormat="DYNAMODB_JSON", InputCompressionType="GZIP",
            TableCreationParameters={
                "TableName": copy, "BillingMode": "PAY_PER_REQUEST",
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]},
        )["ImportTableDescription"]
        assert client.describe_import(ImportArn=imported["ImportArn"])[
            "ImportTableDescription"]["ImportedItemCount"] == 30

        # A bucket S3 does not have: DynamoDB's failure, from S3's answer.
        missing = client.export_table_to_point_in_time(
            TableArn="arn:aws:dynamodb:us-east-1:000000000000:table/" + name,
            S3Bucket="no-such-bucket")["ExportDescription"]["ExportArn"]
        failed = client.describe_export(ExportArn=missing)["ExportDescription"]
        assert failed["ExportStatus"] == "FAILED"
        assert failed["FailureCode"] == "S3NoSuchBucket"


def test_requests_carry_the_environments_credentials(start_server, s3):
    # s3rver knows one access key; a request signed with another is refused.
    env = s3_env()
    env["AWS_ACCESS_KEY_ID"] = "SOMEONE-ELSE"
    with start_server("--in-memory", "--no-models", "--s3-endpoint", s3.endpoint,
                      env=env) as srv:
        client = srv.client()
        name = unique_name("s3k")
        make_table(client, name)
        arn = client.export_table_to_point_in_time(
            TableArn="arn:aws:dynamodb:us-east-1:000000000000:table/" + name,
            S3Bucket="exports")["ExportDescription"]["ExportArn"]
        failed = client.describe_export(ExportArn=arn)["ExportDescription"]
        assert failed["ExportStatus"] == "FAILED"
        assert "InvalidAccessKeyId" in failed["FailureMessage"]
    assert s3.list_objects_v2(Bucket="exports").get("KeyCount", 0) == 0
