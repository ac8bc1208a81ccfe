"""One localdynamo for the whole run (SCENARIOS.md), boto3 clients pointed
at it, and the clock put back to real time after every scenario."""

import os

import boto3
import pytest
from botocore.config import Config

from admin import Admin
from localdynamo_server import Server

# Any key works against localdynamo; the developer's own AWS settings must not.
for variable in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN",
                 "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_MAX_ATTEMPTS",
                 "AWS_RETRY_MODE"):
    os.environ.pop(variable, None)
os.environ.update({"AWS_CONFIG_FILE": os.devnull, "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
                   "AWS_EC2_METADATA_DISABLED": "true"})


@pytest.fixture(scope="session")
def server():
    started = Server()
    yield started
    code = started.stop()
    assert code == 0, "localdynamo exited with {} after SIGTERM\n{}".format(code, started.log())


@pytest.fixture(scope="session")
def session():
    return boto3.session.Session(aws_access_key_id="sdk", aws_secret_access_key="sdk",
                                 region_name="us-east-1")


@pytest.fixture(scope="session")
def make_client(server, session):
    """make_client(service="dynamodb", **config): a client of the test server;
    config goes to botocore's Config (retries, timeouts)."""
    def make(service="dynamodb", **config):
        return session.client(service, endpoint_url=server.url, config=Config(**config))
    return make


@pytest.fixture(scope="session")
def client(make_client):
    return make_client()


@pytest.fixture(scope="session")
def dynamodb(server, session):
    """The boto3 resource (Table, conditions, Python values)."""
    return session.resource("dynamodb", endpoint_url=server.url)


@pytest.fixture(scope="session")
def admin(server):
    return Admin(server.url)


@pytest.fixture(autouse=True)
def real_time_after(admin):
    yield
    # Every scenario leaves the clock at real time and no fault rule behind.
    admin.real_time()
    admin.clear_faults()
