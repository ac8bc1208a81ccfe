"""HTTP behaviours SDKs and browsers rely on: a Date header on every
response, 16 KB header blocks, CORS on by default, and the health check
naming the host the client used."""

import email.utils
import http.client
import socket
import time

from .e2e_util import raw_request, split_url


def connect(server_url):
    host, port = split_url(server_url)
    return http.client.HTTPConnection(host, port, timeout=10)


def test_date_header_on_every_response(server_url, dynamodb):
    conn = connect(server_url)
    try:
        for target, body in (("ListTables", "{}"), ("DescribeTable", '{"TableName":"nope"}'),
                             ("NoSuchOperation", "{}")):
            resp = raw_request(conn, server_url, target, body)
            date = resp.header("Date")
            assert date, target
            parsed = email.utils.parsedate_to_datetime(date)
            assert abs(parsed.timestamp() - time.time()) < 60, date
        conn.request("GET", "/")
        resp = conn.getresponse()
        resp.read()
        assert resp.getheader("Date")
    finally:
        conn.close()
    # botocore reads the same header.
    meta = dynamodb.list_tables()["ResponseMetadata"]
    assert meta["HTTPHeaders"].get("date")


def test_sixteen_kb_headers_accepted_beyond_answered_400(server_url):
    conn = connect(server_url)
    try:
        resp = raw_request(conn, server_url, "ListTables", "{}",
                           extra_headers={"X-Padding": "p" * (15 * 1024)})
        assert resp.status == 200
    finally:
        conn.close()
    host, port = split_url(server_url)
    with socket.create_connection((host, port), timeout=10) as sock:
        request = ("POST / HTTP/1.1\r\nHost: {}:{}\r\nX-Padding: {}\r\n"
                   "Content-Length: 2\r\n\r\n{{}}").format(host, port, "p" * (17 * 1024))
        sock.sendall(request.encode())
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), head[:100]
    assert body.strip(), "a 400 with a body, not a dropped connection"


def test_cors_for_loopback_pages_by_default(server_url):
    """An app on http://localhost:3000 may call the server from the browser;
    the answer names its origin. Other origins: tests/e2e/test_security.py."""
    conn = connect(server_url)
    try:
        resp = raw_request(conn, server_url, "ListTables", "{}",
                           extra_headers={"Origin": "http://localhost:3000"})
        assert resp.status == 200
        assert resp.header("Access-Control-Allow-Origin") == "http://localhost:3000"
        assert resp.header("Vary") == "Origin"
        exposed = resp.header("Access-Control-Expose-Headers")
        assert "x-amzn-RequestId" in exposed and "x-amz-crc32" in exposed
        # Without an Origin there is nothing to add.
        resp = raw_request(conn, server_url, "ListTables", "{}")
        assert resp.header("Access-Control-Allow-Origin") is None
        conn.request("OPTIONS", "/", headers={
            "Origin": "http://127.0.0.1:5173",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-amz-target,authorization"})
        pre = conn.getresponse()
        pre.read()
        assert pre.status == 200
        assert pre.getheader("Access-Control-Allow-Origin") == "http://127.0.0.1:5173"
        assert pre.getheader("Access-Control-Allow-Methods") == "POST"
        assert pre.getheader("Access-Control-Allow-Headers") == \
            "content-type,x-amz-target,authorization"
        assert int(pre.getheader("Access-Control-Max-Age")) > 0
    finally:
        conn.close()


def test_health_check_names_the_host_used(server_url):
    conn = connect(server_url)
    try:
        conn.request("GET", "/", headers={"Host": "dynamo.local:1234"})
        resp = conn.getresponse()
        assert resp.status == 200
        assert resp.read().decode().strip() == "healthy: dynamo.local:1234"
    finally:
        conn.close()
