"""localdynamo check / repair: a damaged data directory found and repaired.

Items are written through boto3 into a server's data directory and flushed
into table files (a restart replays the write-ahead log into them); with the
server stopped, a copy of the directory gets one byte flipped inside the data
block of the items' table file.  `check` must exit 1 and name the file,
`repair` must say what RocksDB set aside and how many items were lost, and a
server on the repaired copy must answer with the items that are left, its
index agreeing.  An undamaged copy checks clean (exit 0).
"""

import os
import re
import shutil
import subprocess

import pytest

from .server_util import run_server, server_binary

pytestmark = pytest.mark.usefixtures("start_server")  # skipped with LOCALDYNAMO_URL

TABLE = "Orders"
ARGS = ("--no-models",)


def run(*args):
    """Runs `localdynamo <args>`; returns (exit code, stdout, stderr)."""
    proc = subprocess.run([str(server_binary())] + [str(a) for a in args],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def create_table(client):
    client.create_table(
        TableName=TABLE, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        # KEYS_ONLY: the items' table file is then by far the largest.
        GlobalSecondaryIndexes=[{"IndexName": "by-g",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "KEYS_ONLY"}}])


def put(client, prefix, count, size):
    for i in range(count):
        client.put_item(TableName=TABLE, Item={
            "pk": {"S": "%s%d" % (prefix, i)}, "g": {"S": "g%d" % (i % 5)},
            "payload": {"B": os.urandom(size)}})  # incompressible


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """40 large items in one round of table files, 10 small ones in the next."""
    data = tmp_path_factory.mktemp("check") / "data"
    data.mkdir()
    with run_server("--data-dir", str(data), *ARGS) as srv:
        create_table(srv.client())
        put(srv.client(), "a", 40, 4000)
    with run_server("--data-dir", str(data), *ARGS):
        pass  # start-up writes the log's records into table files
    with run_server("--data-dir", str(data), *ARGS) as srv:
        put(srv.client(), "b", 10, 100)
    with run_server("--data-dir", str(data), *ARGS):
        pass
    return data


def copy_of(data, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(data, copy)
    return copy


def largest_table_file(data):
    return max((p for p in data.iterdir() if p.suffix == ".sst"), key=lambda p: p.stat().st_size)


def flip_byte(path, offset=100):
    # Table files begin with their data blocks: byte 100 is inside the first.
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)
        f.seek(offset)
        f.write(bytes([byte[0] ^ 0xFF]))


def test_a_clean_copy_checks_clean(data_dir, tmp_path):
    # Every file, item and index entry of an undamaged directory checks out: exit 0.
    copy = copy_of(data_dir, tmp_path)
    code, out, err = run("check", "--data-dir", copy)
    assert code == 0, out + err
    assert "every checksum matches" in out
    assert re.search(r"Orders: 50 items, 1 index with 50 entries: ok", out), out
    assert out.rstrip().endswith("result: clean"), out


def test_a_flipped_byte_is_found_and_repair_says_what_was_lost(data_dir, tmp_path):
    # A flipped byte in the items' table file: check exits 1 naming the file and the
    # table; repair sets the file aside, puts back what could be read, rebuilds the
    # GSI, and says how many items were lost; a server on the result agrees with it.
    copy = copy_of(data_dir, tmp_path)
    damaged = largest_table_file(copy)
    flip_byte(damaged)

    code, out, err = run("check", "--data-dir", copy)
    assert code == 1, out + err
    assert "damaged: {} (items): Corruption: block checksum mismatch".format(damaged.name) in out
    assert "damaged: Orders: items: Corruption" in out
    readable = int(re.search(r"Orders: (\d+) items readable around damaged blocks "
                             r"\(50 recorded\)", out).group(1))
    assert 40 <= readable < 50
    assert re.search(r"result: \d+ problems found", out)

    code, out, err = run("repair", "--data-dir", copy)
    assert code == 0, out + err
    assert "  {}: a table file it could not read whole".format(damaged.name) in out
    assert (copy / "lost" / damaged.name).is_file()
    lost = 50 - readable
    assert re.search(r"Orders: 50 recorded, {} readable \(around damaged blocks\) before, {} now: "
                     r"{} lost; {} put back after RocksDB's repair; indexes and statistics "
                     r"rebuilt from the items".format(readable, readable, lost, readable - 10),
                     out), out
    assert "lost: {} item".format(lost) in out
    assert out.rstrip().endswith("after: clean"), out

    code, out, err = run("check", "--data-dir", copy)
    assert code == 0, out + err

    with run_server("--data-dir", str(copy), *ARGS) as srv:
        client = srv.client()
        items = client.scan(TableName=TABLE)["Items"]
        assert len(items) == readable
        by_g = sum(client.query(TableName=TABLE, IndexName="by-g",
                                KeyConditionExpression="g = :g",
                                ExpressionAttributeValues={":g": {"S": "g%d" % g}})["Count"]
                   for g in range(5))
        assert by_g == readable
        assert client.describe_table(TableName=TABLE)["Table"]["ItemCount"] == readable


def test_check_and_repair_refuse_what_is_not_a_database(tmp_path):
    # No database in the directory: exit 2 with a sentence, for both.
    for command in ("check", "repair"):
        code, out, err = run(command, "--data-dir", tmp_path / "nothing")
        assert code == 2, out + err
        assert "no database in" in err
