"""What a server answers about every table, item, index entry and stream
record it holds: the persisted-format test compares these answers between
the binary that wrote a data directory and the one reading it now
(tests/e2e/data/format_v1/README.md)."""

import json

from .e2e_util import all_table_names, make_client
from .server_util import admin_ok, make_streams_client, read_stream

# Access keys of the two per-key databases the fixture holds.
ACCESS_KEYS = ("alice", "bob")
# The clock the fixture was written at, and the instants the test moves to.
WRITTEN_AT_MILLIS = 1767225600000         # 2026-01-01T00:00:00Z
READ_AT_MILLIS = WRITTEN_AT_MILLIS + 6 * 3600 * 1000
SWEEP_AT_MILLIS = 1893456000000 + 1000    # 2030-01-01T00:00:01Z


def normalized(value):
    """JSON-comparable: datetimes and bytes as text."""
    return json.loads(json.dumps(value, default=str, sort_keys=True))


def scan_all(client, **kwargs):
    items, start = [], None
    while True:
        page = client.scan(**kwargs, **({"ExclusiveStartKey": start} if start else {}))
        items.extend(page["Items"])
        start = page.get("LastEvaluatedKey")
        if not start:
            return items


def database_snapshot(url, access_key):
    ddb = make_client(url, access_key=access_key)
    streams = make_streams_client(url, access_key=access_key)
    tables = {}
    for name in all_table_names(ddb):
        desc = ddb.describe_table(TableName=name)["Table"]
        backups = ddb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
        # "Now" less five minutes: the clock runs on after it is set.
        backups.get("PointInTimeRecoveryDescription", {}).pop("LatestRestorableDateTime", None)
        table = {
            "describe": desc,
            "ttl": ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"],
            "tags": ddb.list_tags_of_resource(ResourceArn=desc["TableArn"]).get("Tags", []),
            "backups": backups,
            "items": scan_all(ddb, TableName=name),
        }
        for index in desc.get("GlobalSecondaryIndexes", []) + desc.get("LocalSecondaryIndexes", []):
            table["index " + index["IndexName"]] = scan_all(ddb, TableName=name,
                                                           IndexName=index["IndexName"])
        tables[name] = table
    described = []
    for stream in streams.list_streams()["Streams"]:
        description = streams.describe_stream(StreamArn=stream["StreamArn"])["StreamDescription"]
        described.append({"describe": description,
                          "records": read_stream(streams, stream["StreamArn"])})
    return {"tables": tables, "streams": described}


def snapshot(url):
    return normalized({key: database_snapshot(url, key) for key in ACCESS_KEYS})


def move_clock(url, millis):
    admin_ok(url, "clock", {"SetMillis": millis})


def sweep_snapshot(url):
    """The sweep at SWEEP_AT_MILLIS (TTL expiry, stream trimming) and what is
    left after it."""
    move_clock(url, SWEEP_AT_MILLIS)
    swept = admin_ok(url, "sweep", {})
    return normalized({"sweep": swept, "after": {key: database_snapshot(url, key)
                                                  for key in ACCESS_KEYS}})
