"""Hostile input: requests no SDK sends, connections that misbehave.

Each case is answered with DynamoDB's error or a clean close, the server
keeps serving a real client after every case, and its memory stays bounded.
The server runs with --request-timeout 1 so that slow clients are cut off
within the test's time.
"""

import json
import resource
import socket
import time

import pytest

from e2e.e2e_util import make_client
from e2e.server_util import ServerProcess, wait_for

from .hostile_cases import TABLE, catalogue
from .reliability_util import (
    LONG, SANITIZERS, Reader, connect, cpu_seconds, probe, request_bytes, rss_kib, send_all,
    size)

REQUEST_TIMEOUT_S = 1

CASES = catalogue()


@pytest.fixture(scope="module")
def server():
    srv = ServerProcess(["--in-memory", "--request-timeout", str(REQUEST_TIMEOUT_S)]).start()
    client = make_client(srv.url)
    client.create_table(TableName=TABLE, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    yield srv
    rc = srv.stop()
    tail = srv.log_tail()
    srv.remove_log()
    assert rc == 0, "localdynamo exited with {}\n{}".format(rc, tail)


def run_case(port, data, expectation):
    """Sends one case on a fresh connection and checks the answer."""
    sock = connect(port)
    try:
        send_all(sock, data)
        reader = Reader(sock)
        answer = reader.response()
        kind = expectation[0]
        if kind == "close":
            if answer is not None:
                assert answer[0] == 400, "expected a close, got HTTP {}: {!r}".format(
                    answer[0], answer[2][:200])
            assert reader.closes_within(5), "the server kept the connection open"
            return
        assert answer is not None, "the server closed the connection without answering"
        status, _, body = answer
        assert status == expectation[1], "HTTP {} {!r}".format(status, body[:300])
        if kind == "error":
            doc = json.loads(body.decode("utf-8"))
            assert doc["__type"].split("#")[-1] == expectation[2], doc
    finally:
        sock.close()


@pytest.mark.parametrize("name,data,expectation", CASES, ids=[c[0] for c in CASES])
def test_catalogue_case(server, name, data, expectation):
    run_case(server.port, data, expectation)
    probe(server.url)


def test_catalogue_is_large():
    assert len(CASES) >= 50


def test_memory_bounded_over_repeated_catalogue(server):
    """Three more passes over the catalogue: once the allocator has warmed up,
    the resident set does not grow with the number of bad requests."""
    for _ in range(1 if not LONG else 2):
        for _, data, expectation in CASES:
            run_case(server.port, data, expectation)
    before = rss_kib(server.proc.pid)
    for _ in range(size(2, 5)):
        for _, data, expectation in CASES:
            run_case(server.port, data, expectation)
    after = rss_kib(server.proc.pid)
    print("\nhostile input: RSS {} KiB -> {} KiB over {} more passes of {} cases".format(
        before, after, size(2, 5), len(CASES)))
    probe(server.url)
    if "address" in SANITIZERS:
        pytest.skip("ASan holds freed memory in its quarantine (256 MiB) before reusing it, so "
                    "the RSS grows with every allocation (flat with quarantine_size_mb=0); "
                    "LeakSanitizer checks for leaks at exit")
    assert after - before < 32 * 1024, "RSS grew from {} to {} KiB".format(before, after)


# --- connections that misbehave -------------------------------------------

def test_slow_client_never_finishing_headers_is_closed(server):
    sock = connect(server.port)
    sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n")
    started = time.monotonic()
    assert Reader(sock).closes_within(REQUEST_TIMEOUT_S + 5)
    assert time.monotonic() - started >= REQUEST_TIMEOUT_S * 0.9
    sock.close()
    probe(server.url)


def test_trickling_client_is_closed_by_the_request_deadline(server):
    """One byte every 0.2 s keeps a per-read timeout happy forever; the
    deadline for the whole request does not reset on each byte."""
    data = request_bytes("ListTables", "{}")
    sock = connect(server.port)
    started = time.monotonic()
    closed = False
    for byte in data:
        if not send_all(sock, bytes([byte])):
            closed = True
            break
        time.sleep(0.2)
        if time.monotonic() - started > REQUEST_TIMEOUT_S + 5:
            break
    reader = Reader(sock)
    closed = closed or reader.closes_within(2)
    elapsed = time.monotonic() - started
    sock.close()
    assert closed, "a trickling client held its connection for {:.1f}s".format(elapsed)
    assert elapsed < REQUEST_TIMEOUT_S + 5
    probe(server.url)


def test_many_slow_clients_at_once(server):
    """A slowloris crowd: each connection sends half a request and waits.
    Real clients are served meanwhile, and the crowd is cut off on time."""
    crowd = []
    for _ in range(size(300, 3000)):
        sock = connect(server.port)
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.Li")
        crowd.append(sock)
    probe(server.url)
    time.sleep(REQUEST_TIMEOUT_S + 2)
    try:
        still_open = [s for s in crowd if not Reader(s).closes_within(0.01)]
        assert not still_open, "{} of {} slow connections are still open".format(
            len(still_open), len(crowd))
    finally:
        for sock in crowd:
            sock.close()
    probe(server.url)


def test_body_never_finished_is_closed(server):
    sock = connect(server.port)
    sock.sendall(request_bytes("ListTables", "{", content_length=100))
    assert Reader(sock).closes_within(REQUEST_TIMEOUT_S + 5)
    sock.close()
    probe(server.url)


def fill_table(url, items, item_bytes):
    client = make_client(url)
    payload = "x" * item_bytes
    for start in range(0, items, 25):
        client.batch_write_item(RequestItems={TABLE: [
            {"PutRequest": {"Item": {"pk": {"S": "big-%05d" % i}, "v": {"S": payload}}}}
            for i in range(start, min(items, start + 25))]})


def test_client_vanishing_mid_response(server):
    """Large Scan answers; the client resets the connection before reading
    them. The server drops the session and keeps serving."""
    fill_table(server.url, 40, 30000)
    scan = request_bytes("Scan", json.dumps({"TableName": TABLE}))
    for _ in range(size(30, 300)):
        sock = connect(server.port)
        sock.sendall(scan)
        sock.recv(100)  # the response has started
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()  # RST
    probe(server.url)


def test_client_that_stops_reading_is_closed(server):
    """Pipelined Scans whose ~1 MB answers the client never reads: the
    server's write cannot finish, and the request deadline frees it."""
    scan = request_bytes("Scan", json.dumps({"TableName": TABLE}))
    sock = connect(server.port)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    for _ in range(20):
        if not send_all(sock, scan):
            break
    time.sleep(REQUEST_TIMEOUT_S + 2)
    # Everything the server managed to send is read now; then it must be gone.
    assert Reader(sock).closes_within(10)
    sock.close()
    probe(server.url)


def test_pipelined_requests_answered_in_order(server):
    names = ["pipe-%d" % i for i in range(10)]
    data = b"".join(request_bytes("PutItem", json.dumps(
        {"TableName": TABLE, "Item": {"pk": {"S": n}}, "ReturnValues": "NONE"})) for n in names)
    data += b"".join(request_bytes("GetItem", json.dumps(
        {"TableName": TABLE, "Key": {"pk": {"S": n}}})) for n in names)
    sock = connect(server.port)
    sock.sendall(data)
    reader = Reader(sock)
    answers = [reader.response() for _ in range(20)]
    sock.close()
    assert all(a is not None and a[0] == 200 for a in answers), answers
    got = [json.loads(a[2])["Item"]["pk"]["S"] for a in answers[10:]]
    assert got == names


def test_pipelined_bad_request_between_good_ones(server):
    good = request_bytes("ListTables", "{}")
    bad = request_bytes("ListTables", "{nope")
    sock = connect(server.port)
    sock.sendall(good + bad + good)
    reader = Reader(sock)
    statuses = [reader.response()[0] for _ in range(3)]
    sock.close()
    assert statuses == [200, 400, 200]


def test_connect_and_vanish_many_times(server):
    for _ in range(size(500, 5000)):
        sock = connect(server.port)
        sock.close()
    probe(server.url)


def test_half_closed_client_still_gets_its_answer(server):
    sock = connect(server.port)
    sock.sendall(request_bytes("ListTables", "{}"))
    sock.shutdown(socket.SHUT_WR)
    answer = Reader(sock).response()
    sock.close()
    assert answer is not None and answer[0] == 200


def raise_fd_limit(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def test_many_idle_connections(server):
    """Thousands of connections that never send anything: other clients are
    served throughout, and memory per idle connection stays small."""
    wanted = size(2000, 10000)
    limit = raise_fd_limit(wanted + 200)
    count = min(wanted, limit - 200)
    before = rss_kib(server.proc.pid)
    socks = []
    try:
        for i in range(count):
            socks.append(connect(server.port))
            if i % 1000 == 999:
                probe(server.url)
        probe(server.url)
        time.sleep(0.5)  # let the server accept them all
        probe(server.url)
        during = rss_kib(server.proc.pid)
        per_connection = (during - before) * 1024 / count
        print("\n{} idle connections: RSS {} KiB -> {} KiB ({:.0f} bytes each)".format(
            count, before, during, per_connection))
    finally:
        for s in socks:
            s.close()
    probe(server.url)
    if "thread" in SANITIZERS:
        pytest.skip("TSan adds shadow memory and metadata for all that each connection "
                    "touches: about twice the bytes per connection")
    assert per_connection < 16 * 1024, "{:.0f} bytes per idle connection".format(per_connection)


@pytest.mark.skipif("undefined" in SANITIZERS, reason=(
    "UBSan's vptr check reads the vtable through a pipe() of its own; out of descriptors it "
    "cannot make one and reports every virtual call, e.g. on Boost's error_category, as made "
    "on an invalid object, and aborts the server"))
def test_connections_beyond_the_servers_file_limit():
    """More connections than the server may open files: it must neither
    spin on the failing accept nor stop serving once they go away."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # the child inherits it
    try:
        srv = ServerProcess(["--in-memory", "--request-timeout", str(REQUEST_TIMEOUT_S)]).start()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    socks = []
    try:
        for _ in range(400):
            s = socket.socket()
            s.settimeout(5)
            s.connect(("127.0.0.1", srv.port))  # the kernel's backlog takes them
            socks.append(s)
        time.sleep(0.3)
        cpu_before = cpu_seconds(srv.proc.pid)
        time.sleep(2)
        busy = (cpu_seconds(srv.proc.pid) - cpu_before) / 2
        assert busy < 0.1, "the server spins at {:.0%} CPU while out of files".format(busy)
        for s in socks:
            s.close()
        socks = []
        wait_for(lambda: _probe_ok(srv.url), timeout=10, what="the server serving again")
    finally:
        for s in socks:
            s.close()
        rc = srv.stop()
        srv.remove_log()
    assert rc == 0


def _probe_ok(url):
    try:
        probe(url)
        return True
    except Exception:
        return False
