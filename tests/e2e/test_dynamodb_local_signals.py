"""The signals tools written for DynamoDB Local wait for: its start-up banner
on standard output (Testcontainers' log-message waits) and, with
--root-answer dynamodb-local or $LOCALDYNAMO_ROOT_ANSWER, its 400 answer to
GET / (the Testcontainers .NET module's wait); DynamoDB's 200 stays the
default, and the API answers the same either way."""

import json
import subprocess
import urllib.error
import urllib.request

import pytest

from .e2e_util import EXTERNAL_URL, unique_name
from .server_util import run_server, server_binary

pytestmark = pytest.mark.skipif(bool(EXTERNAL_URL), reason="starts its own servers")

DYNAMODB_LOCAL_ROOT_BODY = {
    "__type": "com.amazonaws.dynamodb.v20120810#MissingAuthenticationToken",
    "Message": "Request must contain either a valid (registered) AWS access key ID or X.509 "
               "certificate."}


def get_root(url):
    """(status, headers, body) of a plain GET / with no signature."""
    try:
        with urllib.request.urlopen(url + "/", timeout=5) as answer:
            return answer.status, answer.headers, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def banner_of(server):
    """The lines the server printed before its own "localdynamo listening"."""
    log = server.log_tail(20000).splitlines()
    start = next(i for i, line in enumerate(log)
                 if line == "Initializing DynamoDB Local with the following configuration:")
    own = next(i for i, line in enumerate(log) if line.startswith("localdynamo listening on "))
    assert start < own, log
    return log[start:own]


def version():
    out = subprocess.run([str(server_binary().resolve()), "--version"], capture_output=True,
                         text=True, timeout=10).stdout
    # "localdynamo 0.1.0 (commit 1234abcd5678)": the banner names the version alone.
    return out.split()[1]


def check_api_works(server):
    client = server.client()
    name = unique_name("signals")
    client.create_table(TableName=name,
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        BillingMode="PAY_PER_REQUEST")
    client.put_item(TableName=name, Item={"pk": {"S": "a"}, "n": {"N": "1"}})
    assert client.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"] == {
        "pk": {"S": "a"}, "n": {"N": "1"}}


def test_banner_in_memory_shared_as_testcontainers_starts_it():
    with run_server("-jar", "DynamoDBLocal.jar", "-sharedDb", "-inMemory", "--no-models") as server:
        assert banner_of(server) == [
            "Initializing DynamoDB Local with the following configuration:",
            "Port:\t{}".format(server.port),
            "InMemory:\ttrue",
            "Version:\t{}".format(version()),
            "DbPath:\tnull",
            "SharedDb:\ttrue",
            "shouldDelayTransientStatuses:\tfalse",
            "CorsParams:\tnull",
            ""]


def test_banner_persistent_per_key_with_delays_and_cors(tmp_path):
    data = tmp_path / "db"
    with run_server("-dbPath", str(data), "--per-key-databases", "-delayTransientStatuses",
                    "-cors", "http://localhost:3000", "--no-models") as server:
        lines = banner_of(server)
    assert lines[1:] == [
        "Port:\t{}".format(server.port),
        "InMemory:\tfalse",
        "Version:\t{}".format(version()),
        "DbPath:\t{}".format(data),
        "SharedDb:\tfalse",
        "shouldDelayTransientStatuses:\ttrue",
        "CorsParams:\thttp://localhost:3000",
        ""]


def test_root_answers_200_healthy_by_default():
    with run_server("--in-memory", "--no-models") as server:
        status, _, body = get_root(server.url)
        assert (status, body) == (200, "healthy: 127.0.0.1:{} ".format(server.port))


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_root_answers_as_dynamodb_local_when_asked(how):
    args = ["--in-memory", "--no-models"]
    env = None
    if how == "flag":
        args += ["--root-answer", "dynamodb-local"]
    else:
        env = {"LOCALDYNAMO_ROOT_ANSWER": "dynamodb-local"}
    with run_server(*args, env=env) as server:
        status, headers, body = get_root(server.url)
        assert status == 400
        assert headers["Content-Type"] == "application/x-amz-json-1.0"
        assert json.loads(body) == DYNAMODB_LOCAL_ROOT_BODY
        # The API itself is unchanged, and the image's health probe still
        # counts this server as healthy.
        check_api_works(server)
        probe = subprocess.run([str(server_binary().resolve()), "--healthcheck",
                                server.url + "/"], capture_output=True, text=True, timeout=15)
        assert probe.returncode == 0, probe.stderr


def test_flag_overrides_the_environment():
    with run_server("--in-memory", "--no-models", "--root-answer", "dynamodb",
                    env={"LOCALDYNAMO_ROOT_ANSWER": "dynamodb-local"}) as server:
        assert get_root(server.url)[0] == 200


def test_unknown_root_answer_is_refused():
    result = subprocess.run([str(server_binary().resolve()), "--in-memory",
                             "--root-answer", "dynamo"], capture_output=True, text=True,
                            timeout=10)
    assert result.returncode == 2
    assert "--root-answer (or LOCALDYNAMO_ROOT_ANSWER) must be dynamodb or dynamodb-local" in \
        result.stderr
