"""The command lines the container image is driven by: DynamoDB Local's
(`-jar DynamoDBLocal.jar` with JVM options in front, as scripts written for
amazon/dynamodb-local pass them) and `--healthcheck`, the image's probe."""

import re
import subprocess
import time

import pytest

from .e2e_util import EXTERNAL_URL, make_client, unique_name
from .server_util import REPO_ROOT, free_port, run_server, server_binary

pytestmark = pytest.mark.skipif(bool(EXTERNAL_URL), reason="starts its own servers")


def run_binary(*args, timeout=15):
    return subprocess.run([str(server_binary().resolve()), *args], capture_output=True, text=True,
                          timeout=timeout)


def wait_for_health(url, proc, deadline_s=10.0):
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, "server exited early: " + proc.stdout.read()
        if run_binary("--healthcheck", url + "/").returncode == 0:
            return
        time.sleep(0.05)
    pytest.fail("server never became healthy")


def test_dynamodb_local_command_line_is_accepted(tmp_path):
    port = free_port()
    url = "http://127.0.0.1:{}".format(port)
    args = ["-Djava.library.path=./DynamoDBLocal_lib", "-Xmx512m", "-XX:+UseG1GC",
            "-jar", "DynamoDBLocal.jar", "-sharedDb", "-dbPath", str(tmp_path / "data"),
            "-port", str(port), "-disableTelemetry"]
    proc = subprocess.Popen([str(server_binary().resolve()), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=str(tmp_path))
    try:
        wait_for_health(url, proc)
        client = make_client(url)
        name = unique_name("jar")
        client.create_table(TableName=name,
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            BillingMode="PAY_PER_REQUEST")
        assert name in client.list_tables()["TableNames"]
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0, output
    # -dbPath was honoured: the database lives where the flag said.
    assert (tmp_path / "data" / "CURRENT").is_file(), output
    assert "persistent in " + str(tmp_path / "data") in output


def test_unknown_flags_are_still_refused():
    result = run_binary("-jar", "DynamoDBLocal.jar", "-noSuchFlag")
    assert result.returncode == 2
    assert "unrecognised option '-noSuchFlag'" in result.stderr


def test_healthcheck_answers_0_for_a_running_server():
    with run_server("--in-memory") as server:
        result = run_binary("--healthcheck", server.url + "/")
        assert result.returncode == 0, result.stderr
        assert result.stdout == ""
        # Without a scheme the address is host:port, as a HEALTHCHECK may write it.
        assert run_binary("--healthcheck", "127.0.0.1:{}".format(server.port)).returncode == 0


def test_healthcheck_answers_1_when_nothing_listens():
    port = free_port()
    result = run_binary("--healthcheck", "http://127.0.0.1:{}/".format(port))
    assert result.returncode == 1
    assert "http://127.0.0.1:{}/ is not healthy: connecting: Connection refused".format(
        port) in result.stderr


def test_healthcheck_answers_1_for_a_non_200_answer():
    with run_server("--in-memory", "--no-admin") as server:
        # The admin API is off, so its path answers 403.
        result = run_binary("--healthcheck", server.url + "/_localdynamo/")
        assert result.returncode == 1
        assert "is not healthy: HTTP 403" in result.stderr


def test_healthcheck_refuses_what_it_cannot_probe():
    for args in (["https://127.0.0.1:8000/"], ["http://127.0.0.1:port/"],
                 ["http://127.0.0.1:8000/", "extra"]):
        result = run_binary("--healthcheck", *args)
        assert result.returncode == 2, args
        assert "usage: localdynamo --healthcheck" in result.stderr
    result = run_binary("--port", "0", "--healthcheck")
    assert result.returncode == 2
    assert "--healthcheck must be the first argument" in result.stderr


def test_version_names_the_commit_it_was_built_from():
    out = run_binary("--version")
    assert out.returncode == 0, out.stderr
    match = re.fullmatch(r"localdynamo (\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}(-modified)?|unknown)\)\n",
                         out.stdout)
    assert match, out.stdout
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                          cwd=str(REPO_ROOT))
    if head.returncode == 0:  # a checkout: the build asked git, and the commits agree
        assert match.group(2).split("-")[0] == head.stdout.strip()


def test_help_says_how_to_make_a_bucket():
    # A folder bucket must exist before an export writes to it, as in S3.
    out = run_binary("--help")
    assert out.returncode == 0, out.stderr
    assert "A bucket is a subfolder that exists: make one with mkdir -p <dir>/<bucket>" in \
        " ".join(out.stdout.split())
