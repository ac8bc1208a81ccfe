"""localdynamo models --check: every documented access pattern of the five
preloaded models (fixtures/<model>/access-patterns.json) run against their
sample items, reported one line per pattern: how it is served (a key
condition on the table or an index, a key lookup or write, or a Scan, which
is a finding), its units, the items it read against those it returned, and
a sparse index's verdict.

The units and counts the check reports are compared with what boto3 gets
back for the same requests from a server started with --sample-items (reset
after each write, as the check reloads its database), and a few with what
DynamoDB's pricing rules give for the items' sizes.
"""

import json
import re
import subprocess

import pytest
from botocore import xform_name

from .e2e_util import REPO_ROOT
from .server_util import admin_ok, own_server_fixtures, server_binary

FIXTURES = REPO_ROOT / "fixtures"
MODELS = ["deployments", "ecommerce", "lambda-layers", "tenants", "warehouse"]
READS = {"GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"}

server, ddb, tables = own_server_fixtures("--in-memory", "--sample-items", "--ttl-interval", "0")


def run(*args):
    """`localdynamo models <args>`: (exit code, stdout, stderr)."""
    proc = subprocess.run([str(server_binary()), "models"] + [str(a) for a in args],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def documented():
    """(model, pattern) for every entry of the five access-patterns.json."""
    return [(model, pattern) for model in MODELS
            for pattern in json.loads((FIXTURES / model / "access-patterns.json").read_text())]


@pytest.fixture(scope="module")
def report():
    rc, out, err = run("--check", "--json")
    assert rc == 0, err + out
    answer = json.loads(out)
    return {(p["Model"], p["Name"]): p for p in answer["Patterns"]}, answer["Summary"]


def pattern(model, name):
    for m, p in documented():
        if (m, p["Name"]) == (model, name):
            return p
    raise AssertionError("no pattern {} in {}".format(name, model))


def sample_tables(model):
    return {path.stem for path in (FIXTURES / model / "items").glob("*.jsonl")}


# --- What boto3 gets for the same request ----------------------------------

def capacity_of(answers):
    """ConsumedCapacity of a request's answers (pages), summed: total units,
    the table's and each index's."""
    total, table, indexes = 0.0, 0.0, {}
    for answer in answers:
        consumed = answer.get("ConsumedCapacity", [])
        for c in consumed if isinstance(consumed, list) else [consumed]:
            total += c["CapacityUnits"]
            table += c.get("Table", {}).get("CapacityUnits", 0)
            for kind in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
                for name, units in c.get(kind, {}).items():
                    indexes[name] = indexes.get(name, 0) + units["CapacityUnits"]
    return total, table, indexes


def send(client, p):
    """The pattern's request through boto3, with its pages; the answers."""
    call = getattr(client, xform_name(p["Operation"]))
    request = dict(p["Request"], ReturnConsumedCapacity="INDEXES")
    answers = [call(**request)]
    while p.get("AllPages") and "LastEvaluatedKey" in answers[-1]:
        request["ExclusiveStartKey"] = answers[-1]["LastEvaluatedKey"]
        answers.append(call(**request))
    return answers


# --- The report -------------------------------------------------------------

def test_every_documented_pattern_of_the_five_models_is_reported(report):
    # The check runs every entry of the five models' access-patterns.json, with no errors.
    patterns, summary = report
    expected = {(model, p["Name"]) for model, p in documented()}
    assert set(patterns) == expected
    assert {model for model, _ in patterns} == set(MODELS)
    assert summary["Patterns"] == len(expected) and summary["Models"] == 5
    assert summary["Errors"] == 0
    assert all("Error" not in p for p in patterns.values())


def test_the_text_report_has_a_line_per_pattern_and_a_summary():
    # Without --json: one line per pattern (model, name, then how it is served), then the summary.
    rc, out, err = run("--check")
    assert rc == 0, err + out
    lines = out.splitlines()
    entries = documented()
    assert len(lines) == len(entries) + 1
    for line, (model, p) in zip(lines, entries):
        columns = r"{}\s+{}\s\s+\S".format(re.escape(model), re.escape(p["Name"]))
        assert re.match(columns, line), line
    assert lines[-1].startswith("summary: {} patterns in 5 models: ".format(len(entries)))
    assert "0 errors" in lines[-1]


def test_each_pattern_on_sample_items_finds_them(report):
    # The requests use the sample items' values: a read of a table with sample items finds some.
    patterns, _ = report
    for model, p in documented():
        if p["Operation"] in READS and p["Request"].get("TableName") in sample_tables(model):
            assert patterns[(model, p["Name"])]["ItemsReturned"] >= 1, (model, p["Name"])


def test_how_each_pattern_is_served(report):
    # A Query is a key condition on the table or its index; GetItem a key lookup; writes key writes.
    patterns, _ = report
    for model, p in documented():
        got = patterns[(model, p["Name"])]
        request = p["Request"]
        if p["Operation"] == "Query":
            assert got["Access"] == "KeyCondition"
            if "IndexName" in request:
                assert got["Summary"] == "key condition on index " + request["IndexName"]
            else:
                assert got["Summary"] == "key condition on table " + request["TableName"]
        elif p["Operation"] in ("GetItem", "BatchGetItem"):
            assert got["Access"] == "KeyLookup"
        elif p["Operation"] in ("PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems"):
            assert got["Access"] == "KeyWrite"
    assert patterns[("deployments", "listDeployments")]["IndexName"] == "CreateDateIndex"
    assert patterns[("tenants", "Every audit of one operation")]["Summary"] == \
        "key condition on table tenants"


def test_units_and_counts_are_what_boto3_gets_for_the_same_requests(report, server, ddb):
    # Every pattern's units (total, table, per index) and ScannedCount/Count equal boto3's answer.
    patterns, _ = report
    compared = 0
    for model, p in documented():
        if p["Operation"] == "ListStreams":
            continue
        answers = send(ddb, p)
        if p["Operation"] not in READS:
            admin_ok(server.url, "reset", {})  # the sample items as loaded, as the check has them
        total, table, indexes = capacity_of(answers)
        got = patterns[(model, p["Name"])]
        where = (model, p["Name"])
        assert got["ReadUnits"] + got["WriteUnits"] == pytest.approx(total), where
        assert (got["WriteUnits"] > 0) == (p["Operation"] not in READS), where
        assert sum(got["TableUnits"].values()) == pytest.approx(table), where
        assert got["IndexUnits"] == pytest.approx(indexes), where
        if p["Operation"] in ("Query", "Scan"):
            assert got["ItemsRead"] == sum(a["ScannedCount"] for a in answers), where
            assert got["ItemsReturned"] == sum(a["Count"] for a in answers), where
        compared += 1
    assert compared == len(documented()) - 1


def small(item, limit):
    # An item's JSON is longer than its billed size (names and values plus overhead).
    return len(json.dumps(item)) < limit


def test_exact_units_of_a_few_patterns(report, ddb):
    # By the items' sizes: an eventually consistent read under 4 KB costs 0.5, a write under 1 KB
    # 1 in the table and 1 in each index whose entry it changes.
    patterns, _ = report
    profile = ddb.get_item(**pattern("ecommerce", "Get user profile")["Request"])["Item"]
    assert small(profile, 4096)
    got = patterns[("ecommerce", "Get user profile")]
    assert (got["ReadUnits"], got["WriteUnits"]) == (0.5, 0)
    assert (got["ItemsRead"], got["ItemsReturned"]) == (1, 1)

    orders = ddb.query(**pattern("ecommerce", "Get orders for user")["Request"])["Items"]
    assert len(orders) == 3 and small(orders, 4096)
    assert patterns[("ecommerce", "Get orders for user")]["ReadUnits"] == 0.5

    # A new deployment: its item in the table and its entry in CreateDateIndex, 1 WCU each.
    assert small(pattern("deployments", "createDeployment")["Request"]["Item"], 1024)
    got = patterns[("deployments", "createDeployment")]
    assert got["WriteUnits"] == 2 and got["ReadUnits"] == 0
    assert got["TableUnits"] == {"DeploymentTable": 1}
    assert got["IndexUnits"] == {"CreateDateIndex": 1}

    # The counter: one small item, no index.
    got = patterns[("warehouse", "Count progress")]
    assert (got["WriteUnits"], got["IndexUnits"]) == (1, {})

    # Deleting a layer removes dplySts: the item is rewritten and leaves both indexes.
    got = patterns[("lambda-layers", "When deleting")]
    assert got["WriteUnits"] == 3
    assert got["IndexUnits"] == {"pckg-dplySts": 1, "rgn-dplySts": 1}


def test_a_scan_pattern_is_a_finding_not_an_error(report, ddb):
    # "Every package" can only be a Scan: reported as one, with what it read of the table; exit 0.
    patterns, summary = report
    got = patterns[("warehouse", "Every package")]
    count = ddb.scan(TableName="wrhs_package", Select="COUNT")["Count"]
    assert got["Access"] == "Scan"
    assert got["ItemsInTable"] == count and got["ItemsRead"] == count
    assert got["Summary"] == "SCAN: reads {0} of {0} items in wrhs_package".format(count)
    search = patterns[("warehouse", "Search packages")]
    assert search["Access"] == "Scan" and search["ItemsRead"] == count
    scans = [key for key, p in patterns.items() if p["Access"] == "Scan"]
    assert summary["Scans"] == len(scans) == 2
    rc, out, _ = run("--check")
    assert rc == 0
    assert re.search(r"^warehouse\s+Every package\s+SCAN: reads 1 of 1 items in wrhs_package",
                     out, re.M)
    assert "2 SCANS (findings)" in out


def index_count(ddb, table, index):
    return ddb.scan(TableName=table, IndexName=index, Select="COUNT")["Count"]


def test_sparse_index_verdicts(report, ddb):
    # GSI2 holds the orders alone: 4 of the table's 9 items; rgn-dplySts loses a layer on deletion.
    patterns, summary = report
    got = patterns[("ecommerce", "Get orders for user by status")]["Sparse"]
    table_items = ddb.scan(TableName="ecommerce", Select="COUNT")["Count"]
    assert got == {"IndexName": "GSI2", "IndexItems": index_count(ddb, "ecommerce", "GSI2"),
                   "TableItems": table_items, "IsSparse": True}
    assert (got["IndexItems"], got["TableItems"]) == (4, 9)

    deployed = patterns[("lambda-layers", "Get all deployed layers in region")]["Sparse"]
    deleted = patterns[("lambda-layers", "When deleting")]["Sparse"]
    assert deployed["IndexItems"] == index_count(ddb, "lambda-layers", "rgn-dplySts")
    assert deleted["IndexItems"] == deployed["IndexItems"] - 1
    assert deleted["TableItems"] == deployed["TableItems"]
    assert deleted["IsSparse"] and summary["NotSparse"] == 0

    rc, out, _ = run("--check")
    assert rc == 0
    assert re.search(r"^ecommerce\s+Get orders for user by status\s+key condition on index GSI2"
                     r".*sparse: yes \(4 of 9 items\)$", out, re.M)


def write_model(root, name, items, patterns):
    """A model folder: table Orders (GSI ByStatus on `status`), its items and patterns."""
    model = root / name
    (model / "tables").mkdir(parents=True)
    (model / "tables" / "Orders.json").write_text(json.dumps({
        "TableName": "Orders", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "status", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "ByStatus", "Projection": {"ProjectionType": "ALL"},
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}]}]}))
    (model / "items").mkdir()
    (model / "items" / "Orders.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    if patterns is not None:
        (model / "access-patterns.json").write_text(
            patterns if isinstance(patterns, str) else json.dumps(patterns))
    return model


def test_own_models_not_sparse_failed_request_and_no_patterns(tmp_path):
    # A team's models: an index holding every item is NOT SPARSE; a failed request is an error.
    items = [{"pk": {"S": "o%d" % i}, "status": {"S": "open"}} for i in range(3)]
    write_model(tmp_path, "shop", items, [
        {"Name": "Open orders", "Description": "orders by status", "Operation": "Query",
         "Request": {"TableName": "Orders", "IndexName": "ByStatus",
                     "KeyConditionExpression": "#s = :s",
                     "ExpressionAttributeNames": {"#s": "status"},
                     "ExpressionAttributeValues": {":s": {"S": "open"}}},
         "SparseIndex": "ByStatus"},
        {"Name": "By customer", "Description": "no such index", "Operation": "Query",
         "Request": {"TableName": "Orders", "IndexName": "ByCustomer",
                     "KeyConditionExpression": "customer = :c",
                     "ExpressionAttributeValues": {":c": {"S": "ann"}}}},
        {"Name": "All orders", "Description": "a listing", "Operation": "Scan",
         "Request": {"TableName": "Orders", "Limit": 2}, "AllPages": True}])
    (tmp_path / "plain" / "tables").mkdir(parents=True)
    (tmp_path / "plain" / "tables" / "Notes.json").write_text(json.dumps({
        "TableName": "Notes", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}))

    rc, out, err = run("--check", "--models-dir", tmp_path)
    assert rc == 1, err + out
    lines = out.splitlines()
    assert re.match(r"shop\s+Open orders\s+key condition on index ByStatus\s+read 3, returned 3"
                    r"\s+0\.5 RCU\s+NOT SPARSE: ByStatus \(3 of 3 items\)$", lines[0])
    assert re.match(r"shop\s+By customer\s+ERROR: ValidationException: .*ByCustomer", lines[1])
    assert re.match(r"shop\s+All orders\s+SCAN: reads 3 of 3 items in Orders\s+.*2 pages$",
                    lines[2])
    assert lines[3] == "plain: no access-patterns.json, nothing to check"
    assert "1 error;" in lines[4] and "1 NOT SPARSE" in lines[4]

    rc, out, err = run("--check", "--json", "--models-dir", tmp_path)
    assert rc == 1
    answer = json.loads(out)
    assert answer["ModelsWithoutPatterns"] == ["plain"]
    assert answer["Patterns"][0]["Sparse"]["IsSparse"] is False
    assert "ByCustomer" in answer["Patterns"][1]["Error"]
    assert answer["Patterns"][2]["Pages"] == 2


def test_unreadable_pattern_file_is_not_checked(tmp_path):
    # A pattern file that is not a JSON list stops the check before anything runs (exit 2).
    write_model(tmp_path, "shop", [], "[{")
    rc, out, err = run("--check", "--models-dir", tmp_path / "shop")
    assert rc == 2 and out == ""
    assert "access-patterns.json: not a JSON list" in err


def test_models_without_check_says_what_to_do():
    rc, _, err = run()
    assert rc == 2 and "--check" in err
