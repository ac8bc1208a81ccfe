"""Shared helpers for the localdynamo end-to-end suite: credentials and
table names, error matching, boto3 clients, the table factory, raw signed
HTTP requests and the attribute-value helpers the item suites share.

Everything here is plain Python (no fixtures) so that conftest.py and the
test modules can share it.  Helpers about server processes, the admin API,
Streams and trigger targets live in server_util.py.  Written for
the pinned boto3, botocore and pytest of tests/requirements.txt (build/venv,
scripts/python-venv.sh); the CLI tests run Debian's aws.
"""

import contextlib
import functools
import http.client
import json
import os
import re
import time
import urllib.parse
import uuid
from pathlib import Path

import boto3
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

REPO_ROOT = Path(__file__).resolve().parents[2]

REGION = "us-east-1"
ACCESS_KEY = "AKIDTEST"
SECRET_KEY = "x"

# Set when the suite runs against an already running endpoint instead of
# starting the binary itself.
EXTERNAL_URL = os.environ.get("LOCALDYNAMO_URL") or None

# LOCALDYNAMO_SLOW=1 (scripts/sanitizers.sh sets it for the ThreadSanitizer
# build, which runs the server several times slower): wait_for's deadlines and
# the tolerances of tests about timings are multiplied by SLOWDOWN.
SLOWDOWN = 10 if os.environ.get("LOCALDYNAMO_SLOW") == "1" else 1

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def isolate_from_user_aws_config():
    """Keeps the developer's own AWS configuration out of the way: boto3
    sessions here get explicit credentials, but a stray AWS_PROFILE naming a
    profile that does not exist (or a config file setting endpoints/retries)
    must not matter."""
    for var in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
                "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CA_BUNDLE",
                "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE"):
        os.environ.pop(var, None)
    os.environ["AWS_CONFIG_FILE"] = "/dev/null"
    os.environ["AWS_SHARED_CREDENTIALS_FILE"] = "/dev/null"
    os.environ["AWS_EC2_METADATA_DISABLED"] = "true"


def unique_name(prefix="t"):
    """A table name no other test (or preloaded fixture) uses."""
    return "e2e-{}-{}".format(prefix, uuid.uuid4().hex[:12])


# --------------------------------------------------------------------------
# Error matching
# --------------------------------------------------------------------------

@contextlib.contextmanager
def expect_error(code, fragment=None):
    """Expect the block to raise a botocore ClientError whose error Code is
    `code` and whose Message contains `fragment` (a regular expression,
    searched case-sensitively).  Yields pytest's ExceptionInfo."""
    with pytest.raises(ClientError) as excinfo:
        yield excinfo
    err = excinfo.value.response.get("Error", {})
    got_code = err.get("Code")
    message = err.get("Message") or ""
    assert got_code == code, "expected error {} but got {}: {}".format(code, got_code, message)
    if fragment is not None:
        assert re.search(fragment, message), \
            "error message {!r} does not contain {!r}".format(message, fragment)


# --------------------------------------------------------------------------
# boto3 clients
# --------------------------------------------------------------------------

def client_config():
    # parameter_validation=False: several tests send values that botocore
    # would refuse client-side (e.g. a 2-character table name); the server is
    # the one being tested.  One attempt only, so server errors surface as is.
    return Config(
        parameter_validation=False,
        retries={"mode": "standard", "total_max_attempts": 1},
        connect_timeout=5,
        read_timeout=30,
    )


def make_session(access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION):
    return boto3.session.Session(
        aws_access_key_id=access_key,
        aws_secret_access_key=secret_key,
        region_name=region,
    )


def make_client(url, access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION):
    return make_session(access_key, secret_key, region).client(
        "dynamodb", endpoint_url=url, config=client_config())


@functools.lru_cache(maxsize=None)
def client_for(url, access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION):
    """One shared client per endpoint and identity, for helpers that are
    handed a URL (a client is thread-safe; making one loads the service
    model, so it is made once)."""
    return make_client(url, access_key, secret_key, region)


def body_of(answer):
    """A client's answer as the server sent it: without botocore's
    ResponseMetadata, for comparing whole answers."""
    return {k: v for k, v in answer.items() if k != "ResponseMetadata"}


def make_resource(url, access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION):
    return make_session(access_key, secret_key, region).resource(
        "dynamodb", endpoint_url=url, config=client_config())


def wait_active(client, name):
    client.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 1, "MaxAttempts": 60})


def wait_gone(client, name):
    client.get_waiter("table_not_exists").wait(
        TableName=name, WaiterConfig={"Delay": 1, "MaxAttempts": 60})


def all_table_names(client):
    names = []
    kwargs = {}
    for _ in range(10000):
        resp = client.list_tables(**kwargs)
        names.extend(resp.get("TableNames", []))
        last = resp.get("LastEvaluatedTableName")
        if not last:
            return names
        kwargs = {"ExclusiveStartTableName": last}
    raise AssertionError("ListTables pagination did not terminate")


class TableFactory:
    """Creates tables with unique names and deletes them on cleanup().

    factory()                             -> hash key 'pk' (S), PAY_PER_REQUEST
    factory(range_key=("sk", "N"))        -> hash+range
    factory(ProvisionedThroughput={...})  -> PROVISIONED
    Any other CreateTable parameter may be passed as a keyword argument
    (KeySchema/AttributeDefinitions given explicitly override the defaults).
    Returns the table name.  Tables created by hand can be handed over for
    cleanup with register(name).
    """

    def __init__(self, client):
        self.client = client
        self.names = []

    def unique_name(self, prefix="t"):
        return unique_name(prefix)

    def register(self, name):
        self.names.append(name)
        return name

    def __call__(self, hash_key=("pk", "S"), range_key=None, name=None, prefix="t",
                 wait=True, **kwargs):
        name = name or unique_name(prefix)
        if "KeySchema" not in kwargs:
            kwargs["KeySchema"] = [{"AttributeName": hash_key[0], "KeyType": "HASH"}]
            if range_key:
                kwargs["KeySchema"].append({"AttributeName": range_key[0], "KeyType": "RANGE"})
        if "AttributeDefinitions" not in kwargs:
            defs = [{"AttributeName": hash_key[0], "AttributeType": hash_key[1]}]
            if range_key:
                defs.append({"AttributeName": range_key[0], "AttributeType": range_key[1]})
            kwargs["AttributeDefinitions"] = defs
        if "BillingMode" not in kwargs:
            kwargs["BillingMode"] = ("PROVISIONED" if "ProvisionedThroughput" in kwargs
                                     else "PAY_PER_REQUEST")
        self.client.create_table(TableName=name, **kwargs)
        self.register(name)
        if wait:
            wait_active(self.client, name)
        return name

    def cleanup(self):
        for name in reversed(self.names):
            delete_table_quietly(self.client, name)
        self.names = []


def delete_table_quietly(client, name):
    """Best-effort delete (also lifts deletion protection); never raises."""
    for _ in range(30):
        try:
            client.delete_table(TableName=name)
            return
        except ClientError as e:
            code = e.response.get("Error", {}).get("Code")
            if code == "ResourceNotFoundException":
                return
            if code == "ValidationException":
                # Possibly deletion protection: lifted, then deleted again.
                try:
                    client.update_table(TableName=name, DeletionProtectionEnabled=False)
                    wait_active(client, name)
                except Exception:
                    return
                continue
            if code == "ResourceInUseException":
                time.sleep(1)
                continue
            return
        except Exception:
            return


# --------------------------------------------------------------------------
# Raw HTTP
# --------------------------------------------------------------------------

def split_url(url):
    parsed = urllib.parse.urlsplit(url)
    return parsed.hostname, parsed.port or 80


def signed_headers(url, target, body, access_key=ACCESS_KEY, secret_key=SECRET_KEY,
                   region=REGION):
    """Headers of a SigV4-signed DynamoDB JSON request (as an SDK sends it)."""
    headers = {
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810." + target,
    }
    request = AWSRequest(method="POST", url=url.rstrip("/") + "/", data=body, headers=headers)
    SigV4Auth(Credentials(access_key, secret_key), "dynamodb", region).add_auth(request)
    return dict(request.headers.items())


class RawResponse:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers  # lower-cased names
        self.body = body

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def header(self, name):
        return self.headers.get(name.lower())


def raw_request(conn, url, target, body, sign=True, extra_headers=None):
    """Send one DynamoDB request over http.client connection `conn`."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    if sign:
        headers = signed_headers(url, target, body)
    else:
        headers = {
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810." + target,
        }
    if extra_headers:
        headers.update(extra_headers)
    conn.request("POST", "/", body=body, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    return RawResponse(resp.status, {k.lower(): v for k, v in resp.getheaders()}, data)


def error_type(raw):
    """The short error name of a raw JSON error response."""
    return raw.json().get("__type", "").split("#")[-1]


# --- Item helpers shared by the expression and UpdateItem suites ---------

_ser = TypeSerializer()
_deser = TypeDeserializer()


def exact(message):
    """Regex matching exactly `message` (for expect_error)."""
    return "^" + re.escape(message) + "$"


def refused(message, call, **kwargs):
    """Calls `call(**kwargs)`, which must fail with a ValidationException
    whose message is exactly `message`."""
    with expect_error("ValidationException", exact(message)):
        call(**kwargs)


def av(value):
    """Python value -> DynamoDB JSON attribute value."""
    return _ser.serialize(value)


def avs(values):
    return {k: av(v) for k, v in values.items()}


def plain(item):
    """DynamoDB JSON item -> Python values."""
    return {k: _deser.deserialize(v) for k, v in item.items()}


def key():
    return unique_name("k")


def raw_op(url, operation, payload):
    """Signed JSON request; returns (HTTP status, decoded body) without
    raising, for tests of the wire itself: an error body's exact members and
    their spelling, or a request botocore would not send as it is."""
    host, port = split_url(url)
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        body = json.dumps(payload).encode("utf-8")
        conn.request("POST", "/", body=body, headers=signed_headers(url, operation, body))
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, (json.loads(data.decode("utf-8")) if data.strip() else {})
    finally:
        conn.close()
