"""The persisted format does not change: data directories written by earlier
releases open, and this binary answers about them exactly as those releases
did.

tests/e2e/data/format_v1 (written by commit 8b4400d, one database per access
key): every table description, item, index entry, stream and stream record,
and its TTL sweep and stream trimming delete the same things. Two
deliberate differences. Sets read back sorted since 2026-11 (the release
before answered them in the order written): both sides are compared with
their sets' members sorted. And the hex suffix of a shard id that this binary
opens is derived from the shard's first sequence number (the release before
used the count of shards left after trimming, which could repeat). Only
shards created by the sweep below have such ids: they are compared as
placeholders, and checked to be distinct. So are the time stamps the sweep
writes, as the clock runs on after the test sets it.

format_v1's expected.json was read through botocore 1.29, whose parser dropped the
members it did not know yet; the newer botocore reads them, so they are left
out of both sides (NEWER_THAN_THE_RECORDING).

tests/e2e/data/format_v2 (written by commit a6ac9cb, one database per
region): on-demand backups, point-in-time recovery history, vector indexes,
Kinesis destinations and their feed, a global table's replica, Contributor
Insights, resource policies, a trigger's checkpoint, besides tables, TTL and
streams. Everything a6ac9cb answered is required as it is — the snapshot,
restores to three instants of the history and from every backup, the sweep
and what is left after it, a write replicated to the other region — with no
deliberate difference: it was recorded on a frozen clock through the
pinned botocore the suite runs on, and the test freezes the clock at the
same instants. Only the ids of the tables the test restores are left out
(new ones each time, on both sides)."""

import json
from datetime import datetime
import re
import shutil
from pathlib import Path

from .server_util import run_server
from .format_snapshot import (READ_AT_MILLIS, SWEEP_AT_MILLIS, freeze_clock, move_clock,
                              regions_snapshot, snapshot, sweep_snapshot)
from .data.format_v2 import make as format_v2

FIXTURE = Path(__file__).resolve().parent / "data" / "format_v1"
SERVER_ARGS = ("--per-key-databases", "--no-models", "--ttl-interval", "0")
SHARD_ID = re.compile(r"shardId-(\d{20})-([0-9a-f]{8})")
# Members of the answers that botocore 1.29, which recorded expected.json,
# did not parse (so they are absent there, whatever the server sent).
NEWER_THAN_THE_RECORDING = ("DeletionProtectionEnabled", "WarmThroughput",
                            "RecoveryPeriodInDays")


def sweep_time(text):
    """Whether `text` is a date-time at or after the sweep (the clock's own
    time then, which runs on after it is set)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return False
    return when.tzinfo is not None and when.timestamp() * 1000 >= SWEEP_AT_MILLIS - 1000


RECOVERY_PERIOD_MILLIS = 35 * 86400 * 1000


def recovery_period_before_sweep(text):
    """Whether `text` is the sweep's time less the recovery period: the
    earliest instant point-in-time recovery offers then."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return False
    start = SWEEP_AT_MILLIS - RECOVERY_PERIOD_MILLIS
    return when.tzinfo is not None and start - 1000 <= when.timestamp() * 1000 <= start + 60000


def new_shard_ids(value, found):
    """`value` with every shard id created at or after the sweep, and every
    time stamp of then, masked; the ids themselves are collected in `found`."""
    if isinstance(value, dict):
        return {k: new_shard_ids(v, found) for k, v in value.items()}
    if isinstance(value, list):
        return [new_shard_ids(v, found) for v in value]
    if isinstance(value, str):
        match = SHARD_ID.fullmatch(value)
        if match and int(match.group(1)) >= SWEEP_AT_MILLIS:
            found.add(value)
            return "shardId-(new)"
        if sweep_time(value):
            return "(sweep time)"
        if recovery_period_before_sweep(value):
            return "(sweep time less the recovery period)"
    return value


def comparable(value):
    """`value` with the members of every SS, NS and BS sorted, without the
    members newer than the recording client."""
    if isinstance(value, dict):
        return {k: sorted(v) if k in ("SS", "NS", "BS") and isinstance(v, list)
                else comparable(v) for k, v in value.items()
                if k not in NEWER_THAN_THE_RECORDING}
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def test_a_data_directory_written_before_reads_and_sweeps_the_same(tmp_path):
    expected = comparable(json.loads((FIXTURE / "expected.json").read_text()))
    data_dir = tmp_path / "db"
    shutil.copytree(FIXTURE / "db", data_dir)
    with run_server(*SERVER_ARGS, "--data-dir", str(data_dir)) as server:
        move_clock(server.url, READ_AT_MILLIS)
        assert comparable(snapshot(server.url)) == expected["snapshot"]
        swept = comparable(sweep_snapshot(server.url))
    created = set()
    assert new_shard_ids(swept, created) == new_shard_ids(expected["sweep"], set())
    assert len(created) == 2  # one child shard per enabled stream
    # What this binary wrote on top of the old data reads back after a restart
    # (read at the sweep's time: the recovery window is the clock's).
    with run_server(*SERVER_ARGS, "--data-dir", str(data_dir)) as server:
        move_clock(server.url, SWEEP_AT_MILLIS)
        assert new_shard_ids(comparable(snapshot(server.url)), set()) == \
            new_shard_ids(swept["after"], set())


def test_a_data_directory_with_backups_vectors_and_replicas_reads_and_acts_the_same(tmp_path):
    expected = json.loads((format_v2.HERE / "expected.json").read_text())
    data_dir = tmp_path / "db"
    shutil.copytree(format_v2.HERE / "db", data_dir)
    args = (*format_v2.SERVER_ARGS, "--data-dir", str(data_dir))
    with run_server(*args) as server:
        answered = format_v2.read_and_act(server.url)
        for part in ("snapshot", "restores", "sweep", "after sweep", "replicated"):
            assert answered[part] == expected[part], part
        last = regions_snapshot(server.url)
    # What this binary wrote on top of the old data reads back after a restart.
    with run_server(*args) as server:
        freeze_clock(server.url, SWEEP_AT_MILLIS)
        assert regions_snapshot(server.url) == last
