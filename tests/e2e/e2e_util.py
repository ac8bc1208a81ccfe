"""Shared helpers for the localdynamo end-to-end suite.

Everything here is plain Python (no fixtures) so that conftest.py and the
test modules can share it.  Written for Debian bookworm's packages:
python3-boto3 1.26 / botocore 1.29, pytest 7.2, awscli 2.9.
"""

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
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
DEFAULT_BIN = REPO_ROOT / "build" / "localdynamo"

REGION = "us-east-1"
ACCESS_KEY = "AKIDTEST"
SECRET_KEY = "x"

# Set when the suite runs against an already running endpoint instead of
# starting the binary itself.
EXTERNAL_URL = os.environ.get("LOCALDYNAMO_URL") or None

STARTUP_DEADLINE_S = 10.0
SHUTDOWN_DEADLINE_S = 10.0

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


def server_binary():
    return Path(os.environ.get("LOCALDYNAMO_BIN") or DEFAULT_BIN)


def unique_name(prefix="t"):
    """A table name no other test (or preloaded fixture) uses."""
    return "e2e-{}-{}".format(prefix, uuid.uuid4().hex[:12])


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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

    def __init__(self, client, access_key=ACCESS_KEY, secret_key=SECRET_KEY):
        self.client = client
        self.names = []
        self.raw_creds = (client.meta.endpoint_url, access_key, secret_key,
                          client.meta.region_name)

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

    def raw(self, operation, payload):
        url, access_key, secret_key, region = self.raw_creds
        return raw_call(url, operation, payload, access_key, secret_key, region)

    def cleanup(self):
        for name in reversed(self.names):
            delete_table_quietly(self.client, name, self.raw)
        self.names = []


def delete_table_quietly(client, name, raw=None):
    """Best-effort delete (also lifts deletion protection); never raises."""
    for _ in range(30):
        try:
            client.delete_table(TableName=name)
            return
        except ClientError as e:
            code = e.response.get("Error", {}).get("Code")
            if code == "ResourceNotFoundException":
                return
            if code == "ValidationException" and raw is not None:
                # Possibly deletion protection; botocore 1.29 cannot send it.
                try:
                    raw("UpdateTable", {"TableName": name, "DeletionProtectionEnabled": False})
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


def raw_call(url, operation, payload, access_key=ACCESS_KEY, secret_key=SECRET_KEY,
             region=REGION):
    """Call a DynamoDB operation with a hand-built, signed JSON request and
    return the decoded JSON response.  Used for parameters that the installed
    botocore (1.29) does not know yet, e.g. DeletionProtectionEnabled.
    Errors are raised as botocore ClientError, so expect_error() works."""
    host, port = split_url(url)
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        body = json.dumps(payload).encode("utf-8")
        conn.request("POST", "/", body=body,
                     headers=signed_headers(url, operation, body, access_key, secret_key, region))
        resp = conn.getresponse()
        data = resp.read()
        status = resp.status
    finally:
        conn.close()
    try:
        doc = json.loads(data.decode("utf-8")) if data.strip() else {}
    except ValueError:
        doc = {"__type": "InvalidResponse", "message": data[:200].decode("utf-8", "replace")}
    if status != 200:
        raise ClientError({
            "Error": {"Code": str(doc.get("__type", "")).split("#")[-1],
                      "Message": doc.get("message") or doc.get("Message") or ""},
            "ResponseMetadata": {"HTTPStatusCode": status},
        }, operation)
    return doc


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


# --------------------------------------------------------------------------
# Server processes
# --------------------------------------------------------------------------

class ServerProcess:
    """One localdynamo process listening on 127.0.0.1:<free port>."""

    def __init__(self, args, binary=None, env=None):
        self.args = list(args)
        self.env = None if env is None else dict(os.environ, **env)
        self.binary = Path(binary) if binary else server_binary()
        self.proc = None
        self.port = None
        self.url = None
        self.returncode = None
        self.log_path = None

    def remove_log(self):
        if self.log_path:
            try:
                os.unlink(self.log_path)
            except OSError:
                pass
            self.log_path = None

    def log_tail(self, limit=4000):
        if not self.log_path:
            return ""
        try:
            with open(self.log_path, "rb") as f:
                data = f.read()
            return data[-limit:].decode("utf-8", "replace")
        except OSError:
            return ""

    def _healthy(self):
        try:
            with urllib.request.urlopen(self.url + "/", timeout=1) as resp:
                return resp.status == 200
        except (urllib.error.URLError, OSError, http.client.HTTPException):
            return False

    def start(self):
        if not self.binary.is_file() or not os.access(str(self.binary), os.X_OK):
            pytest.fail("localdynamo binary not found or not executable at {} "
                        "(build it, or set LOCALDYNAMO_BIN / LOCALDYNAMO_URL)".format(self.binary))
        fd, self.log_path = tempfile.mkstemp(prefix="localdynamo-e2e-", suffix=".log")
        os.close(fd)
        # The port is picked by binding to port 0 and releasing it; another
        # process could grab it in between, so retry a couple of times if the
        # server dies right away.
        for attempt in range(3):
            self.port = free_port()
            self.url = "http://127.0.0.1:{}".format(self.port)
            cmd = [str(self.binary), "--host", "127.0.0.1", "--port", str(self.port)] + self.args
            with open(self.log_path, "ab") as log:
                log.write(("$ " + " ".join(cmd) + "\n").encode())
                log.flush()
                self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL, cwd=str(REPO_ROOT),
                                             env=self.env)
            deadline = time.monotonic() + STARTUP_DEADLINE_S
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break
                if self._healthy():
                    return self
                time.sleep(0.05)
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
                tail = self.log_tail()
                self.remove_log()
                pytest.fail("localdynamo did not answer GET / within {:.0f}s: {}\n--- log ---\n{}"
                            .format(STARTUP_DEADLINE_S, " ".join(cmd), tail))
        tail = self.log_tail()
        self.remove_log()
        pytest.fail("localdynamo exited during startup (code {}): {}\n--- log ---\n{}"
                    .format(self.proc.returncode, " ".join(self.args), tail))

    def stop(self):
        """SIGTERM, wait, return the exit code (kills it if it hangs)."""
        if self.proc is None:
            return self.returncode
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=SHUTDOWN_DEADLINE_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                self.returncode = self.proc.returncode
                self.proc = None
                tail = self.log_tail()
                self.remove_log()
                pytest.fail("localdynamo did not exit within {:.0f}s of SIGTERM\n--- log ---\n{}"
                            .format(SHUTDOWN_DEADLINE_S, tail))
        self.returncode = self.proc.returncode
        self.proc = None
        return self.returncode

    def client(self, access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION):
        return make_client(self.url, access_key, secret_key, region)


@contextlib.contextmanager
def run_server(*args, check_exit=True, env=None):
    """Start a localdynamo with the given extra args (host/port are added) and
    extra environment variables; stop it with SIGTERM on exit and, unless
    check_exit=False, assert that it exited with code 0.  The exit code stays
    in `server.returncode`."""
    server = ServerProcess(args, env=env).start()
    try:
        yield server
    finally:
        rc = server.stop()
        tail = server.log_tail()
        server.remove_log()
        if check_exit:
            assert rc == 0, "localdynamo exited with {} after SIGTERM\n--- log ---\n{}".format(
                rc, tail)


# --- Item helpers shared by the expression and UpdateItem suites ---------

_ser = TypeSerializer()
_deser = TypeDeserializer()


def exact(message):
    """Regex matching exactly `message` (for expect_error)."""
    return "^" + re.escape(message) + "$"


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
    raising, so that extra members of error bodies (e.g. Item) are visible
    and parameters newer than the installed botocore can be sent."""
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


# --- Streams, the admin API and trigger targets ---------------------------

def make_streams_client(url, access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION):
    return make_session(access_key, secret_key, region).client(
        "dynamodbstreams", endpoint_url=url, config=client_config())


def admin(url, path, body=None, method=None):
    """Calls the admin API; returns (HTTP status, decoded JSON body)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    method = method or ("GET" if body is None else "POST")
    request = urllib.request.Request(url + "/_localdynamo/" + path.lstrip("/"), data=data,
                                     method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read().decode("utf-8") or "{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode("utf-8") or "{}")


def admin_ok(url, path, body=None, method=None):
    status, answer = admin(url, path, body, method)
    assert status == 200, "admin {} answered {}: {}".format(path, status, answer)
    return answer


def server_now(url):
    """The emulator's clock, in epoch seconds."""
    return admin_ok(url, "clock")["NowMillis"] // 1000


def advance_clock(url, seconds):
    return admin_ok(url, "clock", {"AdvanceSeconds": seconds})


def sweep(url):
    return admin_ok(url, "sweep", {})


def wait_for(condition, timeout=10.0, interval=0.02, what="condition"):
    """Polls `condition` until it returns a truthy value; fails after `timeout`
    seconds (times SLOWDOWN)."""
    timeout *= SLOWDOWN
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail("timed out after {:.0f}s waiting for {}".format(timeout, what))
        time.sleep(interval)


def read_stream(streams, arn, iterator_type="TRIM_HORIZON"):
    """Every record of every shard of the stream, shards in lineage order."""
    shards = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
    records = []
    for shard in shards:
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                              ShardIteratorType=iterator_type)["ShardIterator"]
        while iterator:
            page = streams.get_records(ShardIterator=iterator)
            records.extend(page["Records"])
            if not page["Records"]:
                break
            iterator = page.get("NextShardIterator")
    return records


class EventReceiver:
    """A local HTTP endpoint that records the JSON bodies POSTed to it, as a
    function behind the Lambda Runtime Interface Emulator would receive them.
    `fail_first` requests are answered 500 before it starts accepting.
    `requested` holds when each request came (time.monotonic()), failed or
    not; `arrivals` when each accepted event did."""

    def __init__(self, fail_first=0):
        import http.server
        import threading
        receiver = self
        self.events = []
        self.arrivals = []
        self.requested = []
        self.fail_first = fail_first
        self.requests = 0
        self.lock = threading.Lock()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    receiver.requested.append(time.monotonic())
                    receiver.requests += 1
                    failing = receiver.requests <= receiver.fail_first
                    if not failing:
                        receiver.events.append(json.loads(body.decode("utf-8")))
                        receiver.arrivals.append(time.monotonic())
                self.send_response(500 if failing else 200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:{}/2015-03-31/functions/function/invocations".format(
            self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def records(self):
        with self.lock:
            return [r for event in self.events for r in event["Records"]]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def own_server_fixtures(*args):
    """Module-scoped fixtures for a module that runs its own server (e.g. one
    that moves the clock): `server` started with `args`, its boto3 client
    `ddb`, and a `tables` factory. Use as
        server, ddb, tables = own_server_fixtures("--in-memory", ...)"""
    @pytest.fixture(scope="module")
    def server():
        process = ServerProcess(list(args)).start()
        yield process
        assert process.stop() == 0, process.log_tail()
        process.remove_log()

    @pytest.fixture(scope="module")
    def ddb(server):
        return server.client()

    @pytest.fixture(scope="module")
    def tables(ddb):
        factory = TableFactory(ddb)
        yield factory
        factory.cleanup()

    return server, ddb, tables
