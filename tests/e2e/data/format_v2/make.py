"""Writes the second persisted-format fixture with a given localdynamo binary.

Run from the repository root, with the binary of the release whose format
the fixture pins (the fixture in this folder was written by commit a6ac9cb),
through the suite's pinned boto3 (tests/requirements.txt, in build/venv):

    build/venv/bin/python -m tests.e2e.data.format_v2.make path/to/localdynamo

It fills a data directory (db/) through the API on a frozen clock, stops the
server cleanly, then restarts the same binary on a copy and records what it
answers (expected.json): the snapshot of both regions' databases, then what
the actions of `read_and_act` answer — restores to points in time and from
every backup, the TTL sweep, a write replicated to the other region.
"""

import json
import sys
from pathlib import Path

# Relative imports: the test imports `read_and_act` from here, under whichever
# package name pytest gives tests/e2e.
from ...e2e_util import make_client
from ...server_util import EventReceiver, admin_ok, wait_for
from ...format_snapshot import (READ_AT_MILLIS, SWEEP_AT_MILLIS, WRITTEN_AT_MILLIS,
                                freeze_clock, regions_snapshot, table_contents, utc_normalized,
                                write_fixture)

HERE = Path(__file__).resolve().parent
SERVER_ARGS = ["--no-models", "--ttl-interval", "0"]
KINESIS = "arn:aws:kinesis:us-east-1:000000000000:stream/"
# Seconds after WRITTEN_AT_MILLIS at which the ledger's point-in-time
# history is restored: after its first writes, after the update (before the
# delete), after everything.
RESTORE_AT_SECONDS = (150, 210, 330)
RECOVERY_PERIOD_DAYS = 10


def at(url, seconds):
    freeze_clock(url, WRITTEN_AT_MILLIS + seconds * 1000)


def n(value):
    return {"N": str(value)}


def s(value):
    return {"S": value}


def vector(*values):
    return {"L": [n(v) for v in values]}


def key_schema(*names):
    return [{"AttributeName": name, "KeyType": kind}
            for name, kind in zip(names, ("HASH", "RANGE"))]


def definitions(**types):
    return [{"AttributeName": a, "AttributeType": t} for a, t in types.items()]


def policy(arn, action):
    return json.dumps({"Version": "2012-10-17", "Statement": [{
        "Sid": "readers", "Effect": "Allow",
        "Principal": {"AWS": "arn:aws:iam::111122223333:role/reader"},
        "Action": action, "Resource": arn}]})


def fill_catalog(east):
    """Every attribute type, a GSI on a binary sort key and an LSI, tags,
    resource policies (two revisions, and one on the stream), deletion
    protection, the infrequent-access class, on-demand maximums, Contributor
    Insights on the table and on the GSI."""
    east.create_table(
        TableName="catalog", BillingMode="PAY_PER_REQUEST",
        KeySchema=key_schema("pk", "sk"),
        AttributeDefinitions=definitions(pk="S", sk="N", kind="S", code="B", price="N"),
        GlobalSecondaryIndexes=[{"IndexName": "by_kind", "KeySchema": key_schema("kind", "code"),
                                 "Projection": {"ProjectionType": "INCLUDE",
                                                "NonKeyAttributes": ["price"]}}],
        LocalSecondaryIndexes=[{"IndexName": "by_price", "KeySchema": key_schema("pk", "price"),
                                "Projection": {"ProjectionType": "ALL"}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
        Tags=[{"Key": "team", "Value": "catalog"}, {"Key": "tier", "Value": "gold"}],
        DeletionProtectionEnabled=True, TableClass="STANDARD_INFREQUENT_ACCESS",
        OnDemandThroughput={"MaxReadRequestUnits": 200, "MaxWriteRequestUnits": 100},
        ResourcePolicy=policy("arn:aws:dynamodb:us-east-1:000000000000:table/catalog",
                              "dynamodb:GetItem"))
    arn = east.describe_table(TableName="catalog")["Table"]["TableArn"]
    east.put_item(TableName="catalog", Item={
        "pk": s("p#1"), "sk": n(1), "kind": s("tool"), "code": {"B": b"\x00\x01\xfe"},
        "price": n("19.99"), "name": s("ünïcødé hammer ✓"), "blank": s(""),
        "big": n("-1.2345678901234567890123456789012345678E+125"),
        "tiny": n("1E-130"), "bytes": {"B": b"\xff" * 40},
        "ss": {"SS": ["b", "a", "ç"]}, "ns": {"NS": ["10", "-0.5", "3e3"]},
        "bs": {"BS": [b"\x02", b"\x01\x00"]}, "yes": {"BOOL": True}, "no": {"BOOL": False},
        "nothing": {"NULL": True},
        "nested": {"M": {"list": {"L": [s("x"), n(2), {"B": b"\x07"}, {"NULL": True},
                                        {"L": []}, {"M": {}}, {"SS": ["only"]}]},
                         "": {"S": "empty name"}, "deep": {"M": {"deeper": {"M": {
                             "deepest": {"BOOL": True}}}}}}}})
    for i in range(2, 7):
        item = {"pk": s("p#%d" % (i % 3)), "sk": n(i), "price": n(i * 3 + 0.25),
                "name": s("item %d" % i)}
        if i % 2:
            item.update(kind=s(("tool", "toy")[i % 4 == 1]), code={"B": bytes([i, 255 - i])})
        east.put_item(TableName="catalog", Item=item)
    east.update_item(TableName="catalog", Key={"pk": s("p#2"), "sk": n(2)},
                     UpdateExpression="SET kind = :k, code = :c REMOVE #n ADD stock :one",
                     ExpressionAttributeNames={"#n": "name"},
                     ExpressionAttributeValues={":k": s("toy"), ":c": {"B": b"\x00"},
                                                ":one": n(1)})
    east.delete_item(TableName="catalog", Key={"pk": s("p#0"), "sk": n(6)})
    east.tag_resource(ResourceArn=arn, Tags=[{"Key": "cost-centre", "Value": "42"}])
    east.untag_resource(ResourceArn=arn, TagKeys=["tier"])
    east.put_resource_policy(ResourceArn=arn, Policy=policy(arn, ["dynamodb:GetItem",
                                                                  "dynamodb:Query"]))
    stream = east.describe_table(TableName="catalog")["Table"]["LatestStreamArn"]
    east.put_resource_policy(ResourceArn=stream, Policy=policy(stream, "dynamodb:GetRecords"))
    east.update_contributor_insights(TableName="catalog", ContributorInsightsAction="ENABLE")
    east.update_contributor_insights(TableName="catalog", IndexName="by_kind",
                                     ContributorInsightsAction="ENABLE",
                                     ContributorInsightsMode="THROTTLED_KEYS")


def fill_sessions(east):
    """TTL on a table with a stream: expiries long past (never deleted:
    DynamoDB skips items more than five years overdue), due at the sweep,
    never due, not a number, absent."""
    east.create_table(TableName="sessions", BillingMode="PAY_PER_REQUEST",
                      KeySchema=key_schema("sid"), AttributeDefinitions=definitions(sid="S"),
                      StreamSpecification={"StreamEnabled": True,
                                           "StreamViewType": "NEW_AND_OLD_IMAGES"})
    east.update_time_to_live(TableName="sessions", TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires_at"})
    expiries = [n(978307200), n(1893456000), n(4102444800), s("1893456000"), None]
    for i, expiry in enumerate(expiries * 2):
        item = {"sid": s("s%02d" % i), "user": s("u%d" % (i % 3))}
        if expiry is not None:
            item["expires_at"] = expiry
        east.put_item(TableName="sessions", Item=item)


def fill_ledger(url, east):
    """Point-in-time recovery with a ten-day period and a history of writes
    a minute apart, an on-demand backup in the middle of it, one restored
    table from that backup, and a provisioned table with a provisioned GSI."""
    at(url, 0)
    east.create_table(
        TableName="ledger", BillingMode="PROVISIONED",
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 4},
        KeySchema=key_schema("entry"), AttributeDefinitions=definitions(entry="S", account="S"),
        GlobalSecondaryIndexes=[{"IndexName": "by_account", "KeySchema": key_schema("account"),
                                 "Projection": {"ProjectionType": "KEYS_ONLY"},
                                 "ProvisionedThroughput": {"ReadCapacityUnits": 2,
                                                           "WriteCapacityUnits": 1}}])
    at(url, 60)
    east.update_continuous_backups(TableName="ledger", PointInTimeRecoverySpecification={
        "PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": RECOVERY_PERIOD_DAYS})
    at(url, 120)
    for entry, account, amount in (("e1", "acme", 10), ("e2", "acme", -4), ("e3", "bolt", 7)):
        east.put_item(TableName="ledger", Item={"entry": s(entry), "account": s(account),
                                                "amount": n(amount)})
    at(url, 180)
    east.update_item(TableName="ledger", Key={"entry": s("e1")},
                     UpdateExpression="SET amount = amount + :d, account = :a",
                     ExpressionAttributeValues={":d": n(5), ":a": s("bolt")})
    at(url, 200)
    backup = east.create_backup(TableName="ledger", BackupName="ledger-before-close")
    at(url, 240)
    east.delete_item(TableName="ledger", Key={"entry": s("e2")})
    at(url, 300)
    east.put_item(TableName="ledger", Item={"entry": s("e4"), "account": s("acme"),
                                            "amount": n("0.001")})
    at(url, 400)
    east.restore_table_from_backup(TargetTableName="ledger-restored",
                                   BackupArn=backup["BackupDetails"]["BackupArn"])
    # A backup of a table deleted since, and one deleted itself.
    east.create_table(TableName="gone", BillingMode="PAY_PER_REQUEST",
                      KeySchema=key_schema("pk"), AttributeDefinitions=definitions(pk="S"))
    east.put_item(TableName="gone", Item={"pk": s("last words"), "said": {"SS": ["bye"]}})
    east.create_backup(TableName="gone", BackupName="gone-final")
    east.delete_table(TableName="gone")
    at(url, 410)
    discarded = east.create_backup(TableName="ledger", BackupName="discarded")
    east.delete_backup(BackupArn=discarded["BackupDetails"]["BackupArn"])


def fill_embeddings(url, east):
    """Vector indexes: cosine with a HASH search attribute and an inline
    filter, Euclidean keys-only without a search schema; items without a
    vector or a tenant, a vector changed and one deleted; a backup."""
    at(url, 500)
    east.create_table(
        TableName="embeddings", BillingMode="PAY_PER_REQUEST",
        KeySchema=key_schema("pk"), AttributeDefinitions=definitions(pk="S", tenant="S", kind="S"),
        VectorIndexes=[
            {"IndexName": "by_meaning", "VectorAttribute": {"AttributeName": "v"},
             "Dimensions": 4, "DistanceFunction": "COSINE",
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]},
             "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"},
                              {"AttributeName": "kind", "SearchSchemaElementType":
                               "INLINE_FILTER"}]},
            {"IndexName": "by_place", "VectorAttribute": {"AttributeName": "where"},
             "Dimensions": 2, "DistanceFunction": "EUCLIDEAN",
             "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    rows = [("d1", "a", "doc", (1, 0, 0, 0), (0, 0)), ("d2", "a", "img", (0.5, 0.5, 0, 0), (3, 4)),
            ("d3", "a", None, (0, 1, 0, 0), (-1, 2.5)), ("d4", "b", "doc", (1, 1, 1, 1), (1, 1)),
            ("d5", "b", "doc", (-1, 0, 0, 0.25), None), ("d6", None, "doc", (1, 0, 0, 0), (2, 2)),
            ("d7", "a", "doc", None, (0.125, -8)), ("d8", "b", "img", (0, 0, 0, 1), (5, 0))]
    for pk, tenant, kind, meaning, place in rows:
        item = {"pk": s(pk), "title": s("title of " + pk), "body": s("not projected")}
        if tenant:
            item["tenant"] = s(tenant)
        if kind:
            item["kind"] = s(kind)
        if meaning:
            item["v"] = vector(*meaning)
        if place:
            item["where"] = vector(*place)
        east.put_item(TableName="embeddings", Item=item)
    east.update_item(TableName="embeddings", Key={"pk": s("d2")}, UpdateExpression="SET v = :v",
                     ExpressionAttributeValues={":v": vector(0.25, 0.75, 0, 0)})
    east.delete_item(TableName="embeddings", Key={"pk": s("d8")})
    east.create_backup(TableName="embeddings", BackupName="embeddings-weekly")


def fill_events(url, east):
    """Kinesis streaming destinations without a DynamoDB stream: one enabled
    then disabled, the next at microsecond precision; writes before, during
    and between them; a trigger on the live one whose checkpoint is kept."""
    at(url, 600)
    east.create_table(TableName="events", BillingMode="PAY_PER_REQUEST",
                      KeySchema=key_schema("pk", "sk"),
                      AttributeDefinitions=definitions(pk="S", sk="S"))
    east.put_item(TableName="events", Item={"pk": s("e#0"), "sk": s("before any destination")})
    east.enable_kinesis_streaming_destination(TableName="events", StreamArn=KINESIS + "audit-1")
    at(url, 610)
    east.put_item(TableName="events", Item={"pk": s("e#1"), "sk": s("a"), "n": n(1)})
    east.update_item(TableName="events", Key={"pk": s("e#1"), "sk": s("a")},
                     UpdateExpression="SET n = n + :one", ExpressionAttributeValues={":one": n(1)})
    east.disable_kinesis_streaming_destination(TableName="events",
                                               StreamArn=KINESIS + "audit-1")
    at(url, 620)
    east.put_item(TableName="events", Item={"pk": s("e#2"), "sk": s("between destinations")})
    east.enable_kinesis_streaming_destination(
        TableName="events", StreamArn=KINESIS + "audit-2",
        EnableKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision":
                                             "MICROSECOND"})
    at(url, 630)
    east.delete_item(TableName="events", Key={"pk": s("e#1"), "sk": s("a")})
    east.put_item(TableName="events", Item={"pk": s("e#3"), "sk": s("b"),
                                            "payload": {"M": {"ok": {"BOOL": True}}}})
    receiver = EventReceiver()
    try:
        admin_ok(url, "triggers", {"Name": "audit-consumer", "TableName": "events",
                                   "Url": receiver.url, "KinesisStreamArn": KINESIS + "audit-2",
                                   "StartingPosition": "TRIM_HORIZON"})
        wait_for(lambda: len(receiver.records()) == 2, what="the trigger's two records")
        wait_for(lambda: admin_ok(url, "triggers/audit-consumer")["Lag"] == 0,
                 what="the trigger's checkpoint")
    finally:
        receiver.close()


def fill_accounts(url, east, west):
    """A global table (2019.11.21) with a GSI, its replica in eu-west-1 made
    by UpdateTable, writes in both regions replicated (settled)."""
    at(url, 700)
    east.create_table(TableName="accounts", BillingMode="PAY_PER_REQUEST",
                      KeySchema=key_schema("id"),
                      AttributeDefinitions=definitions(id="S", owner="S"),
                      GlobalSecondaryIndexes=[{"IndexName": "by_owner",
                                               "KeySchema": key_schema("owner"),
                                               "Projection": {"ProjectionType": "ALL"}}])
    east.put_item(TableName="accounts", Item={"id": s("a1"), "owner": s("ann"),
                                              "balance": n(100)})
    east.update_table(TableName="accounts", ReplicaUpdates=[{"Create": {"RegionName":
                                                                        "eu-west-1"}}])
    at(url, 710)
    east.put_item(TableName="accounts", Item={"id": s("a2"), "owner": s("bob"), "balance": n(5)})
    west.update_item(TableName="accounts", Key={"id": s("a1")},
                     UpdateExpression="SET balance = balance - :d",
                     ExpressionAttributeValues={":d": n(30)})
    west.put_item(TableName="accounts", Item={"id": s("w1"), "owner": s("ann"), "tags": {
        "SS": ["west"]}})
    admin_ok(url, "replication/settle", {})


def fill(url):
    east = make_client(url, region="us-east-1")
    west = make_client(url, region="eu-west-1")
    at(url, 0)
    fill_catalog(east)
    fill_sessions(east)
    fill_ledger(url, east)
    fill_embeddings(url, east)
    fill_events(url, east)
    fill_accounts(url, east, west)


def restored(ddb, name):
    """A table restored by the test: its description without the new table's
    id, and its contents."""
    desc = ddb.describe_table(TableName=name)["Table"]
    desc.pop("TableId")
    return dict(table_contents(ddb, name, desc), describe=desc)


def read_and_act(url):
    """The snapshot, then what the actions on the old data answer: restores
    (to points in time of the ledger's history, from every available backup),
    the TTL sweep and what is left after it, a write replicated to the other
    region. The tables restored here are deleted before the sweep."""
    freeze_clock(url, READ_AT_MILLIS)
    east = make_client(url, region="us-east-1")
    west = make_client(url, region="eu-west-1")
    expected = {"snapshot": regions_snapshot(url)}
    restores = {}
    for seconds in RESTORE_AT_SECONDS:
        target = "ledger-at-%d" % seconds
        east.restore_table_to_point_in_time(
            SourceTableName="ledger", TargetTableName=target,
            RestoreDateTime=(WRITTEN_AT_MILLIS + seconds * 1000) / 1000)
        restores[target] = restored(east, target)
    for backup in east.list_backups(BackupType="USER")["BackupSummaries"]:
        if backup["BackupStatus"] != "AVAILABLE":
            continue
        target = backup["BackupName"] + "-restored"
        east.restore_table_from_backup(TargetTableName=target, BackupArn=backup["BackupArn"])
        restores[target] = restored(east, target)
    for target in restores:
        east.delete_table(TableName=target)
    expected["restores"] = utc_normalized(restores)

    freeze_clock(url, SWEEP_AT_MILLIS)
    expected["sweep"] = admin_ok(url, "sweep", {})
    expected["after sweep"] = regions_snapshot(url)

    east.put_item(TableName="accounts", Item={"id": s("a3"), "owner": s("cy")})
    pending = admin_ok(url, "replication")
    settled = admin_ok(url, "replication/settle", {})
    expected["replicated"] = utc_normalized({
        "pending": pending, "settled": settled,
        "west": west.get_item(TableName="accounts", Key={"id": s("a3")},
                              ConsistentRead=True).get("Item")})
    return expected


def main(binary):
    write_fixture(HERE, SERVER_ARGS, binary, fill, read_and_act)


if __name__ == "__main__":
    main(sys.argv[1])
