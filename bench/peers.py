#!/usr/bin/env python3
"""localdynamo against the other DynamoDB emulators, measured side by side.

One command, one table. Starts every server fresh (localdynamo in memory and
persistent, Dynoxide, dynalite, and nginx answering a fixed body as the
ceiling of what any HTTP server does on this machine), then for each
connection count and operation runs wrk (one thread) against each server in
turn, round after round, every other round reversed (A B C D D C B A ...), so
that a burst of load from elsewhere on the machine hits every server alike and
no server always runs right after the same one. Each cell is the median
over the rounds. Then, one server at a time: cold start, idle RSS, a bulk load
(BatchWriteItem of 25) with the load rate, RSS after it and, for persistent
localdynamo, bytes on disk per item; and bench/query_scale.py for Query
latency on a large table against a small one.

The peers come from bench/package.json + package-lock.json (pinned), installed
into bench/node_modules with `npm ci` on the first run. nginx comes from the
system (Debian: apt-get install nginx-light). Needs wrk and build/localdynamo.

  bench/peers.py            the full run (about 30 minutes on 2 cores)
  bench/peers.py --quick    a fast check (about 1–2 minutes)
See bench/README.md for what each figure means.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
LUA = os.path.join(BENCH, "peers.lua")
HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Date": "20260101T000000Z",
    "Authorization": "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/"
                     "aws4_request, SignedHeaders=host;x-amz-date, Signature=0000",
}
NGINX_CONF = """daemon off; master_process off; worker_processes 1;
error_log {dir}/error.log; pid {dir}/nginx.pid;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {dir}; proxy_temp_path {dir}; fastcgi_temp_path {dir};
  uwsgi_temp_path {dir}; scgi_temp_path {dir};
  server {{
    listen 127.0.0.1:{port};
    location / {{ default_type application/x-amz-json-1.0; {body} }}
  }}
}}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_answering(url, tries=200):
    """Polls `url` until a server answers it (about 4 s at most)."""
    for _ in range(tries):
        try:
            urllib.request.urlopen(url)
            return
        except OSError:
            time.sleep(0.02)


def call(port, op, body, timeout=60):
    """One request; returns (status, parsed body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = dict(HEADERS, **{"X-Amz-Target": "DynamoDB_20120810." + op})
        conn.request("POST", "/", body=json.dumps(body), headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def must(port, op, body):
    status, data = call(port, op, body)
    if status != 200:
        raise RuntimeError("{} answered {}: {}".format(op, status, data))
    return data


def rss_mb(pid, field="VmRSS"):
    """A process's resident memory in MB: all of it, or one part (RssAnon:
    the heap and stacks, which hold what it stores; RssFile: the pages of
    its executable and libraries, shared with every copy of them)."""
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def cpu_seconds(pid):
    """User + system CPU time of a process, all its threads."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_queue_seconds(pid):
    """Time the process's threads spent runnable but waiting for a core
    (/proc/<pid>/task/*/schedstat, second field, in ns): where a tail comes
    from when the server's and the client's threads outnumber the cores."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as stat:
                total += int(stat.read().split()[1])
        except (OSError, IndexError, ValueError):
            pass  # a thread that ended, or a kernel without schedstats
    return total / 1e9


def dir_bytes(path):
    total = 0
    for parent, _, files in os.walk(path):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(parent, name))
            except OSError:
                pass
    return total


class Server:
    """One server process: how to start it, on a fresh port and data dir."""

    def __init__(self, name, kind, persistent=False, command=None):
        self.name, self.kind, self.persistent = name, kind, persistent
        self.variant = command  # another localdynamo command line (--variant)
        self.unsupported = {}  # operation label -> the error it answers
        self.proc = None
        self.port = None
        self.dir = None
        self.nginx_body = '{"Item":{}}'  # what nginx answers every request with

    def command(self):
        port = str(self.port)
        if self.variant:
            return self.variant + ["--port", port, "--in-memory"]
        if self.kind == "localdynamo":
            store = ["--data-dir", os.path.join(self.dir, "data")] if self.persistent \
                else ["--in-memory"]
            return [os.path.join(ROOT, "build", "localdynamo"), "--port", port] + store
        if self.kind == "dynoxide":
            return [os.path.join(BENCH, "node_modules", "@dynoxide", "linux-x64", "dynoxide"),
                    "--port", port]
        if self.kind == "dynalite":
            return ["node", os.path.join(BENCH, "node_modules", "dynalite", "cli.js"),
                    "--host", "127.0.0.1", "--port", port, "--createTableMs", "0"]
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as out:
            if "$" in self.nginx_body or "\\" in self.nginx_body:
                raise ValueError("nginx would read $ or \\ in its fixed body")
            out.write(NGINX_CONF.format(dir=self.dir, port=port, body=self.nginx_return()))
        return ["nginx", "-p", self.dir, "-c", conf]

    def nginx_return(self):
        """nginx's directives answering the fixed body: set in parts, since
        nginx takes no word of 4 KB or more."""
        parts = [self.nginx_body[i:i + 2000] for i in range(0, len(self.nginx_body), 2000)]
        sets = "".join("set $part{} '{}'; ".format(n, part.replace("'", "\\'"))
                       for n, part in enumerate(parts))
        return sets + 'return 200 "{}";'.format("".join(
            "$part{}".format(n) for n in range(len(parts))))

    def start(self):
        """Starts the process; returns ms from spawn to the first answered request."""
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="peers-" + self.name + "-")
        command = PIN_SERVERS + self.command()
        started = time.perf_counter()
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        while True:
            try:
                status, _ = call(self.port, "ListTables", {}, timeout=1)
                if status == 200:
                    return (time.perf_counter() - started) * 1000
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("{} exited at start: {}".format(self.name, command))
            if time.perf_counter() - started > 30:
                raise RuntimeError("{} did not answer within 30 s".format(self.name))
            time.sleep(0.0005)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def cleanup(self):
        self.stop()
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None


# ---------------------------------------------------------------- workload

def table_request(name, stream=False):
    request = {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"}]}
    if stream:
        request["StreamSpecification"] = {"StreamEnabled": True,
                                          "StreamViewType": "NEW_AND_OLD_IMAGES"}
    return request


def item(pk, sk, marker="{n}"):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}, "name": {"S": "Ada Lovelace"},
            "age": {"N": "36"}, "tags": {"SS": ["math", "poetry"]}, "n": {"S": marker}}


def puts(table, items):
    return {"RequestItems": {table: [{"PutRequest": {"Item": i}} for i in items]}}


# (label, target, body template, {n} modulo). {n} keeps concurrent requests on
# distinct keys (one wrk thread counts requests), so no transaction conflicts.
OPS = [
    ("GetItem", "GetItem",
     {"TableName": "bench", "Key": {"pk": {"S": "user#{n}"}, "sk": {"N": "0"}}}, 1000),
    ("PutItem", "PutItem", {"TableName": "bench", "Item": item("user#{n}", 0)}, 1000),
    ("UpdateItem ADD", "UpdateItem",
     {"TableName": "bench", "Key": {"pk": {"S": "user#{n}"}, "sk": {"N": "0"}},
      "UpdateExpression": "ADD hits :one", "ExpressionAttributeValues": {":one": {"N": "1"}}},
     1000),
    ("Query 10 items", "Query",
     {"TableName": "bench", "KeyConditionExpression": "pk = :p",
      "ExpressionAttributeValues": {":p": {"S": "q#{n}"}}}, 100),
    ("BatchWriteItem 25", "BatchWriteItem",
     puts("bench", [item("b#{n}", i) for i in range(25)]), 1000),
    ("TransactWriteItems 4", "TransactWriteItems",
     {"TransactItems": [{"Put": {"TableName": "bench", "Item": item("t#{n}", i)}}
                        for i in range(4)]}, 1000),
    ("PutItem, stream on", "PutItem", {"TableName": "streamed", "Item": item("user#{n}", 0)},
     1000),
]
HTTP_ONLY = "HTTP only"  # health check (GET /) on localdynamo; nginx's fixed body


def prepare(server):
    """Creates the tables and the items GetItem and Query read; returns the
    operations the server does not support, each with its answer."""
    for request in (table_request("bench"), table_request("streamed", stream=True)):
        must(server.port, "CreateTable", request)
        for _ in range(200):
            table = must(server.port, "DescribeTable", {"TableName": request["TableName"]})
            if table["Table"]["TableStatus"] == "ACTIVE":
                break
            time.sleep(0.05)
    seed = [item("user#%d" % n, 0, "seed") for n in range(1000)]
    seed += [item("q#%d" % n, sk, "seed") for n in range(100) for sk in range(10)]
    for start in range(0, len(seed), 25):
        must(server.port, "BatchWriteItem", puts("bench", seed[start:start + 25]))
    unsupported = {}
    for label, target, body, _ in OPS:  # every request must work before it is timed
        status, data = call(server.port, target, json.loads(json.dumps(body).replace("{n}", "7")))
        if status != 200:
            unsupported[label] = data.get("__type", str(status)).split("#")[-1]
            continue
        if label == "GetItem" and "Item" not in data:
            raise RuntimeError("{}: GetItem found no item".format(server.name))
        if label == "Query 10 items" and data.get("Count") != 10:
            raise RuntimeError("{}: Query returned {}".format(server.name, data.get("Count")))
    return unsupported


# Command prefixes that pin the servers and wrk to cores (--pin); none by default.
PIN_SERVERS = []
PIN_WRK = []


def wrk(port, seconds, connections, target="", body="", mod=1000, total=0, on_loaded=None,
        pid=None):
    """Runs wrk; returns dict(rate, p50, p99, p999 in ms, errors, requests and,
    given the server's pid, cpu_us: the server's CPU time per request)."""
    env = dict(os.environ, BENCH_TARGET=target and "DynamoDB_20120810." + target,
               BENCH_BODY=body, BENCH_MOD=str(mod), BENCH_TOTAL=str(total))
    command = PIN_WRK + ["wrk", "-t1", "-c%d" % connections, "-d%ds" % seconds,
                         "--timeout", "5s", "-s", LUA, "http://127.0.0.1:%d/" % port]
    cpu_before = cpu_seconds(pid) if pid else 0.0
    wait_before = run_queue_seconds(pid) if pid else 0.0
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    out = []
    for line in proc.stdout:
        out.append(line)
        if line.startswith("LOADED") and on_loaded:
            on_loaded(line)
            proc.send_signal(signal.SIGINT)
    proc.wait()
    cpu = cpu_seconds(pid) - cpu_before if pid else 0.0
    wait = run_queue_seconds(pid) - wait_before if pid else 0.0
    text = "".join(out)
    found = re.search(r"BENCH requests=(\d+) errors=(\d+) seconds=([\d.]+) "
                      r"p50=(\d+) p99=(\d+) p999=(\d+)", text)
    if not found:
        raise RuntimeError("wrk printed no summary: " + text)
    requests, errors = int(found.group(1)), int(found.group(2))
    seconds_run = float(found.group(3))
    return {"rate": max(0, requests - errors) / seconds_run, "errors": errors,
            "requests": requests, "p50": int(found.group(4)) / 1000.0,
            "p99": int(found.group(5)) / 1000.0, "p999": int(found.group(6)) / 1000.0,
            "batches": max([0] + [int(l.split()[1]) for l in out if l.startswith("BATCHES")]),
            "cpu_us": cpu * 1e6 / max(1, requests), "wait_us": wait * 1e6 / max(1, requests)}


# ---------------------------------------------------------------- throughput

def restart(server, label, warm_up):
    """Starts `server` afresh, with the tables prepared, then runs `warm_up`
    (connections, target, body, mod) of operation `label` on it for a
    second, unmeasured, unless it lacks the operation."""
    server.cleanup()
    server.start()
    if server.kind != "nginx":
        server.unsupported = prepare(server)
    if warm_up[1] and label not in server.unsupported:
        wrk(server.port, 1, *warm_up)


def throughput(servers, connections_list, seconds, rounds, fresh=False, operations=None):
    """results[(op, connections, server name)] = medians over the rounds, and
    each round's rate in "rates"; with `fresh`, each operation on servers
    started for it; with `operations`, only the operations of those labels."""
    raw = {}
    for connections in connections_list:
        cases = [(label, target, json.dumps(body), mod) for label, target, body, mod in OPS]
        cases.append((HTTP_ONLY, None, None, 1))
        cases = [case for case in cases if not operations or case[0] in operations]
        for label, target, body, mod in cases:
            if fresh:
                for server in servers:
                    restart(server, label, (connections, target, body, mod))
            for round_number in range(rounds):
                # Every other round in the reverse order, so that no server
                # always runs right after another one's load.
                for server in servers if round_number % 2 == 0 else servers[::-1]:
                    if label == HTTP_ONLY:
                        if server.kind == "localdynamo":
                            run = wrk(server.port, seconds, connections, pid=server.proc.pid)
                        elif server.kind == "nginx":
                            run = wrk(server.port, seconds, connections, "GetItem",
                                      json.dumps(OPS[0][2]), pid=server.proc.pid)
                        else:
                            continue
                    elif server.kind == "nginx" or label in server.unsupported:
                        continue
                    else:
                        run = wrk(server.port, seconds, connections, target, body, mod,
                                  pid=server.proc.pid)
                    raw.setdefault((label, connections, server.name), []).append(run)
            print("  measured {} at {} connections".format(label, connections),
                  file=sys.stderr, flush=True)
    results = {}
    for key, runs in raw.items():
        results[key] = {field: statistics.median(r[field] for r in runs)
                        for field in ("rate", "p50", "p99", "p999", "cpu_us", "wait_us")}
        results[key]["errors"] = sum(r["errors"] for r in runs)
        results[key]["rates"] = [r["rate"] for r in runs]
    return results


def print_round_ratios(results, servers, connections_list, reference):
    """Each server's throughput over the reference's, round by round: the two
    ran back to back in each round, so a round's ratio cancels what the
    machine did in it, and the spread of those ratios says how far one
    median can be trusted."""
    others = [s for s in servers if s.name != reference]
    if not others:
        return
    print("\n| connections | operation | server | ÷ {} per round: median | min–max | rounds |"
          .format(reference))
    print("|---|---|---|---|---|---|")
    for connections in connections_list:
        for label in [op[0] for op in OPS] + [HTTP_ONLY]:
            base = results.get((label, connections, reference))
            for server in others:
                r = results.get((label, connections, server.name))
                if not base or not r:
                    continue
                ratios = [a / b for a, b in zip(r["rates"], base["rates"]) if b]
                print("| {} | {} | {} | {:.3f} | {:.3f}–{:.3f} | {} |".format(
                    connections, label, server.name, statistics.median(ratios), min(ratios),
                    max(ratios), len(ratios)))


def ratio(value, base):
    return "" if not base else " ({:.2f})".format(value / base)


def print_throughput(results, servers, connections_list, reference):
    print("| connections | operation | server | ops/s (÷ {0}) | p50 ms (÷) | p99 ms (÷) "
          "| p99.9 ms (÷) | errors | server CPU µs/op (÷) | run-queue wait µs/op |"
          .format(reference))
    print("|---|---|---|---|---|---|---|---|---|---|")
    labels = [op[0] for op in OPS] + [HTTP_ONLY]
    for connections in connections_list:
        for label in labels:
            base = results.get((label, connections, reference))
            for server in servers:
                r = results.get((label, connections, server.name))
                if label in server.unsupported:
                    print("| {} | {} | {} | not supported: {} | | | | | | |".format(
                        connections, label, server.name, server.unsupported[label]))
                if not r:
                    continue
                cells = ["{:,.0f}{}".format(r["rate"], ratio(r["rate"], base and base["rate"]))]
                for field in ("p50", "p99", "p999"):
                    cells.append("{:.2f}{}".format(r[field], ratio(r[field], base and base[field])))
                cpu = "{:.0f}{}".format(r["cpu_us"], ratio(r["cpu_us"], base and base["cpu_us"]))
                print("| {} | {} | {} | {} | {} | {} | {:.2f} |".format(
                    connections, label, server.name, " | ".join(cells), r["errors"], cpu,
                    r["wait_us"]))


def print_targets(results, connections_list):
    """The issue's throughput targets, checked against this run: by throughput,
    and by server CPU per request (what the throughput ratio becomes when each
    server has a core to itself; other load on the machine barely moves it)."""
    print("\n| target | by ops/s | by CPU µs/op | met (ops/s) |\n|---|---|---|---|")
    peers = ("dynoxide", "dynalite")

    def row(text, by_rate, by_cpu, goal):
        print("| {} | {:.2f} | {:.2f} | {} |".format(text, by_rate, by_cpu,
                                                   "yes" if by_rate >= goal else "no"))

    for connections in [c for c in connections_list if c >= 16]:
        for label in [op[0] for op in OPS]:
            ours = results.get((label, connections, "ld-memory"))
            theirs = [results[(label, connections, p)] for p in peers
                      if (label, connections, p) in results]
            if ours and theirs:
                best = max(theirs, key=lambda r: r["rate"])
                row("{} at {}: ≥ 4× the best other emulator".format(label, connections),
                    ours["rate"] / best["rate"],
                    min(r["cpu_us"] for r in theirs) / ours["cpu_us"], 4)
        ceiling = results.get((HTTP_ONLY, connections, "nginx"))
        get = results.get(("GetItem", connections, "ld-memory"))
        if ceiling and get:
            row("GetItem at {}: ≥ 0.6 of the trivial server".format(connections),
                get["rate"] / ceiling["rate"], ceiling["cpu_us"] / get["cpu_us"], 0.6)
        persistent = [op[0] for op in OPS
                      if (op[0], connections, "ld-persistent") in results
                      and (op[0], connections, "ld-memory") in results]
        if persistent:  # --servers may leave either out
            slowest = min((results[(label, connections, "ld-persistent")]["rate"] /
                           results[(label, connections, "ld-memory")]["rate"], label)
                          for label in persistent)
            worst_cpu = min(results[(label, connections, "ld-memory")]["cpu_us"] /
                            results[(label, connections, "ld-persistent")]["cpu_us"]
                            for label in persistent)
            row("persistent within 10% of in memory at {} (worst: {})".format(
                connections, slowest[1]), slowest[0], worst_cpu, 0.9)
        measured = [op[0] for op in OPS if (op[0], 16, "ld-memory") in results]
        if connections == 16 and measured:
            worst = max((results[(label, 16, "ld-memory")]["p99"], label) for label in measured)
            print("| p99 < 1 ms at 16 | worst {:.2f} ms ({}) | | {} |".format(
                worst[0], worst[1], "yes" if worst[0] < 1 else "no"))


# ---------------------------------------------------------------- start-up and memory

def start_and_memory(specs, items, starts, load_seconds_cap):
    """Per server: cold start (median of `starts`), idle RSS, bulk load figures."""
    rows = []
    for spec in specs:
        name, kind = spec[0], spec[1]
        colds, idle = [], 0.0
        for _ in range(starts):
            server = Server(*spec)
            try:
                colds.append(server.start())
                time.sleep(1.0)
                idle = rss_mb(server.proc.pid)
            finally:
                server.cleanup()
        row = {"name": name, "cold": statistics.median(colds), "cold_min": min(colds),
               "idle": idle}
        if kind != "nginx":
            row.update(bulk_load(Server(*spec), items, load_seconds_cap))
        rows.append(row)
        print("  measured start and memory of " + name, file=sys.stderr, flush=True)
    return rows


def bulk_load(server, items, cap_seconds):
    """Loads `items` items with BatchWriteItem 25 from wrk at 16 connections."""
    try:
        server.start()
        must(server.port, "CreateTable", table_request("load"))
        time.sleep(0.1)
        rss_empty = rss_mb(server.proc.pid)
        anon_empty = rss_mb(server.proc.pid, "RssAnon")
        empty_bytes = 0
        if server.persistent:
            empty_bytes = dir_bytes(server.dir)
        result = load_table(server, "load", items, cap_seconds)
        result["rss_loaded"] = rss_mb(server.proc.pid)
        result["rss_per_item"] = (result["rss_loaded"] - rss_empty) * 1024 * 1024 / \
            result["loaded"]
        # The code the first requests fault in is in the RSS growth too, the
        # same for 10,000 items as for a million; the anonymous memory's
        # growth is what holding the items takes.
        result["anon_per_item"] = (rss_mb(server.proc.pid, "RssAnon") - anon_empty) * \
            1024 * 1024 / result["loaded"]
        if server.persistent:
            server.stop()  # a clean close: what stays on disk
            result["bytes_per_item"] = (dir_bytes(server.dir) - empty_bytes) / result["loaded"]
        return result
    finally:
        server.cleanup()


def load_table(server, table, items, cap_seconds):
    """Writes `items` of load_item's items into `table` (key pk S + sk N) with
    BatchWriteItem 25 from wrk at 16 connections: a client that is not the
    bottleneck. Stops after `cap_seconds`; returns what was loaded and how fast."""
    body = json.dumps(puts(table, [load_item(i) for i in range(25)]))
    loaded_at = []
    started = time.perf_counter()
    run = wrk(server.port, cap_seconds, 16, "BatchWriteItem", body,
              total=items // 25, on_loaded=lambda line: loaded_at.append(time.perf_counter()))
    elapsed = (loaded_at[0] if loaded_at else time.perf_counter()) - started
    loaded = items if loaded_at else run["batches"] * 25
    return {"loaded": loaded, "load_rate": loaded / elapsed, "load_errors": run["errors"],
            "finished": bool(loaded_at)}


def load_item(i):
    """bulk_load's i-th item of a batch, in wrk's placeholders (peers.lua):
    {id} the batch's number, {r} 104 random hex digits."""
    return {"pk": {"S": "load#{id}"}, "sk": {"N": str(i)}, "payload": {"S": "{r}"},
            "n": {"N": "{id}"}}


def load_item_bytes(items):
    """The mean DynamoDB size of bulk_load's items: each attribute's name and
    value, a number as 1 byte plus 1 per 2 significant digits."""
    def value_bytes(kind, value):
        if kind == "N":
            return 1 + (len(value.strip("0") or "0") + 1) // 2
        return len(value)
    batches = max(1, items // 25)
    total = 0
    for batch in range(batches):
        for i in range(25):
            for name, typed in load_item(i).items():
                (kind, value), = typed.items()
                value = value.replace("{id}", str(batch)).replace("{r}", "0" * 104)
                total += len(name) + value_bytes(kind, value)
    return total / (batches * 25)


def print_memory(rows, items):
    item_bytes = load_item_bytes(items)
    print("\n| server | start → first answer, ms (median, min) | idle RSS MB "
          "| load {:,} items: items/s | RSS after load MB | RSS growth per item, bytes "
          "(÷ the item's {:.0f} bytes) | anonymous memory growth per item (÷) "
          "| bytes on disk per item |".format(items, item_bytes))
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        load = "—"
        if "load_rate" in row:
            load = "{:,.0f}".format(row["load_rate"])
            if not row["finished"]:
                load += " (stopped after {:,} items)".format(row["loaded"])
            if row["load_errors"]:
                load += ", {} errors".format(row["load_errors"])
        per_item = anon_per_item = "—"
        if "rss_per_item" in row:
            per_item = "{:.0f} ({:.2f})".format(row["rss_per_item"],
                                                row["rss_per_item"] / item_bytes)
            anon_per_item = "{:.0f} ({:.2f})".format(row["anon_per_item"],
                                                     row["anon_per_item"] / item_bytes)
        print("| {} | {:.1f}, {:.1f} | {:.1f} | {} | {} | {} | {} | {} |".format(
            row["name"], row["cold"], row["cold_min"], row["idle"], load,
            "{:.0f}".format(row["rss_loaded"]) if "rss_loaded" in row else "—", per_item,
            anon_per_item,
            "{:.0f}".format(row["bytes_per_item"]) if "bytes_per_item" in row else "—"))


# ---------------------------------------------------------------- main

def ensure_peers():
    if not os.path.exists(os.path.join(BENCH, "node_modules", "dynalite", "cli.js")) or \
            not os.path.exists(os.path.join(BENCH, "node_modules", "@dynoxide")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=BENCH, check=True)
    for tool in ("wrk", "nginx", "node"):
        if not shutil.which(tool):
            sys.exit("peers.py needs {} (Debian: apt-get install wrk nginx-light nodejs)"
                     .format(tool))
    if not os.path.exists(os.path.join(ROOT, "build", "localdynamo")):
        sys.exit("build localdynamo first (build/localdynamo)")


SERVERS = [("ld-memory", "localdynamo", False), ("ld-persistent", "localdynamo", True),
           ("dynoxide", "dynoxide", False), ("dynalite", "dynalite", False),
           ("nginx", "nginx", False)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="1 s per case, 1 round, 16 connections, 20,000-item load")
    parser.add_argument("--seconds", type=int, default=3, help="per wrk run (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="A B C C B A rounds (default 3)")
    parser.add_argument("--items", type=int, default=1_000_000, help="bulk-load size")
    parser.add_argument("--load-cap", type=int, default=180,
                        help="seconds a bulk load may take before it is cut short")
    parser.add_argument("--servers", help="comma-separated subset of " +
                        ",".join(spec[0] for spec in SERVERS))
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=COMMAND",
                        help="also measure another localdynamo in memory, e.g. "
                             "'old=/tmp/localdynamo-main' or 'one=build/localdynamo --threads 1' "
                             "(repeatable; name it in --servers)")
    parser.add_argument("--only", choices=["throughput", "memory", "scale"], action="append",
                        help="run only these parts (repeatable)")
    parser.add_argument("--pin", action="store_true",
                        help="run the servers on core 0 and wrk on core 1 (taskset): each "
                             "throughput is then the server's alone, steadier from run to "
                             "run, for comparing a cost on the server's side")
    parser.add_argument("--fresh", action="store_true",
                        help="start the servers afresh for each operation, so that no "
                             "operation runs on what the ones before it left (memtables, "
                             "stream shards, the allocator's state)")
    parser.add_argument("--operation", action="append", metavar="LABEL",
                        help="measure only this operation, by its label in the table "
                             "(e.g. 'UpdateItem ADD'; repeatable)")
    parser.add_argument("--connections", help="comma-separated connection counts "
                        "(default 1,16,64)")
    args = parser.parse_args()
    if args.pin:
        global PIN_SERVERS, PIN_WRK
        PIN_SERVERS, PIN_WRK = ["taskset", "-c", "0"], ["taskset", "-c", "1"]
    connections = [int(c) for c in (args.connections or "1,16,64").split(",")]
    starts = 5
    if args.quick:
        args.seconds, args.rounds, args.items, connections, starts = 1, 1, 20_000, [16], 3
    parts = args.only or ["throughput", "memory", "scale"]
    variants = [tuple(v.split("=", 1)) for v in args.variant]
    all_specs = SERVERS + [(name, "localdynamo", False, command.split())
                           for name, command in variants]
    specs = [spec for spec in all_specs
             if not args.servers or spec[0] in args.servers.split(",")]
    ensure_peers()

    print("load average before: {}".format(open("/proc/loadavg").read().split()[:3]))
    print("wrk: one thread; each cell the median of {} runs of {} s; ratios to ld-memory\n"
          .format(args.rounds, args.seconds))
    if "throughput" in parts:
        servers = [Server(*spec) for spec in specs]
        try:
            for server in servers:
                server.start()
                if server.kind != "nginx":
                    server.unsupported = prepare(server)
            results = throughput(servers, connections, args.seconds, args.rounds, args.fresh,
                                 args.operation)
        finally:
            for server in servers:
                server.cleanup()
        print_throughput(results, servers, connections, "ld-memory")
        print_round_ratios(results, servers, connections, "ld-memory")
        print_targets(results, connections)
    if "memory" in parts:
        rows = start_and_memory(specs, args.items, starts, args.load_cap)
        print_memory(rows, args.items)
    if "scale" in parts:
        print("\nQuery on {:,} items vs 2,000 (bench/query_scale.py, ld-memory):".format(
            args.items), flush=True)
        subprocess.run([sys.executable, os.path.join(BENCH, "query_scale.py"), "--items",
                        str(args.items), "--seconds", str(max(2, args.seconds))], check=True)
    print("\nload average after: {}".format(open("/proc/loadavg").read().split()[:3]))


if __name__ == "__main__":
    main()
