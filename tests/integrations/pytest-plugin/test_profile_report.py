"""The access-profile report and rules at the end of a run, on a small project
run by pytester: a known workload (3 PutItem, then a Scan whose filter keeps 1
of the 3 items) through boto3, and what the run leaves and answers."""

import json

import pytest

pytest_plugins = ["pytester"]

TABLES = [
    {"TableName": "Orders", "BillingMode": "PAY_PER_REQUEST",
     "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
     "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"},
                              {"AttributeName": "status", "AttributeType": "S"}],
     "GlobalSecondaryIndexes": [{"IndexName": "ByStatus",
                                 "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}]},
    # Only the seed writes it: the report counts the tests' requests, not the seed's.
    {"TableName": "Audit", "BillingMode": "PAY_PER_REQUEST",
     "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
     "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
     "data": [{"id": "seeded"}]},
]

WORKLOAD = """
def test_workload(dynamodb_client):
    for sk, status in (("order#1", "OPEN"), ("order#2", "SHIPPED"), ("order#3", "SHIPPED")):
        dynamodb_client.put_item(TableName="Orders", Item={
            "pk": {"S": "customer#1"}, "sk": {"S": sk}, "status": {"S": status}})
    answer = dynamodb_client.scan(TableName="Orders", FilterExpression="#s = :s",
                                  ExpressionAttributeNames={"#s": "status"},
                                  ExpressionAttributeValues={":s": {"S": "OPEN"}})
    assert (answer["ScannedCount"], answer["Count"]) == (3, 1)
"""


@pytest.fixture
def project(pytester, monkeypatch):
    monkeypatch.delenv("LOCALDYNAMO_PROFILE_REPORT", raising=False)
    monkeypatch.delenv("LOCALDYNAMO_URL", raising=False)
    pytester.makeini("[pytest]\nlocaldynamo_tables = tables.json\n")
    pytester.path.joinpath("tables.json").write_text(json.dumps(TABLES))
    pytester.makepyfile(test_workload=WORKLOAD)
    return pytester


def orders_entries(answer):
    return [table for db in answer["Databases"] if db["Namespace"].startswith("pytest-")
            for table in db["Tables"] if table["TableName"] == "Orders"]


def test_the_report_holds_the_workloads_figures(project):
    result = project.runpytest()
    result.assert_outcomes(passed=1)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        ["localdynamo profile: * requests, * cost * USD: localdynamo-profile.{json,html}"])
    answer = json.loads(project.path.joinpath("localdynamo-profile.json").read_text())
    [orders] = orders_entries(answer)
    assert orders["Requests"]["PutItem"] == 3 and orders["Requests"]["Scan"] == 1
    assert orders["WriteUnits"] == 3
    assert (orders["ItemsRead"], orders["ItemsReturned"]) == (3, 1)
    assert abs(orders["FilterWaste"] - 2 / 3) < 1e-3
    assert (orders["Scans"]["Count"], orders["Scans"]["ItemsRead"]) == (1, 3)
    assert [i["NeverRead"] for i in orders["Indexes"] if i["IndexName"] == "ByStatus"] == [True]
    assert [s["Filter"] for s in orders["Shapes"] if s["Operation"] == "Scan"] == ["status = ?"]
    # The seed (the tables file's data, a BatchWriteItem) was reset away.
    audit = sum(sum(table["Requests"].values()) for db in answer["Databases"]
                for table in db["Tables"] if table["TableName"] == "Audit")
    assert audit == 0, answer
    html = project.path.joinpath("localdynamo-profile.html").read_text()
    assert '<h2 id="t-Orders">Orders</h2>' in html
    assert '<svg width="120"' in html
    assert "filter waste 0.6667 (3 items read, 1 returned)" in html
    assert "1 Scans read 3 items" in html
    assert "<h3>Indexes never read</h3><p><code>ByStatus</code>" in html
    assert "<code>status = ?</code>" in html and "pk=customer#1" in html
    for outside in ("<script", "<link", "src=", "url("):
        assert outside not in html


def test_under_xdist_the_controller_reports_every_workers_database(project):
    project.makepyfile(test_workload_again=WORKLOAD)
    project.path.joinpath("elsewhere").mkdir()
    result = project.runpytest("-n", "2", "--localdynamo-profile-report", "elsewhere/run")
    result.assert_outcomes(passed=2)
    answer = json.loads(project.path.joinpath("elsewhere", "run.json").read_text())
    entries = orders_entries(answer)
    assert len(entries) == 2, answer
    assert sum(table["Scans"]["ItemsRead"] for table in entries) == 6
    html = project.path.joinpath("elsewhere", "run.html").read_text()
    assert "filter waste 0.6667 (6 items read, 2 returned)" in html
    assert not project.path.joinpath("localdynamo-profile.json").exists()


def test_broken_rules_fail_the_run_with_the_rule_the_table_and_the_figure(project):
    project.makeconftest("""
        def pytest_localdynamo_profile_rules(config):
            return [{"maxFilterWaste": 0.5, "table": "Orders"}, {"maxCost": 1}]
    """)
    result = project.runpytest("--localdynamo-rule", "no-scan:Orders",
                               "--localdynamo-profile-report", "off")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([
        "localdynamo profile: rule noScan Orders broken: 1 Scan read 3 items",
        "localdynamo profile: rule maxFilterWaste 0.5 Orders broken: "
        "filter waste 0.6667 (3 items read, 1 returned)",
    ])
    result.stdout.no_fnmatch_line("*rule maxCost 1 broken*")
    assert not project.path.joinpath("localdynamo-profile.json").exists()


def test_rules_the_run_keeps_let_it_pass(project):
    project.makeini("[pytest]\nlocaldynamo_tables = tables.json\n"
                    "localdynamo_profile_report = off\n"
                    "localdynamo_profile_rules =\n    noScan:Other\n    maxCost:1\n")
    project.makeconftest("""
        def pytest_localdynamo_profile_rules(config):
            return ["maxFilterWaste:0.7:Orders"]
    """)
    result = project.runpytest("-n", "2")
    result.assert_outcomes(passed=1)
    assert result.ret == 0
    result.stdout.fnmatch_lines(["localdynamo profile: 3 rules kept"])
    assert not project.path.joinpath("localdynamo-profile.json").exists()


def test_a_malformed_rule_is_a_usage_error_naming_it(project):
    result = project.runpytest("--localdynamo-rule", "noScans:Orders")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(['*profile rule "noScans:Orders": unknown rule noScans*'])
