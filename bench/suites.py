#!/usr/bin/env python3
"""Workloads that look like test suites, localdynamo beside Dynoxide.

peers.py times one small request at a time; a test suite does other things.
This script measures four of them on every server in the same run, each
reported as a ratio to localdynamo in memory:

  cycle   the per-test table cycle: CreateTable with a GSI, waited for as an
          SDK waiter does (DescribeTable until ACTIVE), five PutItems, a Query
          of the GSI, DeleteTable, DescribeTable until the table is gone; from
          wrk (bench/cycle.lua), 1 and 4 workers each on its own connection, as
          a test runner's workers are; rounds interleaved A B B A.
  load    a bulk load of --items items with BatchWriteItem 25 from wrk at 16
          connections (a client that is not the bottleneck).
  scan    a full Scan of that table, every page followed, from one client that
          reads each page's bytes but parses only its Count and
          LastEvaluatedKey (so the client is not the bottleneck either).
  sized   GetItem and a 10-item Query of realistic items (1-4 KB, nested maps
          and lists) beside the same of small ones (130 bytes), from wrk at 16
          connections; nginx serves the GetItem answer's exact bytes as the
          ceiling.

  bench/suites.py                      everything, 100,000-item scan
  bench/suites.py --items 1000000      the scan of 1,000,000 items
  bench/suites.py --only cycle         parts: cycle, scan (with its load), sized
Needs what peers.py needs (wrk, nginx, node and npm for the peers).
"""
import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import time

import peers

PARTS = ("cycle", "scan", "sized")


class Connection:
    """One kept-alive HTTP connection, as an SDK client holds."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def raw(self, op, body):
        """Returns (status, the answer's bytes)."""
        headers = dict(peers.HEADERS, **{"X-Amz-Target": "DynamoDB_20120810." + op})
        self.conn.request("POST", "/", body=json.dumps(body), headers=headers)
        resp = self.conn.getresponse()
        return resp.status, resp.read()

    def call(self, op, body):
        status, data = self.raw(op, body)
        return status, json.loads(data or b"{}")

    def must(self, op, body):
        status, data = self.call(op, body)
        if status != 200:
            raise RuntimeError("{} answered {}: {}".format(op, status, data))
        return data

    def close(self):
        self.conn.close()


# ---------------------------------------------------------------- the table cycle

def cycle_table(name):
    return {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "S"},
                                 {"AttributeName": "status", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "byStatus",
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}]}


def one_cycle(conn, name):
    """One test's table, used and dropped; returns the DescribeTable polls."""
    conn.must("CreateTable", cycle_table(name))
    polls = 0
    while True:
        polls += 1
        if conn.must("DescribeTable", {"TableName": name})["Table"]["TableStatus"] == "ACTIVE":
            break
        time.sleep(0.001)
    for i in range(5):
        conn.must("PutItem", {"TableName": name, "Item": {
            "pk": {"S": "order#%d" % i}, "sk": {"S": "2026-12-0%d" % (i + 1)},
            "status": {"S": "open" if i % 2 else "shipped"}, "total": {"N": str(10 * i)}}})
    found = conn.must("Query", {"TableName": name, "IndexName": "byStatus",
                                "KeyConditionExpression": "#s = :s",
                                "ExpressionAttributeNames": {"#s": "status"},
                                "ExpressionAttributeValues": {":s": {"S": "open"}}})
    if found["Count"] != 2:
        raise RuntimeError("the GSI Query found {} items, not 2".format(found["Count"]))
    conn.must("DeleteTable", {"TableName": name})
    while True:
        polls += 1
        status, data = conn.call("DescribeTable", {"TableName": name})
        if status == 400 and data.get("__type", "").endswith("ResourceNotFoundException"):
            return polls
        if status != 200:
            raise RuntimeError("DescribeTable after DeleteTable: {}".format(data))
        time.sleep(0.001)


cycle_runs = 0


def wrk_cycles(server, workers, seconds):
    """Runs bench/cycle.lua with `workers` wrk threads, one connection each."""
    command = peers.PIN_WRK + [
        "wrk", "-t%d" % workers, "-c%d" % workers, "-d%ds" % seconds, "--timeout", "5s",
        "-s", os.path.join(peers.BENCH, "cycle.lua"), "http://127.0.0.1:%d/" % server.port]
    global cycle_runs
    cycle_runs += 1
    env = dict(os.environ, CYCLE_RUN=str(cycle_runs))
    before = peers.cpu_seconds(server.proc.pid)
    out = subprocess.run(command, capture_output=True, text=True, check=True, env=env).stdout
    cpu = peers.cpu_seconds(server.proc.pid) - before
    found = re.search(r"CYCLES cycles=(\d+) errors=(\d+) describes=(\d+) seconds=([\d.]+)",
                      out)
    if not found:
        raise RuntimeError("cycle.lua printed no summary: " + out)
    cycles, errors, describes = (int(found.group(i)) for i in (1, 2, 3))
    return {"rate": cycles / float(found.group(4)), "errors": errors,
            "describes": describes / max(1, cycles), "cpu_ms": cpu * 1000 / max(1, cycles)}


def table_cycles(servers, workers_list, seconds, rounds):
    """results[(workers, server)] = medians over interleaved rounds."""
    for server in servers:  # each server does the cycle right before it is timed
        conn = Connection(server.port)
        one_cycle(conn, "check_cycle")
        conn.close()
    raw = {}
    for workers in workers_list:
        for round_number in range(rounds):
            for server in servers if round_number % 2 == 0 else servers[::-1]:
                raw.setdefault((workers, server.name), []).append(
                    wrk_cycles(server, workers, seconds))
        print("  measured the table cycle with {} workers".format(workers), file=sys.stderr,
              flush=True)
    return {key: {f: statistics.median(r[f] for r in runs)
                  for f in ("rate", "describes", "cpu_ms")} | {
                      "errors": sum(r["errors"] for r in runs)}
            for key, runs in raw.items()}


# ---------------------------------------------------------------- load and scan

def full_scan(port):
    """Scans table `load` to its end; returns (items, pages, seconds)."""
    conn = Connection(port)
    decoder = json.JSONDecoder()
    request = {"TableName": "load"}
    items = pages = 0
    started = time.perf_counter()
    while True:
        status, data = conn.raw("Scan", request)
        if status != 200:
            raise RuntimeError("Scan answered {}: {}".format(status, data[:300]))
        text = data.decode()
        pages += 1
        items += decoder.raw_decode(text, text.rindex('"Count":') + 8)[0]
        at = text.rfind('"LastEvaluatedKey":')
        if at < 0:
            break
        request["ExclusiveStartKey"] = decoder.raw_decode(text, at + 19)[0]
    elapsed = time.perf_counter() - started
    conn.close()
    return items, pages, elapsed


def load_and_scan(specs, items, cap_seconds, scans):
    """One server at a time (a loaded table of each would share the memory):
    the bulk load, then `scans` full Scans of it."""
    rows = {}
    for spec in specs:
        server = peers.Server(*spec)
        try:
            server.start()
            peers.must(server.port, "CreateTable", peers.table_request("load"))
            time.sleep(0.1)
            row = peers.load_table(server, "load", items, cap_seconds)
            runs = []
            for _ in range(scans):
                before = peers.cpu_seconds(server.proc.pid)
                counted, pages, seconds = full_scan(server.port)
                runs.append((seconds, counted, pages,
                             peers.cpu_seconds(server.proc.pid) - before))
            seconds, counted, pages, cpu = sorted(runs)[len(runs) // 2]
            # wrk may land up to one batch per connection past the total.
            if not row["loaded"] <= counted <= row["loaded"] + 16 * 25:
                raise RuntimeError("{} scanned {} of {} items".format(
                    server.name, counted, row["loaded"]))
            row["loaded"] = counted
            row.update(scan_seconds=seconds, scan_pages=pages, scan_cpu=cpu,
                       scan_rate=counted / seconds)
            rows[server.name] = row
        finally:
            server.cleanup()
        print("  loaded and scanned " + server.name, file=sys.stderr, flush=True)
    return rows


# ---------------------------------------------------------------- realistic items

def order_item(pk, sk, lines):
    """An order as an application stores it: nested maps and a list of line
    maps; `lines` sets its size (4 lines about 1 KB, 20 about 4 KB)."""
    return {
        "pk": {"S": pk}, "sk": {"N": str(sk)}, "status": {"S": "SHIPPED"},
        "createdAt": {"S": "2026-12-01T10:15:%02dZ" % (sk % 60)},
        "customer": {"M": {
            "id": {"S": "cust-%08d" % sk}, "name": {"S": "Ada Lovelace"},
            "email": {"S": "ada.lovelace@example.com"},
            "address": {"M": {"street": {"S": "12 St James's Square"},
                              "city": {"S": "London"}, "postcode": {"S": "SW1Y 4JH"},
                              "country": {"S": "GB"}}}}},
        "lines": {"L": [{"M": {
            "sku": {"S": "SKU-%06d" % (sk * 31 + n)},
            "title": {"S": "Notes on the Analytical Engine, volume %d" % n},
            "quantity": {"N": str(1 + n % 3)}, "unitPrice": {"N": "%d.99" % (5 + n)},
            "options": {"M": {"giftWrap": {"BOOL": n % 2 == 0},
                              "colour": {"S": "blue"}}},
            "tags": {"SS": ["book", "history", "maths"]}}} for n in range(lines)]},
        "totals": {"M": {"net": {"N": "%d.40" % (lines * 12)}, "tax": {"N": "%d.08" % lines},
                         "currency": {"S": "GBP"}}},
        "notes": {"S": "Leave with the porter if nobody answers. " * 3},
    }


def small_item(pk, sk):
    return peers.item(pk, sk, "seed")


def lines_for(n):
    """1-4 KB: four sizes in turn."""
    return (4, 9, 14, 20)[n % 4]


def seed_sized(server):
    peers.must(server.port, "CreateTable", peers.table_request("bench"))
    seed = [order_item("order#%d" % n, 0, lines_for(n)) for n in range(1000)]
    seed += [order_item("orders#%d" % n, sk, lines_for(sk)) for n in range(100)
             for sk in range(10)]
    seed += [small_item("user#%d" % n, 0) for n in range(1000)]
    seed += [small_item("q#%d" % n, sk) for n in range(100) for sk in range(10)]
    for start in range(0, len(seed), 25):
        peers.must(server.port, "BatchWriteItem", peers.puts("bench", seed[start:start + 25]))


def get(pk):
    return {"TableName": "bench", "Key": {"pk": {"S": pk}, "sk": {"N": "0"}}}


def query(pk):
    return {"TableName": "bench", "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": {"S": pk}}}


SIZED = [  # (label, target, body, {n} modulo)
    ("GetItem, 130 B", "GetItem", get("user#{n}"), 1000),
    ("GetItem, 1-4 KB nested", "GetItem", get("order#{n}"), 1000),
    ("Query 10 × 130 B", "Query", query("q#{n}"), 100),
    ("Query 10 × 1-4 KB nested", "Query", query("orders#{n}"), 100),
]


def item_bytes(attributes):
    """An item's size in DynamoDB's measure (names and values; a number as 1
    byte plus 1 per 2 significant digits; 3 bytes per map or list, 1 per
    element)."""
    def value(typed):
        (kind, v), = typed.items()
        if kind == "S":
            return len(v.encode())
        if kind == "N":
            digits = v.replace(".", "").replace("-", "").strip("0") or "0"
            return 1 + (len(digits) + 1) // 2
        if kind == "BOOL":
            return 1
        if kind == "SS":
            return sum(len(s.encode()) for s in v)
        if kind == "M":
            return 3 + sum(len(k.encode()) + value(x) + 1 for k, x in v.items())
        if kind == "L":
            return 3 + sum(value(x) + 1 for x in v)
        raise ValueError(kind)
    return sum(len(k.encode()) + value(v) for k, v in attributes.items())


def sized_requests(servers, connections, seconds, rounds, nginx):
    """results[(label, server)] = medians over the rounds of wrk's figures."""
    raw = {}
    for label, target, body, mod in SIZED:
        text = json.dumps(body)
        for round_number in range(rounds):
            for server in servers if round_number % 2 == 0 else servers[::-1]:
                raw.setdefault((label, server.name), []).append(
                    peers.wrk(server.port, seconds, connections, target, text, mod,
                              pid=server.proc.pid))
            if nginx and label.startswith("GetItem"):
                raw.setdefault((label, nginx[label].name), []).append(
                    peers.wrk(nginx[label].port, seconds, connections, target, text, mod,
                              pid=nginx[label].proc.pid))
        print("  measured " + label, file=sys.stderr, flush=True)
    return {key: {f: statistics.median(r[f] for r in runs)
                  for f in ("rate", "p50", "p99", "cpu_us")} | {
                      "errors": sum(r["errors"] for r in runs)}
            for key, runs in raw.items()}


def check_sized(server):
    """Every request answers what it should before anything is timed; returns
    the bytes of each GetItem's answer for key 7 (what nginx will serve)."""
    answers = {}
    for label, target, body, _ in SIZED:
        conn = Connection(server.port)
        status, data = conn.raw(target, json.loads(json.dumps(body).replace("{n}", "7")))
        conn.close()
        parsed = json.loads(data)
        if status != 200 or (target == "GetItem" and "Item" not in parsed) or \
                (target == "Query" and parsed.get("Count") != 10):
            raise RuntimeError("{}: {} answered {}".format(server.name, label, data[:200]))
        answers[label] = data.decode()
    return answers


# ---------------------------------------------------------------- report

def ratio_text(value, base):
    return "{:.2f}".format(value / base) if base else ""


def print_cycles(results, names, reference):
    print("\n| workers | server | table cycles/s (÷ {0}) | ms per cycle and worker "
          "| server CPU ms per cycle | DescribeTable calls per cycle | errors |\n"
          "|---|---|---|---|---|---|---|".format(reference))
    for workers in sorted({key[0] for key in results}):
        base = results.get((workers, reference))
        for name in names:
            r = results.get((workers, name))
            if r:
                print("| {} | {} | {:,.0f} ({}) | {:.2f} | {:.2f} | {:.1f} | {} |".format(
                    workers, name, r["rate"], ratio_text(r["rate"], base and base["rate"]),
                    workers * 1000 / r["rate"] if r["rate"] else 0, r["cpu_ms"],
                    r["describes"], r["errors"]))


def print_scans(rows, items, reference):
    print("\n| server | load {:,} items: items/s (÷ {}) | full Scan: s (÷), pages "
          "| scanned items/s | server CPU s per Scan |\n|---|---|---|---|---|".format(
              items, reference))
    base = rows.get(reference)
    for name, r in rows.items():
        load = "{:,.0f} ({})".format(r["load_rate"], ratio_text(r["load_rate"],
                                                                base and base["load_rate"]))
        if not r["finished"]:
            load += ", stopped after {:,}".format(r["loaded"])
        print("| {} | {} | {:.2f} ({}), {} | {:,.0f} | {:.2f} |".format(
            name, load, r["scan_seconds"],
            ratio_text(r["scan_seconds"], base and base["scan_seconds"]), r["scan_pages"],
            r["scan_rate"], r["scan_cpu"]))


def print_sized(results, names, reference, connections):
    print("\nItems: 130 B (peers.py's), orders of {}-{} B in DynamoDB's measure (mean {:.0f})."
          .format(item_bytes(order_item("o", 0, 4)), item_bytes(order_item("o", 0, 20)),
                  statistics.mean(item_bytes(order_item("o", 0, lines_for(n)))
                                  for n in range(4))))
    print("\n| {} connections | server | ops/s (÷ {}) | p50 ms | p99 ms | server CPU µs/op |"
          " errors |\n|---|---|---|---|---|---|---|".format(connections, reference))
    for label, _, _, _ in SIZED:
        base = results.get((label, reference))
        for name in names:
            r = results.get((label, name))
            if not r:
                continue
            print("| {} | {} | {:,.0f} ({}) | {:.2f} | {:.2f} | {:.0f} | {} |".format(
                label, name, r["rate"], ratio_text(r["rate"], base and base["rate"]),
                r["p50"], r["p99"], r["cpu_us"], r["errors"]))


# ---------------------------------------------------------------- main

DEFAULT_SERVERS = "ld-memory,ld-persistent,dynoxide,nginx"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=PARTS, action="append", help="parts (repeatable)")
    parser.add_argument("--servers", default=DEFAULT_SERVERS,
                        help="comma-separated subset of peers.py's servers (default %(default)s)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=COMMAND",
                        help="also measure another localdynamo in memory, as in peers.py "
                             "(name it in --servers)")
    parser.add_argument("--items", type=int, default=100_000, help="the scan's table size")
    parser.add_argument("--load-cap", type=int, default=300,
                        help="seconds a bulk load may take before it is cut short")
    parser.add_argument("--scans", type=int, default=3, help="full Scans per server (median)")
    parser.add_argument("--workers", default="1,4",
                        help="the table cycle's parallel workers (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=4, help="interleaved rounds")
    parser.add_argument("--seconds", type=int, default=4, help="per wrk run")
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    parts = args.only or PARTS
    variants = [(name, "localdynamo", False, command.split())
                for name, command in (v.split("=", 1) for v in args.variant)]
    specs = [spec for spec in peers.SERVERS + variants if spec[0] in args.servers.split(",")]
    reference = specs[0][0]
    peers.ensure_peers()
    print("load average before: {}".format(open("/proc/loadavg").read().split()[:3]))
    databases = [spec for spec in specs if spec[1] != "nginx"]
    if "cycle" in parts:
        servers = [peers.Server(*spec) for spec in databases]
        try:
            for server in servers:
                server.start()
            print_cycles(table_cycles(servers, [int(w) for w in args.workers.split(",")],
                                      args.seconds, args.rounds),
                         [s.name for s in servers], reference)
        finally:
            for server in servers:
                server.cleanup()
    if "scan" in parts:
        print_scans(load_and_scan(databases, args.items, args.load_cap, args.scans),
                    args.items, reference)
    if "sized" in parts:
        servers = [peers.Server(*spec) for spec in databases]
        nginx = {}
        try:
            for server in servers:
                server.start()
                seed_sized(server)
                answers = check_sized(server)
            if any(spec[1] == "nginx" for spec in specs):
                for label in answers:
                    if label.startswith("GetItem"):
                        # The server's name is part of its directory, which nginx's
                        # configuration does not quote.
                        size = "small" if "130" in label else "nested"
                        nginx[label] = peers.Server("nginx-" + size, "nginx")
                        nginx[label].nginx_body = answers[label]
                        nginx[label].start()
            results = sized_requests(servers, args.connections, args.seconds, args.rounds,
                                     nginx)
        finally:
            for server in servers + list(nginx.values()):
                server.cleanup()
        print_sized(results, [s.name for s in servers] + sorted({n.name for n in
                                                                  nginx.values()}),
                    reference, args.connections)
    print("\nload average after: {}".format(open("/proc/loadavg").read().split()[:3]))


if __name__ == "__main__":
    main()
