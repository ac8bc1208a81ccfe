"""A real S3 API server for the tests that read and write buckets: s3rver
(npm, pinned by tests/js/package-lock.json), which checks each request's
access key (not its V4 signature). `s3` is a fixture: a boto3 S3 client of
a fresh s3rver with the bucket "exports", its endpoint in `client.endpoint`;
`s3_env()` is the environment a localdynamo started with --s3-endpoint
needs to reach it."""

import re
import shutil
import subprocess
import time
from pathlib import Path

import boto3
import pytest
from botocore.config import Config

S3RVER = Path(__file__).resolve().parents[1] / "js" / "node_modules" / "s3rver" / "bin" / \
    "s3rver.js"
# s3rver's own credentials; a request from another access key is refused.
S3_KEY = "S3RVER"


@pytest.fixture
def s3(tmp_path):
    if not S3RVER.is_file():
        pytest.fail("tests/js has no node_modules: run scripts/setup.sh --tests")
    process = subprocess.Popen(
        # On 127.0.0.1: its default, "localhost", is ::1 where Node resolves
        # it to IPv6 first (Debian's Node 18 does).
        [shutil.which("node"), str(S3RVER), "-d", str(tmp_path / "s3rver"), "-p", "0",
         "-a", "127.0.0.1", "--configure-bucket", "exports"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        port = None
        while port is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            match = re.search(r"listening on [^:]+:(\d+)", line)
            if match:
                port = int(match.group(1))
        assert port, "s3rver did not start"
        endpoint = "http://127.0.0.1:{}".format(port)
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                              aws_access_key_id=S3_KEY, aws_secret_access_key=S3_KEY,
                              config=Config(s3={"addressing_style": "path"}))
        client.endpoint = endpoint
        yield client
    finally:
        process.terminate()
        process.wait(timeout=10)


def s3_env():
    return {"AWS_ACCESS_KEY_ID": S3_KEY, "AWS_SECRET_ACCESS_KEY": S3_KEY,
            "AWS_REGION": "us-east-1"}
