#!/usr/bin/env python3
"""What point-in-time recovery costs, measured in one run against a
persistent localdynamo (--data-dir):
  - PutItem on a table with recovery on, as a ratio to the same PutItem on a
    table without it (interleaved rounds, one connection, items of about
    200 bytes overwritten in turn, so every write has an old image to keep);
  - the bytes on disk each recorded write adds: two fresh data directories
    take the same writes, one table with recovery and one without, and the
    difference of their sizes after a clean stop is divided by the writes;
  - RestoreTableToPointInTime of the table (its items at an instant halfway
    through its history) against RestoreTableFromBackup of the same items.

Needs a built build/localdynamo.
  bench/pitr.py [--items 10000] [--writes 50000] [--rounds 3]
"""
import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from peers import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "Authorization": "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/"
                     "aws4_request, SignedHeaders=host, Signature=0",
}


class Server:
    def __init__(self, data_dir):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [os.path.join(ROOT, "build", "localdynamo"), "--data-dir", data_dir, "--no-models",
             "--ttl-interval", "0", "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
                self.conn.request("GET", "/")
                self.conn.getresponse().read()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("localdynamo did not start")

    def call(self, operation, body):
        headers = dict(HEADERS, **{"X-Amz-Target": "DynamoDB_20120810." + operation})
        self.conn.request("POST", "/", body=json.dumps(body), headers=headers)
        resp = self.conn.getresponse()
        data = json.loads(resp.read() or b"{}")
        if resp.status != 200:
            raise RuntimeError("{} failed: {}".format(operation, data))
        return data

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def create(server, name, recovery):
    server.call("CreateTable", {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]})
    if recovery:
        server.call("UpdateContinuousBackups", {
            "TableName": name,
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True}})


def put(server, name, n, items, serial):
    """`n` PutItems over `items` keys; returns writes per second."""
    start = time.perf_counter()
    for i in range(n):
        server.call("PutItem", {"TableName": name, "Item": {
            "pk": {"S": "user#%06d" % (i % items)}, "name": {"S": "Ada Lovelace"},
            "age": {"N": str(serial + i)}, "bio": {"S": "x" * 150}}})
    return n / (time.perf_counter() - start)


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=10000)
    parser.add_argument("--writes", type=int, default=50000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="pitr-bench-")
    try:
        # Write-path cost: one server, both tables, interleaved rounds.
        server = Server(os.path.join(work, "rates"))
        create(server, "plain", False)
        create(server, "recovered", True)
        per_round = args.writes // args.rounds
        plain, recovered = [], []
        for r in range(args.rounds):
            plain.append(put(server, "plain", per_round, args.items, r * per_round))
            recovered.append(put(server, "recovered", per_round, args.items, r * per_round))

        # Restore: halfway through the recovered table's history, against a
        # backup restore of a table of the same items.
        server.call("CreateBackup", {"TableName": "plain", "BackupName": "same-items"})
        backup = server.call("ListBackups", {})["BackupSummaries"][0]["BackupArn"]
        window = server.call("DescribeContinuousBackups", {"TableName": "recovered"})[
            "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
        halfway = (window["EarliestRestorableDateTime"] + window["LatestRestorableDateTime"]) / 2
        start = time.perf_counter()
        server.call("RestoreTableToPointInTime", {
            "SourceTableName": "recovered", "TargetTableName": "at-halfway",
            "RestoreDateTime": halfway})
        pitr_seconds = time.perf_counter() - start
        start = time.perf_counter()
        server.call("RestoreTableFromBackup", {"TargetTableName": "from-backup",
                                               "BackupArn": backup})
        backup_seconds = time.perf_counter() - start
        server.stop()

        # Disk: the same writes into two fresh directories.
        sizes = {}
        for name, recovery in (("plain", False), ("recovered", True)):
            path = os.path.join(work, name)
            server = Server(path)
            create(server, name, recovery)
            put(server, name, args.writes, args.items, 0)
            server.stop()
            sizes[name] = dir_bytes(path)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    p, q = statistics.median(plain), statistics.median(recovered)
    print("PutItem, recovery off  %8.0f/s  (rounds: %s)" % (p, " ".join("%.0f" % x for x in plain)))
    print("PutItem, recovery on   %8.0f/s  (rounds: %s)  ratio %.2f" %
          (q, " ".join("%.0f" % x for x in recovered), q / p))
    print("disk: %d writes over %d items: %.1f MB without, %.1f MB with: %.0f bytes per write" %
          (args.writes, args.items, sizes["plain"] / 1e6, sizes["recovered"] / 1e6,
           (sizes["recovered"] - sizes["plain"]) / args.writes))
    print("restore %d items: to a point in time %.3f s (undoing about %d writes), from a backup "
          "%.3f s: ratio %.1f" % (args.items, pitr_seconds, args.writes // 2, backup_seconds,
                                   pitr_seconds / backup_seconds))


if __name__ == "__main__":
    main()
