#!/usr/bin/env python3
"""PartiQL SELECTs that name their partitions must not grow with table size.

Builds two tables in one in-memory localdynamo: `small` (about 2,000 items)
and `large` (200,000 filler items by default), both holding the partitions
`hot0`..`hot2` of 10 items each. Then, one client, measures the median
latency of
  - ExecuteStatement `SELECT * ... WHERE pk = 'hot0'` (a Query underneath),
  - ExecuteStatement `SELECT * ... WHERE pk IN ['hot0','hot1','hot2']`,
  - the equivalent Query of hot0, for comparison,
and prints each large-table figure as a ratio to the small-table one and
the PartiQL SELECT as a ratio to the Query, all measured in the same run.

Needs a built build/localdynamo.   bench/partiql_scale.py [--items N] [--rounds R]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from query_scale import Client, free_port  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(client, table, fillers):
    client.call("CreateTable", {
        "TableName": table, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"}]})
    items = [("hot%d" % p, i) for p in range(3) for i in range(10)]
    items += [("filler#%d" % i, 0) for i in range(fillers)]
    for start in range(0, len(items), 25):
        client.call("BatchWriteItem", {"RequestItems": {table: [
            {"PutRequest": {"Item": {"pk": {"S": pk}, "sk": {"N": str(sk)},
                                     "payload": {"S": "x" * 100}}}}
            for pk, sk in items[start:start + 25]]}})


def median_ms(client, op, body, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        client.call(op, body)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(client, table, rounds):
    pinned = {"Statement": "SELECT * FROM \"%s\" WHERE pk = 'hot0'" % table}
    listed = {"Statement": "SELECT * FROM \"%s\" WHERE pk IN ['hot0','hot1','hot2']" % table}
    query = {"TableName": table, "KeyConditionExpression": "pk = :p",
             "ExpressionAttributeValues": {":p": {"S": "hot0"}}}
    assert len(client.call("ExecuteStatement", listed)["Items"]) == 30
    return {"select =": median_ms(client, "ExecuteStatement", pinned, rounds),
            "select IN": median_ms(client, "ExecuteStatement", listed, rounds),
            "query": median_ms(client, "Query", query, rounds)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen([os.path.join(ROOT, "build", "localdynamo"), "--in-memory",
                               "--port", str(port)], stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        client = Client(port)
        load(client, "small", 2_000)
        load(client, "large", args.items)
        small = measure(client, "small", args.rounds)
        large = measure(client, "large", args.rounds)
        for name in small:
            print("%-10s small %.3f ms  large %.3f ms  ratio %.2f" %
                  (name, small[name], large[name], large[name] / small[name]))
        print("select = / query on the large table: %.2f" % (large["select ="] / large["query"]))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
