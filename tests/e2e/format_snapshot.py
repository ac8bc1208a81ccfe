"""What a server answers about every table, item, index entry and stream
record it holds: the persisted-format test compares these answers between
the binary that wrote a data directory and the one reading it now
(tests/e2e/data/format_v1/README.md, format_v2/README.md)."""

import base64
import datetime
import json
import shutil
import tempfile
from pathlib import Path

from botocore.exceptions import ClientError

from .e2e_util import all_table_names, make_client
from .server_util import (EventReceiver, ServerProcess, admin, admin_ok, make_streams_client,
                          read_stream, wait_for)

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


# --------------------------------------------------------------------------
# The second fixture (tests/e2e/data/format_v2): one database per region, and
# what the first did not hold — backups, recovery history, vector indexes,
# Kinesis destinations and their feeds, global tables, Contributor Insights,
# resource policies, triggers.
# --------------------------------------------------------------------------

# The regions of format_v2's databases: the home of its global table, and
# the replica's.
REGIONS = ("us-east-1", "eu-west-1")
# How many neighbours a recorded vector search asks for: more than any
# fixture index holds, so every indexed item is ranked.
SEARCH_TOP_K = 50


def utc_normalized(value):
    """JSON-comparable, datetimes in UTC ISO form whatever the machine's time
    zone (botocore parses them in the local one)."""
    def text(v):
        if isinstance(v, datetime.datetime):
            return v.astimezone(datetime.timezone.utc).isoformat()
        return str(v)
    return json.loads(json.dumps(value, default=text, sort_keys=True))


def freeze_clock(url, millis):
    """The emulator's clock at `millis`, standing still: every time stamp the
    server writes from then on is that instant."""
    admin_ok(url, "clock", {"SetMillis": millis, "Freeze": True})


def answer_or_error(call, **kwargs):
    """A call's answer without botocore's metadata, or its error code (what
    a release answers for a resource it does not have is part of the record)."""
    try:
        answer = call(**kwargs)
    except ClientError as error:
        return {"Error": error.response["Error"]["Code"]}
    answer.pop("ResponseMetadata", None)
    return answer


def vector_searches(ddb, name, index, items):
    """SearchVectors answers of one vector index: the first unit vector and
    the all-ones one, for every value its HASH search attributes take among
    the items, with no filter and with each value of each INLINE_FILTER
    attribute."""
    schema = index.get("SearchSchema", [])
    hashes = [s["AttributeName"] for s in schema if s["SearchSchemaElementType"] == "HASH"]
    inline = [s["AttributeName"] for s in schema if s["SearchSchemaElementType"] != "HASH"]

    def values_of(attribute):
        found = {json.dumps(i[attribute], sort_keys=True) for i in items if attribute in i}
        return [json.loads(v) for v in sorted(found)]

    partitions = [[]]
    for attribute in hashes:
        partitions = [p + [(attribute, v)] for p in partitions for v in values_of(attribute)]
    filters = [[]] + [[(a, v)] for a in inline for v in values_of(a)]
    dimensions = index["Dimensions"]
    queries = [[1] + [0] * (dimensions - 1), [1] * dimensions]
    answers = []
    for partition in partitions:
        for extra in filters:
            terms = partition + extra
            request = {"TableName": name, "IndexName": index["IndexName"],
                       "TopK": SEARCH_TOP_K}
            if terms:
                request["SearchConditionExpression"] = " AND ".join(
                    "#a{0} = :v{0}".format(n) for n in range(len(terms)))
                request["ExpressionAttributeNames"] = {
                    "#a%d" % n: a for n, (a, _) in enumerate(terms)}
                request["ExpressionAttributeValues"] = {
                    ":v%d" % n: v for n, (_, v) in enumerate(terms)}
            for query in queries:
                request["SearchVector"] = [{"N": str(x)} for x in query]
                answers.append({"request": dict(request),
                                "answer": answer_or_error(ddb.search_vectors, **request)})
    return answers


def table_contents(ddb, name, desc):
    """The items of a table, every index's entries and every vector index's
    search answers."""
    items = scan_all(ddb, TableName=name)
    contents = {"items": items}
    for index in desc.get("GlobalSecondaryIndexes", []) + desc.get("LocalSecondaryIndexes", []):
        contents["index " + index["IndexName"]] = scan_all(ddb, TableName=name,
                                                          IndexName=index["IndexName"])
    for index in desc.get("VectorIndexes", []):
        contents["vector " + index["IndexName"]] = vector_searches(ddb, name, index, items)
    return contents


def table_settings(ddb, name, desc):
    """What a table answers besides its items: TTL, tags, continuous backups,
    Contributor Insights (the table's and each GSI's), Kinesis destinations,
    the resource policies of the table and of its stream."""
    settings = {
        "describe": desc,
        "ttl": ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"],
        "tags": ddb.list_tags_of_resource(ResourceArn=desc["TableArn"]).get("Tags", []),
        "backups": ddb.describe_continuous_backups(
            TableName=name)["ContinuousBackupsDescription"],
        "insights": answer_or_error(ddb.describe_contributor_insights, TableName=name),
        "kinesis": answer_or_error(ddb.describe_kinesis_streaming_destination, TableName=name),
        "policy": answer_or_error(ddb.get_resource_policy, ResourceArn=desc["TableArn"]),
    }
    for index in desc.get("GlobalSecondaryIndexes", []):
        settings["insights " + index["IndexName"]] = answer_or_error(
            ddb.describe_contributor_insights, TableName=name, IndexName=index["IndexName"])
    if "LatestStreamArn" in desc:
        settings["stream policy"] = answer_or_error(ddb.get_resource_policy,
                                                    ResourceArn=desc["LatestStreamArn"])
    return settings


def region_snapshot(url, region):
    """Every table of one region's database with its settings and contents,
    its on-demand backups, Contributor Insights list and streams."""
    ddb = make_client(url, region=region)
    streams = make_streams_client(url, region=region)
    tables = {}
    for name in all_table_names(ddb):
        desc = ddb.describe_table(TableName=name)["Table"]
        tables[name] = dict(table_settings(ddb, name, desc), **table_contents(ddb, name, desc))
    backups = ddb.list_backups()["BackupSummaries"]
    described = []
    for stream in streams.list_streams()["Streams"]:
        description = streams.describe_stream(StreamArn=stream["StreamArn"])["StreamDescription"]
        described.append({"describe": description,
                          "records": read_stream(streams, stream["StreamArn"])})
    return {
        "tables": tables,
        "backups": backups,
        "backup details": [ddb.describe_backup(BackupArn=b["BackupArn"])["BackupDescription"]
                           for b in backups],
        "insights": ddb.list_contributor_insights()["ContributorInsightsSummaries"],
        "streams": described,
    }


def kinesis_feed(url, region, table, stream_arn):
    """Every record on the Kinesis stream a table's destination wrote, as a
    trigger reading it from the start delivers them (`data` decoded). The
    trigger is removed afterwards."""
    name = "read-" + stream_arn.rsplit("/", 1)[-1]
    receiver = EventReceiver()
    try:
        admin_ok(url, "triggers", {"Name": name, "Region": region, "TableName": table,
                                   "Url": receiver.url, "KinesisStreamArn": stream_arn,
                                   "StartingPosition": "TRIM_HORIZON"})

        def caught_up():
            status = admin_ok(url, "triggers/" + name)
            return status["State"] == "running" and status["Lag"] == 0 and \
                status["DeliveredRecords"] == len(receiver.records())
        wait_for(caught_up, what="the trigger to read the whole Kinesis feed")
        records = receiver.records()
    finally:
        admin(url, "triggers/" + name, method="DELETE")
        receiver.close()
    for record in records:
        record["kinesis"]["data"] = json.loads(base64.b64decode(record["kinesis"]["data"]))
    return records


def persisted_triggers(url):
    """The triggers kept in the database with their checkpoints (without the
    counters of this process's deliveries)."""
    kept = ("Definition", "State", "StreamLabel", "Position", "Lag")
    return [{k: t[k] for k in kept if k in t} for t in admin_ok(url, "triggers")["Triggers"]]


def regions_snapshot(url):
    """format_v2's snapshot: every region's database, the replication state
    of the global tables, the triggers and every enabled Kinesis
    destination's feed."""
    snap = {region: region_snapshot(url, region) for region in REGIONS}
    feeds = {}
    for region, regional in snap.items():
        for name, table in regional["tables"].items():
            for destination in table["kinesis"].get("KinesisDataStreamDestinations", []):
                # A trigger waits for its stream's destination to be enabled.
                if destination["DestinationStatus"] != "ACTIVE":
                    continue
                feeds["{} {} {}".format(region, name, destination["StreamArn"])] = \
                    kinesis_feed(url, region, name, destination["StreamArn"])
    snap["replication"] = admin_ok(url, "replication")
    snap["triggers"] = persisted_triggers(url)
    snap["kinesis feeds"] = feeds
    return utc_normalized(snap)


def write_fixture(folder, server_args, binary, fill, read):
    """How each fixture's make.py writes it: `fill(url)` through a server of
    `binary` on folder/db, stopped cleanly; then the same binary restarted on a
    copy, and what `read(url)` returns written to folder/expected.json."""
    db = folder / "db"
    shutil.rmtree(db, ignore_errors=True)
    server = ServerProcess(server_args + ["--data-dir", str(db)], binary=binary).start()
    try:
        fill(server.url)
    finally:
        assert server.stop() == 0
    # RocksDB's own diagnostic log: not part of the database, and large.
    for log in db.glob("LOG*"):
        log.unlink()
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "db"
        shutil.copytree(db, copy)
        server = ServerProcess(server_args + ["--data-dir", str(copy)], binary=binary).start()
        try:
            expected = read(server.url)
        finally:
            assert server.stop() == 0
    (folder / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
