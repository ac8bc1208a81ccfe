"""localdynamo export / import / dump-models: the offline data commands.

Data is written through boto3 into a server's data directory; with the server
stopped the commands run on that directory; a fresh server on the imported
directory is then read back through boto3.  Also: an export shaped as AWS
writes one (built here by hand) imports, and the errors a user meets say
what to do.
"""

import base64
import gzip
import hashlib
import json
import os
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from .server_util import server_binary

pytestmark = pytest.mark.usefixtures("start_server")  # skipped with LOCALDYNAMO_URL

TABLE = "io-roundtrip"

SCHEMA = {
    "TableName": TABLE,
    "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "sk", "AttributeType": "N"},
                             {"AttributeName": "g", "AttributeType": "S"}],
    "GlobalSecondaryIndexes": [{"IndexName": "by-g",
                                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                "Projection": {"ProjectionType": "ALL"}}],
    "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
}

# One item per attribute type, and values that are easy to get wrong.
ITEMS = [
    {"pk": {"S": "types"}, "sk": {"N": "1"}, "g": {"S": "x"},
     "s": {"S": "héllo \u2603 \"quoted\" \\ back\nslash"}, "empty": {"S": ""},
     "n": {"N": "-12345678901234567890123456789.012345678"}, "big": {"N": "1E+125"},
     "b": {"B": b"\x00\x01\xfe\xff"}, "t": {"BOOL": True}, "f": {"BOOL": False},
     "null": {"NULL": True},
     "ss": {"SS": ["a", "b", "\u00e9"]}, "ns": {"NS": ["1", "2.5", "-3"]},
     "bs": {"BS": [b"\x00", b"\xff\x01"]},
     "l": {"L": [{"S": "x"}, {"N": "1"}, {"L": []}, {"M": {}}, {"NULL": True}]},
     "m": {"M": {"deep": {"M": {"er": {"L": [{"B": b"\x07"}, {"SS": ["q"]}]}}},
                 "": {"S": "empty name in a map"}}}},
] + [
    {"pk": {"S": "user#%03d" % i}, "sk": {"N": str(i)}, "g": {"S": "g%d" % (i % 3)},
     "expires": {"N": str(4102444800 + i)}}
    for i in range(60)
]


def run(*args, cwd=None):
    """Runs `localdynamo <args>`; returns (exit code, stdout, stderr)."""
    proc = subprocess.run([str(server_binary())] + [str(a) for a in args], cwd=cwd,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def run_ok(*args, cwd=None):
    code, out, err = run(*args, cwd=cwd)
    assert code == 0, "localdynamo {} exited {}\n{}{}".format(" ".join(map(str, args)), code,
                                                             out, err)
    return out, err


def scan_all(client, table, **kwargs):
    items, start = [], None
    while True:
        page = client.scan(TableName=table, **({"ExclusiveStartKey": start} if start else {}),
                           **kwargs)
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return items


def by_key(items):
    return {(i["pk"]["S"], Decimal(i["sk"]["N"])): i for i in items}


def normalized(item):
    """Sets compare as sets (their order is not part of the value)."""
    def norm(value):
        (kind, inner), = value.items()
        if kind in ("SS", "NS", "BS"):
            return kind, frozenset(Decimal(v) if kind == "NS" else v for v in inner)
        if kind == "N":
            return kind, Decimal(inner)
        if kind == "L":
            return kind, tuple(norm(v) for v in inner)
        if kind == "M":
            return kind, tuple(sorted((k, norm(v)) for k, v in inner.items()))
        return kind, inner
    return {k: norm(v) for k, v in item.items()}


@pytest.fixture
def populated(start_server, tmp_path):
    """A data directory holding TABLE (with TTL on) and ITEMS, written
    through boto3; the server is stopped again."""
    data = tmp_path / "source"
    with start_server("--data-dir", str(data)) as srv:
        client = srv.client()
        client.create_table(**SCHEMA)
        client.update_time_to_live(TableName=TABLE, TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
        for item in ITEMS:
            client.put_item(TableName=TABLE, Item=item)
        expected = scan_all(client, TABLE)
    assert len(expected) == len(ITEMS)
    return data, expected


def test_export_is_shaped_as_dynamodbs_export_to_s3(populated, tmp_path):
    # The export directory holds what AWS writes for one table: manifests with
    # counts and MD5s that match the gzip data files of {"Item": ...} lines.
    data, expected = populated
    out, _ = run_ok("export", "--data-dir", data, "--out", tmp_path / "exports", "--table", TABLE)
    export_dir = Path(out.strip())
    assert export_dir.parent == tmp_path / "exports" / TABLE / "AWSDynamoDB"
    export_id = export_dir.name
    assert len(export_id) == 23 and export_id[14] == "-", export_id
    assert (export_dir / "_started").is_file()

    summary = json.loads((export_dir / "manifest-summary.json").read_text())
    assert summary["version"] == "2020-06-30"
    assert summary["outputFormat"] == "DYNAMODB_JSON"
    assert summary["exportType"] == "FULL_EXPORT"
    assert summary["itemCount"] == len(ITEMS)
    assert summary["tableArn"].endswith(":table/" + TABLE)
    assert summary["exportArn"] == summary["tableArn"] + "/export/" + export_id
    assert summary["billedSizeBytes"] > 0
    assert summary["manifestFilesS3Key"] == "{}/AWSDynamoDB/{}/manifest-files.json".format(
        TABLE, export_id)
    assert summary["startTime"].endswith("Z") and summary["startTime"] <= summary["endTime"]

    lines = (export_dir / "manifest-files.json").read_text().splitlines()
    read_back = []
    for line in lines:
        entry = json.loads(line)
        assert entry["dataFileS3Key"].startswith("{}/AWSDynamoDB/{}/data/".format(TABLE, export_id))
        assert entry["dataFileS3Key"].endswith(".json.gz")
        path = export_dir / "data" / Path(entry["dataFileS3Key"]).name
        raw = path.read_bytes()
        assert raw[:2] == b"\x1f\x8b"
        digest = hashlib.md5(raw).digest()
        assert entry["md5Checksum"] == base64.b64encode(digest).decode()
        assert entry["etag"] == digest.hex()
        items = [json.loads(l) for l in gzip.decompress(raw).decode().splitlines()]
        assert entry["itemCount"] == len(items)
        assert all(list(i) == ["Item"] for i in items)
        read_back += [i["Item"] for i in items]
    assert sum(json.loads(l)["itemCount"] for l in lines) == len(ITEMS)
    # The lines are the items exactly as a Scan answers them (B as base64).
    wire = {(i["pk"]["S"], i["sk"]["N"]): i for i in read_back}
    types = wire[("types", "1")]
    assert types["b"] == {"B": base64.b64encode(b"\x00\x01\xfe\xff").decode()}
    assert types["n"] == {"N": "-12345678901234567890123456789.012345678"}
    assert len(wire) == len(ITEMS)


def test_export_import_round_trip(populated, tmp_path, start_server):
    # Export, then import the export into a fresh directory, creating the
    # table from the model dump-models wrote: every attribute type, the
    # index, the stream and TTL come back.
    data, expected = populated
    run_ok("export", "--data-dir", data, "--out", tmp_path / "exports")
    run_ok("dump-models", "--data-dir", data, "--out", tmp_path / "model")
    assert json.loads((tmp_path / "model" / "tables" / (TABLE + ".ttl.json")).read_text()) == {
        "TableName": TABLE,
        "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "expires"}}

    fresh = tmp_path / "fresh"
    _, err = run_ok("import", "--data-dir", fresh, "--create-table",
                    tmp_path / "model" / "tables" / (TABLE + ".json"), tmp_path / "exports" / TABLE)
    assert "created table " + TABLE in err
    assert "import {}: {} items in".format(TABLE, len(ITEMS)) in err

    with start_server("--data-dir", str(fresh)) as srv:
        client = srv.client()
        got = scan_all(client, TABLE)
        assert len(got) == len(expected)
        want = by_key(expected)
        for k, item in by_key(got).items():
            assert normalized(item) == normalized(want[k]), k
        desc = client.describe_table(TableName=TABLE)["Table"]
        assert desc["KeySchema"] == SCHEMA["KeySchema"]
        assert desc["GlobalSecondaryIndexes"][0]["IndexName"] == "by-g"
        assert desc["GlobalSecondaryIndexes"][0]["ItemCount"] == len(ITEMS)
        assert desc["StreamSpecification"] == SCHEMA["StreamSpecification"]
        ttl = client.describe_time_to_live(TableName=TABLE)["TimeToLiveDescription"]
        assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}
        on_index = client.query(TableName=TABLE, IndexName="by-g",
                                KeyConditionExpression="g = :g",
                                ExpressionAttributeValues={":g": {"S": "g1"}})
        assert on_index["Count"] == 20


def test_dump_models_writes_a_fixture_that_rebuilds_the_table(populated, tmp_path, start_server):
    # dump-models --items writes the model folder format (fixtures/README.md):
    # importing its items with its CreateTable request rebuilds the table.
    data, expected = populated
    out, _ = run_ok("dump-models", "--data-dir", data, "--out", tmp_path / "model", "--items")
    assert "({} items)".format(len(ITEMS)) in out
    request = json.loads((tmp_path / "model" / "tables" / (TABLE + ".json")).read_text())
    assert request == SCHEMA
    lines = (tmp_path / "model" / "items" / (TABLE + ".jsonl")).read_text().splitlines()
    assert len(lines) == len(ITEMS)
    assert all("Item" not in json.loads(line) for line in lines)  # bare items, as fixtures

    fresh = tmp_path / "fresh"
    run_ok("import", "--data-dir", fresh, "--create-table",
           tmp_path / "model" / "tables" / (TABLE + ".json"),
           tmp_path / "model" / "items" / (TABLE + ".jsonl"))
    with start_server("--data-dir", str(fresh)) as srv:
        got = by_key(scan_all(srv.client(), TABLE))
        want = by_key(expected)
        assert got.keys() == want.keys()
        assert all(normalized(got[k]) == normalized(want[k]) for k in want)


def write_aws_export(root, table, items_per_file):
    """Writes an export as `aws s3 sync` of a real one leaves it: the prefix,
    AWSDynamoDB/<id>/ with both manifests, their checksums, _started, and
    gzip data files (one empty, as for an empty partition)."""
    export_id = "01700000000000-1a2b3c4d"
    base = root / "AWSDynamoDB" / export_id
    (base / "data").mkdir(parents=True)
    (base / "_started").write_bytes(b"")
    manifest_lines, total = [], 0
    for n, items in enumerate(items_per_file):
        name = "abcdefghijklmnopqrstuvwx%02d.json.gz" % n
        body = gzip.compress("".join(json.dumps({"Item": i}) + "\n" for i in items).encode())
        (base / "data" / name).write_bytes(body)
        md5 = hashlib.md5(body)
        manifest_lines.append(json.dumps({
            "itemCount": len(items), "md5Checksum": base64.b64encode(md5.digest()).decode(),
            "etag": md5.hexdigest(),
            "dataFileS3Key": "prefix/AWSDynamoDB/{}/data/{}".format(export_id, name)}))
        total += len(items)
    files_text = "\n".join(manifest_lines) + "\n"
    (base / "manifest-files.json").write_text(files_text)
    (base / "manifest-files.md5").write_text(hashlib.md5(files_text.encode()).hexdigest())
    arn = "arn:aws:dynamodb:eu-west-1:123456789012:table/" + table
    summary = {
        "version": "2020-06-30", "exportArn": arn + "/export/" + export_id,
        "startTime": "2023-11-14T22:13:20.000Z", "endTime": "2023-11-14T22:18:20.000Z",
        "tableArn": arn, "tableId": "12345a12-abcd-123a-ab12-1234abc12345",
        "exportTime": "2023-11-14T22:13:20.000Z", "s3Bucket": "my-bucket", "s3Prefix": "prefix",
        "s3SseAlgorithm": "AES256", "s3SseKmsKeyId": None,
        "manifestFilesS3Key": "prefix/AWSDynamoDB/{}/manifest-files.json".format(export_id),
        "billedSizeBytes": 1234, "itemCount": total, "outputFormat": "DYNAMODB_JSON",
        "exportType": "FULL_EXPORT"}
    (base / "manifest-summary.json").write_text(json.dumps(summary))
    return base


def test_aws_shaped_export_imports(tmp_path, start_server):
    # A real export's layout imports; the table name comes from its tableArn.
    table = "Orders"
    items = [{"pk": {"S": "o%d" % i}, "total": {"N": str(i * 10)}, "b": {"B": "AAE="}}
             for i in range(7)]
    root = tmp_path / "prefix"
    write_aws_export(root, table, [items[:4], [], items[4:]])
    schema = tmp_path / "Orders.json"
    schema.write_text(json.dumps({
        "TableName": table, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}))
    data = tmp_path / "data"
    _, err = run_ok("import", "--data-dir", data, "--create-table", schema, root)
    assert "import Orders: 7 items in" in err
    # The plain (not gzip) data file of a hand-made export, without manifests,
    # into a differently named table created from the same request.
    plain = tmp_path / "plain.json"
    plain.write_text("".join(json.dumps({"Item": i}) + "\n" for i in items[:2]))
    run_ok("import", "--data-dir", data, "--table", "Orders2", "--create-table", schema, plain)
    with start_server("--data-dir", str(data)) as srv:
        client = srv.client()
        got = {i["pk"]["S"]: i for i in scan_all(client, table)}
        assert sorted(got) == ["o%d" % i for i in range(7)]
        assert got["o3"]["total"] == {"N": "30"} and got["o3"]["b"] == {"B": b"\x00\x01"}
        assert len(scan_all(client, "Orders2")) == 2


def test_bad_line_names_the_file_and_line(populated, tmp_path):
    data, _ = populated
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"Item": {"pk": {"S": "ok"}, "sk": {"N": "1"}}}\n'
                   "\n"
                   "// a comment line\n"
                   '{"Item": {"pk": {"S": "nokey"}}}\n')
    code, _, err = run("import", "--data-dir", data, "--table", TABLE, bad)
    assert code == 1
    assert "{}:4: ValidationException: One or more parameter values were invalid: " \
           "Missing the key sk in the item".format(bad) in err, err
    assert "items written before it: 1" in err

    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(gzip.compress(b'{"Item": {"pk": {"S": "a"}, "sk": {"N": "2"}}}\n'
                                     b'{"Item": {"pk": {"S": "a"}\n'))
    code, _, err = run("import", "--data-dir", data, "--table", TABLE, broken)
    assert code == 1
    assert "{}:2: the line is not valid JSON".format(broken) in err, err

    wrong_type = tmp_path / "wrong.jsonl"
    wrong_type.write_text('{"pk": {"S": "a"}, "sk": {"S": "not a number"}}\n')
    code, _, err = run("import", "--data-dir", data, "--table", TABLE, wrong_type)
    assert code == 1
    assert "{}:1: ValidationException: One or more parameter values were invalid: " \
           "Type mismatch for key sk expected: N actual: S".format(wrong_type) in err, err


def test_missing_table_without_create_table(populated, tmp_path):
    data, _ = populated
    items = tmp_path / "items.jsonl"
    items.write_text('{"pk": {"S": "a"}}\n')
    code, _, err = run("import", "--data-dir", data, "--table", "NoSuchTable", items)
    assert code == 1
    assert "table NoSuchTable does not exist (ResourceNotFoundException: Requested resource " \
           "not found: Table: NoSuchTable not found)" in err, err
    assert "--create-table" in err
    code, _, err = run("import", "--data-dir", data, items)
    assert code == 1
    assert "name the table to load with --table" in err, err
    code, _, err = run("export", "--data-dir", data, "--out", tmp_path / "x", "--table", "Nope")
    assert code == 1
    assert "table Nope: ResourceNotFoundException" in err, err
    code, _, err = run("export", "--data-dir", tmp_path / "nothing-here", "--out", tmp_path / "x")
    assert code == 1
    assert "no database in" in err, err


def test_commands_refuse_a_directory_a_server_is_running_on(populated, tmp_path, start_server):
    data, _ = populated
    items = tmp_path / "items.jsonl"
    items.write_text('{"pk": {"S": "a"}, "sk": {"N": "1"}}\n')
    with start_server("--data-dir", str(data)) as srv:
        for args in (["export", "--out", tmp_path / "x"], ["dump-models", "--out", tmp_path / "m"],
                     ["import", "--table", TABLE, items]):
            code, _, err = run(*args, "--data-dir", data)
            assert code == 1, args
            assert "the data directory {} is in use by another process".format(data) in err, err
            assert "stop that server first" in err
        # And the server was not disturbed.
        assert srv.client().describe_table(TableName=TABLE)["Table"]["ItemCount"] == len(ITEMS)


def test_large_import_reports_its_rate(tmp_path):
    # A bigger file: the summary line gives the count and the rate.
    count = 20000
    path = tmp_path / "many.jsonl"
    with open(path, "w") as f:
        for i in range(count):
            f.write('{"Item":{"pk":{"S":"k%d"},"v":{"N":"%d"}}}\n' % (i, i))
    schema = tmp_path / "Many.json"
    schema.write_text(json.dumps({
        "TableName": "Many", "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}))
    _, err = run_ok("import", "--data-dir", tmp_path / "d", "--create-table", schema, path)
    summary = [l for l in err.splitlines() if l.startswith("import Many: 20,000 items in ")]
    assert summary and summary[0].endswith(" items/s)"), err
    out, _ = run_ok("dump-models", "--data-dir", tmp_path / "d", "--out", tmp_path / "m",
                    "--items")
    assert "(20000 items)" in out


def test_usage():
    code, out, _ = run("import", "--help")
    assert code == 0 and out.startswith("usage: localdynamo import ")
    assert "--create-table" in out
    code, _, err = run("export")
    assert code == 2
    assert "the option '--out' is required" in err, err
    code, _, err = run("import", "--data-dir", "/nonexistent-dir-for-test")
    assert code == 2
    assert "name what to import" in err, err


def test_import_into_a_per_key_database(tmp_path, start_server):
    # --access-key/--region load the database a --per-key-databases server
    # gives that caller; other callers do not see the table.
    from .e2e_util import ACCESS_KEY, REGION
    schema = tmp_path / "Keyed.json"
    schema.write_text(json.dumps({
        "TableName": "Keyed", "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}))
    items = tmp_path / "items.jsonl"
    items.write_text('{"pk": {"S": "a"}}\n{"pk": {"S": "b"}}\n')
    data = tmp_path / "data"
    run_ok("import", "--data-dir", data, "--access-key", ACCESS_KEY, "--region", REGION,
           "--create-table", schema, items)
    with start_server("--data-dir", str(data), "--per-key-databases") as srv:
        mine = srv.client()
        assert len(scan_all(mine, "Keyed")) == 2
        assert mine.describe_table(TableName="Keyed")["Table"]["TableArn"].startswith(
            "arn:aws:dynamodb:{}:".format(REGION))
        assert "Keyed" not in srv.client(access_key="SOMEONEELSE").list_tables()["TableNames"]


def test_lines_apply_in_file_order(tmp_path, start_server):
    # A key given twice keeps its later line, within one batch of 25 and
    # across batches alike.
    schema = tmp_path / "Dup.json"
    schema.write_text(json.dumps({
        "TableName": "Dup", "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}))
    lines = ['{"pk": {"S": "same-batch"}, "v": {"N": "1"}}',
             '{"pk": {"S": "same-batch"}, "v": {"N": "2"}}',
             '{"pk": {"S": "across"}, "v": {"N": "1"}}']
    lines += ['{"pk": {"S": "filler%d"}}' % i for i in range(60)]
    lines += ['{"pk": {"S": "across"}, "v": {"N": "2"}}']
    items = tmp_path / "dup.jsonl"
    items.write_text("\n".join(lines) + "\n")
    data = tmp_path / "data"
    _, err = run_ok("import", "--data-dir", data, "--create-table", schema, items)
    assert "import Dup: 64 items in" in err, err
    with start_server("--data-dir", str(data)) as srv:
        client = srv.client()
        for key in ("same-batch", "across"):
            item = client.get_item(TableName="Dup", Key={"pk": {"S": key}})["Item"]
            assert item["v"] == {"N": "2"}, key
        assert client.describe_table(TableName="Dup")["Table"]["ItemCount"] == 62
