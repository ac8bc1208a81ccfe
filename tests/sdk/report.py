#!/usr/bin/env python3
"""The table of SDK against scenario, made from the results the SDK suites
wrote in one run, and held against the copy in docs/integrations.md.

  report.py RESULTS_DIR            prints the table
  report.py RESULTS_DIR --check DOC fails (exit 1) unless DOC holds this table
  report.py RESULTS_DIR --write DOC puts this table into DOC

The suites write JUnit XML (Java's Surefire under java/, pytest's python.xml,
node's js.xml) or `go test -json` (go.json). A scenario's cell is what its
test did: pass, FAIL, n/a (skipped with a reason starting "n/a:"), or
missing. Any cell other than pass or n/a fails the run, as does a test
whose name is not a scenario id (a renamed test would otherwise vanish).
"""

import json
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
BEGIN = "<!-- sdk-table: made by tests/sdk/report.py from a run's results -->"
END = "<!-- sdk-table: end -->"


def scenario_ids():
    """The ids, in the order SCENARIOS.md lists them."""
    rows = re.findall(r"^\| `([a-z0-9_]+)` \|", (HERE / "SCENARIOS.md").read_text(), re.M)
    if not rows:
        raise SystemExit("report: no scenario ids in SCENARIOS.md")
    return rows


def junit_cases(paths, strip_prefix=""):
    """{test name: (outcome, reason)} from JUnit XML files."""
    cases = {}
    for path in paths:
        for case in ET.parse(path).getroot().iter("testcase"):
            name = case.get("name", "")
            name = re.sub(r"\(\)$", "", name)  # JUnit 5 names methods "id()"
            if strip_prefix and name.startswith(strip_prefix):
                name = name[len(strip_prefix):]
            if case.find("failure") is not None or case.find("error") is not None:
                cases[name] = ("FAIL", "")
            elif case.find("skipped") is not None:
                skipped = case.find("skipped")
                reason = skipped.get("message") or (skipped.text or "")
                cases[name] = ("n/a" if reason.strip().startswith("n/a:") else "skipped",
                               reason.strip())
            else:
                cases[name] = ("pass", "")
    return cases


def go_cases(path):
    """{scenario id: (outcome, reason)} from `go test -json` output."""
    cases, output = {}, {}
    for line in path.read_text().splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        test = event.get("Test", "")
        if not test.startswith("Test_") or "/" in test:
            continue
        name = test[len("Test_"):]
        if event.get("Action") == "output":
            output.setdefault(name, []).append(event.get("Output", ""))
        elif event.get("Action") in ("pass", "fail", "skip"):
            outcome = {"pass": "pass", "fail": "FAIL", "skip": "skipped"}[event["Action"]]
            reason = ""
            if outcome == "skipped":
                found = re.search(r"n/a:[^\n]*", "".join(output.get(name, [])))
                if found:
                    outcome, reason = "n/a", found.group(0).strip()
            cases[name] = (outcome, reason)
    return cases


def versions():
    """Which release of each SDK the suites pin (from their lock and build files)."""
    def grab(path, pattern):
        found = re.search(pattern, (HERE.parent.parent / path).read_text(), re.M)
        return found.group(1) if found else "?"
    return {
        "java": grab("tests/sdk/java/pom.xml", r"<awssdk\.version>([^<]+)<"),
        "go": grab("tests/sdk/go/go.mod", r"aws-sdk-go-v2/service/dynamodb (v[\d.]+)"),
        "python": grab("tests/requirements.txt", r"^boto3==([\d.]+)"),
        "js": grab("tests/js/package.json", r'"@aws-sdk/client-dynamodb": "([^"]+)"'),
    }


SUITES = [  # key, column heading, how its results are read
    ("java", "Java v2 {}", lambda d: junit_cases(sorted((d / "java").glob("*.xml")))),
    ("go", "Go v2 (dynamodb {})", lambda d: go_cases(d / "go.json")),
    ("python", "boto3 {}", lambda d: junit_cases([d / "python.xml"], "test_")),
    ("js", "JavaScript v3 {}", lambda d: junit_cases([d / "js.xml"])),
]


def table(results_dir):
    """(markdown table, list of problems)."""
    ids = scenario_ids()
    pinned = versions()
    problems, columns, notes = [], [], []
    for key, heading, read in SUITES:
        try:
            cases = read(results_dir)
        except (OSError, ET.ParseError) as e:
            problems.append("{}: no results ({})".format(key, e))
            cases = {}
        for name in sorted(set(cases) - set(ids)):
            problems.append("{}: test {!r} is no scenario id".format(key, name))
        column = []
        for sid in ids:
            outcome, reason = cases.get(sid, ("missing", ""))
            if outcome not in ("pass", "n/a"):
                problems.append("{}: {} {}".format(key, sid, outcome))
            if outcome == "n/a":
                notes.append(reason)
                outcome = "n/a [{}]".format(len(notes))
            column.append(outcome)
        columns.append((heading.format(pinned[key]), column))
    lines = ["| scenario | " + " | ".join(h for h, _ in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for row, sid in enumerate(ids):
        lines.append("| `{}` | ".format(sid) + " | ".join(c[row] for _, c in columns) + " |")
    lines.append("")
    lines += ["[{}] {}".format(i, n) for i, n in enumerate(notes, 1)]
    return "\n".join(lines).rstrip() + "\n", problems


def replace_block(doc_text, block):
    start, end = doc_text.find(BEGIN), doc_text.find(END)
    if start < 0 or end < start:
        raise SystemExit("report: the doc has no sdk-table markers")
    return doc_text[:start] + BEGIN + "\n" + block + END + doc_text[end + len(END):]


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] not in ("--check", "--write")):
        raise SystemExit(__doc__)
    made, problems = table(pathlib.Path(argv[1]))
    print(made)
    for p in problems:
        print("report: " + p)
    if len(argv) == 4:
        doc = pathlib.Path(argv[3])
        wanted = replace_block(doc.read_text(), made)
        if argv[2] == "--write":
            doc.write_text(wanted)
        elif wanted != doc.read_text():
            print("report: {} does not hold the table this run produced; "
                  "tests/sdk/report.py RESULTS --write {} puts it there".format(doc, doc))
            return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
