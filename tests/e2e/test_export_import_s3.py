"""Exports and imports through a real S3 API server: s3rver (npm, pinned by
tests/js/package-lock.json), which checks each request's access key (not
its V4 signature: tests/server/s3_client_test.cc checks that against AWS's
example).
localdynamo is started with --s3-endpoint and the server's credentials in
its environment; the test reads and writes the bucket with boto3's S3
client, as a user's job would."""

import gzip
import json

from .e2e_util import unique_name
from .s3rver_util import s3, s3_env  # noqa: F401 (s3 is a fixture)


def make_table(client, name):
    """A table with point-in-time recovery on, as an export needs."""
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    client.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})


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
            TableCreationParameters=creation(target),
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
            TableCreationParameters=creation(copy),
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


def creation(name):
    return {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}


def test_an_import_of_several_files_and_of_none(start_server, s3):
    # Every file's items are written; an empty prefix, or a bucket with
    # nothing in it, is a COMPLETED import of 0 items (2026-08).
    with start_server("--in-memory", "--no-models", "--s3-endpoint", s3.endpoint,
                      env=s3_env()) as srv:
        client = srv.client()
        for i in range(3):
            s3.put_object(Bucket="exports", Key="multi/part-%d.json" % i, Body="".join(
                '{"Item":{"pk":{"S":"f%d-%d"}}}\n' % (i, j) for j in range(4)).encode())
        several = unique_name("s3m")
        arn = client.import_table(
            S3BucketSource={"S3Bucket": "exports", "S3KeyPrefix": "multi/"},
            InputFormat="DYNAMODB_JSON",
            TableCreationParameters=creation(several))["ImportTableDescription"]["ImportArn"]
        done = client.describe_import(ImportArn=arn)["ImportTableDescription"]
        assert done["ImportStatus"] == "COMPLETED", done
        assert done["ImportedItemCount"] == 12
        assert client.scan(TableName=several, Select="COUNT")["Count"] == 12
        s3.create_bucket(Bucket="empty-bucket")
        for bucket, prefix in (("exports", "nothing-here/"), ("empty-bucket", "")):
            none = unique_name("s3n")
            arn = client.import_table(
                S3BucketSource={"S3Bucket": bucket, "S3KeyPrefix": prefix},
                InputFormat="DYNAMODB_JSON",
                TableCreationParameters=creation(none))["ImportTableDescription"]["ImportArn"]
            done = client.describe_import(ImportArn=arn)["ImportTableDescription"]
            assert done["ImportStatus"] == "COMPLETED", done
            assert (done["ProcessedItemCount"], done["ImportedItemCount"]) == (0, 0)
            assert client.scan(TableName=none)["Items"] == []


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
