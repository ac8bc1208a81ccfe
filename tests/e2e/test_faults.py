"""Injected faults, end to end: rules added, listed and removed through the
admin API and a --faults file, and what real clients make of them — boto3's
standard retry mode retrying an injected error, a transaction cancelled with
DynamoDB's CancellationReasons, a batch answering UnprocessedItems that the
resource's batch_writer resends, a delayed answer, a dropped connection (the
request not run) and a dropped answer (the request run), a seeded
probability that repeats, faults kept to one database of
--per-key-databases, and a stream trigger whose target's writes fail
following its retry policy.
"""

import http.client
import json
import subprocess
import sys
import time

import boto3
import botocore.exceptions
import pytest
from botocore.config import Config

from .e2e_util import ACCESS_KEY, REGION, SECRET_KEY, make_client, signed_headers, split_url
from .server_util import (admin, admin_ok, own_server_fixtures, run_server, server_binary,
                          wait_for)

server, ddb, tables = own_server_fixtures("--in-memory", "--no-models", "--allow-command-triggers")


@pytest.fixture(autouse=True)
def no_rules_left(server):
    yield
    admin_ok(server.url, "faults", method="DELETE")


def retrying_client(url, attempts=3, **kwargs):
    return boto3.session.Session(
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY, region_name=REGION,
    ).client("dynamodb", endpoint_url=url, config=Config(
        retries={"mode": "standard", "total_max_attempts": attempts}, **kwargs))


def put(client, table, pk, **extra):
    return client.put_item(TableName=table, Item={"pk": {"S": pk}, **extra})


def test_rules_are_added_listed_and_removed(server):
    first = admin_ok(server.url, "faults", {"Operations": ["PutItem"], "Tables": ["orders"],
                                             "Error": {"Type": "InternalServerError"}, "Count": 2})
    assert first["Error"] == {"Type": "InternalServerError", "Status": 500}
    assert first["Remaining"] == 2 and first["Applied"] == 0
    second = admin_ok(server.url, "faults", {"DelayMillis": 5, "Probability": 0.5, "Seed": 7})
    third = admin_ok(server.url, "faults", {"Tables": ["orders"], "DropAnswer": True})
    assert third["DropAnswer"] is True and "DropConnection" not in third
    listed = admin_ok(server.url, "faults")["Rules"]
    assert [r["Id"] for r in listed] == [first["Id"], second["Id"], third["Id"]]
    assert listed[1]["Probability"] == 0.5 and listed[1]["Seed"] == 7
    assert listed[2] == third
    assert admin_ok(server.url, "faults/{}".format(first["Id"]), method="DELETE") == {}
    status, answer = admin(server.url, "faults/{}".format(first["Id"]), method="DELETE")
    assert status == 404 and "No such fault rule" in answer["message"]
    assert admin_ok(server.url, "faults", method="DELETE") == {"Removed": 2}
    assert admin_ok(server.url, "faults")["Rules"] == []


@pytest.mark.parametrize("rule, fragment", [
    ({"Count": 1}, "exactly one action"),
    ({"DelayMillis": 1, "DropConnection": True}, "exactly one action"),
    ({"DropAnswer": True, "DropConnection": True}, "DropAnswer: true"),
    ({"DropAnswer": False}, "exactly one action"),
    ({"Error": {"Type": "X", "Status": 200}}, "between 400 and 599"),
    ({"Error": {}}, "Error.Type"),
    ({"DropConnection": True, "Probability": 2}, "from 0 to 1"),
    ({"DropConnection": True, "Count": 0}, "at least 1"),
    ({"DropConnection": True, "Tabels": ["x"]}, "Unknown member"),
])
def test_malformed_rules_are_refused(server, rule, fragment):
    status, answer = admin(server.url, "faults", rule)
    assert status == 400 and fragment in answer["message"]
    assert answer["__type"].endswith("#ValidationException")


def test_standard_retry_mode_retries_injected_errors_and_succeeds(server, tables):
    table = tables()
    admin_ok(server.url, "faults", {"Operations": ["PutItem"], "Tables": [table],
                                    "Error": {"Type": "ThrottlingException"}, "Count": 2})
    answer = put(retrying_client(server.url), table, "retried")
    assert answer["ResponseMetadata"]["RetryAttempts"] == 2
    assert admin_ok(server.url, "faults")["Rules"] == []  # the count is used up
    assert "Item" in ddb_get(server, table, "retried")


def ddb_get(server, table, pk):
    return make_client(server.url).get_item(TableName=table, Key={"pk": {"S": pk}})


def test_an_error_reaches_the_client_as_dynamodb_answers_it(server, ddb, tables):
    table = tables()
    admin_ok(server.url, "faults", {"Tables": [table], "Count": 1, "Error": {
        "Type": "ProvisionedThroughputExceededException"}})
    with pytest.raises(ddb.exceptions.ProvisionedThroughputExceededException) as raised:
        put(ddb, table, "a")
    assert raised.value.response["Error"]["Message"].startswith(
        "The level of configured provisioned throughput for the table was exceeded.")
    # Another table and, once used up, the same table are untouched.
    put(ddb, table, "a")
    admin_ok(server.url, "faults", {"Count": 1, "Error": {
        "Type": "ValidationException", "Message": "nope"}})
    with pytest.raises(botocore.exceptions.ClientError) as raised:
        put(ddb, table, "b")
    assert raised.value.response["Error"] == {"Code": "ValidationException", "Message": "nope"}
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400


def test_a_transaction_is_cancelled_with_reasons_per_action(server, ddb, tables):
    hit, spared = tables(), tables()
    admin_ok(server.url, "faults", {"Operations": ["TransactWriteItems"], "Tables": [hit],
                                    "Count": 1, "Error": {"Type": "TransactionConflictException"}})
    items = [{"Put": {"TableName": spared, "Item": {"pk": {"S": "1"}}}},
             {"Put": {"TableName": hit, "Item": {"pk": {"S": "2"}}}}]
    with pytest.raises(ddb.exceptions.TransactionCanceledException) as raised:
        ddb.transact_write_items(TransactItems=items)
    response = raised.value.response
    assert response["Error"]["Message"] == (
        "Transaction cancelled, please refer cancellation reasons for specific reasons "
        "[None, TransactionConflict]")
    assert response["CancellationReasons"] == [
        {"Code": "None"},
        {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}]
    assert "Item" not in ddb.get_item(TableName=spared, Key={"pk": {"S": "1"}})
    ddb.transact_write_items(TransactItems=items)  # the rule is used up


def test_batch_write_answers_unprocessed_items_and_the_batch_writer_resends(server, ddb, tables):
    hit, spared = tables(), tables()
    admin_ok(server.url, "faults", {"Operations": ["BatchWriteItem"], "Tables": [hit], "Count": 1,
                                    "Error": {"Type": "ProvisionedThroughputExceededException"}})
    request = {hit: [{"PutRequest": {"Item": {"pk": {"S": "h1"}}}}],
               spared: [{"PutRequest": {"Item": {"pk": {"S": "s1"}}}}]}
    answer = ddb.batch_write_item(RequestItems=request)
    assert answer["UnprocessedItems"] == {hit: request[hit]}
    assert "Item" in ddb.get_item(TableName=spared, Key={"pk": {"S": "s1"}})
    assert "Item" not in ddb.get_item(TableName=hit, Key={"pk": {"S": "h1"}})

    # boto3's batch_writer sends 25 at a time and resends what comes back.
    rule = admin_ok(server.url, "faults", {"Operations": ["BatchWriteItem"], "Tables": [hit],
                                           "Count": 2, "Error": {"Type": "ThrottlingException"}})
    resource = boto3.session.Session(
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY, region_name=REGION,
    ).resource("dynamodb", endpoint_url=server.url)
    with resource.Table(hit).batch_writer() as writer:
        for i in range(30):
            writer.put_item(Item={"pk": "w{}".format(i)})
    assert admin_ok(server.url, "faults")["Rules"] == [], rule  # both faults were met
    count = ddb.scan(TableName=hit, Select="COUNT")["Count"]
    assert count == 30


def test_batch_get_answers_unprocessed_keys(server, ddb, tables):
    table = tables()
    put(ddb, table, "k")
    admin_ok(server.url, "faults", {"Operations": ["BatchGetItem"], "Count": 1,
                                    "Error": {"Type": "ProvisionedThroughputExceededException"}})
    request = {table: {"Keys": [{"pk": {"S": "k"}}], "ConsistentRead": True}}
    answer = ddb.batch_get_item(RequestItems=request)
    assert answer["UnprocessedKeys"] == request and answer["Responses"] == {}
    assert ddb.batch_get_item(RequestItems=request)["Responses"][table] == [{"pk": {"S": "k"}}]


def test_a_delay_holds_the_answer_back(server, ddb, tables):
    table = tables()
    admin_ok(server.url, "faults", {"Operations": ["GetItem"], "DelayMillis": 400, "Count": 1})
    started = time.monotonic()
    ddb.get_item(TableName=table, Key={"pk": {"S": "x"}})
    assert time.monotonic() - started >= 0.4
    # A client whose read timeout is shorter gives up.
    admin_ok(server.url, "faults", {"Operations": ["GetItem"], "DelayMillis": 2000, "Count": 1})
    impatient = retrying_client(server.url, attempts=1, read_timeout=0.3)
    with pytest.raises(botocore.exceptions.ReadTimeoutError):
        impatient.get_item(TableName=table, Key={"pk": {"S": "x"}})


def test_a_dropped_connection_gets_no_answer(server, ddb, tables):
    table = tables()
    admin_ok(server.url, "faults", {"Operations": ["PutItem"], "DropConnection": True, "Count": 1})
    with pytest.raises((botocore.exceptions.ConnectionClosedError,
                        botocore.exceptions.EndpointConnectionError)):
        put(ddb, table, "dropped")
    assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "dropped"}})
    # Retried by the SDK, it goes through.
    admin_ok(server.url, "faults", {"Operations": ["PutItem"], "DropConnection": True, "Count": 1})
    answer = put(retrying_client(server.url), table, "dropped")
    assert answer["ResponseMetadata"]["RetryAttempts"] == 1


def test_a_dropped_answer_applies_the_request_and_answers_nothing(server, ddb, tables):
    table = tables()
    admin_ok(server.url, "faults", {"Operations": ["PutItem"], "DropAnswer": True, "Count": 1})
    with pytest.raises((botocore.exceptions.ConnectionClosedError,
                        botocore.exceptions.EndpointConnectionError)):
        put(ddb, table, "applied")
    # Unlike DropConnection (above), the write is there.
    assert ddb.get_item(TableName=table, Key={"pk": {"S": "applied"}})["Item"] == {
        "pk": {"S": "applied"}}

    # On the wire: the server reads the request, runs it and closes without
    # a byte of answer, not even a status line.
    admin_ok(server.url, "faults", {"Operations": ["PutItem"], "DropAnswer": True, "Count": 1})
    body = json.dumps({"TableName": table, "Item": {"pk": {"S": "raw"}}}).encode()
    conn = http.client.HTTPConnection(*split_url(server.url), timeout=10)
    try:
        conn.request("POST", "/", body=body, headers=signed_headers(server.url, "PutItem", body))
        with pytest.raises(http.client.RemoteDisconnected):
            conn.getresponse()
    finally:
        conn.close()
    assert "Item" in ddb.get_item(TableName=table, Key={"pk": {"S": "raw"}})
    assert admin_ok(server.url, "faults")["Rules"] == []


def outcomes(ddb, table, n):
    result = []
    for i in range(n):
        try:
            ddb.get_item(TableName=table, Key={"pk": {"S": str(i)}})
            result.append(".")
        except ddb.exceptions.InternalServerError:
            result.append("X")
    return "".join(result)


def test_a_seeded_probability_repeats(server, ddb, tables):
    table = tables()
    rule = {"Operations": ["GetItem"], "Probability": 0.3, "Seed": 42,
            "Error": {"Type": "InternalServerError"}}
    admin_ok(server.url, "faults", rule)
    first = outcomes(ddb, table, 60)
    admin_ok(server.url, "faults", method="DELETE")
    admin_ok(server.url, "faults", rule)
    assert outcomes(ddb, table, 60) == first
    assert 5 <= first.count("X") <= 35, first
    assert admin_ok(server.url, "faults")["Rules"][0]["Applied"] == first.count("X")


def test_faults_stay_in_their_database():
    with run_server("--in-memory", "--no-models", "--per-key-databases") as s:
        alice, bob = s.client(access_key="alice"), s.client(access_key="bob")
        for client in (alice, bob):
            client.create_table(TableName="jobs", BillingMode="PAY_PER_REQUEST",
                                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        admin_ok(s.url, "faults", {"Namespace": "alice/" + REGION, "Tables": ["jobs"],
                                   "Error": {"Type": "InternalServerError"}})
        admin_ok(s.url, "faults", {"Namespace": "carol/" + REGION,
                                   "Error": {"Type": "InternalServerError"}})
        put(bob, "jobs", "1")
        with pytest.raises(alice.exceptions.InternalServerError):
            put(alice, "jobs", "1")
        assert admin_ok(s.url, "faults?namespace=alice%2F" + REGION, method="DELETE") == {
            "Removed": 1}
        put(alice, "jobs", "1")
        assert len(admin_ok(s.url, "faults")["Rules"]) == 1


def test_the_faults_file_preloads_rules(tmp_path):
    rules = tmp_path / "faults.json"
    rules.write_text(json.dumps([{"Operations": ["ListTables"], "Count": 1,
                                  "Error": {"Type": "ServiceUnavailable"}}]))
    with run_server("--in-memory", "--no-models", "--faults", str(rules)) as s:
        client = s.client()
        with pytest.raises(botocore.exceptions.ClientError) as raised:
            client.list_tables()
        assert raised.value.response["Error"]["Code"] == "ServiceUnavailable"
        assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 503
        client.list_tables()
    rules.write_text(json.dumps([{"Count": 1}]))
    refused = subprocess.run([str(server_binary()), "--in-memory", "--no-models", "--port", "0",
                              "--faults", str(rules)], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 1
    assert "Give exactly one action" in refused.stderr


WRITER = """
import json, sys, boto3
from botocore.config import Config
event = json.load(sys.stdin)
client = boto3.client("dynamodb", endpoint_url=sys.argv[1], region_name="{region}",
                      aws_access_key_id="{key}", aws_secret_access_key="{secret}",
                      config=Config(retries={{"mode": "standard", "total_max_attempts": 1}}))
for record in event["Records"]:
    client.put_item(TableName=sys.argv[2], Item=record["dynamodb"]["Keys"])
"""


def test_a_trigger_whose_target_fails_follows_its_retry_policy(server, ddb, tables, tmp_path):
    # The target copies each new key into an audit table; injected errors
    # on that table make it fail twice, and the trigger retries the batch.
    source = tables()
    ddb.update_table(TableName=source, StreamSpecification={
        "StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    audit, never = tables(), tables()
    script = tmp_path / "copy_keys.py"
    script.write_text(WRITER.format(region=REGION, key=ACCESS_KEY, secret=SECRET_KEY))
    failed = tmp_path / "failed.jsonl"
    admin_ok(server.url, "faults", {"Operations": ["PutItem"], "Tables": [audit], "Count": 2,
                                    "Error": {"Type": "InternalServerError"}})
    admin_ok(server.url, "faults", {"Operations": ["PutItem"], "Tables": [never],
                                    "Error": {"Type": "InternalServerError"}})
    for name, target, attempts in (("copy", audit, 2), ("gives-up", never, 1)):
        admin_ok(server.url, "triggers", {
            "Name": name, "TableName": source, "StartingPosition": "TRIM_HORIZON",
            "MaximumRetryAttempts": attempts, "OnFailure": str(failed),
            "Command": "{} {} {} {} 2>/dev/null".format(sys.executable, script, server.url, target)})
    try:
        put(ddb, source, "k1")
        wait_for(lambda: "Item" in ddb.get_item(TableName=audit, Key={"pk": {"S": "k1"}}),
                 timeout=30, what="the copy after two failed attempts")
        wait_for(lambda: failed.exists() and failed.read_text().strip(), timeout=30,
                 what="the given-up batch")
        given_up = [json.loads(line) for line in failed.read_text().splitlines()]
        assert [g["trigger"] for g in given_up] == ["gives-up"]
        assert given_up[0]["attempts"] == 2
        wait_for(lambda: admin_ok(server.url, "triggers/copy")["Lag"] == 0,
                 what="the copy trigger to move past its batch")
        status = admin_ok(server.url, "triggers/copy")
        assert status["FailedAttempts"] == 2 and status["GivenUpBatches"] == 0
        assert status["DeliveredBatches"] == 1
        # The audit table's rule is used up; the other one fired twice (two attempts).
        rules = admin_ok(server.url, "faults")["Rules"]
        assert [(r["Tables"], r["Applied"]) for r in rules] == [([never], 2)]
    finally:
        for name in ("copy", "gives-up"):
            admin(server.url, "triggers/" + name, method="DELETE")
