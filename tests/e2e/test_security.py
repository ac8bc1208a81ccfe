"""Who may reach the server (docs/security.md), over real HTTP against the
real binary: web pages by their Origin (loopback by default, DynamoDB Local's
-cors for more), the admin API by its Host, its --admin-token and the
read-only rule beyond loopback, and where HTTP triggers may send records.
What a browser does with these answers is tested in Chromium
(tests/browser/security.test.js).
"""

import http.client
import http.server
import json
import threading
import urllib.error
import urllib.request

import pytest

from .server_util import EventReceiver, ServerProcess, admin, admin_ok, run_server, wait_for

LIST_TABLES = {"Content-Type": "application/x-amz-json-1.0",
               "X-Amz-Target": "DynamoDB_20120810.ListTables",
               "Authorization": "AWS4-HMAC-SHA256 Credential=key/20261127/us-east-1/dynamodb/"
                                "aws4_request, SignedHeaders=host, Signature=0"}
LIST_STREAMS = dict(LIST_TABLES, **{"X-Amz-Target": "DynamoDBStreams_20120810.ListStreams"})


def call(url, method, path, headers, body=None):
    """One request with exactly these headers; (status, headers, decoded body)."""
    host, port = url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        try:
            answer = json.loads(raw) if raw else {}
        except ValueError:
            answer = {"text": raw.decode("utf-8", "replace")}
        return response.status, {k.lower(): v for k, v in response.getheaders()}, answer
    finally:
        conn.close()


def error_type(answer):
    return answer.get("__type", "").rpartition("#")[2]


@pytest.fixture(scope="module")
def server():
    process = ServerProcess(["--in-memory", "--no-models"]).start()
    yield process
    assert process.stop() == 0, process.log_tail()
    process.remove_log()


def test_pages_of_other_origins_get_nothing(server):
    port = server.url.rsplit(":", 1)[1]
    for origin in ("http://evil.example", "https://evil.example", "null",
                   "http://localhost.evil.example:3000",
                   "http://evil.example:" + port):  # a rebound name: it resolves to 127.0.0.1
        for headers in (LIST_TABLES, LIST_STREAMS):
            status, response_headers, answer = call(server.url, "POST", "/",
                                                    dict(headers, Origin=origin), "{}")
            assert status == 403, (origin, answer)
            assert error_type(answer) == "CrossOriginRequestException"
            assert "-cors " + origin in answer["message"]
            assert "access-control-allow-origin" not in response_headers
        status, response_headers, _ = call(server.url, "OPTIONS", "/", {
            "Origin": origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-amz-target,authorization"})
        assert status == 403
        assert "access-control-allow-methods" not in response_headers


def test_loopback_pages_sdks_and_the_cli_are_answered(server):
    for origin in ("http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080"):
        status, headers, answer = call(server.url, "POST", "/", dict(LIST_TABLES, Origin=origin),
                                       "{}")
        assert status == 200 and answer == {"TableNames": []}
        assert headers["access-control-allow-origin"] == origin
    # No Origin: an SDK, the CLI, another container.
    status, headers, _ = call(server.url, "POST", "/", LIST_TABLES, "{}")
    assert status == 200 and "access-control-allow-origin" not in headers
    assert server.client().list_tables()["TableNames"] == []


def test_the_admin_api_and_console_need_a_loopback_host(server):
    port = server.url.rsplit(":", 1)[1]
    for host in ("evil.example:" + port, "10.1.2.3:" + port):
        status, _, answer = call(server.url, "GET", "/_localdynamo/clock", {"Host": host})
        assert status == 403 and error_type(answer) == "HostNotAllowedException"
        status, _, answer = call(server.url, "GET", "/", {"Host": host, "Accept": "text/html"})
        assert status == 403 and error_type(answer) == "HostNotAllowedException"
        # The health check is not the console: DynamoDB answers it for any name.
        status, _, answer = call(server.url, "GET", "/", {"Host": host})
        assert status == 200 and answer["text"].startswith("healthy: ")
    for host in ("localhost:" + port, "127.0.0.1:" + port):
        status, _, answer = call(server.url, "GET", "/_localdynamo/clock", {"Host": host})
        assert status == 200 and "NowMillis" in answer
        status, headers, _ = call(server.url, "GET", "/", {"Host": host, "Accept": "text/html"})
        assert status == 200 and headers["content-type"].startswith("text/html")


def test_allowed_hosts_open_the_console_under_another_name():
    with run_server("--in-memory", "--no-models", "--allowed-hosts", "dynamo.test") as server:
        port = server.url.rsplit(":", 1)[1]
        host = "dynamo.test:" + port
        status, _, _ = call(server.url, "GET", "/_localdynamo/clock", {"Host": host})
        assert status == 200
        # The console's own calls, from a page of that origin.
        status, _, _ = call(server.url, "POST", "/",
                            dict(LIST_TABLES, Host=host, Origin="http://" + host), "{}")
        assert status == 200
        status, _, _ = call(server.url, "GET", "/_localdynamo/clock", {"Host": "other.test"})
        assert status == 403


def test_dynamodb_locals_cors_usages():
    # -cors with a list: those origins beside loopback ones.
    with run_server("--in-memory", "--no-models", "-cors",
                    "http://app.example:3000,https://admin.example") as server:
        for origin, allowed in (("http://app.example:3000", True), ("https://admin.example", True),
                                ("http://localhost:3000", True), ("http://app.example:4000", False),
                                ("http://evil.example", False)):
            status, headers, _ = call(server.url, "POST", "/", dict(LIST_TABLES, Origin=origin),
                                      "{}")
            assert (status == 200) == allowed, origin
            assert headers.get("access-control-allow-origin") == (origin if allowed else None)
    # -cors '*' (and -cors alone): every page, with DynamoDB Local's '*' and a warning.
    for args in (["-cors", "*"], ["-cors"]):
        with run_server("--in-memory", "--no-models", *args) as server:
            status, headers, _ = call(server.url, "POST", "/",
                                      dict(LIST_TABLES, Origin="http://evil.example"), "{}")
            assert status == 200 and headers["access-control-allow-origin"] == "*"
            assert "every web page" in server.log_tail()
            # The DynamoDB API, not the admin API: no page of another site resets it.
            status, _, answer = call(server.url, "POST", "/_localdynamo/reset",
                                     {"Origin": "http://evil.example",
                                      "Content-Type": "text/plain"}, "{}")
            assert status == 403 and error_type(answer) == "CrossOriginRequestException"


def test_an_admin_token_locks_every_admin_endpoint():
    with run_server("--in-memory", "--no-models", "--admin-token", "t0ken") as server:
        for method, path, body in (("GET", "/_localdynamo/clock", None),
                                   ("POST", "/_localdynamo/reset", "{}"),
                                   ("DELETE", "/_localdynamo/faults", None)):
            status, headers, answer = call(server.url, method, path, {}, body)
            assert status == 401 and error_type(answer) == "UnauthorizedException"
            assert headers["www-authenticate"].startswith("Bearer")
            status, _, answer = call(server.url, method, path, {"Authorization": "Bearer wrong"},
                                     body)
            assert status == 401 and "does not match" in answer["message"]
            status, _, _ = call(server.url, method, path, {"Authorization": "Bearer t0ken"}, body)
            assert status == 200, (method, path)
        # The DynamoDB API is not the admin API's: SDKs need no token.
        assert server.client().list_tables()["TableNames"] == []


def test_the_token_comes_from_the_environment_too():
    with run_server("--in-memory", "--no-models",
                    env={"LOCALDYNAMO_ADMIN_TOKEN": "from-env"}) as server:
        assert admin(server.url, "clock")[0] == 401
        status, _, _ = call(server.url, "GET", "/_localdynamo/clock",
                            {"Authorization": "Bearer from-env"})
        assert status == 200


def listening_everywhere(*args):
    return ServerProcess(["--in-memory", "--no-models", *args], host="0.0.0.0")


def test_beyond_loopback_without_a_token_the_admin_api_is_read_only():
    server = listening_everywhere().start()
    try:
        assert "admin API: read-only" in server.log_tail()
        assert admin(server.url, "clock")[0] == 200
        for path, body in (("reset", {}), ("clock", {"AdvanceSeconds": 60}),
                           ("faults", {"Operation": "GetItem", "Error": "InternalServerError"})):
            status, answer = admin(server.url, path, body)
            assert status == 403 and error_type(answer) == "AdminApiReadOnlyException", path
            assert "0.0.0.0" in answer["message"]
        assert admin(server.url, "faults", method="DELETE")[0] == 403
    finally:
        assert server.stop() == 0
        server.remove_log()
    for args, headers in ((["--admin-open"], {}),
                          (["--admin-token", "k"], {"Authorization": "Bearer k"})):
        server = listening_everywhere(*args).start()
        try:
            status, _, answer = call(server.url, "POST", "/_localdynamo/clock", headers,
                                     json.dumps({"AdvanceSeconds": 60}))
            assert status == 200, answer
            assert "read-only" not in server.log_tail()
        finally:
            assert server.stop() == 0
            server.remove_log()


TRIGGER = {"Name": "t", "TableName": "events", "StartingPosition": "TRIM_HORIZON",
           "MaximumRetryAttempts": 0}


def events_table(client):
    client.create_table(TableName="events", BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})


def test_triggers_target_loopback_unless_hosts_are_named(tmp_path):
    with run_server("--in-memory", "--no-models") as server:
        events_table(server.client())
        for url in ("http://169.254.169.254/latest/meta-data/", "http://10.0.0.7:8080/",
                    "http://lambda:8080/2015-03-31/functions/function/invocations"):
            status, answer = admin(server.url, "triggers", dict(TRIGGER, Url=url))
            assert status == 400 and "--trigger-hosts" in answer["message"], url
        assert admin_ok(server.url, "triggers") == {"Triggers": []}
        receiver = EventReceiver()
        try:
            local = receiver.url.replace("127.0.0.1", "localhost")
            admin_ok(server.url, "triggers", dict(TRIGGER, Url=local))
            server.client().put_item(TableName="events", Item={"pk": {"S": "a"}})
            wait_for(lambda: len(receiver.records()) == 1, what="the delivery to localhost")
        finally:
            receiver.close()
    # A name given with --trigger-hosts is allowed (here it resolves to loopback).
    with run_server("--in-memory", "--no-models", "--trigger-hosts", "lambda") as server:
        events_table(server.client())
        status, _ = admin(server.url, "triggers", dict(TRIGGER, Url="http://lambda:8080/"))
        assert status == 200
    # The --triggers file follows the same rule: the server does not start.
    triggers = tmp_path / "triggers.json"
    triggers.write_text(json.dumps([dict(TRIGGER, Url="http://10.0.0.7:8080/")]))
    server = ServerProcess(["--in-memory", "--no-models", "--triggers", str(triggers)])
    with pytest.raises(pytest.fail.Exception, match="--trigger-hosts"):
        server.start()


class Answering:
    """A local HTTP target that answers every POST with `status` and `body`."""

    def __init__(self, status, body=b"", headers=()):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:{}/".format(self.server.server_address[1])
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_trigger_targets_cannot_redirect_or_flood():
    """A redirect is a failed delivery, not a second request; an answer's
    body is read only when it is a short error: a 2 MB answer is judged by
    its status line alone."""
    receiver = EventReceiver()
    redirecting = Answering(307, headers=[("Location", receiver.url)])
    flooding = Answering(200, body=b"x" * (2 * 1024 * 1024))
    failing_long = Answering(500, body=b"y" * (2 * 1024 * 1024))
    failing_short = Answering(500, body=b"out of memory")
    targets = {"redirected": redirecting, "flooded": flooding, "failed-long": failing_long,
               "failed-short": failing_short}
    try:
        with run_server("--in-memory", "--no-models") as server:
            events_table(server.client())
            for name, target in targets.items():
                admin_ok(server.url, "triggers", dict(TRIGGER, Name=name, Url=target.url))
            server.client().put_item(TableName="events", Item={"pk": {"S": "a"}})

            def status(name):
                return admin_ok(server.url, "triggers/" + name)
            wait_for(lambda: all(status(name)["Lag"] == 0 for name in targets),
                     what="every trigger to finish its batch")
            assert status("flooded")["DeliveredRecords"] == 1
            assert "HTTP 307 (redirects are not followed)" in status("redirected")["LastError"]
            assert status("failed-long")["LastError"].endswith("HTTP 500")
            assert status("failed-short")["LastError"].endswith("HTTP 500: out of memory")
            assert receiver.records() == []  # the redirect's target heard nothing
    finally:
        for target in [receiver, *targets.values()]:
            target.close()
