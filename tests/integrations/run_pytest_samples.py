#!/usr/bin/python3
"""Builds pytest-localdynamo (integrations/pytest) as a wheel from its path,
installs it into a fresh virtual environment with the pinned newest boto3,
pytest and pytest-xdist (tests/requirements.txt, from the wheels
scripts/python-venv.sh keeps in build/python-wheels: no index is asked), and
runs the sample projects there, as a user of the plugin would (ctest entry
`pytest_plugin`):

1. pytest-sample, -n 4 --dist loadfile, a database per worker: must pass, and
   the four modules' writes of the same keys must have overlapped in time;
2. the same, serially on one shared database (how a suite avoids races on a
   plain shared server today): must pass — the tests are right on their own;
3. the same, -n 4 on one shared database: must FAIL in the modules' shared-key
   tests — the isolation checks can see a race when there is one;
   the first run's access-profile report (localdynamo-profile.json) must hold
   each worker's database, and none of the seed's writes;
4. pytest-models-sample, -n 2: the preloaded models and the per-database reset;
5. pytest-plugin: the options and failure paths, on small projects (pytester).

Prints the wall time of each step (the timing comparison proper is
time_pytest_sample.py's).  Needs $LOCALDYNAMO_BIN (else localdynamo on PATH)
and build/venv made by scripts/python-venv.sh ($LOCALDYNAMO_VENV and
$LOCALDYNAMO_WHEELS name other places).
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
REQUIREMENTS = REPO / "tests" / "requirements.txt"
# The tool venv (its pip and setuptools build the wheel and install the
# fresh venv) and the pinned wheels beside it, both from scripts/python-venv.sh.
TOOL_PYTHON = Path(os.environ.get("LOCALDYNAMO_VENV") or REPO / "build" / "venv") / "bin" / "python"
WHEELS = Path(os.environ.get("LOCALDYNAMO_WHEELS") or REPO / "build" / "python-wheels")
# What a user of the plugin has: boto3, pytest and pytest-xdist with their
# dependencies (the closure), at the versions tests/requirements.txt pins.
USER_PACKAGES = ("boto3", "botocore", "s3transfer", "jmespath", "python-dateutil", "six",
                 "urllib3", "pytest", "pluggy", "iniconfig", "packaging", "Pygments",
                 "pytest-xdist", "execnet")


def pip(*args):
    subprocess.run([str(TOOL_PYTHON), "-m", "pip", "--quiet", "--disable-pip-version-check",
                    *args], check=True)


def build_wheel(work):
    """The plugin's wheel, built from a copy of its path (an in-tree build
    leaves build/ and egg-info behind) with the tool venv's pinned setuptools."""
    source = work / "source"
    shutil.copytree(PLUGIN_SOURCE, source, ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "__pycache__"))
    dist = work / "dist"
    pip("wheel", "--no-deps", "--no-index", "--no-build-isolation", "--wheel-dir", str(dist),
        str(source))
    wheels = list(dist.glob("pytest_localdynamo-*.whl"))
    expect(len(wheels) == 1, "pip wheel made {}".format(wheels))
    return wheels[0]


def install_plugin(work):
    """A fresh venv (Debian's python3, no pip of its own: the tool venv's pip
    installs into it) holding the user's packages, pinned, and the plugin's
    wheel. --no-deps: USER_PACKAGES are the whole closure, and the plugin's
    own dependency `localdynamo` (the wheel carrying the binary) stays out, as
    $LOCALDYNAMO_BIN names the binary; pip check proves nothing else is
    missing. Returns the venv's site-packages."""
    started = time.monotonic()
    if not TOOL_PYTHON.exists() or not WHEELS.is_dir():
        sys.exit("FAILED: {} or {} missing: run scripts/python-venv.sh".format(TOOL_PYTHON, WHEELS))
    wheel = build_wheel(work)
    venv = work / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv)], check=True)
    pip("--python", str(venv / "bin" / "python"), "install", "--no-index", "--find-links",
        str(WHEELS), "--no-deps", "--root-user-action=ignore", "-c", str(REQUIREMENTS),
        *USER_PACKAGES, str(wheel))
    check = subprocess.run([str(TOOL_PYTHON), "-m", "pip", "--disable-pip-version-check",
                            "--python", str(venv / "bin" / "python"), "check"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    missing = [line for line in check.stdout.splitlines() if "localdynamo" not in line
               and line.strip() and "No broken requirements" not in line]
    expect(not missing, "the fresh venv is not complete: {}".format(missing), check.stdout)
    site = next((venv / "lib").glob("python3*/site-packages"))
    expect((site / "pytest_localdynamo").is_dir(), "pip did not install the plugin")
    print("fresh venv with the plugin's wheel: {:.2f} s".format(time.monotonic() - started))
    return site


def venv_python(site):
    """The interpreter of the venv whose site-packages `site` is
    (<venv>/lib/python3.X/site-packages)."""
    return site.parents[2] / "bin" / "python"


def run_pytest(site, project, args, record_dir=None, junit=None, report="off"):
    """`report`: where the run's access-profile report goes (never into the
    sample's folder); None: the plugin's own choice (pytester's projects)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LOCALDYNAMO_URL", "PYTEST_ADDOPTS", "PYTEST_PLUGINS",
                        "LOCALDYNAMO_PROFILE_REPORT")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if report is not None:
        env["LOCALDYNAMO_PROFILE_REPORT"] = str(report)
    if record_dir:
        env["SAMPLE_RECORD_DIR"] = str(record_dir)
    command = [str(venv_python(site)), "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
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


def check_profile(report, output):
    """The isolated run's report: every worker's database, the tests' writes
    to orders and none of the seed's (the tables file's data, the seed hook)."""
    answer = json.loads(report.with_name(report.name + ".json").read_text())
    workers = [db for db in answer["Databases"] if db["Namespace"].startswith("pytest-GW")]
    expect(len(workers) == len(SAMPLE_MODULES),
           "the report holds {} workers' databases, not {}".format(
               len(workers), len(SAMPLE_MODULES)), output)
    def count(operation):
        return sum(table["Requests"].get(operation, 0)
                   for db in workers for table in db["Tables"])
    # The seed writes with BatchWriteItem alone, the tests never do.
    expect(count("PutItem") > 0 and count("BatchWriteItem") == 0,
           "the report does not count the tests' writes alone", json.dumps(answer))
    html = report.with_name(report.name + ".html").read_text()
    expect("<h2>Tables</h2>" in html and "<svg" in html, "the HTML report is not one", html)
    return answer


def main():
    with tempfile.TemporaryDirectory(prefix="pytest-localdynamo-") as tmp:
        work = Path(tmp)
        site = install_plugin(work)
        parallel = ["-n", "4", "--dist", "loadfile"]

        record = work / "record-isolated"
        report = work / "sample-profile"
        code, seconds, output = run_pytest(site, SAMPLE, parallel, record_dir=record,
                                           report=report)
        expect(code == 0, "pytest-sample with a database per worker", output)
        overlap = check_overlap(record, output)
        profile = check_profile(report, output)
        print("database per worker, -n 4: passed in {:.2f} s (all four modules wrote the same "
              "keys together for {:.2f} s; the report: {} requests)".format(
                  seconds, overlap, profile["Requests"]))

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

        code, seconds, output = run_pytest(site, PLUGIN_TESTS, [], report=None)
        expect(code == 0, "the plugin's option tests (pytest-plugin)", output)
        print("plugin options: {} in {:.2f} s".format(output.strip().splitlines()[-1], seconds))


if __name__ == "__main__":
    main()
