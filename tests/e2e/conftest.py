"""Fixtures for the localdynamo end-to-end suite.

By default a localdynamo binary (build/localdynamo, or $LOCALDYNAMO_BIN) is
started once per session with --in-memory on a free port.  If
$LOCALDYNAMO_URL is set, that endpoint is used instead and tests that need
to start their own server (persistence, per-key databases) are skipped.
"""

import json
import os
import shutil
import subprocess

import pytest

from .e2e_util import (
    ACCESS_KEY,
    EXTERNAL_URL,
    REGION,
    SECRET_KEY,
    TableFactory,
    isolate_from_user_aws_config,
    make_client,
    make_resource,
)
from .server_util import ServerProcess, run_server

isolate_from_user_aws_config()


@pytest.fixture(scope="session")
def server_url():
    """URL of the DynamoDB endpoint under test."""
    if EXTERNAL_URL:
        yield EXTERNAL_URL.rstrip("/")
        return
    server = ServerProcess(["--in-memory"]).start()
    try:
        yield server.url
    finally:
        rc = server.stop()
        tail = server.log_tail()
        server.remove_log()
    assert rc == 0, "localdynamo exited with {} after SIGTERM\n--- log ---\n{}".format(rc, tail)


@pytest.fixture(scope="session")
def external_endpoint():
    """True when running against $LOCALDYNAMO_URL rather than our binary."""
    return bool(EXTERNAL_URL)


@pytest.fixture(scope="session")
def dynamodb(server_url):
    return make_client(server_url)


@pytest.fixture(scope="module")
def tables(dynamodb):
    """Creates tables for one test module and deletes them after it."""
    factory = TableFactory(dynamodb)
    yield factory
    factory.cleanup()


@pytest.fixture(scope="session")
def dynamodb_resource(server_url):
    return make_resource(server_url)


@pytest.fixture
def table(dynamodb):
    """Factory creating uniquely named tables, deleted after the test."""
    factory = TableFactory(dynamodb)
    yield factory
    factory.cleanup()


@pytest.fixture
def start_server():
    """Context-manager factory starting an extra localdynamo with custom args:

        with start_server("--data-dir", str(tmp_path)) as srv:
            srv.client().list_tables()

    On exit the server gets SIGTERM and must exit 0 (srv.returncode).
    Skipped when running against $LOCALDYNAMO_URL."""
    if EXTERNAL_URL:
        pytest.skip("needs to start its own localdynamo; LOCALDYNAMO_URL is set")
    return run_server


def _aws_cli_path():
    if os.path.isfile("/usr/bin/aws") and os.access("/usr/bin/aws", os.X_OK):
        return "/usr/bin/aws"
    return shutil.which("aws")


@pytest.fixture(scope="session")
def aws(server_url):
    """Run `aws dynamodb <args> --endpoint-url URL --output json`.

    Returns (returncode, parsed JSON output) on success and
    (returncode, stderr text) on failure."""
    cli = _aws_cli_path()
    if not cli:
        pytest.skip("AWS CLI not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({
        "AWS_ACCESS_KEY_ID": ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_PAGER": "",
        "AWS_CONFIG_FILE": "/dev/null",
        "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
        "AWS_EC2_METADATA_DISABLED": "true",
        "AWS_MAX_ATTEMPTS": "1",
    })

    def run(*args):
        cmd = [cli, "dynamodb"] + [str(a) for a in args] + [
            "--endpoint-url", server_url, "--output", "json"]
        proc = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=60)
        if proc.returncode != 0:
            return proc.returncode, proc.stderr.decode("utf-8", "replace")
        out = proc.stdout.decode("utf-8").strip()
        return 0, (json.loads(out) if out else {})

    return run
