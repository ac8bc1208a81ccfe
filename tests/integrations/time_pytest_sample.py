#!/usr/bin/python3
"""Times the pytest sample project (by hand, not in CI; numbers for
integrations/pytest/README.md):

* the whole run, N times each: serially on one shared database (the baseline:
  how a suite avoids races on a plain shared server), serially with the
  plugin's own database, and with a database per worker under -n 2 and -n 4;
* one reset, the step before every test: restoring the worker's seed snapshot
  against what a suite without snapshots does (drop the tables, create them
  again, write the seed), averaged.

  LOCALDYNAMO_BIN=build/localdynamo tests/integrations/time_pytest_sample.py [--runs 5] [--rounds 60]

--rounds sets the sample's $SAMPLE_ROUNDS (writes per shared-key test: more
work per test).  Prints the machine's load average with the numbers: on a
busy machine the parallel runs are the first to suffer.
"""

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from run_pytest_samples import SAMPLE, expect, install_plugin, run_pytest

CONFIGURATIONS = [
    ("shared database, serial (baseline)", ["--localdynamo-isolation", "shared"]),
    ("own database, serial", []),
    ("database per worker, -n 2", ["-n", "2", "--dist", "loadfile"]),
    ("database per worker, -n 4", ["-n", "4", "--dist", "loadfile"]),
]


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_runs(site, runs):
    """Wall time of each run, and the CPU time pytest and its workers used
    (the server is the controller's child, so its CPU counts too)."""
    for label, args in CONFIGURATIONS:
        seconds, cpu = [], []
        for _ in range(runs):
            cpu_before = children_cpu_seconds()
            code, took, output = run_pytest(site, SAMPLE, args)
            expect(code == 0, label, output)
            seconds.append(took)
            cpu.append(children_cpu_seconds() - cpu_before)
        print("{:38s} median {:6.2f} s wall, {:5.2f} s CPU  ({})".format(
            label, statistics.median(seconds), statistics.median(cpu),
            ", ".join("{:.2f}".format(s) for s in seconds)))


def time_resets(site, repeats):
    sys.path.insert(0, str(site))
    sys.path.insert(0, str(SAMPLE))
    from pytest_localdynamo.database import LocalDynamoDatabase
    from pytest_localdynamo.server import LocalDynamoServer, find_binary
    from pytest_localdynamo.tables import create_tables, load_tables
    import conftest  # the sample's seed hook

    entries = load_tables(SAMPLE / "tables.json")
    server = LocalDynamoServer(find_binary(os.environ.get("LOCALDYNAMO_BIN")),
                               ["--in-memory", "--per-key-databases", "--no-models"]).start()
    try:
        database = LocalDynamoDatabase(server.url, "timing", "us-east-1", "timing-")
        database.prepare(entries, False, conftest.pytest_localdynamo_seed)
        client, resource = database.client(), database.resource()

        started = time.perf_counter()
        for _ in range(repeats):
            database.reset()
        restore_ms = (time.perf_counter() - started) * 1000 / repeats

        started = time.perf_counter()
        for _ in range(repeats):
            for entry in entries:
                client.delete_table(TableName=entry["TableName"])
            create_tables(client, resource, entries)
            conftest.pytest_localdynamo_seed(database)
        recreate_ms = (time.perf_counter() - started) * 1000 / repeats
    finally:
        server.stop()
        server.remove_log()
    print("one reset, restoring the seed snapshot:          {:6.2f} ms".format(restore_ms))
    print("one reset, drop + create tables + write the seed: {:6.2f} ms".format(recreate_ms))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each configuration")
    parser.add_argument("--rounds", type=int, default=None, help="$SAMPLE_ROUNDS")
    options = parser.parse_args()
    if options.rounds:
        os.environ["SAMPLE_ROUNDS"] = str(options.rounds)
    print("load average before: {:.2f} {:.2f} {:.2f}, {} cores".format(
        *os.getloadavg(), os.cpu_count()))
    with tempfile.TemporaryDirectory(prefix="pytest-localdynamo-timing-") as tmp:
        site = install_plugin(Path(tmp))
        time_runs(site, options.runs)
        time_resets(site, 100)
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
