#!/usr/bin/env python3
"""Query latency must not grow with table size.

Builds two tables in one in-memory localdynamo: `small` (about 2,000 items)
and `large` (1,000,000 filler items by default), both holding the same two
partitions: `hot10` (10 items) and `hot1000` (1,000 items). Then measures,
on each table:
  - Query of hot10 under load (wrk -t2 -c16): requests/s and latency;
  - walking hot1000 in pages of 100 (10 requests), one client: ms per walk.
and prints each large-table figure as a ratio to the small-table one,
measured in the same run (1.00 = no growth with table size).

Needs wrk (apt-get install wrk) and a built build/localdynamo.
  bench/query_scale.py [--items N] [--seconds S]
"""
import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time

from peers import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "Authorization": "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/"
                     "aws4_request, SignedHeaders=host, Signature=0",
}


class Client:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, op, body):
        headers = dict(HEADERS, **{"X-Amz-Target": "DynamoDB_20120810." + op})
        self.conn.request("POST", "/", body=json.dumps(body), headers=headers)
        resp = self.conn.getresponse()
        data = json.loads(resp.read() or b"{}")
        if resp.status != 200:
            raise RuntimeError("{} failed: {}".format(op, data))
        return data


def wrk(port, seconds, target, body, extra_env=None, connections=16):
    env = dict(os.environ, BENCH_TARGET="DynamoDB_20120810." + target, BENCH_BODY=body)
    env.update(extra_env or {})
    out = subprocess.run(
        ["wrk", "-t2", "-c%d" % connections, "-d%ds" % seconds, "--latency", "-s",
         os.path.join(ROOT, "bench", "request.lua"), "http://127.0.0.1:%d/" % port],
        env=env, check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    return rate, float(p50.group(1)) * scale[p50.group(2)]


def item_count(client, table):
    return client.call("DescribeTable", {"TableName": table})["Table"]["ItemCount"]


def load_filler(port, client, table, items, rate_hint):
    """Fills `table` up to `items` items: wrk while far off, then one by one."""
    body = json.dumps({"TableName": table, "Item": {
        "pk": {"S": "filler#{id}"}, "sk": {"N": "0"},
        "payload": {"S": "x" * 100}}})
    chunk = 0
    while True:
        missing = items - item_count(client, table)
        if missing <= 0:
            return
        if missing < 20_000:
            for i in range(missing):
                client.call("PutItem", {"TableName": table, "Item": {
                    "pk": {"S": "filler#tail-%d" % i}, "sk": {"N": "0"},
                    "payload": {"S": "x" * 100}}})
            return
        seconds = max(1, min(20, int(missing / rate_hint)))
        rate_hint, _ = wrk(port, seconds, "PutItem", body,
                           {"BENCH_PREFIX": "c%d-" % chunk}, connections=32)
        chunk += 1


def walk(client, table, page):
    request = {"TableName": table, "KeyConditionExpression": "pk = :p",
               "ExpressionAttributeValues": {":p": {"S": "hot1000"}}, "Limit": page}
    seen = 0
    while True:
        result = client.call("Query", request)
        seen += len(result["Items"])
        if "LastEvaluatedKey" not in result:
            return seen
        request["ExclusiveStartKey"] = result["LastEvaluatedKey"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=int, default=5)
    args = parser.parse_args()

    port = free_port()
    server = subprocess.Popen([os.path.join(ROOT, "build", "localdynamo"), "--in-memory",
                               "--port", str(port)], stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        client = Client(port)
        sizes = {"small": 2_000, "large": args.items}
        for table in sizes:
            client.call("CreateTable", {
                "TableName": table, "BillingMode": "PAY_PER_REQUEST",
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "N"}]})
            for partition, count in (("hot10", 10), ("hot1000", 1000)):
                for i in range(count):
                    client.call("PutItem", {"TableName": table, "Item": {
                        "pk": {"S": partition}, "sk": {"N": str(i)},
                        "payload": {"S": "x" * 100}}})
        started = time.time()
        for table, items in sizes.items():
            load_filler(port, client, table, items, 15000.0)
        load_seconds = time.time() - started

        query10 = json.dumps({"TableName": "{t}", "KeyConditionExpression": "pk = :p",
                              "ExpressionAttributeValues": {":p": {"S": "hot10"}}})
        results = {}
        for table in sizes:
            rate, p50 = wrk(port, args.seconds, "Query", query10.replace("{t}", table))
            assert walk(client, table, 100) == 1000
            walks = []
            for _ in range(30):
                t0 = time.perf_counter()
                walk(client, table, 100)
                walks.append((time.perf_counter() - t0) * 1000)
            results[table] = (item_count(client, table), rate, p50, statistics.median(walks))
        rss = 0
        with open("/proc/%d/status" % server.pid) as status:
            for line in status:
                if line.startswith("VmRSS"):
                    rss = int(line.split()[1]) // 1024
    finally:
        server.terminate()
        server.wait()

    small, large = results["small"], results["large"]
    print("loaded {:,} filler items in {:.0f} s; RSS {} MB".format(args.items, load_seconds, rss))
    print("{:<34}{:>12}{:>14}{:>8}".format("case", "small", "large", "ratio"))
    print("{:<34}{:>12,}{:>14,}".format("items in table", small[0], large[0]))
    print("{:<34}{:>12.0f}{:>14.0f}{:>8.2f}".format("Query 10 items: req/s", small[1], large[1],
                                                    large[1] / small[1]))
    print("{:<34}{:>12.2f}{:>14.2f}{:>8.2f}".format("Query 10 items: p50 ms", small[2], large[2],
                                                    large[2] / small[2]))
    print("{:<34}{:>12.1f}{:>14.1f}{:>8.2f}".format("1,000 items in 10 pages: ms", small[3],
                                                    large[3], large[3] / small[3]))


if __name__ == "__main__":
    sys.exit(main())
