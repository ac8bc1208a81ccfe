"""Damaged and refused storage, at start-up and on read: a data directory
another server holds, one on a read-only disk (at start and while running),
a write-ahead log cut short by a crash, a flipped byte in a table file and
in the files that hold the table definitions.

Throughout, the server either refuses to start with one line on stderr that
names the directory and the cause (exit code 1, not a crash), or it serves;
and when it serves, every item it returns is exactly what was written, or
the read fails with InternalServerError "Storage error: ..." naming the
fault. It never returns a different value, and a damaged file never ends
the process.

The read-only tests need root (they mount a tmpfs) and are skipped otherwise.
"""

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from botocore.exceptions import ClientError

from e2e.e2e_util import REPO_ROOT, make_client, wait_active
from e2e.server_util import (
    STARTUP_DEADLINE_S, ServerProcess, admin_ok, free_port, server_binary, wait_for)

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")

# What a crashed or asserting process leaves in its output; a refusal has none.
CRASH_MARKERS = ("Assertion", "terminate called", "Aborted", "Segmentation fault",
                 "stack trace", "Sanitizer", "core dumped")
RESUME_DEADLINE_S = 20.0


# --------------------------------------------------------------------------
# Starting servers that may refuse to start
# --------------------------------------------------------------------------

class Attempt:
    """One start of the server on a data directory that may refuse it. Its
    stdout and stderr are kept apart: a refusal is one line on stderr."""

    def __init__(self, data):
        self.data = data
        self.port = free_port()
        self.url = "http://127.0.0.1:{}".format(self.port)
        self._out = tempfile.TemporaryFile()
        self._err = tempfile.TemporaryFile()
        cmd = [str(server_binary()), "--host", "127.0.0.1", "--port", str(self.port),
               "--data-dir", data, "--no-models"]
        self.proc = subprocess.Popen(cmd, stdout=self._out, stderr=self._err,
                                     stdin=subprocess.DEVNULL, cwd=str(REPO_ROOT))
        deadline = time.monotonic() + STARTUP_DEADLINE_S
        self.serving = False
        while time.monotonic() < deadline and self.proc.poll() is None:
            if self._healthy():
                self.serving = True
                return
            time.sleep(0.02)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
            pytest.fail("neither served nor exited within {:.0f} s: {}\n{}".format(
                STARTUP_DEADLINE_S, " ".join(cmd), self.output()))

    def _healthy(self):
        try:
            with urllib.request.urlopen(self.url + "/", timeout=1) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def stdout(self):
        self._out.seek(0)
        return self._out.read().decode("utf-8", "replace")

    def stderr(self):
        self._err.seek(0)
        return self._err.read().decode("utf-8", "replace")

    def output(self):
        return "--- stdout ---\n{}--- stderr ---\n{}".format(self.stdout(), self.stderr())

    def stop(self):
        """SIGTERM; the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                pytest.fail("did not exit within 10 s of SIGTERM\n" + self.output())
        return self.proc.returncode

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._out.close()
        self._err.close()


def assert_refused(attempt, *words):
    """The start was refused cleanly: exit code 1 (not a signal), one line on
    stderr naming the directory and containing `words`; returns the line."""
    output = attempt.output()
    print(output)
    assert not attempt.serving, "the server started\n" + output
    assert attempt.proc.returncode == 1, "exit code {}\n{}".format(attempt.proc.returncode,
                                                                    output)
    lines = attempt.stderr().strip().splitlines()
    assert len(lines) == 1, "one line on stderr\n" + output
    line = lines[0]
    assert attempt.data in line, "the line names the data directory\n" + output
    for word in words:
        assert word in line, "{!r} in the line\n{}".format(word, output)
    for marker in CRASH_MARKERS:
        assert marker not in output, "{!r} in the output\n{}".format(marker, output)
    return line


# --------------------------------------------------------------------------
# Tables, items and the errors reads may answer
# --------------------------------------------------------------------------

def create_table(client, name):
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    wait_active(client, name)


def make_item(n, value_bytes, prefix="k"):
    return {"pk": {"S": "{}{:05d}".format(prefix, n)}, "n": {"N": str(n)},
            "v": {"B": os.urandom(value_bytes)}}


def put_all(client, table, items):
    for item in items:
        client.put_item(TableName=table, Item=item)
    return {item["pk"]["S"]: item for item in items}


def storage_error(e, fault_words):
    """True if `e` is the 500 InternalServerError "Storage error: ..." that
    names the fault; fails on any other error."""
    error = e.response["Error"]
    assert e.response["ResponseMetadata"]["HTTPStatusCode"] == 500, e.response
    assert error["Code"] == "InternalServerError", error
    assert error["Message"].startswith("Storage error: "), error
    assert fault_words in error["Message"], error
    return True


DAMAGED = "a data file is damaged"
READ_ONLY = "the data directory is read-only"


def scan(client, table):
    items = {}
    for page in client.get_paginator("scan").paginate(TableName=table):
        for item in page["Items"]:
            items[item["pk"]["S"]] = item
    return items


def read_every_item(client, table, written):
    """GetItem of every written key, then a Scan: each answer is the exact
    item or the damaged-file error, never another value and never a silent
    miss. Returns the keys whose reads failed."""
    failed = set()
    for key, item in written.items():
        try:
            got = client.get_item(TableName=table, Key={"pk": item["pk"]}).get("Item")
        except ClientError as e:
            assert storage_error(e, DAMAGED)
            failed.add(key)
            continue
        assert got == item, "GetItem {}: {} instead of what was written".format(
            key, "nothing" if got is None else "another value")
    seen = set()
    try:
        for page in client.get_paginator("scan").paginate(TableName=table):
            for got in page["Items"]:
                key = got["pk"]["S"]
                assert got == written.get(key), "Scan returned a wrong item {}".format(key)
                seen.add(key)
    except ClientError as e:
        assert storage_error(e, DAMAGED)
        failed.add("<scan>")
    else:
        assert seen == set(written), "the Scan ended without error but missed {}".format(
            sorted(set(written) - seen)[:10])
    return failed


def flip_byte(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ 0x5A]))


# --------------------------------------------------------------------------
# 1. A directory another server holds
# --------------------------------------------------------------------------

def test_second_server_on_a_held_directory_exits_with_one_line():
    root = tempfile.mkdtemp(prefix="localdynamo-held-")
    data = os.path.join(root, "data")
    first = ServerProcess(["--data-dir", data, "--no-models"]).start()
    try:
        client = make_client(first.url)
        create_table(client, "held")
        written = put_all(client, "held", [make_item(n, 100) for n in range(5)])
        second = Attempt(data)
        try:
            assert_refused(second, "another localdynamo")
        finally:
            second.close()
        # The first server never noticed.
        assert first.proc.poll() is None
        written.update(put_all(client, "held", [make_item(5, 100)]))
        assert scan(client, "held") == written
        client.close()
        assert first.stop() == 0
    finally:
        first.stop()
        first.remove_log()
        shutil.rmtree(root, ignore_errors=True)


# --------------------------------------------------------------------------
# 2, 3. A read-only disk
# --------------------------------------------------------------------------

@pytest.fixture
def tmpfs():
    """A small tmpfs; the test may stack mounts on paths inside it (listed
    in `mounts`, undone first)."""
    root = tempfile.mkdtemp(prefix="localdynamo-ro-")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128m", "tmpfs", root], check=True)
    mounts = []
    try:
        yield root, mounts
    finally:
        for path in reversed(mounts):
            subprocess.run(["umount", "-l", path], check=False)
        subprocess.run(["umount", "-l", root], check=False)
        os.rmdir(root)


def remount(root, mode):
    subprocess.run(["mount", "-o", "remount," + mode, root], check=True)


@needs_root
def test_read_only_disk_at_start_is_refused_then_served_once_writable(tmpfs):
    root, _ = tmpfs
    data = os.path.join(root, "data")
    server = ServerProcess(["--data-dir", data, "--no-models"]).start()
    try:
        client = make_client(server.url)
        create_table(client, "ro-start")
        written = put_all(client, "ro-start", [make_item(n, 500) for n in range(20)])
        client.close()
        assert server.stop() == 0
    finally:
        server.stop()
        server.remove_log()
    remount(root, "ro")
    try:
        attempt = Attempt(data)
        try:
            assert_refused(attempt, "read-only")
        finally:
            attempt.close()
    finally:
        remount(root, "rw")
    server = ServerProcess(["--data-dir", data, "--no-models"]).start()
    try:
        client = make_client(server.url)
        assert scan(client, "ro-start") == written
        client.close()
        assert server.stop() == 0
    finally:
        server.stop()
        server.remove_log()


def health(url):
    return admin_ok(url, "health")["Storage"]


@needs_root
def test_directory_turning_read_only_refuses_writes_then_takes_them_again(tmpfs):
    """Linux refuses `mount -o remount,ro` (EBUSY) while a process has a file
    open for writing there, as the server always has its write-ahead log: a
    read-only bind mount stacked on the data directory stands for it. Every
    file the server then creates (a new log, a table file, the MANIFEST)
    fails with EROFS, as on a disk remounted read-only; the log it has open
    still takes appends until the memtable fills and RocksDB starts a new
    one, which is when the refusals begin. Unmounting it makes the directory
    writable again."""
    root, mounts = tmpfs
    data = os.path.join(root, "data")
    server = ServerProcess(["--data-dir", data, "--no-models"]).start()
    acked, unknown = {}, {}
    try:
        client = make_client(server.url)
        create_table(client, "ro-run")
        acked.update(put_all(client, "ro-run", [make_item(n, 1000, "before") for n in range(10)]))
        subprocess.run(["mount", "--bind", data, data], check=True)
        mounts.append(data)
        subprocess.run(["mount", "-o", "remount,bind,ro", data], check=True)
        # 32 KB items: the 8 MB memtable fills after some 250; 2,000 are 64 MB.
        refusal = None
        for n in range(2000):
            item = make_item(n, 32 * 1024, "during")
            try:
                client.put_item(TableName="ro-run", Item=item)
            except ClientError as e:
                unknown[item["pk"]["S"]] = item
                refusal = e
                break
            acked[item["pk"]["S"]] = item
        assert refusal is not None, "2,000 writes of 32 KB taken on a read-only directory"
        print("{} writes acknowledged after the directory turned read-only; refused: {}".format(
            len(acked) - 10, refusal.response["Error"]["Message"]))
        assert storage_error(refusal, READ_ONLY)
        state = health(server.url)
        assert state["State"] == "WRITES_STOPPED" and state["Fault"] == "READ_ONLY", state
        for n in range(3):
            item = make_item(n, 100, "refused")
            with pytest.raises(ClientError) as again:
                client.put_item(TableName="ro-run", Item=item)
            assert storage_error(again.value, READ_ONLY)
            unknown[item["pk"]["S"]] = item
        # Reads go on, and answer what was written.
        for key in ("before00000", max(acked)):
            got = client.get_item(TableName="ro-run", Key={"pk": {"S": key}})["Item"]
            assert got == acked[key]
        seen = scan(client, "ro-run")
        assert all(got == acked.get(key, unknown.get(key)) for key, got in seen.items())
        assert set(acked) <= set(seen)
        assert server.proc.poll() is None
        # Writable again: writes are taken within seconds, with no restart.
        subprocess.run(["umount", data], check=True)
        mounts.remove(data)
        started = time.monotonic()
        wait_for(lambda: health(server.url)["State"] == "WRITABLE", timeout=RESUME_DEADLINE_S,
                 interval=0.1, what="writes accepted again")
        print("writes accepted again after {:.1f} s".format(time.monotonic() - started))
        acked.update(put_all(client, "ro-run", [make_item(n, 1000, "after") for n in range(10)]))
        log = server.log_tail(100_000)
        print(log)
        assert "storage: writes stopped: Storage error: " + READ_ONLY in log
        assert "storage: writes accepted again" in log
        client.close()
        assert server.stop() == 0
    finally:
        server.stop()
        server.remove_log()
    server = ServerProcess(["--data-dir", data, "--no-models"]).start()
    try:
        client = make_client(server.url)
        seen = scan(client, "ro-run")
        lost = sorted(set(acked) - set(seen))
        assert not lost, "acknowledged writes lost: {}".format(lost[:10])
        for key, got in seen.items():
            assert got == acked.get(key, unknown.get(key)), "{} is not what was written".format(key)
        client.close()
        assert server.stop() == 0
    finally:
        server.stop()
        server.remove_log()


# --------------------------------------------------------------------------
# 4. A write-ahead log cut short
# --------------------------------------------------------------------------

def newest_log(data):
    logs = [f for f in os.listdir(data) if re.fullmatch(r"\d+\.log", f)]
    assert logs, "no write-ahead log in {}: {}".format(data, sorted(os.listdir(data)))
    return os.path.join(data, max(logs, key=lambda f: int(f.split(".")[0])))


VALUE_BYTES = 200  # each write's log record is longer than this


@pytest.mark.parametrize("cut", [1, 60, 1000])
def test_truncated_log_tail_loses_at_most_the_last_writes(cut):
    root = tempfile.mkdtemp(prefix="localdynamo-wal-")
    data = os.path.join(root, "data")
    server = ServerProcess(["--data-dir", data, "--no-models"]).start()
    try:
        client = make_client(server.url)
        create_table(client, "wal")
        order = [make_item(n, VALUE_BYTES) for n in range(300)]
        written = put_all(client, "wal", order)
        client.close()
        server.proc.kill()
        server.proc.wait()
        server.proc = None
        server.remove_log()
        log_file = newest_log(data)
        size = os.path.getsize(log_file)
        assert size > cut + 300 * VALUE_BYTES, "the writes are in the log: {} bytes".format(size)
        os.truncate(log_file, size - cut)

        server = ServerProcess(["--data-dir", data, "--no-models"]).start()
        client = make_client(server.url)
        seen = scan(client, "wal")
        for key, got in seen.items():
            assert got == written[key], "{} is not what was written".format(key)
        kept = [item["pk"]["S"] in seen for item in order]
        lost = kept.count(False)
        # What is lost is the tail: no hole before a write that was kept.
        assert kept == [True] * (len(order) - lost) + [False] * lost, "a hole in the log"
        assert lost <= cut // VALUE_BYTES + 1, "{} writes lost to a cut of {} bytes".format(
            lost, cut)
        log = server.log_tail(20_000)
        print("cut {} bytes: {} of {} writes lost; the server said:\n{}".format(
            cut, lost, len(order), log))
        recovery = [line for line in log.splitlines()
                    if line.startswith("localdynamo: storage: start-up recovery of " + data)]
        assert recovery, "the log says the recovery dropped bytes"
        assert any("dropping" in line and os.path.basename(log_file) in line
                   for line in recovery), recovery
        # The recovered database goes on as any other.
        more = put_all(client, "wal", [make_item(n, VALUE_BYTES, "next") for n in range(5)])
        client.close()
        assert server.stop() == 0
        server.remove_log()
        server = ServerProcess(["--data-dir", data, "--no-models"]).start()
        client = make_client(server.url)
        seen.update(more)
        assert scan(client, "wal") == seen
        assert "start-up recovery" not in server.log_tail(20_000)
        client.close()
        assert server.stop() == 0
    finally:
        server.stop()
        server.remove_log()
        shutil.rmtree(root, ignore_errors=True)


# --------------------------------------------------------------------------
# 5, 6. A flipped byte in a table file, in the catalog, in the MANIFEST
# --------------------------------------------------------------------------

def families_of_table_files(data):
    """{SST file name: column family}, from the table_file_creation events of
    RocksDB's LOG (its lines may be cut short: fields are read one by one)."""
    families = {}
    with open(os.path.join(data, "LOG"), errors="replace") as f:
        for line in f:
            if "EVENT_LOG_v1" not in line or '"table_file_creation"' not in line:
                continue
            number = re.search(r'"file_number": (\d+)', line)
            family = re.search(r'"cf_name": "([^"]*)"', line)
            if number and family:
                families["{:06d}.sst".format(int(number.group(1)))] = family.group(1)
    return {name: family for name, family in families.items()
            if os.path.exists(os.path.join(data, name))}


@pytest.fixture(scope="module")
def flushed():
    """A data directory whose items and catalog are in table files: two
    tables (2,000 items of 1 KB, and 10), written, then the server stopped,
    started (RocksDB flushes the log it replays at open) and stopped again."""
    root = tempfile.mkdtemp(prefix="localdynamo-sst-")
    data = os.path.join(root, "data")
    try:
        written = {}
        server = ServerProcess(["--data-dir", data, "--no-models"]).start()
        try:
            client = make_client(server.url)
            create_table(client, "big")
            create_table(client, "small")
            written["big"] = put_all(client, "big", [make_item(n, 1024) for n in range(2000)])
            written["small"] = put_all(client, "small", [make_item(n, 10) for n in range(10)])
            client.close()
            assert server.stop() == 0
            server.remove_log()
            server = ServerProcess(["--data-dir", data, "--no-models"]).start()
            assert server.stop() == 0
        finally:
            server.stop()
            server.remove_log()
        families = families_of_table_files(data)
        print("table files: {}".format({name: (family, os.path.getsize(os.path.join(data, name)))
                                        for name, family in sorted(families.items())}))
        assert "default" in families.values(), "the catalog is in a table file: {}".format(
            families)
        yield data, written, families
    finally:
        shutil.rmtree(root, ignore_errors=True)


def damaged_copy(data, name, offset, into):
    copy = os.path.join(into, "data")
    shutil.copytree(data, copy)
    flip_byte(os.path.join(copy, name), offset)
    return copy


def start_on_damage(data, name, offset, tables):
    """Starts a server on a copy of `data` with one byte of `name` flipped:
    either it refuses with the damaged-files line, or it serves and every
    read of `tables` ({table: written items}) is exact or the damaged-file
    error, writes go on, and it is still running after them. Returns
    ("refused", the line) or ("served", {table: keys whose reads failed})."""
    into = tempfile.mkdtemp(prefix="localdynamo-flip-")
    try:
        copy = damaged_copy(data, name, offset, into)
        attempt = Attempt(copy)
        try:
            if not attempt.serving:
                return "refused", assert_refused(attempt, "damaged").replace(copy, "<dir>")
            client = make_client(attempt.url)
            failed = {}
            try:
                names = client.list_tables()["TableNames"]
                assert sorted(names) == sorted(tables), "tables {}".format(names)
            except ClientError as e:
                assert storage_error(e, DAMAGED)
                failed["<ListTables>"] = True
            for table, written in tables.items():
                keys = read_every_item(client, table, written)
                if keys:
                    failed[table] = sorted(keys)
            # Writes: taken and read back exactly, or refused with the same
            # error. A put reads the item it replaces (refused when that read
            # meets the damaged block), and RocksDB stops all writes once a
            # compaction meets it, which the health view then says.
            table = next(iter(tables))
            refused = 0
            for n in range(5):
                extra = make_item(90_000 + n, 100, "extra")
                try:
                    client.put_item(TableName=table, Item=extra)
                except ClientError as e:
                    assert storage_error(e, DAMAGED)
                    refused += 1
                    continue
                assert client.get_item(TableName=table,
                                       Key={"pk": extra["pk"]})["Item"] == extra
            state = admin_ok(attempt.url, "health")["Storage"]
            if state["State"] == "WRITES_STOPPED":
                assert state["Fault"] == "CORRUPTION", state
                assert ("storage: writes stopped: Storage error: " + DAMAGED
                        in attempt.stderr()), attempt.output()
                failed["<writes stopped>"] = refused
            else:
                assert state["Fault"] == "NONE", state
            client.close()
            assert attempt.proc.poll() is None, "the server ended\n" + attempt.output()
            for marker in CRASH_MARKERS:
                assert marker not in attempt.output(), attempt.output()
            assert attempt.stop() == 0, attempt.output()
            return "served", failed
        finally:
            attempt.close()
    finally:
        shutil.rmtree(into, ignore_errors=True)


def test_flipped_byte_in_the_largest_table_file(flushed):
    data, written, families = flushed
    largest = max(families, key=lambda name: os.path.getsize(os.path.join(data, name)))
    size = os.path.getsize(os.path.join(data, largest))
    # The middle lands in a data block of a few items: reading them finds
    # the damage, and only them.
    kind, detail = start_on_damage(data, largest, size // 2, written)
    print("{} ({} bytes) byte {} flipped: {} {}".format(largest, size, size // 2, kind, detail))
    if kind == "served":
        keys = [key for key in detail.get("big", []) if not key.startswith("<")]
        assert keys, "the damaged block was read without an error"
        assert len(keys) <= 16, "one damaged block failed {} reads".format(len(keys))
    # Towards the end: the index, the filter, the properties, the footer.
    for back in (8192, 3000, 1000, 200, 20):
        kind, detail = start_on_damage(data, largest, size - back, written)
        print("{} byte {} flipped: {} {}".format(largest, size - back, kind, detail))


def test_flipped_byte_in_the_catalog(flushed):
    """The table definitions live in the "default" column family: a byte
    flipped at offsets across its table file, then across the MANIFEST."""
    data, written, families = flushed
    catalog = [name for name, family in families.items() if family == "default"]
    manifest = [f for f in os.listdir(data) if f.startswith("MANIFEST-")]
    assert len(manifest) == 1, manifest
    outcomes = []
    for name in catalog + manifest:
        size = os.path.getsize(os.path.join(data, name))
        for offset in sorted({size * k // 8 for k in range(8)} | {size - 1}):
            kind, detail = start_on_damage(data, name, offset, written)
            print("{} ({} bytes) byte {} flipped: {} {}".format(name, size, offset, kind, detail))
            outcomes.append((name, offset, kind))
    for name in manifest:
        # Every record of the MANIFEST is checksummed: a flipped byte is
        # found at open, and the start refused.
        assert all(kind == "refused" for file, offset, kind in outcomes if file == name), outcomes
