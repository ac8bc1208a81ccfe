"""The plugin's options and failure paths, each on a small project run by
pytester (in this process, with the installed plugin loaded through its
entry point as in any project)."""

import json
import subprocess
import urllib.request

import pytest

pytest_plugins = ["pytester"]

TABLE = {
    "TableName": "things", "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
    "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
}


def test_a_python_tables_file_with_a_function_and_decimals(pytester):
    pytester.makeini("[pytest]\nlocaldynamo_tables = db/tables.py\n")
    pytester.mkdir("db")
    pytester.path.joinpath("db", "tables.py").write_text(
        "from decimal import Decimal\n"
        "def tables():\n"
        "    return [dict({}, data=[{{'id': 'a', 'price': Decimal('1.5')}}])]\n".format(TABLE))
    pytester.makepyfile("""
        def test_seeded(dynamodb_resource, dynamodb_client):
            assert dynamodb_client.list_tables()["TableNames"] == ["things"]
            item = dynamodb_resource.Table("things").get_item(Key={"id": "a"})["Item"]
            assert str(item["price"]) == "1.5"
    """)
    pytester.runpytest().assert_outcomes(passed=1)


def test_models_true_keeps_the_models_beside_the_tables(pytester):
    pytester.makeini("[pytest]\nlocaldynamo_tables = tables.json\nlocaldynamo_models = true\n")
    pytester.path.joinpath("tables.json").write_text(json.dumps([TABLE]))
    pytester.makepyfile("""
        def test_both(dynamodb_client):
            names = dynamodb_client.list_tables()["TableNames"]
            assert "things" in names and "ecommerce" in names
    """)
    pytester.runpytest().assert_outcomes(passed=1)


def test_autouse_false_leaves_other_tests_alone(pytester):
    pytester.makeini("[pytest]\nlocaldynamo_autouse = false\nlocaldynamo_models = false\n")
    pytester.makepyfile("""
        import os
        import boto3
        import pytest

        def test_first_without_it():
            assert "AWS_ENDPOINT_URL_DYNAMODB" not in os.environ

        @pytest.mark.localdynamo
        def test_marked_gets_the_environment():
            client = boto3.client("dynamodb")
            assert client.list_tables()["TableNames"] == []
            client.create_table(TableName="made-here", **{k: v for k, v in %r.items()
                                                          if k != "TableName"})

        @pytest.mark.localdynamo
        def test_and_the_reset():
            assert boto3.client("dynamodb").list_tables()["TableNames"] == []
    """ % TABLE)
    pytester.runpytest().assert_outcomes(passed=3)


def test_the_environment_is_put_back_after_the_session(pytester, monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "the-developers-own")
    monkeypatch.setenv("AWS_PROFILE", "some-profile")
    pytester.makeini("[pytest]\nlocaldynamo_models = false\n")
    pytester.makepyfile("""
        import os
        def test_inside(localdynamo):
            assert os.environ["AWS_ACCESS_KEY_ID"] == localdynamo.access_key
            assert "AWS_PROFILE" not in os.environ
    """)
    pytester.runpytest().assert_outcomes(passed=1)
    import os
    assert os.environ["AWS_ACCESS_KEY_ID"] == "the-developers-own"
    assert os.environ["AWS_PROFILE"] == "some-profile"


def test_a_missing_binary_stops_the_session_with_the_reason(pytester, monkeypatch):
    monkeypatch.setenv("LOCALDYNAMO_BIN", str(pytester.path / "no-such-localdynamo"))
    pytester.makepyfile("def test_a(dynamodb_client):\n    pass\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stdout.fnmatch_lines(["*localdynamo binary not found or not executable*"])


def test_a_wrong_reset_value_is_a_usage_error(pytester):
    pytester.makeini("[pytest]\nlocaldynamo_reset = sometimes\n")
    pytester.makepyfile("def test_a():\n    pass\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*localdynamo_reset must be one of test, module, session*"])


def test_a_running_server_gets_per_run_keys_and_its_snapshots_back(pytester, monkeypatch):
    """With LOCALDYNAMO_URL the plugin starts nothing; the workers' keys carry
    the run's id, and the snapshots it took are deleted at the end."""
    import os
    server = subprocess.Popen([os.environ["LOCALDYNAMO_BIN"], "--port", "0", "--in-memory",
                               "--per-key-databases", "--no-models"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in server.stdout:
            if "listening on" in line:
                url = line.split("listening on ")[1].split()[0]
                break
        monkeypatch.setenv("LOCALDYNAMO_URL", url)
        pytester.makeini("[pytest]\nlocaldynamo_tables = tables.json\n")
        pytester.path.joinpath("tables.json").write_text(json.dumps({"tables": [TABLE]}))
        pytester.makepyfile("""
            import re
            def test_key(localdynamo):
                assert localdynamo.url == %r
                assert re.fullmatch(r"pytest-[0-9a-f]{8}-MAIN", localdynamo.access_key)
                localdynamo.snapshot("mine")
                names = [s["Name"] for s in localdynamo.admin.snapshots()]
                assert len(names) == 2
        """ % url)
        pytester.runpytest().assert_outcomes(passed=1)
        with urllib.request.urlopen(url + "/_localdynamo/snapshots") as response:
            assert json.load(response)["Snapshots"] == []
    finally:
        server.terminate()
        assert server.wait(timeout=10) == 0


WORKER_SNAPSHOT_TEST = """
import time
from pathlib import Path

import pytest

def test_{me}(localdynamo, dynamodb_resource):
    table = dynamodb_resource.Table("things")
    table.put_item(Item={{"id": "who", "by": "{me}"}})
    localdynamo.snapshot("same-name")
    # Both workers have saved "same-name" before either restores it.
    meeting = Path({meeting!r})
    (meeting / "{me}").touch()
    deadline = time.monotonic() + 30
    while len(list(meeting.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    table.put_item(Item={{"id": "who", "by": "changed"}})
    localdynamo.restore("same-name")
    assert table.get_item(Key={{"id": "who"}})["Item"]["by"] == "{me}"
    with pytest.raises(ValueError):
        localdynamo.snapshot("no spaces")
"""


def test_snapshot_names_are_each_workers_own(pytester):
    """Two workers save a snapshot under one name, then restore it: each gets
    its own back."""
    meeting = pytester.mkdir("meeting")
    pytester.makeini("[pytest]\nlocaldynamo_tables = tables.json\n")
    pytester.path.joinpath("tables.json").write_text(json.dumps([TABLE]))
    pytester.makepyfile(**{name: WORKER_SNAPSHOT_TEST.format(me=name, meeting=str(meeting))
                           for name in ("test_one", "test_two")})
    pytester.runpytest("-n", "2").assert_outcomes(passed=2)


def test_an_admin_token_in_the_environment_locks_the_server_the_plugin_starts(pytester,
                                                                               monkeypatch):
    """The server the plugin starts inherits LOCALDYNAMO_ADMIN_TOKEN, and the
    plugin's own admin calls (the reset before each test) send it."""
    monkeypatch.setenv("LOCALDYNAMO_ADMIN_TOKEN", "plugin-token")
    pytester.makeini("[pytest]\nlocaldynamo_tables = tables.json\nlocaldynamo_models = false\n")
    pytester.path.joinpath("tables.json").write_text(json.dumps([TABLE]))
    pytester.makepyfile("""
        import urllib.error, urllib.request
        import pytest

        @pytest.mark.parametrize("round", [1, 2])
        def test_each_starts_empty(dynamodb_client, localdynamo_url, round):
            assert dynamodb_client.scan(TableName="things")["Count"] == 0
            dynamodb_client.put_item(TableName="things", Item={"id": {"S": "x"}})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(localdynamo_url + "/_localdynamo/clock")
            assert refused.value.code == 401
    """)
    pytester.runpytest().assert_outcomes(passed=2)


def test_a_worker_gets_more_regions_for_global_tables(pytester):
    pytester.makeini("[pytest]\nlocaldynamo_models = false\nlocaldynamo_regions = eu-west-1\n")
    pytester.makepyfile("""
        def make_global(localdynamo):
            client = localdynamo.client()
            client.create_table(TableName="carts", BillingMode="PAY_PER_REQUEST",
                                KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                                AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}])
            client.update_table(TableName="carts",
                                ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
            return client

        def test_a_write_reaches_the_replica(localdynamo):
            make_global(localdynamo).put_item(TableName="carts", Item={"id": {"S": "c-1"}})
            localdynamo.settle_replication()
            west = localdynamo.client(region="eu-west-1")
            item = west.get_item(TableName="carts", Key={"id": {"S": "c-1"}}, ConsistentRead=True)
            assert item["Item"] == {"id": {"S": "c-1"}}
            assert localdynamo.namespace_of("eu-west-1") == localdynamo.access_key + "/eu-west-1"

        def test_the_next_test_starts_with_both_regions_empty(localdynamo):
            assert localdynamo.client().list_tables()["TableNames"] == []
            assert localdynamo.client(region="eu-west-1").list_tables()["TableNames"] == []
    """)
    pytester.runpytest().assert_outcomes(passed=2)
