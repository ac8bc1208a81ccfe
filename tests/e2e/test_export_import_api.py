"""ExportTableToPointInTime, DescribeExport, ListExports, ImportTable,
DescribeImport and ListImports through boto3: a table's items at an instant
(or its changes over a window) written as DynamoDB's export to S3, and a new
table filled from S3 objects in DYNAMODB_JSON, ION or CSV. The buckets are a
folder each under <data-dir>/s3 here; test_export_import_s3.py runs the same
requests against a real S3 server. Texts are those real DynamoDB answered
(docs/compatibility.md)."""

import base64
import gzip
import hashlib
import json
import subprocess

import pytest

from .e2e_util import expect_error, unique_name
from .server_util import admin_ok

ACCOUNT = "000000000000"


def advance(srv, millis):
    admin_ok(srv.url, "clock", {"AdvanceMillis": millis, "Freeze": True})


def now_millis(srv):
    return admin_ok(srv.url, "clock")["NowMillis"]


def table_arn(name):
    return "arn:aws:dynamodb:us-east-1:{}:table/{}".format(ACCOUNT, name)


def make_table(client, name, recovery=True):
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    if recovery:
        client.update_continuous_backups(
            TableName=name,
            PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})


def creation(name, key_type="S"):
    return {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": key_type}]}


def scan_sorted(client, name):
    return sorted(client.scan(TableName=name, ConsistentRead=True)["Items"],
                  key=lambda item: json.dumps(item["pk"], sort_keys=True))


def read_lines(path):
    return gzip.decompress(path.read_bytes()).decode().splitlines()


RICH_ITEM = {"pk": {"S": "rich"}, "n": {"N": "600"}, "f": {"N": "1.5"},
             "b": {"B": b"\x00\xff"}, "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "20"]},
             "bs": {"BS": [b"x"]}, "t": {"BOOL": True}, "z": {"NULL": True},
             "m": {"M": {"odd name": {"S": "q\"uote\n"}, "l": {"L": [{"N": "-7"}, {"S": ""}]}}}}


@pytest.fixture
def srv(start_server, tmp_path):
    # A bucket is a folder that exists, as an S3 bucket is made before an
    # export writes to it: "exports" is made here, as a user would.
    (tmp_path / "data" / "s3" / "exports").mkdir(parents=True)
    with start_server("--data-dir", str(tmp_path / "data"), "--no-models") as server:
        advance(server, 0)
        server.buckets = tmp_path / "data" / "s3"
        yield server


def test_full_export_writes_dynamodbs_layout_at_the_instant_asked(srv):
    client = srv.client()
    name = unique_name("exp")
    make_table(client, name)
    # Between whole seconds: botocore sends the instant's milliseconds.
    at = now_millis(srv) + 1500
    advance(srv, at - now_millis(srv))
    client.put_item(TableName=name, Item={"pk": {"S": "early"}})
    client.put_item(TableName=name, Item=RICH_ITEM)
    advance(srv, 5000)
    client.put_item(TableName=name, Item={"pk": {"S": "late"}})
    client.delete_item(TableName=name, Key={"pk": {"S": "early"}})

    started = client.export_table_to_point_in_time(
        TableArn=table_arn(name), S3Bucket="exports", S3Prefix="nightly",
        ExportTime=at / 1000.0)["ExportDescription"]
    # The first answer is DynamoDB's: started, without the finished members.
    assert started["ExportStatus"] == "IN_PROGRESS"
    assert started["ExportFormat"] == "DYNAMODB_JSON"
    assert started["S3SseAlgorithm"] == "AES256"
    assert "ExportType" not in started  # echoed only when sent
    for member in ("EndTime", "ExportManifest", "ItemCount", "BilledSizeBytes"):
        assert member not in started
    export_id = started["ExportArn"].rsplit("/", 1)[1]
    assert started["ExportArn"] == table_arn(name) + "/export/" + export_id
    assert export_id.startswith("%014d-" % int(started["StartTime"].timestamp() * 1000))

    done = client.describe_export(ExportArn=started["ExportArn"])["ExportDescription"]
    assert done["ExportStatus"] == "COMPLETED"
    assert done["ItemCount"] == 2
    assert done["ExportManifest"] == "nightly/AWSDynamoDB/{}/manifest-summary.json".format(
        export_id)

    root = srv.buckets / "exports" / "nightly" / "AWSDynamoDB" / export_id
    assert sorted(p.name for p in root.iterdir()) == [
        "_started", "data", "manifest-files.json", "manifest-files.md5",
        "manifest-summary.json", "manifest-summary.md5"]
    summary_text = (root / "manifest-summary.json").read_bytes()
    assert (root / "manifest-summary.md5").read_text() == \
        base64.b64encode(hashlib.md5(summary_text).digest()).decode()
    summary = json.loads(summary_text)
    assert summary["version"] == "2020-06-30"
    assert summary["exportArn"] == started["ExportArn"]
    assert summary["itemCount"] == 2 and summary["outputFormat"] == "DYNAMODB_JSON"
    assert summary["s3Bucket"] == "exports" and summary["s3Prefix"] == "nightly"
    files = [json.loads(line) for line in (root / "manifest-files.json").read_text().splitlines()]
    assert len(files) == 1 and files[0]["itemCount"] == 2
    data = srv.buckets / "exports" / files[0]["dataFileS3Key"]
    assert files[0]["md5Checksum"] == base64.b64encode(
        hashlib.md5(data.read_bytes()).digest()).decode()
    items = sorted((json.loads(line)["Item"] for line in read_lines(data)),
                   key=lambda item: item["pk"]["S"])
    # The items at the instant: "early" still there, "late" not yet.
    assert [i["pk"]["S"] for i in items] == ["early", "rich"]
    assert items[1]["m"]["M"]["odd name"] == {"S": "q\"uote\n"}
    assert items[1]["b"] == {"B": base64.b64encode(b"\x00\xff").decode()}


def test_ion_export_and_import_round_trip_every_type(srv):
    client = srv.client()
    name = unique_name("ion")
    make_table(client, name)
    client.put_item(TableName=name, Item=RICH_ITEM)
    client.put_item(TableName=name, Item={"pk": {"S": "plain"}, "n": {"N": "103"}})
    done_arn = client.export_table_to_point_in_time(
        TableArn=table_arn(name), S3Bucket="exports", ExportFormat="ION")["ExportDescription"]
    export_id = done_arn["ExportArn"].rsplit("/", 1)[1]
    data_dir = srv.buckets / "exports" / "AWSDynamoDB" / export_id / "data"
    (data_file,) = list(data_dir.iterdir())
    assert data_file.name.endswith(".ion.gz")
    lines = read_lines(data_file)
    plain = [line for line in lines if '"plain"' in line]
    # DynamoDB's ION: a version marker per line, decimals, annotated sets.
    assert plain == ['$ion_1_0 {Item:{n:103.,pk:"plain"}}']
    rich = [line for line in lines if '"rich"' in line][0]
    assert "n:6d2" in rich and "f:1.5" in rich and 'ss:$dynamodb_SS::["a","b"]' in rich
    assert "b:{{AP8=}}" in rich and "z:null" in rich

    target = unique_name("ionin")
    imported = client.import_table(
        S3BucketSource={"S3Bucket": "exports",
                        "S3KeyPrefix": "AWSDynamoDB/{}/data/".format(export_id)},
        InputFormat="ION", InputCompressionType="GZIP",
        TableCreationParameters=creation(target))["ImportTableDescription"]
    described = client.describe_import(ImportArn=imported["ImportArn"])["ImportTableDescription"]
    assert described["ImportStatus"] == "COMPLETED", described
    assert scan_sorted(client, target) == scan_sorted(client, name)


def test_export_refusals_in_dynamodbs_words(srv):
    client = srv.client()
    name = unique_name("exr")
    make_table(client, name, recovery=False)
    with expect_error("PointInTimeRecoveryUnavailableException",
                      "^Point in time recovery is not enabled for table '{}'$".format(name)):
        client.export_table_to_point_in_time(TableArn=table_arn(name), S3Bucket="exports")
    missing = table_arn(unique_name("none"))
    with expect_error("TableNotFoundException", "^Table not found: {}$".format(missing)):
        client.export_table_to_point_in_time(TableArn=missing, S3Bucket="exports")
    with expect_error("ValidationException",
                      "^One or more parameter values were invalid: tableArn is not a valid ARN$"):
        client.export_table_to_point_in_time(TableArn=name, S3Bucket="exports")
    client.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    with expect_error("InvalidExportTimeException", "^Export Time is invalid$"):
        client.export_table_to_point_in_time(TableArn=table_arn(name), S3Bucket="exports",
                                             ExportTime=now_millis(srv) / 1000.0 + 3600)
    with expect_error("ValidationException",
                      "^Invalid Request: KMS Key Id is not supported for this encryption type$"):
        client.export_table_to_point_in_time(TableArn=table_arn(name), S3Bucket="exports",
                                             S3SseKmsKeyId="key")
    with expect_error("ValidationException",
                      "^1 validation error detected: Value 'CSV' at 'exportFormat' failed to "
                      "satisfy constraint: Member must satisfy enum value set: "
                      r"\[DYNAMODB_JSON, ION\]$"):
        client.export_table_to_point_in_time(TableArn=table_arn(name), S3Bucket="exports",
                                             ExportFormat="CSV")
    with expect_error("ValidationException",
                      "^Invalid Request: Incremental Export Specification expected when export "
                      "type is set as Incremental Export$"):
        client.export_table_to_point_in_time(TableArn=table_arn(name), S3Bucket="exports",
                                             ExportType="INCREMENTAL_EXPORT")

    first = client.export_table_to_point_in_time(
        TableArn=table_arn(name), S3Bucket="exports", ClientToken="tok")["ExportDescription"]
    again = client.export_table_to_point_in_time(
        TableArn=table_arn(name), S3Bucket="exports", ClientToken="tok")["ExportDescription"]
    assert again["ExportArn"] == first["ExportArn"]
    with expect_error("ExportConflictException",
                      "^Export conflict: Duplicate request detected with conflicting "
                      "parameters$"):
        client.export_table_to_point_in_time(TableArn=table_arn(name), S3Bucket="other",
                                             ClientToken="tok")

    bad_arn = first["ExportArn"][:-8] + "00000000"
    with expect_error("ExportNotFoundException",
                      "^Export not found: Export not found: {}$".format(bad_arn)):
        client.describe_export(ExportArn=bad_arn)
    with expect_error("ValidationException", "^Invalid Export ARN$"):
        client.describe_export(ExportArn=table_arn(name) + "/stream/2026-01-01T00:00:00.000")


def test_incremental_export_writes_each_items_last_change_in_the_window(srv):
    client = srv.client()
    name = unique_name("inc")
    make_table(client, name)
    client.put_item(TableName=name, Item={"pk": {"S": "kept"}, "v": {"S": "0"}})
    client.put_item(TableName=name, Item={"pk": {"S": "changed"}, "v": {"S": "old"}})
    client.put_item(TableName=name, Item={"pk": {"S": "gone"}, "v": {"S": "x"}})
    advance(srv, 60_000)
    start = now_millis(srv)
    advance(srv, 1)
    client.put_item(TableName=name, Item={"pk": {"S": "changed"}, "v": {"S": "mid"}})
    client.put_item(TableName=name, Item={"pk": {"S": "changed"}, "v": {"S": "new"}})
    last_write = now_millis(srv)
    client.delete_item(TableName=name, Key={"pk": {"S": "gone"}})
    client.put_item(TableName=name, Item={"pk": {"S": "born"}, "v": {"S": "1"}})
    client.put_item(TableName=name, Item={"pk": {"S": "fleeting"}})
    client.delete_item(TableName=name, Key={"pk": {"S": "fleeting"}})
    advance(srv, 20 * 60_000)

    def export(view, **window):
        spec = {"ExportFromTime": start / 1000.0, "ExportViewType": view}
        spec.update(window)
        return client.export_table_to_point_in_time(
            TableArn=table_arn(name), S3Bucket="exports", S3Prefix=view,
            ExportType="INCREMENTAL_EXPORT",
            IncrementalExportSpecification=spec)["ExportDescription"]

    with expect_error("InvalidExportTimeException",
                      "^Difference between export period from time and export period to time "
                      "is less than 15 minutes$"):
        export("NEW_IMAGE", ExportToTime=(start + 60_000) / 1000.0)
    with expect_error("InvalidExportTimeException",
                      "^Incremental export period to time cannot be greater than the current "
                      "time : "):
        export("NEW_IMAGE", ExportToTime=(now_millis(srv) + 60_000) / 1000.0)

    def changes(view):
        started = export(view)
        assert started["ExportType"] == "INCREMENTAL_EXPORT"
        assert started["IncrementalExportSpecification"]["ExportViewType"] == view
        done = client.describe_export(ExportArn=started["ExportArn"])["ExportDescription"]
        assert done["ExportStatus"] == "COMPLETED" and "ExportTime" not in done
        assert done["BilledSizeBytes"] == 10_000_000  # DynamoDB's minimum
        summary = json.loads((srv.buckets / "exports" / done["ExportManifest"]).read_text())
        assert summary["version"] == "2023-08-01" and summary["outputView"] == view
        assert "exportTime" not in summary
        (entry,) = [json.loads(line) for line in (srv.buckets / "exports" / summary[
            "manifestFilesS3Key"]).read_text().splitlines()]
        # Incremental data files share one folder.
        assert entry["dataFileS3Key"].startswith(view + "/AWSDynamoDB/data/")
        lines = [json.loads(line)
                 for line in read_lines(srv.buckets / "exports" / entry["dataFileS3Key"])]
        return {line["Keys"]["pk"]["S"]: line for line in lines}

    both = changes("NEW_AND_OLD_IMAGES")
    assert sorted(both) == ["born", "changed", "gone"]  # "fleeting" came and went
    assert both["changed"]["OldImage"]["v"] == {"S": "old"}
    assert both["changed"]["NewImage"]["v"] == {"S": "new"}
    assert both["changed"]["Metadata"]["WriteTimestampMicros"] == {"N": str(last_write * 1000)}
    assert "NewImage" not in both["gone"] and both["gone"]["OldImage"]["v"] == {"S": "x"}
    assert "OldImage" not in both["born"]
    new_only = changes("NEW_IMAGE")
    assert "OldImage" not in new_only["changed"]
    assert set(new_only["gone"]) == {"Metadata", "Keys"}


def test_an_export_to_a_bucket_that_is_not_there_fails_as_s3_answers(srv):
    # The folder-per-bucket mode makes no bucket on demand (2026-08): the
    # export ends FAILED with S3's NoSuchBucket, and no folder appears.
    client = srv.client()
    name = unique_name("nob")
    make_table(client, name)
    arn = client.export_table_to_point_in_time(
        TableArn=table_arn(name), S3Bucket="not-made-yet")["ExportDescription"]["ExportArn"]
    failed = client.describe_export(ExportArn=arn)["ExportDescription"]
    assert failed["ExportStatus"] == "FAILED"
    assert failed["FailureCode"] == "S3NoSuchBucket"
    assert failed["FailureMessage"].startswith("The specified bucket does not exist")
    assert not (srv.buckets / "not-made-yet").exists()
    # Made as a folder, the same bucket takes the export.
    (srv.buckets / "not-made-yet").mkdir()
    arn = client.export_table_to_point_in_time(
        TableArn=table_arn(name), S3Bucket="not-made-yet")["ExportDescription"]["ExportArn"]
    assert client.describe_export(ExportArn=arn)["ExportDescription"]["ExportStatus"] == \
        "COMPLETED"


def test_list_exports_newest_first_with_paging(srv):
    client = srv.client()
    name = unique_name("lst")
    make_table(client, name)
    arns = []
    for _ in range(3):
        arns.append(client.export_table_to_point_in_time(
            TableArn=table_arn(name), S3Bucket="exports")["ExportDescription"]["ExportArn"])
        advance(srv, 1)
    page = client.list_exports(TableArn=table_arn(name), MaxResults=2)
    assert [s["ExportArn"] for s in page["ExportSummaries"]] == arns[::-1][:2]
    newest = client.list_exports(TableArn=table_arn(name), MaxResults=1)
    assert newest["ExportSummaries"] == [{"ExportArn": arns[2], "ExportStatus": "COMPLETED",
                                          "ExportType": "FULL_EXPORT"}]
    rest = client.list_exports(TableArn=table_arn(name), MaxResults=2,
                               NextToken=page["NextToken"])
    assert [s["ExportArn"] for s in rest["ExportSummaries"]] == [arns[0]]
    assert "NextToken" not in rest
    with expect_error("ValidationException",
                      "^Invalid Request: Provided nextToken is invalid: nope$"):
        client.list_exports(NextToken="nope")


def write_object(srv, bucket, key, data):
    path = srv.buckets / bucket / key
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def describe_import(client, arn):
    return client.describe_import(ImportArn=arn)["ImportTableDescription"]


def test_import_csv_types_keys_by_their_definitions_and_leaves_empty_columns_out(srv):
    client = srv.client()
    write_object(srv, "in", "csv/a.csv",
                 b'pk,name,note\n1,Ann,"says ""hi"", twice"\n2,,plain\n')
    write_object(srv, "in", "csv/b.csv", b"3,Cy,\n")
    name = unique_name("csv")
    first = client.import_table(
        S3BucketSource={"S3Bucket": "in", "S3KeyPrefix": "csv/a"}, InputFormat="CSV",
        TableCreationParameters=creation(name, "N"))["ImportTableDescription"]
    assert first["ImportStatus"] == "IN_PROGRESS"
    assert first["ProcessedItemCount"] == 0 and first["ErrorCount"] == 0
    assert first["InputCompressionType"] == "NONE"
    assert first["S3BucketSource"]["S3BucketOwner"] == ACCOUNT
    assert first["CloudWatchLogGroupArn"] == \
        "arn:aws:logs:us-east-1:{}:log-group:/aws-dynamodb/imports:*".format(ACCOUNT)
    done = describe_import(client, first["ImportArn"])
    assert done["ImportStatus"] == "COMPLETED"
    assert (done["ProcessedItemCount"], done["ImportedItemCount"], done["ErrorCount"]) == (2, 2, 0)
    assert scan_sorted(client, name) == [
        {"pk": {"N": "1"}, "name": {"S": "Ann"}, "note": {"S": 'says "hi", twice'}},
        {"pk": {"N": "2"}, "note": {"S": "plain"}}]

    # A header list and another delimiter: every line is data.
    write_object(srv, "in", "semi/x.csv", b"7;Dee\n8;Eve\n")
    other = unique_name("csv")
    arn = client.import_table(
        S3BucketSource={"S3Bucket": "in", "S3KeyPrefix": "semi/"}, InputFormat="CSV",
        InputFormatOptions={"Csv": {"Delimiter": ";", "HeaderList": ["pk", "name"]}},
        TableCreationParameters=creation(other, "N"))["ImportTableDescription"]["ImportArn"]
    assert describe_import(client, arn)["InputFormatOptions"] == {
        "Csv": {"Delimiter": ";", "HeaderList": ["pk", "name"]}}
    assert [i["name"]["S"] for i in scan_sorted(client, other)] == ["Dee", "Eve"]


def test_import_reads_gzip_and_zstd_and_counts_bad_items(srv):
    client = srv.client()
    lines = b'{"Item":{"pk":{"S":"a"}}}\n\n{"Item":{"pk":{"S":"b"},"n":{"N":"1"}}}\n'
    write_object(srv, "in", "gz/1.json.gz", gzip.compress(lines))
    zstd = subprocess.run(["zstd", "-q", "-c"], input=lines.replace(b'"a"', b'"c"').replace(
        b'"b"', b'"d"'), stdout=subprocess.PIPE, check=True).stdout
    write_object(srv, "in", "zst/1.json.zst", zstd)
    for prefix, compression, keys in (("gz/", "GZIP", ["a", "b"]), ("zst/", "ZSTD", ["c", "d"])):
        name = unique_name("cmp")
        arn = client.import_table(
            S3BucketSource={"S3Bucket": "in", "S3KeyPrefix": prefix},
            InputFormat="DYNAMODB_JSON", InputCompressionType=compression,
            TableCreationParameters=creation(name))["ImportTableDescription"]["ImportArn"]
        assert describe_import(client, arn)["ImportStatus"] == "COMPLETED"
        assert [i["pk"]["S"] for i in scan_sorted(client, name)] == keys

    # The first bad record ends its object; other objects still load.
    write_object(srv, "in", "bad/1.json",
                 b'{"Item":{"pk":{"S":"ok"}}}\n{"Item":{"other":{"S":"x"}}}\n'
                 b'{"Item":{"pk":{"S":"skipped"}}}\n')
    write_object(srv, "in", "bad/2.json", b'not json\n')
    write_object(srv, "in", "bad/3.json", b'{"Item":{"pk":{"S":"fine"}}}\n')
    name = unique_name("bad")
    arn = client.import_table(
        S3BucketSource={"S3Bucket": "in", "S3KeyPrefix": "bad/"}, InputFormat="DYNAMODB_JSON",
        TableCreationParameters=creation(name))["ImportTableDescription"]["ImportArn"]
    done = describe_import(client, arn)
    assert done["ImportStatus"] == "FAILED"
    assert done["FailureCode"] == "ItemValidationError"
    assert done["FailureMessage"] == (
        "Some of the items failed validation checks and were not imported. Please check "
        "CloudWatch error logs for more details.")
    assert (done["ProcessedItemCount"], done["ImportedItemCount"], done["ErrorCount"]) == (4, 2, 2)
    assert [i["pk"]["S"] for i in scan_sorted(client, name)] == ["fine", "ok"]


def test_import_reads_several_objects_on_one_line(srv):
    # DynamoDB JSON input may hold more than one object on a line (2026-08).
    client = srv.client()
    write_object(srv, "in", "packed/1.json",
                 b'{"Item":{"pk":{"S":"a"}}} {"Item":{"pk":{"S":"b"}}}\n'
                 b'{"Item":{"pk":{"S":"c"}}}{"Item":{"pk":{"S":"d"}}}\n\n{"Item":{"pk":{"S":"e"}}}')
    name = unique_name("packed")
    arn = client.import_table(
        S3BucketSource={"S3Bucket": "in", "S3KeyPrefix": "packed/"}, InputFormat="DYNAMODB_JSON",
        TableCreationParameters=creation(name))["ImportTableDescription"]["ImportArn"]
    done = describe_import(client, arn)
    assert done["ImportStatus"] == "COMPLETED", done
    assert (done["ProcessedItemCount"], done["ImportedItemCount"]) == (5, 5)
    assert [i["pk"]["S"] for i in scan_sorted(client, name)] == ["a", "b", "c", "d", "e"]


def test_import_checks_the_table_parameters_at_the_call(srv):
    # As CreateTable checks them: ImportTable itself refuses, and nothing is
    # imported or created (2026-08; a failed import later, before).
    client = srv.client()
    name = unique_name("prov")
    before = len(client.list_imports()["ImportSummaryList"])
    with expect_error("ValidationException", "^One or more parameter values were invalid: "
                      "ReadCapacityUnits and WriteCapacityUnits must both be specified when "
                      "BillingMode is PROVISIONED$"):
        client.import_table(S3BucketSource={"S3Bucket": "in"}, InputFormat="DYNAMODB_JSON",
                            TableCreationParameters=dict(creation(name),
                                                         BillingMode="PROVISIONED"))
    assert len(client.list_imports()["ImportSummaryList"]) == before
    assert name not in client.list_tables()["TableNames"]


def test_import_refusals_and_outcomes(srv):
    client = srv.client()
    existing = unique_name("imp")
    make_table(client, existing, recovery=False)
    with expect_error("ResourceInUseException", "^Table already exists: {}$".format(existing)):
        client.import_table(S3BucketSource={"S3Bucket": "in"}, InputFormat="CSV",
                            TableCreationParameters=creation(existing))
    with expect_error("ValidationException",
                      "^Invalid Request: Unsupported InputFormatOptions for the given input "
                      "format: DYNAMODB_JSON.$"):
        client.import_table(S3BucketSource={"S3Bucket": "in"}, InputFormat="DYNAMODB_JSON",
                            InputFormatOptions={"Csv": {"Delimiter": ","}},
                            TableCreationParameters=creation(unique_name("x")))
    with expect_error("ValidationException",
                      "^1 validation error detected: Value 'BZIP2' at 'inputCompressionType' "
                      r"failed to satisfy constraint: Member must satisfy enum value set: "
                      r"\[ZSTD, NONE, GZIP\]$"):
        client.import_table(
            ClientToken="t1", S3BucketSource={"S3Bucket": "in"}, InputFormat="CSV",
            InputCompressionType="BZIP2", TableCreationParameters=creation("abc"))

    # No such bucket: FAILED, and no table.
    name = unique_name("nob")
    arn = client.import_table(
        S3BucketSource={"S3Bucket": "no-such-bucket"}, InputFormat="CSV",
        TableCreationParameters=creation(name))["ImportTableDescription"]["ImportArn"]
    done = describe_import(client, arn)
    assert done["ImportStatus"] == "FAILED" and done["FailureCode"] == "S3NoSuchBucket"
    assert name not in client.list_tables()["TableNames"]

    advance(srv, 1)  # imports are listed newest first, by their start
    # A prefix naming no object: COMPLETED, with an empty table.
    write_object(srv, "in", "some/thing.csv", b"pk\nx\n")
    empty = unique_name("emp")
    token_import = client.import_table(
        ClientToken="same", S3BucketSource={"S3Bucket": "in", "S3KeyPrefix": "nothing/"},
        InputFormat="CSV", TableCreationParameters=creation(empty))["ImportTableDescription"]
    assert describe_import(client, token_import["ImportArn"])["ImportStatus"] == "COMPLETED"
    assert client.scan(TableName=empty)["Items"] == []
    with expect_error("ImportConflictException",
                      "^Import conflict: Duplicate request detected with conflicting "
                      "parameters$"):
        client.import_table(ClientToken="same", S3BucketSource={"S3Bucket": "in"},
                            InputFormat="CSV", TableCreationParameters=creation("other-table"))

    missing = token_import["ImportArn"][:-8] + "00000000"
    with expect_error("ImportNotFoundException"):
        client.describe_import(ImportArn=missing)
    with expect_error("ValidationException", "^Invalid Import ARN$"):
        client.describe_import(ImportArn=table_arn(empty) + "/export/01234567890123-abcdef12")

    listed = client.list_imports(PageSize=1)
    assert [s["ImportArn"] for s in listed["ImportSummaryList"]] == [token_import["ImportArn"]]
    assert set(listed["ImportSummaryList"][0]) == {
        "ImportArn", "ImportStatus", "TableArn", "S3BucketSource", "CloudWatchLogGroupArn",
        "InputFormat", "StartTime", "EndTime"}
    following = client.list_imports(PageSize=1, NextToken=listed["NextToken"])
    assert [s["ImportArn"] for s in following["ImportSummaryList"]] == [arn]
    assert client.list_imports(TableArn=table_arn(name))["ImportSummaryList"][0][
        "ImportArn"] == arn


def test_descriptions_survive_a_restart(start_server, tmp_path):
    data = str(tmp_path / "data")
    (tmp_path / "data" / "s3" / "exports").mkdir(parents=True)
    with start_server("--data-dir", data, "--no-models") as srv:
        client = srv.client()
        name = unique_name("rst")
        make_table(client, name)
        client.put_item(TableName=name, Item={"pk": {"S": "a"}})
        export_arn = client.export_table_to_point_in_time(
            TableArn=table_arn(name), S3Bucket="exports")["ExportDescription"]["ExportArn"]
        export_id = export_arn.rsplit("/", 1)[1]
        copy = unique_name("cpy")
        import_arn = client.import_table(
            S3BucketSource={"S3Bucket": "exports",
                            "S3KeyPrefix": "AWSDynamoDB/{}/data/".format(export_id)},
            InputFormat="DYNAMODB_JSON", InputCompressionType="GZIP",
            TableCreationParameters=creation(copy))["ImportTableDescription"]["ImportArn"]
    with start_server("--data-dir", data, "--no-models") as srv:
        client = srv.client()
        assert client.describe_export(ExportArn=export_arn)["ExportDescription"][
            "ItemCount"] == 1
        assert describe_import(client, import_arn)["ImportedItemCount"] == 1
        assert client.scan(TableName=copy)["Items"] == [{"pk": {"S": "a"}}]
