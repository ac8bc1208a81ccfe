#!/usr/bin/env python3
"""Vector search: loading and searching 768-dimension embeddings.

For each server, in one run: creates an on-demand table with a COSINE
vector index of 768 dimensions, loads N items with BatchWriteItem (25 items
per request, 8 connections), then answers SearchVectors with TopK 10 for
random query vectors, one client; reports items loaded per second, search
latency (p50, p90) and the server's memory after loading.

localdynamo is measured at 10,000 and 100,000 items; Dynoxide (bench/'s
pinned prebuilt binary, `npm ci` in bench/) at --peer-items, 5,000 by
default, as its load rate (about 100 items/s) makes more impractical.

  bench/vector_search.py [--sizes 10000,100000] [--peer-items 5000] [--queries 50]
"""
import argparse
import json
import os
import random
import statistics
import sys
import threading
import time

import peers

DIMENSIONS = 768
TABLE = "embeddings"
POOL = 10_000  # distinct vectors; larger loads reuse them (the work per item is the same)


def vector_pool(rng):
    """JSON fragments of POOL random unit-ish vectors: {"L":[{"N":"…"},…]}."""
    pool = []
    for _ in range(POOL):
        numbers = ",".join('{"N":"%.6f"}' % rng.uniform(-1, 1) for _ in range(DIMENSIONS))
        pool.append('{"L":[' + numbers + ']}')
    return pool


def create_table(server):
    peers.must(server.port, "CreateTable", {
        "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "VectorIndexes": [{
            "IndexName": "by-embedding", "VectorAttribute": {"AttributeName": "embedding"},
            "Dimensions": DIMENSIONS, "DistanceFunction": "COSINE",
            "Projection": {"ProjectionType": "KEYS_ONLY"}}],
    })


def batch_body(pool, first, count):
    items = []
    for i in range(first, first + count):
        items.append('{"PutRequest":{"Item":{"pk":{"S":"item-%07d"},"embedding":%s}}}'
                     % (i, pool[i % POOL]))
    return '{"RequestItems":{"%s":[%s]}}' % (TABLE, ",".join(items))


def load(server, pool, items, connections=8):
    """Loads `items` items; returns items per second."""
    batches = list(range(0, items, 25))
    lock = threading.Lock()
    errors = []

    def worker():
        conn = peers.http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        headers = dict(peers.HEADERS, **{"X-Amz-Target": "DynamoDB_20120810.BatchWriteItem"})
        while True:
            with lock:
                if not batches:
                    break
                first = batches.pop()
            body = batch_body(pool, first, min(25, items - first))
            while True:
                conn.request("POST", "/", body=body, headers=headers)
                response = conn.getresponse()
                answer = json.loads(response.read() or b"{}")
                if response.status != 200:
                    errors.append(answer)
                    return
                unprocessed = answer.get("UnprocessedItems", {}).get(TABLE)
                if not unprocessed:
                    break
                body = json.dumps({"RequestItems": {TABLE: unprocessed}})
        conn.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError("{} BatchWriteItem: {}".format(server.name, errors[0]))
    return items / (time.perf_counter() - started)


def search_latencies(server, rng, queries):
    """Milliseconds per SearchVectors (TopK 10), one client, after one warm-up."""
    conn = peers.http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    headers = dict(peers.HEADERS, **{"X-Amz-Target": "DynamoDB_20120810.SearchVectors"})
    times = []
    for n in range(queries + 1):
        body = json.dumps({"TableName": TABLE, "IndexName": "by-embedding", "TopK": 10,
                           "SearchVector": [{"N": "%.6f" % rng.uniform(-1, 1)}
                                            for _ in range(DIMENSIONS)]})
        started = time.perf_counter()
        conn.request("POST", "/", body=body, headers=headers)
        response = conn.getresponse()
        answer = json.loads(response.read())
        elapsed = (time.perf_counter() - started) * 1000
        if response.status != 200 or len(answer["SearchResults"]) != 10:
            raise RuntimeError("{} SearchVectors: {}".format(server.name, answer))
        if n:  # the first search loads localdynamo's index into memory
            times.append(elapsed)
    conn.close()
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.9)], times


def measure(name, kind, items, pool, queries):
    server = peers.Server(name, kind)
    server.start()
    try:
        create_table(server)
        rate = load(server, pool, items)
        rss = peers.rss_mb(server.proc.pid)
        first_started = time.perf_counter()
        p50, p90, _ = search_latencies(server, random.Random(11), queries)
        return {"server": name, "items": items, "load": rate, "p50": p50, "p90": p90,
                "rss": rss, "total": time.perf_counter() - first_started}
    finally:
        server.cleanup()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--peer-items", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    print("generating {} vectors of {} dimensions...".format(POOL, DIMENSIONS), file=sys.stderr)
    pool = vector_pool(random.Random(5))
    rows = []
    if not args.no_peer:
        rows.append(measure("dynoxide", "dynoxide", args.peer_items, pool, args.queries))
        print(rows[-1], file=sys.stderr)
    for size in (int(s) for s in args.sizes.split(",")):
        rows.append(measure("localdynamo", "localdynamo", size, pool, args.queries))
        print(rows[-1], file=sys.stderr)
    print("| server | items | load, items/s | SearchVectors p50 ms | p90 ms | RSS after load MB |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print("| {server} | {items:,} | {load:,.0f} | {p50:.1f} | {p90:.1f} | {rss:.0f} |".format(**row))


if __name__ == "__main__":
    main()
