#!/usr/bin/env python3
"""Writes the link order of the server's functions (cmake/function-order.txt),
from what a run of the server executes, so that the code a running server
keeps using sits side by side in the executable instead of spread over its
text. The kernel maps a file's pages 64 KB at a time around each page a
fault touches: code spread thinly costs resident memory for all of it
(docs/measured.md, idle memory).

Runs the server in memory with its models under callgrind (which counts,
so the result does not depend on the machine's load) in three phases, and
lists each function executed under the first phase that ran it, in this
order:
  1. the first ListTables and three seconds idle, with the timers' first
     passes: what an idle server holds;
  2. what a test suite asks (bench/peers.py's tables, seed load and
     operations, a Scan, the common errors, a DeleteTable);
  3. start-up, up to where server/startup_memory.cc unmaps its code.
Functions never executed follow, in the compiler's order. A name no longer
in the code matches nothing, so a stale list only costs memory; run this
again after large changes to the serving path:

  bench/function_order.py                   build/localdynamo, into cmake/
  bench/function_order.py --binary PATH --out FILE
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import ROOT, Server, call, must, prepare  # noqa: E402


def executed_functions(path):
    """The mangled names of the functions a callgrind output has costs for,
    in the order they first appear. A name is written once, at its first
    mention (as a function or as a callee), and by number after that."""
    names, executed = {}, {}
    with open(path, errors="replace") as out:
        for line in out:
            found = re.match(r"(c?)fn=\((\d+)\)(?: (\S+))?", line)
            if not found:
                continue
            callee, number, name = found.groups()
            if name:
                names[number] = name.split("'")[0]  # 'N: a recursion level
            if not callee:
                executed.setdefault(names[number], None)
    return list(executed)


def suite_requests(port):
    """What a test suite typically asks beyond peers.py's operations."""
    must(port, "Scan", {"TableName": "bench", "Limit": 50})
    must(port, "BatchGetItem", {"RequestItems": {"bench": {"Keys": [
        {"pk": {"S": "user#1"}, "sk": {"N": "0"}}, {"pk": {"S": "user#2"}, "sk": {"N": "0"}}]}}})
    must(port, "DeleteItem", {"TableName": "bench", "Key": {"pk": {"S": "user#1"}, "sk": {"N": "0"}}})
    call(port, "GetItem", {"TableName": "missing", "Key": {"pk": {"S": "x"}}})
    call(port, "PutItem", {"TableName": "bench", "Item": {"pk": {"S": "x"}}})
    call(port, "PutItem", {"TableName": "bench", "Item": {"pk": {"S": "user#2"}, "sk": {"N": "0"}},
                           "ConditionExpression": "attribute_not_exists(pk)"})
    must(port, "DeleteTable", {"TableName": "streamed"})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "localdynamo"))
    parser.add_argument("--out", default=os.path.join(ROOT, "cmake", "function-order.txt"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "callgrind.out")
        # Start-up ends where its memory is released (a dump there); start()
        # returns at the first answered ListTables.
        server = Server("function-order", "localdynamo", command=[
            "valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + out,
            "--dump-after=*ReleaseStartupMemory*", args.binary])
        try:
            server.start()
            time.sleep(3.0)  # the timers' first passes
            subprocess.run(["callgrind_control", "--dump=idle", str(server.proc.pid)], check=True,
                           stdout=subprocess.DEVNULL)
            prepare(server)
            suite_requests(server.port)
        finally:
            server.cleanup()  # callgrind writes the last part at the exit
        start, idle, suite = (executed_functions(out + suffix) for suffix in (".1", ".2", ""))
    ordered = {}
    for phase in (idle, suite, start):
        for name in phase:
            ordered.setdefault(name, None)
    with open(args.out, "w") as order:
        # lld's --symbol-ordering-file: a symbol a line.
        order.writelines(name + "\n" for name in ordered)
    print("function_order: %d functions (%d idle, then %d for requests, then start-up) into %s"
          % (len(ordered), len(idle), len(set(suite) - set(idle)), args.out))


if __name__ == "__main__":
    main()
