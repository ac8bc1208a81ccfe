"""Helpers around localdynamo processes for the end-to-end suite (and the
reliability suite, which imports them): starting and stopping a server of
one's own, its admin API (clock, TTL sweep), waiting for asynchronous
effects, reading its Streams endpoint, and a local HTTP endpoint that
receives trigger deliveries.  The DynamoDB-side helpers are in e2e_util.py.
"""

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from .e2e_util import (
    ACCESS_KEY,
    REGION,
    REPO_ROOT,
    SECRET_KEY,
    SLOWDOWN,
    TableFactory,
    client_config,
    make_client,
    make_session,
)

DEFAULT_BIN = REPO_ROOT / "build" / "localdynamo"

# How long a server may take to answer its first request: a guard against a
# hang, not a speed check (bench/ measures start-up). A restart after SIGKILL
# replays and flushes the write-ahead log, which under a sanitizer on a busy
# two-core runner took more than 10 s once.
STARTUP_DEADLINE_S = 60.0
SHUTDOWN_DEADLINE_S = 10.0


def server_binary():
    return Path(os.environ.get("LOCALDYNAMO_BIN") or DEFAULT_BIN)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------
# Server processes
# --------------------------------------------------------------------------

class ServerProcess:
    """One localdynamo process listening on 127.0.0.1:<free port> (or on
    `host`, e.g. 0.0.0.0, and reached at 127.0.0.1)."""

    def __init__(self, args, binary=None, env=None, host="127.0.0.1"):
        self.args = list(args)
        self.host = host
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
        except urllib.error.HTTPError as e:
            # --root-answer dynamodb-local: GET / answers as DynamoDB Local does.
            return e.code == 400 and b"#MissingAuthenticationToken" in e.read()
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
            cmd = [str(self.binary), "--host", self.host, "--port", str(self.port)] + self.args
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


# --------------------------------------------------------------------------
# Streams, the admin API and trigger targets
# --------------------------------------------------------------------------

def make_streams_client(url, access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION):
    return make_session(access_key, secret_key, region).client(
        "dynamodbstreams", endpoint_url=url, config=client_config())


def raw_streams(url, operation, payload):
    """A signed DynamoDB Streams request (DynamoDBStreams_20120810.<operation>)
    that botocore would not send as it is (a malformed member); returns
    (HTTP status, decoded JSON body)."""
    body = json.dumps(payload).encode("utf-8")
    request = AWSRequest(method="POST", url=url.rstrip("/") + "/", data=body, headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDBStreams_20120810." + operation})
    SigV4Auth(Credentials(ACCESS_KEY, SECRET_KEY), "dynamodb", REGION).add_auth(request)
    http_request = urllib.request.Request(url.rstrip("/") + "/", data=body,
                                          headers=dict(request.headers.items()))
    try:
        with urllib.request.urlopen(http_request) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


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
