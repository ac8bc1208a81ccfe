"""The HTTP/JSON protocol, spoken by hand with http.client and urllib."""

import http.client
import json
import re
import socket
import urllib.request
import zlib

import pytest

from .e2e_util import error_type, raw_request, split_url, unique_name


@pytest.fixture
def conn(server_url):
    host, port = split_url(server_url)
    c = http.client.HTTPConnection(host, port, timeout=10)
    yield c
    c.close()


def new_conn(server_url):
    host, port = split_url(server_url)
    return http.client.HTTPConnection(host, port, timeout=10)


def check_standard_headers(resp):
    request_id = resp.header("x-amzn-RequestId")
    assert request_id and request_id.strip(), "missing x-amzn-RequestId"
    crc = resp.header("x-amz-crc32")
    assert crc is not None, "missing x-amz-crc32"
    assert int(crc) == zlib.crc32(resp.body) & 0xFFFFFFFF
    assert resp.header("Content-Type").split(";")[0].strip() == "application/x-amz-json-1.0"


def test_health_check(server_url):
    # GET / answers 200 with "healthy: <the Host the client used>".
    with urllib.request.urlopen(server_url + "/", timeout=10) as resp:
        assert resp.status == 200
        body = resp.read().decode("utf-8")
    host = server_url.split("://", 1)[1].rstrip("/")
    assert body.strip() == "healthy: " + host, body


def test_success_response_headers(conn, server_url):
    # Every response carries x-amzn-RequestId, an x-amz-crc32 equal to the CRC32 of the body, and Content-Type application/x-amz-json-1.0.
    resp = raw_request(conn, server_url, "ListTables", "{}")
    assert resp.status == 200
    check_standard_headers(resp)
    assert isinstance(resp.json()["TableNames"], list)


def test_error_response_headers(conn, server_url):
    # Error responses carry the same x-amzn-RequestId / x-amz-crc32 / Content-Type headers and a JSON body with __type.
    resp = raw_request(conn, server_url, "DescribeTable",
                       json.dumps({"TableName": unique_name("missing")}))
    assert resp.status == 400
    check_standard_headers(resp)
    assert error_type(resp) == "ResourceNotFoundException"


def test_request_ids_are_unique(conn, server_url):
    # Each response gets its own x-amzn-RequestId.
    ids = {raw_request(conn, server_url, "ListTables", "{}").header("x-amzn-RequestId")
           for _ in range(3)}
    assert len(ids) == 3


def test_unknown_operation(conn, server_url):
    # An X-Amz-Target naming no DynamoDB operation is HTTP 400 UnknownOperationException.
    resp = raw_request(conn, server_url, "NoSuchOperation", "{}")
    assert resp.status == 400
    assert error_type(resp) == "UnknownOperationException"


def test_missing_authorization(conn, server_url):
    # A request without an Authorization header is HTTP 400 MissingAuthenticationTokenException.
    resp = raw_request(conn, server_url, "ListTables", "{}", sign=False)
    assert resp.status == 400
    assert error_type(resp) == "MissingAuthenticationTokenException"


def test_malformed_json(conn, server_url):
    # A body that is not valid JSON is HTTP 400 SerializationException.
    resp = raw_request(conn, server_url, "ListTables", '{"Limit": 5,')
    assert resp.status == 400
    assert error_type(resp) == "SerializationException"


def test_validation_error_type(conn, server_url, table):
    # Validation failures are HTTP 400 with __type ending in '#ValidationException' and a message.
    table.register("ab")  # dropped again should a non-conforming server create it
    body = json.dumps({
        "TableName": "ab",
        "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    })
    resp = raw_request(conn, server_url, "CreateTable", body)
    assert resp.status == 400
    doc = resp.json()
    assert doc["__type"].endswith("#ValidationException"), doc
    assert doc.get("message") or doc.get("Message")


def test_keep_alive(conn, server_url):
    # Several requests can be sent one after another over a single persistent HTTP/1.1 connection.
    first = raw_request(conn, server_url, "ListTables", "{}")
    assert first.status == 200
    assert (first.header("Connection") or "").lower() != "close"
    sock = conn.sock
    assert sock is not None
    for _ in range(5):
        resp = raw_request(conn, server_url, "ListTables", json.dumps({"Limit": 1}))
        assert resp.status == 200
        assert conn.sock is sock, "server closed the keep-alive connection"


def test_connection_survives_error_response(conn, server_url):
    # After an error response (malformed JSON) the same connection still serves a valid request.
    bad = raw_request(conn, server_url, "ListTables", "not json at all")
    assert bad.status == 400
    good = raw_request(conn, server_url, "ListTables", "{}")
    assert good.status == 200


def test_bad_request_does_not_break_other_connections(server_url):
    # Garbage on one connection does not affect another open connection.
    other = new_conn(server_url)
    try:
        assert raw_request(other, server_url, "ListTables", "{}").status == 200
        host, port = split_url(server_url)
        with socket.create_connection((host, port), timeout=5) as junk:
            junk.settimeout(1)
            junk.sendall(b"\x00\x01GARBAGE \xff\xfe NOT HTTP\r\n\r\n")
            try:
                junk.recv(4096)
            except (socket.timeout, OSError):
                pass
        assert raw_request(other, server_url, "ListTables", "{}").status == 200
        fresh = new_conn(server_url)
        try:
            assert raw_request(fresh, server_url, "ListTables", "{}").status == 200
        finally:
            fresh.close()
    finally:
        other.close()
