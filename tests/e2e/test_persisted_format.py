"""The persisted format does not change: a data directory written by an
earlier release (tests/e2e/data/format_v1, written by commit 8b4400d) opens,
and this binary answers about it exactly as that release did — every table
description, item, index entry, stream and stream record — and its TTL
sweep and stream trimming delete the same things.

Two deliberate differences. Sets read back sorted since 2026-11 (the release
before answered them in the order written): both sides are compared with
their sets' members sorted. And the hex suffix of a shard id that this binary
opens is derived from the shard's first sequence number (the release before
used the count of shards left after trimming, which could repeat). Only
shards created by the sweep below have such ids: they are compared as
placeholders, and checked to be distinct. So are the time stamps the sweep
writes, as the clock runs on after the test sets it.

expected.json was read through botocore 1.29, whose parser dropped the
members it did not know yet; the newer botocore reads them, so they are left
out of both sides (NEWER_THAN_THE_RECORDING)."""

import json
from datetime import datetime
import re
import shutil
from pathlib import Path

from .server_util import run_server
from .format_snapshot import (READ_AT_MILLIS, SWEEP_AT_MILLIS, move_clock, snapshot,
                              sweep_snapshot)

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
