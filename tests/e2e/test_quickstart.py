"""The README's quick start, run as a new user would: its commands verbatim
(only the port is the test server's), with an empty HOME and no AWS_*
variables, through Debian's AWS CLI and the AWS SDK for JavaScript v3."""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from .server_util import REPO_ROOT, ServerProcess

JS_DIR = REPO_ROOT / "tests" / "js"


@pytest.fixture(scope="module")
def server():
    process = ServerProcess(["--in-memory"]).start()
    yield process
    assert process.stop() == 0, process.log_tail()
    process.remove_log()


@pytest.fixture
def empty_home():
    home = tempfile.mkdtemp(prefix="localdynamo-home-")
    yield home
    shutil.rmtree(home, ignore_errors=True)


def quick_start_block():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- quick-start[^>]*-->\s*```sh\n(.*?)```\s*<!-- end quick-start -->",
                      readme, re.S)
    assert match, "README.md lost its quick-start block"
    return match.group(1)


def aws_cli():
    # Debian's awscli package, as the README's machine has it.
    for candidate in ("/usr/bin/aws", shutil.which("aws")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail("no aws command (apt-get install awscli)")


def bare_env(home):
    """What a new user's shell has: no AWS configuration at all."""
    path = "{}:/usr/bin:/bin".format(Path(aws_cli()).parent)
    return {"HOME": home, "PATH": path, "LANG": "C.UTF-8"}


def on_port(text, server):
    return text.replace("localhost:8000", "localhost:{}".format(server.port))


def test_without_the_variables_the_cli_asks_for_a_region(server, empty_home):
    result = subprocess.run(
        [aws_cli(), "dynamodb", "list-tables", "--endpoint-url", server.url],
        env=bare_env(empty_home), capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "You must specify a region" in result.stderr


def test_the_quick_start_block_lists_the_preloaded_tables(server, empty_home):
    script = "set -euo pipefail\n" + on_port(quick_start_block(), server)
    result = subprocess.run(["bash", "-c", script], env=bare_env(empty_home),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert '"TableNames"' in result.stdout
    for table in ("ecommerce", "lambda-layers", "tenants", "DeploymentTable"):
        assert '"{}"'.format(table) in result.stdout


def test_a_js_sdk_client_with_no_options_reaches_the_server(server, empty_home):
    if not (JS_DIR / "node_modules" / "@aws-sdk" / "client-dynamodb").is_dir():
        pytest.fail("tests/js has no node_modules: run scripts/setup.sh --tests")
    exports = [line for line in quick_start_block().splitlines() if line.startswith("export ")]
    program = ('import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";'
               'const { TableNames } = await new DynamoDBClient().send(new ListTablesCommand({}));'
               'console.log(JSON.stringify(TableNames));')
    script = "set -euo pipefail\n{}\nnode --input-type=module -e '{}'\n".format(
        on_port("\n".join(exports), server), program)
    env = bare_env(empty_home)
    env["PATH"] = "{}:{}".format(Path(shutil.which("node")).parent, env["PATH"])
    result = subprocess.run(["bash", "-c", script], env=env, cwd=str(JS_DIR),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert '"ecommerce"' in result.stdout
