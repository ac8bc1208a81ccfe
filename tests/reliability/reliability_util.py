"""Helpers of the reliability suite: sizes for the CI and long modes, raw
sockets, process memory and the probe that proves the server still serves.

Server processes come from the end-to-end suite's server_util, clients and
signed requests from its e2e_util; only what is new here lives here.
"""

import os
import socket
import threading
import time

from e2e.e2e_util import make_client, signed_headers

# RELIABILITY_LONG=1: the long mode for people (minutes); default: CI sizes.
LONG = os.environ.get("RELIABILITY_LONG") == "1"

# The sanitizers the server under test was built with (-fsanitize=...), as
# scripts/sanitizers.sh sets it; empty for a normal build.
SANITIZERS = set(filter(None, os.environ.get("LOCALDYNAMO_SANITIZER", "").split(",")))


def size(ci, long):
    """The CI figure, or the long mode's."""
    return long if LONG else ci


def rss_kib(pid):
    """Resident memory of a process, from /proc (KiB)."""
    with open("/proc/{}/status".format(pid)) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for pid {}".format(pid))


def cpu_seconds(pid):
    """User + system CPU time a process has used so far."""
    with open("/proc/{}/stat".format(pid)) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def probe(url):
    """A real client's request must still be answered: ListTables through boto3."""
    client = make_client(url)
    try:
        assert "TableNames" in client.list_tables(Limit=1)
    finally:
        client.close()


def request_bytes(target, body, extra_headers=(), host="127.0.0.1", content_length=None):
    """One HTTP/1.1 DynamoDB request as bytes (signed as an SDK would sign it)."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    headers = signed_headers("http://" + host, target, body)
    lines = ["POST / HTTP/1.1", "Host: " + host]
    lines += ["{}: {}".format(k, v) for k, v in headers.items()]
    lines += list(extra_headers)
    lines.append("Content-Length: {}".format(len(body) if content_length is None
                                             else content_length))
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def connect(port, timeout=10.0):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def send_all(sock, data):
    """Sends what the server will take; it may close early (e.g. on 413)."""
    try:
        sock.sendall(data)
        return True
    except (BrokenPipeError, ConnectionResetError):
        return False


class Reader:
    """Reads HTTP/1.1 responses off a socket (Content-Length bodies)."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.closed = False

    def _fill(self):
        try:
            chunk = self.sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            self.closed = True
        self.buf += chunk
        return bool(chunk)

    def response(self):
        """(status, {lower-case header: value}, body), or None when the
        server closed the connection before a whole response."""
        while b"\r\n\r\n" not in self.buf:
            if not self._fill():
                return None
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(self.buf) < length:
            if not self._fill():
                return None
        body, self.buf = self.buf[:length], self.buf[length:]
        return status, headers, body

    def closes_within(self, seconds):
        """True if the server closes the connection within `seconds`
        (anything it sends first is read and dropped)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                if not self._fill():
                    return True
            except socket.timeout:
                return False
        return False


def run_threads(count, work):
    """Runs work(index) on `count` threads at once; re-raises the first failure."""
    errors = []
    start = threading.Barrier(count)

    def body(i):
        try:
            start.wait()
            work(i)
        except BaseException as e:  # noqa: B036 - handed to the main thread
            errors.append(e)
    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
