#!/usr/bin/env python3
"""Restoring a named snapshot, against what a suite does without one.

For each database size (items of about 200 bytes in one table with a GSI, in
one in-memory localdynamo with --per-key-databases), measures:
  - saving a snapshot of the seeded database;
  - restoring it (POST /_localdynamo/snapshots/<name>/restore), as a test
    would before each test, the median of --repeats;
  - the baseline, measured in the same run: what a suite does today to get
    the same state back — drop the table, create it again and re-seed it
    with BatchWriteItem (25 items per request, one connection).
and prints the restore time, and its ratio to the baseline (lower is
better), per size. The server's own "Millis" and the client's round trip
are both shown.

Needs a built build/localdynamo.
  bench/snapshots.py [--sizes 100,1000,10000,50000] [--repeats 9]
"""
import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import time

from peers import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "bench"
NAMESPACE = KEY + "/us-east-1"
HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "Authorization": "AWS4-HMAC-SHA256 Credential={}/20260101/us-east-1/dynamodb/"
                     "aws4_request, SignedHeaders=host, Signature=0".format(KEY),
}


class Client:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    def request(self, path, headers, body):
        self.conn.request("POST", path, body=json.dumps(body), headers=headers)
        resp = self.conn.getresponse()
        data = json.loads(resp.read() or b"{}")
        if resp.status != 200:
            raise RuntimeError("{} failed: {}".format(path, data))
        return data

    def call(self, op, body):
        return self.request("/", dict(HEADERS, **{"X-Amz-Target": "DynamoDB_20120810." + op}), body)

    def admin(self, path, body):
        return self.request("/_localdynamo/" + path, {"Content-Type": "application/json"}, body)


TABLE = {
    "TableName": "orders", "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"}
                             for n in ("pk", "sk", "status")],
    "GlobalSecondaryIndexes": [{
        "IndexName": "byStatus",
        "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"}}],
}


def item(i):
    return {"pk": {"S": "USER#%05d" % (i // 10)}, "sk": {"S": "ORDER#%08d" % i},
            "status": {"S": ("NEW", "PAID", "SHIPPED")[i % 3]},
            "total": {"N": str(i * 7 % 1000)}, "note": {"S": "x" * 120}}


def seed(client, count):
    """Drop, create and fill the table: the baseline's way back to the seed."""
    try:
        client.call("DeleteTable", {"TableName": "orders"})
    except RuntimeError:
        pass
    client.call("CreateTable", TABLE)
    for start in range(0, count, 25):
        requests = [{"PutRequest": {"Item": item(i)}} for i in range(start, min(count, start + 25))]
        client.call("BatchWriteItem", {"RequestItems": {"orders": requests}})


def timed(fn):
    started = time.perf_counter()
    result = fn()
    return (time.perf_counter() - started) * 1000, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000,50000")
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen([os.path.join(ROOT, "build", "localdynamo"), "--in-memory",
                               "--per-key-databases", "--no-models", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        client = Client(port)
        print("| items | snapshot bytes | save ms | restore ms (server) | restore ms (round trip) "
              "| re-seed ms (baseline) | restore / baseline |")
        print("|---|---|---|---|---|---|---|")
        for size in [int(s) for s in args.sizes.split(",")]:
            baseline = statistics.median(timed(lambda: seed(client, size))[0]
                                         for _ in range(max(1, min(3, args.repeats))))
            saved = client.admin("snapshots", {"Name": "s%d" % size, "Namespace": NAMESPACE})
            server_ms, trip_ms = [], []
            for _ in range(args.repeats):
                ms, answer = timed(lambda: client.admin("snapshots/s%d/restore" % size, {}))
                trip_ms.append(ms)
                server_ms.append(answer["Millis"])
            count = client.call("DescribeTable", {"TableName": "orders"})["Table"]["ItemCount"]
            assert count == size, (count, size)
            trip = statistics.median(trip_ms)
            print("| {:,} | {:,} | {:.2f} | {:.2f} | {:.2f} | {:.0f} | {:.4f} |".format(
                size, saved["Bytes"], saved["Millis"], statistics.median(server_ms), trip,
                baseline, trip / baseline))
            sys.stdout.flush()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
