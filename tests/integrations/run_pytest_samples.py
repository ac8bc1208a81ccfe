#!/usr/bin/python3
"""Installs pytest-localdynamo (integrations/pytest) with pip, offline, into a
temporary directory and runs the sample projects through Debian's pytest and
pytest-xdist, as a user of the plugin would (ctest entry `pytest_plugin`):

1. pytest-sample, -n 4 --dist loadfile, a database per worker: must pass, and
   the four modules' writes of the same keys must have overlapped in time;
2. the same, serially on one shared database (how a suite avoids races on a
   plain shared server today): must pass — the tests are right on their own;
3. the same, -n 4 on one shared database: must FAIL in the modules' shared-key
   tests — the isolation checks can see a race when there is one;
4. pytest-models-sample, -n 2: the preloaded models and the per-database reset;
5. pytest-plugin: the options and failure paths, on small projects (pytester).

Prints the wall time of each run (the timing comparison proper is
time_pytest_sample.py's).  Needs $LOCALDYNAMO_BIN (else localdynamo on PATH).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLUGIN_SOURCE = REPO / "integrations" / "pytest"
SAMPLE = HERE / "pytest-sample"
MODELS_SAMPLE = HERE / "pytest-models-sample"
PLUGIN_TESTS = HERE / "pytest-plugin"
SAMPLE_MODULES = ("test_orders", "test_counters", "test_module_reset",
                  "test_snapshots_and_plain_boto3")
PYTHON = "/usr/bin/python3"


def install_plugin(work):
    """pip install from the plugin's path with Debian's pip and setuptools and
    no network (--no-index, --no-build-isolation, --no-deps), into a --target
    directory put on PYTHONPATH: nothing is written into the system's Python.
    The source is copied first: an in-tree build leaves build/ and egg-info."""
    source = work / "source"
    shutil.copytree(PLUGIN_SOURCE, source, ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "__pycache__"))
    site = work / "site"
    subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                    "--no-build-isolation", "--disable-pip-version-check", "--root-user-action=ignore",
                    "--target", str(site), str(source)], check=True)
    assert (site / "pytest_localdynamo").is_dir(), "pip did not install the package"
    return site


def run_pytest(site, project, args, record_dir=None, junit=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("LOCALDYNAMO_URL", "PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    env["PYTHONPATH"] = str(site)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if record_dir:
        env["SAMPLE_RECORD_DIR"] = str(record_dir)
    command = [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    if junit:
        command += ["--junitxml", str(junit)]
    started = time.monotonic()
    proc = subprocess.run(command, cwd=project, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return proc.returncode, time.monotonic() - started, proc.stdout


def expect(condition, message, output=""):
    if not condition:
        print(output)
        sys.exit("FAILED: " + message)


def failed_tests(junit):
    failed = set()
    for case in ET.parse(junit).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed.add("{}::{}".format(case.get("classname").rpartition(".")[2], case.get("name")))
    return failed


def check_overlap(record_dir, output):
    windows = [json.loads(p.read_text()) for p in sorted(record_dir.glob("window-*.json"))]
    expect(len(windows) == len(SAMPLE_MODULES),
           "expected a same_keys window from each of the {} modules, got {}".format(
               len(SAMPLE_MODULES), len(windows)), output)
    workers = {w["worker"].partition(":")[0] for w in windows}
    expect(len(workers) == len(SAMPLE_MODULES),
           "the modules did not run on {} different workers: {}".format(
               len(SAMPLE_MODULES), sorted(workers)), output)
    # Every module's writes overlapped every other's: all started before any ended.
    latest_start = max(w["start"] for w in windows)
    earliest_end = min(w["end"] for w in windows)
    expect(latest_start < earliest_end,
           "the modules' writes of the same keys did not all overlap: {}".format(windows), output)
    return earliest_end - latest_start


def main():
    with tempfile.TemporaryDirectory(prefix="pytest-localdynamo-") as tmp:
        work = Path(tmp)
        site = install_plugin(work)
        parallel = ["-n", "4", "--dist", "loadfile"]

        record = work / "record-isolated"
        code, seconds, output = run_pytest(site, SAMPLE, parallel, record_dir=record)
        expect(code == 0, "pytest-sample with a database per worker", output)
        overlap = check_overlap(record, output)
        print("database per worker, -n 4: passed in {:.2f} s (all four modules wrote the same "
              "keys together for {:.2f} s)".format(seconds, overlap))

        code, seconds, output = run_pytest(site, SAMPLE, ["--localdynamo-isolation", "shared"])
        expect(code == 0, "pytest-sample serially on one shared database", output)
        print("shared database, serial: passed in {:.2f} s".format(seconds))

        junit = work / "shared-parallel.xml"
        code, seconds, output = run_pytest(
            site, SAMPLE, parallel + ["--localdynamo-isolation", "shared"],
            record_dir=work / "record-shared", junit=junit)
        expect(code == 1, "pytest-sample -n 4 on one shared database was expected to fail "
               "(exit 1), exited {}".format(code), output)
        failed = failed_tests(junit)
        raced = {f for f in failed if "shared_keys" in f or "shared_counter" in f}
        expect(len(raced) >= 2, "expected the shared-key tests of at least two modules to fail "
               "on a shared database, failed: {}".format(sorted(failed)), output)
        print("shared database, -n 4: {} tests failed as expected ({} of them the shared-key "
              "tests) in {:.2f} s".format(len(failed), len(raced), seconds))

        code, seconds, output = run_pytest(site, MODELS_SAMPLE, ["-n", "2", "--dist", "loadfile"])
        expect(code == 0, "pytest-models-sample -n 2 --dist loadfile", output)
        print("models sample, -n 2: passed in {:.2f} s".format(seconds))

        code, seconds, output = run_pytest(site, PLUGIN_TESTS, [])
        expect(code == 0, "the plugin's option tests (pytest-plugin)", output)
        print("plugin options: {} in {:.2f} s".format(output.strip().splitlines()[-1], seconds))


if __name__ == "__main__":
    main()
