#!/usr/bin/env python3
"""What the access profile adds to a request, counted rather than timed.

bench/profile_cost.sh times the same build with and without the profile,
side by side (bench/side_by_side.py); this counts instead, which repeats to
about 1% whatever the machine does, but sees only callgrind's model of two
cache levels, and has come out under the timed cost. It runs each server under
callgrind with its cache simulation (instrumentation switched on only after
a warm-up), drives each of peers.py's operations with wrk at 4 connections
for a while, and reports per answered request (calls of Endpoint::Handle)
the instructions, the first-level cache misses (instruction and data) and an
estimate of the cycles, with the profile over without it. Valgrind runs the
threads one at a time and the counts do not depend on the machine's load.
The last column is the cycles the profile adds inside Endpoint::Handle (a
request's own work, where all of the profile's code runs) over the whole
process's without it: the whole process's count also holds the background
threads' and the event loop's, whose share of a short run moves by a few
hundred cycles a request from run to run.

The cycle estimate is callgrind's usual model, not a measurement: an
instruction a cycle, 10 more for a miss of the first-level caches and 100
for a miss of the last level. It is what makes instruction cache misses,
which an instruction count leaves out, visible beside the instructions.

Needs valgrind (Debian: apt-get install valgrind), wrk and build/localdynamo.
  bench/profile_counted.py [--seconds S] [--operation LABEL ...] [--rounds N]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402  (the workloads, the server runner and wrk's driver)

EVENTS = ["Ir", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]


def handle_calls(path):
    """How many times Endpoint::Handle was called while instrumented: one
    call per request answered."""
    names, total, counting = {}, 0, False
    with open(path, errors="replace") as out:
        for line in out:
            named = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if named:
                kind, number, name = named.groups()
                if name:
                    names[number] = name
                if kind == "cfn":
                    counting = "ddb::server::Endpoint::Handle(" in names.get(number, "")
                continue
            if counting and line.startswith("calls="):
                total += int(line.split()[0][len("calls="):])
                counting = False
    return total


def totals(path):
    """The whole process's events while instrumented, by name."""
    events, summary = None, None
    with open(path, errors="replace") as out:
        for line in out:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:") or line.startswith("totals:"):
                summary = [int(v) for v in line.split()[1:]]
    return dict(zip(events, summary))


def estimated_cycles(events):
    """Callgrind's model: an instruction a cycle, 10 more for a first-level
    miss, 100 for a last-level one."""
    return (events.get("Ir", 0) + 10 * (events.get("I1mr", 0) + events.get("D1mr", 0) +
                                        events.get("D1mw", 0)) +
            100 * (events.get("ILmr", 0) + events.get("DLmr", 0) + events.get("DLmw", 0)))


def handle_inclusive(path):
    """The events of Endpoint::Handle and all it called: a request's own
    work, without the reading and writing of the connection or the
    background threads, whose share of a short run moves from run to run."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                          "--show=" + ",".join(EVENTS), path],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if "ddb::server::Endpoint::Handle(" in line:
            values = re.findall(r"([\d,]+) \(|(?<!\S)\.(?=\s)", line)
            counts = [int(v.replace(",", "")) if v else 0 for v in values]
            return dict(zip(EVENTS, counts))
    raise RuntimeError("no Endpoint::Handle in " + path)


def measure(label, target, body, mod, profile, seconds, out_file):
    """Per-request events of one server (with or without the profile) under
    `label`'s workload."""
    command = ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--instr-atstart=no",
               "--callgrind-out-file=" + out_file, os.path.join(peers.ROOT, "build", "localdynamo")]
    if not profile:
        command.append("--no-profile")
    server = peers.Server(label, "localdynamo", command=command)
    try:
        server.start()
        unsupported = peers.prepare(server)
        if unsupported:
            raise RuntimeError("operations refused: {}".format(unsupported))
        peers.wrk(server.port, 3, 4, target, body, mod)  # every key and shape seen once
        subprocess.run(["callgrind_control", "-i", "on", str(server.proc.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run = peers.wrk(server.port, seconds, 4, target, body, mod)
        subprocess.run(["callgrind_control", "-i", "off", str(server.proc.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if run["errors"]:
            raise RuntimeError("{}: {} errors".format(label, run["errors"]))
    finally:
        server.cleanup()  # callgrind writes its file at the exit
    requests = handle_calls(out_file)
    counted = totals(out_file)
    per = {name: counted.get(name, 0) / requests for name in EVENTS}
    per["D1"] = per["D1mr"] + per["D1mw"]
    per["cycles"] = estimated_cycles(per)
    per["handle_cycles"] = estimated_cycles(handle_inclusive(out_file)) / requests
    per["requests"] = requests
    return per


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=10, help="instrumented wrk run (default 10)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="pairs per operation; the median is reported (default 1)")
    parser.add_argument("--operation", action="append", metavar="LABEL",
                        help="only this operation of peers.py's (repeatable)")
    args = parser.parse_args()
    print("| operation | instructions per request, with / without | ratio "
          "| I1 misses (ratio) | D1 misses (ratio) | estimated cycles (ratio) "
          "| added inside Endpoint::Handle (of all without) | requests |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="profile-counted-") as work:
        measure_all(args, work)


def measure_all(args, work):
    """One table row per operation; callgrind's files go into `work`."""
    for label, target, body, mod in peers.OPS:
        if args.operation and label not in args.operation:
            continue
        pairs = []
        for round_number in range(args.rounds):
            on = measure(label, target, json.dumps(body), mod, True, args.seconds,
                         os.path.join(work, "on.%d" % round_number))
            off = measure(label, target, json.dumps(body), mod, False, args.seconds,
                          os.path.join(work, "off.%d" % round_number))
            pairs.append((on, off))

        def median(field, side):
            return statistics.median(pair[side][field] for pair in pairs)

        def ratio(field):
            return statistics.median(pair[0][field] / pair[1][field] for pair in pairs)

        def added_inside():
            return statistics.median((on["handle_cycles"] - off["handle_cycles"]) / off["cycles"]
                                     for on, off in pairs)

        print("| {} | {:,.0f} / {:,.0f} | {:.3f} | {:,.0f} / {:,.0f} ({:.3f}) "
              "| {:,.0f} / {:,.0f} ({:.3f}) | {:,.0f} / {:,.0f} ({:.3f}) | {:.2%} | {} |".format(
                  label, median("Ir", 0), median("Ir", 1), ratio("Ir"),
                  median("I1mr", 0), median("I1mr", 1), ratio("I1mr"),
                  median("D1", 0), median("D1", 1), ratio("D1"),
                  median("cycles", 0), median("cycles", 1), ratio("cycles"), added_inside(),
                  sum(p[0]["requests"] + p[1]["requests"] for p in pairs)), flush=True)


if __name__ == "__main__":
    main()
