#!/usr/bin/env python3
"""Local stream trigger delivery latency: the time from a PutItem being sent
to its record arriving at an HTTP trigger target, one write at a time, on an
in-memory localdynamo. Reports p50/p90/p99 and, as the baseline measured in
the same run, the PutItem round trip alone. A second round enables a Kinesis
destination on the table and adds a trigger on its Kinesis stream: what that
feed costs a PutItem, and how soon its records arrive.

    bench/trigger_latency.py [writes per round, default 300]
"""
import base64
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import boto3

from peers import free_port, wait_answering

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
writes = int(sys.argv[1]) if len(sys.argv) > 1 else 300

arrived = {}
arrival = threading.Condition()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        now = time.perf_counter()
        with arrival:
            for record in body["Records"]:
                if "kinesis" in record:
                    data = json.loads(base64.b64decode(record["kinesis"]["data"]))
                    arrived[("kinesis", data["dynamodb"]["Keys"]["pk"]["S"])] = now
                else:
                    arrived[("stream", record["dynamodb"]["Keys"]["pk"]["S"])] = now
            arrival.notify_all()
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


receiver = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=receiver.serve_forever, daemon=True).start()
port = free_port()
url = "http://127.0.0.1:{}".format(port)
server = subprocess.Popen([os.path.join(ROOT, "build", "localdynamo"), "--in-memory", "--no-models",
                           "--port", str(port)], stdout=subprocess.DEVNULL)
try:
    wait_answering(url)
    ddb = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                       aws_access_key_id="b", aws_secret_access_key="b")
    ddb.create_table(TableName="latency", BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    target = "http://127.0.0.1:{}/".format(receiver.server_address[1])

    def add_trigger(definition):
        urllib.request.urlopen(urllib.request.Request(url + "/_localdynamo/triggers",
                                                      data=json.dumps(definition).encode()))

    def round_of(prefix, feeds):
        put_only, delivery = [], {feed: [] for feed in feeds}
        for i in range(writes):
            key = "{}{}".format(prefix, i)
            start = time.perf_counter()
            ddb.put_item(TableName="latency", Item={"pk": {"S": key}})
            put_only.append(time.perf_counter() - start)
            for feed in feeds:
                with arrival:
                    arrival.wait_for(lambda: (feed, key) in arrived, timeout=10)
                delivery[feed].append(arrived[(feed, key)] - start)
        return put_only, delivery

    ms = lambda v: v * 1000

    def report(what, values):
        print("{:<38} p50 {:.2f} ms  p90 {:.2f} ms  p99 {:.2f} ms  max {:.2f} ms".format(
            what, ms(statistics.median(values)), ms(percentile(values, 90)),
            ms(percentile(values, 99)), ms(max(values))))

    add_trigger({"Name": "latency", "TableName": "latency", "BatchSize": 1, "Url": target})
    time.sleep(0.5)
    put_a, delivery_a = round_of("a", ["stream"])
    kinesis_arn = "arn:aws:kinesis:us-east-1:000000000000:stream/latency"
    # The destination's feed alone (no one consuming it): what it costs a put.
    ddb.enable_kinesis_streaming_destination(TableName="latency", StreamArn=kinesis_arn)
    put_b, _ = round_of("b", ["stream"])
    add_trigger({"Name": "kinesis", "TableName": "latency", "BatchSize": 1, "Url": target,
                 "KinesisStreamArn": kinesis_arn})
    time.sleep(0.5)
    put_c, delivery_c = round_of("c", ["stream", "kinesis"])
    print("{} writes per round, one at a time".format(writes))
    report("PutItem round trip (baseline)", put_a)
    report("put -> trigger delivery", delivery_a["stream"])
    report("PutItem, Kinesis destination enabled", put_b)
    print("PutItem p50 with the destination's feed / without: {:.2f}".format(
        statistics.median(put_b) / statistics.median(put_a)))
    print("with a trigger on the Kinesis stream too:")
    report("put -> stream trigger delivery", delivery_c["stream"])
    report("put -> Kinesis trigger delivery", delivery_c["kinesis"])
finally:
    server.terminate()
    server.wait()
