#!/usr/bin/env python3
"""Global tables' replication on an in-memory localdynamo, with the baseline
measured in the same run:

  1. PutItem to a regional table (baseline) and to a global table's member
     (its replication feed and write clock): the put's cost, as a ratio.
  2. Lag with the delay at zero: from a PutItem in us-east-1 being sent to a
     strongly consistent GetItem in eu-west-1 finding the item.
  3. Replication throughput: writes held back on a frozen clock, then one
     settle applies them all; replicated writes per second.
  4. A strongly consistent (MRSC) table's PutItem, written through to both
     other regions before it is answered, against the baseline.

    bench/replication.py [writes per round, default 2000]
"""
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request

import boto3
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from peers import free_port, wait_answering

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
writes = int(sys.argv[1]) if len(sys.argv) > 1 else 2000


def admin(url, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url + "/_localdynamo/" + path,
                                                       data=data)) as response:
        return json.loads(response.read())


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


port = free_port()
url = "http://127.0.0.1:{}".format(port)
server = subprocess.Popen([os.path.join(ROOT, "build", "localdynamo"), "--in-memory",
                           "--no-models", "--port", str(port), "--replication-delay-ms", "0"],
                          stdout=subprocess.DEVNULL)
try:
    wait_answering(url)

    def client(region):
        return boto3.client("dynamodb", endpoint_url=url, region_name=region,
                            aws_access_key_id="b", aws_secret_access_key="b")

    east, west = client("us-east-1"), client("eu-west-1")

    def make(name):
        east.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])

    make("regional")
    make("global")
    east.update_table(TableName="global", ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
    make("strong")
    body = json.dumps({"TableName": "strong", "MultiRegionConsistency": "STRONG",
                       "ReplicaUpdates": [{"Create": {"RegionName": "us-east-2"}},
                                          {"Create": {"RegionName": "us-west-2"}}]})
    # Debian's botocore predates MultiRegionConsistency: the request as an SDK signs it.
    request = AWSRequest(method="POST", url=url + "/", data=body, headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810.UpdateTable"})
    SigV4Auth(Credentials("b", "b"), "dynamodb", "us-east-1").add_auth(request)
    urllib.request.urlopen(urllib.request.Request(url + "/", data=body.encode(),
                                                  headers=dict(request.headers)))
    payload = {"S": "x" * 200}

    def put_round(table, prefix, client=east):
        times = []
        for i in range(writes):
            start = time.perf_counter()
            client.put_item(TableName=table, Item={"pk": {"S": prefix + str(i)}, "v": payload})
            times.append(time.perf_counter() - start)
        return times

    # 1. Interleaved rounds, so neither side gets the warmer server.
    regional, global_, strong = [], [], []
    for round_ in range(3):
        regional += put_round("regional", "r{}-".format(round_))
        global_ += put_round("global", "g{}-".format(round_))
        strong += put_round("strong", "s{}-".format(round_))
    admin(url, "replication/settle", {})

    # 2. Lag at delay zero.
    lags = []
    for i in range(min(writes, 500)):
        key = {"pk": {"S": "lag-{}".format(i)}}
        start = time.perf_counter()
        east.put_item(TableName="global", Item={**key, "v": payload})
        while "Item" not in west.get_item(TableName="global", Key=key, ConsistentRead=True):
            pass
        lags.append(time.perf_counter() - start)

    # 3. Held back on a frozen clock, then settled at once.
    admin(url, "replication", {"DelayMillis": 3600000})
    put_round("global", "held-")
    pending = sum(m["Pending"] for m in admin(url, "replication")["Members"])
    start = time.perf_counter()
    applied = admin(url, "replication/settle", {})["Applied"]
    settle_seconds = time.perf_counter() - start


    ms = lambda v: v * 1000
    print("{} writes per round, 200-byte items, one at a time".format(writes))
    print("PutItem p50: regional {:.3f} ms, global (two regions) {:.3f} ms: {:.2f}x".format(
        ms(statistics.median(regional)), ms(statistics.median(global_)),
        statistics.median(global_) / statistics.median(regional)))
    print("PutItem p50, strongly consistent (three regions): {:.3f} ms: {:.2f}x the regional".format(
        ms(statistics.median(strong)), statistics.median(strong) / statistics.median(regional)))
    print("replication lag at delay 0 (put sent -> read in eu-west-1): p50 {:.2f} ms, "
          "p99 {:.2f} ms".format(ms(statistics.median(lags)), ms(percentile(lags, 99))))
    print("settle: {} pending, {} applied in {:.3f} s: {:,.0f} replicated writes/s".format(
        pending, applied, settle_seconds, applied / settle_seconds))
finally:
    server.terminate()
    server.wait()
