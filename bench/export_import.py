#!/usr/bin/env python3
"""Export and import through the API against the command-line tools, on the
same table in one run (persistent data directories, buckets in folders):
  - ExportTableToPointInTime (one request; the export runs within it) against
    `localdynamo export` of the same table with the server stopped;
  - ImportTable of that export's data files into a new table against
    `localdynamo import` of the same export into a fresh data directory.
Rounds alternate the two doors; each reports items per second and the
API's time as a ratio to the command's.

Needs a built build/localdynamo.
  bench/export_import.py [--items 50000] [--rounds 3]
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from pitr import ROOT, Server, create

BINARY = os.path.join(ROOT, "build", "localdynamo")
TABLE = "bench"
ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/" + TABLE
KEY_SCHEMA = {"BillingMode": "PAY_PER_REQUEST",
              "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
              "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}


def load(server, items):
    for start in range(0, items, 25):
        server.call("BatchWriteItem", {"RequestItems": {TABLE: [
            {"PutRequest": {"Item": {"pk": {"S": "user#%07d" % i}, "name": {"S": "Ada Lovelace"},
                                     "age": {"N": str(i)}, "tags": {"SS": ["a", "b"]},
                                     "bio": {"S": "x" * 150}}}}
            for i in range(start, min(start + 25, items))]}})


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=50000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="export-bench-")
    data = os.path.join(work, "data")
    # The bucket exports go to: a folder that exists, as an S3 bucket would.
    os.makedirs(os.path.join(data, "s3", "bench"))
    try:
        server = Server(data)
        create(server, TABLE, recovery=True)
        load(server, args.items)
        server.stop()
        schema_file = os.path.join(work, "table.json")
        with open(schema_file, "w") as out:
            json.dump(dict(KEY_SCHEMA, TableName="copy"), out)

        api_export, cli_export, api_import, cli_import = [], [], [], []
        for round_no in range(args.rounds):
            # Export: the API (server up), then the command (server down).
            server = Server(data)
            seconds, answer = timed(lambda: server.call("ExportTableToPointInTime", {
                "TableArn": ARN, "S3Bucket": "bench", "S3Prefix": "r%d" % round_no}))
            export_id = answer["ExportDescription"]["ExportArn"].rsplit("/", 1)[1]
            api_export.append(seconds)
            data_prefix = "r%d/AWSDynamoDB/%s/data/" % (round_no, export_id)
            seconds, _ = timed(lambda: server.call("ImportTable", {
                "ClientToken": "round-%d" % round_no,
                "S3BucketSource": {"S3Bucket": "bench", "S3KeyPrefix": data_prefix},
                "InputFormat": "DYNAMODB_JSON", "InputCompressionType": "GZIP",
                "TableCreationParameters": dict(KEY_SCHEMA, TableName="copy%d" % round_no)}))
            api_import.append(seconds)
            server.stop()

            out = os.path.join(work, "cli%d" % round_no)
            seconds, _ = timed(lambda: subprocess.run(
                [BINARY, "export", "--data-dir", data, "--out", out, "--table", TABLE],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            cli_export.append(seconds)
            (export_dir,) = glob.glob(os.path.join(out, TABLE, "AWSDynamoDB", "*"))
            fresh = os.path.join(work, "fresh%d" % round_no)
            seconds, _ = timed(lambda: subprocess.run(
                [BINARY, "import", "--data-dir", fresh, "--create-table", schema_file, export_dir],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            cli_import.append(seconds)
            shutil.rmtree(fresh)

        def report(what, api, cli):
            a, c = statistics.median(api), statistics.median(cli)
            print("%-7s %d items: API %6.2f s (%7.0f items/s), command %6.2f s (%7.0f items/s), "
                  "API/command %.2f" % (what, args.items, a, args.items / a, c, args.items / c,
                                        a / c))
        report("export", api_export, cli_export)
        report("import", api_import, cli_import)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
