#!/usr/bin/env python3
"""Local stream trigger delivery latency: the time from a PutItem being sent
to its record arriving at an HTTP trigger target, one write at a time, on an
in-memory localdynamo. Reports p50/p90/p99 and, as the baseline measured in
the same run, the PutItem round trip alone.

    bench/trigger_latency.py [writes, default 300]
"""
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

from peers import free_port

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
                arrived[record["dynamodb"]["Keys"]["pk"]["S"]] = now
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
    for _ in range(200):
        try:
            urllib.request.urlopen(url)
            break
        except OSError:
            time.sleep(0.02)
    ddb = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                       aws_access_key_id="b", aws_secret_access_key="b")
    ddb.create_table(TableName="latency", BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    trigger = {"Name": "latency", "TableName": "latency", "BatchSize": 1,
               "Url": "http://127.0.0.1:{}/".format(receiver.server_address[1])}
    urllib.request.urlopen(urllib.request.Request(url + "/_localdynamo/triggers",
                                                  data=json.dumps(trigger).encode()))
    time.sleep(0.5)
    put_only, delivery = [], []
    for i in range(writes):
        key = "k{}".format(i)
        start = time.perf_counter()
        ddb.put_item(TableName="latency", Item={"pk": {"S": key}})
        put_only.append(time.perf_counter() - start)
        with arrival:
            arrival.wait_for(lambda: key in arrived, timeout=10)
        delivery.append(arrived[key] - start)
    ms = lambda v: v * 1000
    print("{} writes, one at a time".format(writes))
    print("PutItem round trip (baseline) p50 {:.2f} ms  p99 {:.2f} ms".format(
        ms(statistics.median(put_only)), ms(percentile(put_only, 99))))
    print("put -> trigger delivery       p50 {:.2f} ms  p90 {:.2f} ms  p99 {:.2f} ms  max {:.2f} ms"
          .format(ms(statistics.median(delivery)), ms(percentile(delivery, 90)),
                  ms(percentile(delivery, 99)), ms(max(delivery))))
finally:
    server.terminate()
    server.wait()
