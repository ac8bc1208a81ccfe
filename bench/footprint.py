#!/usr/bin/env python3
"""The release binary's start-up and idle memory beside Dynoxide's, measured
in the same run: starts each server in turn (A B C A B C ...), times spawn
to the first answered ListTables, and one second later reads its memory from
/proc: VmRSS, and of it the process's own (anonymous) pages and the
file-backed ones (the executable's code as far as start-up touched it:
shared and clean, dropped first under memory pressure, but counted in RSS).
Prints medians and the ratios to Dynoxide.

  bench/footprint.py                       dist/linux-amd64 (scripts/release.sh), build/localdynamo, Dynoxide
  bench/footprint.py --starts 5            fewer starts
  bench/footprint.py --binary PATH ...     other localdynamo binaries (repeatable)

localdynamo runs in memory with its models (the tarball's tree, so it finds
them next to itself); Dynoxide from bench/node_modules (bench/package.json,
`npm ci` there).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import BENCH, ROOT, Server  # noqa: E402


class Binary(Server):
    """A localdynamo binary given by path, in memory."""

    def __init__(self, name, path):
        super().__init__(name, "localdynamo", command=[path])


def memory(pid):
    """VmRSS, its anonymous part and its file-backed part, in MB."""
    fields = {}
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                fields[key] = int(value.split()[0]) / 1024.0
    return fields


def measure(servers, starts):
    results = {server.name: {"start": [], "VmRSS": [], "RssAnon": [], "RssFile": []}
               for server in servers}
    for _ in range(starts):
        for server in servers:
            try:
                results[server.name]["start"].append(server.start())
                time.sleep(1.0)
                for key, value in memory(server.proc.pid).items():
                    results[server.name][key].append(value)
            finally:
                server.cleanup()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=15)
    parser.add_argument("--binary", action="append", default=[],
                        help="a localdynamo binary to measure (default: the release and build/ ones)")
    args = parser.parse_args()

    paths = args.binary or [p for p in (os.path.join(ROOT, "dist", "linux-amd64", "bin", "localdynamo"),
                                        os.path.join(ROOT, "build", "localdynamo"))
                            if os.path.exists(p)]
    # Names without slashes: they also name each server's temporary directory.
    servers = [Binary("localdynamo-{}".format(i + 1), path) for i, path in enumerate(paths)]
    for server, path in zip(servers, paths):
        print("{}: {}".format(server.name, path))
    if not os.path.exists(os.path.join(BENCH, "node_modules", "@dynoxide")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=BENCH,
                       check=True)
    servers.append(Server("dynoxide", "dynoxide"))

    results = measure(servers, args.starts)
    base = results["dynoxide"]
    print("\n{} starts each, interleaved; memory 1 s after the first answer\n".format(args.starts))
    print("| server | start → first answer, ms (median, min) | VmRSS MB | anonymous MB | "
          "file-backed MB | start ÷ Dynoxide | RSS ÷ Dynoxide |")
    print("|---|---|---|---|---|---|---|")
    for name, row in results.items():
        med = {key: statistics.median(values) for key, values in row.items() if values}
        print("| {} | {:.1f}, {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.2f} | {:.2f} |".format(
            name, med["start"], min(row["start"]), med["VmRSS"], med.get("RssAnon", 0),
            med.get("RssFile", 0), med["start"] / statistics.median(base["start"]),
            med["VmRSS"] / statistics.median(base["VmRSS"])))


if __name__ == "__main__":
    main()
