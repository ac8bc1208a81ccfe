"""Writes the persisted-format fixture with a given localdynamo binary.

Run from the repository root, with the binary of the release whose format
the fixture pins (the fixture in this folder was written by commit 8b4400d):

    python3 -m tests.e2e.data.format_v1.make path/to/localdynamo

It fills a data directory (db/) through the API, stops the server cleanly,
then restarts the same binary on a copy and records what it answers
(expected.json): the snapshot of every table, index and stream, and the
TTL sweep and stream trimming at a later clock.
"""

import sys
from decimal import Decimal
from pathlib import Path

from tests.e2e.e2e_util import make_client
from tests.e2e.server_util import admin_ok
from tests.e2e.format_snapshot import (ACCESS_KEYS, READ_AT_MILLIS, WRITTEN_AT_MILLIS,
                                       move_clock, snapshot, sweep_snapshot, write_fixture)

HERE = Path(__file__).resolve().parent
SERVER_ARGS = ["--per-key-databases", "--no-models", "--ttl-interval", "0"]


def fill(url):
    move_clock(url, WRITTEN_AT_MILLIS)
    alice = make_client(url, access_key=ACCESS_KEYS[0])
    bob = make_client(url, access_key=ACCESS_KEYS[1])

    alice.create_table(
        TableName="orders", BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": t} for a, t in
                              (("pk", "S"), ("sk", "N"), ("total", "N"), ("status", "S"))],
        LocalSecondaryIndexes=[{"IndexName": "by_total",
                                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "total", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        GlobalSecondaryIndexes=[{"IndexName": "by_status",
                                 "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                                               {"AttributeName": "sk", "KeyType": "RANGE"}],
                                 "Projection": {"ProjectionType": "INCLUDE",
                                                "NonKeyAttributes": ["total"]}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        Tags=[{"Key": "team", "Value": "checkout"}])
    alice.update_time_to_live(TableName="orders", TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires"})
    # Expiries: 2001 (five years past: never deleted), 2030 (due at the
    # sweep), 2100 (never due).
    expiries = [978307200, 1893456000, 4102444800]
    for i in range(24):
        item = {"pk": {"S": "user#%d" % (i % 5)}, "sk": {"N": str(i)},
                "total": {"N": str(Decimal(i * 7) / 4)}, "region": {"S": ("eu", "us")[i % 2]},
                "note": {"S": "order %d" % i}}
        if i % 3 != 2:
            item["status"] = {"S": ("open", "shipped")[i % 2]}
        if i % 4 != 3:
            item["expires"] = {"N": str(expiries[i % 3])}
        alice.put_item(TableName="orders", Item=item)
    alice.update_item(TableName="orders", Key={"pk": {"S": "user#1"}, "sk": {"N": "1"}},
                      UpdateExpression="SET #s = :s ADD tags :t",
                      ExpressionAttributeNames={"#s": "status"},
                      ExpressionAttributeValues={":s": {"S": "cancelled"},
                                                 ":t": {"SS": ["late", "gift"]}})
    alice.delete_item(TableName="orders", Key={"pk": {"S": "user#2"}, "sk": {"N": "7"}})
    # A GSI added later, backfilled from the items.
    alice.update_table(
        TableName="orders",
        AttributeDefinitions=[{"AttributeName": "region", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "by_region",
            "KeySchema": [{"AttributeName": "region", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}}])

    alice.create_table(
        TableName="kinds", BillingMode="PROVISIONED",
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 3},
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "B"}])
    alice.update_continuous_backups(TableName="kinds", PointInTimeRecoverySpecification={
        "PointInTimeRecoveryEnabled": True})
    alice.put_item(TableName="kinds", Item={
        "id": {"B": b"\x00\xff\x01"}, "n": {"N": "-12345678901234567890.123456789012345678"},
        "ns": {"NS": ["1", "2.5", "-3e10"]}, "bs": {"BS": [b"a", b"\x00"]},
        "l": {"L": [{"S": "x"}, {"NULL": True}, {"BOOL": False}, {"M": {"deep": {"L": []}}}]},
        "m": {"M": {"": {"S": "empty name"}, "u": {"S": "ünïcødé"}}}})
    alice.transact_write_items(TransactItems=[
        {"Put": {"TableName": "kinds", "Item": {"id": {"B": b"tx"}, "v": {"N": "1"}}}},
        {"Update": {"TableName": "orders", "Key": {"pk": {"S": "user#0"}, "sk": {"N": "0"}},
                    "UpdateExpression": "SET #t = #t + :one",
                    "ExpressionAttributeNames": {"#t": "total"},
                    "ExpressionAttributeValues": {":one": {"N": "1"}}}}])

    # Past the four-hour shard rollover: the sweep's stream maintenance
    # closes the first shard, and the next writes go to its child.
    move_clock(url, WRITTEN_AT_MILLIS + 5 * 3600 * 1000)
    admin_ok(url, "sweep", {})
    alice.put_item(TableName="orders", Item={"pk": {"S": "user#9"}, "sk": {"N": "99"},
                                             "status": {"S": "open"}, "region": {"S": "eu"},
                                             "total": {"N": "0"}})

    # A table of the same name in the other database, whose stream outlives
    # the table (DISABLED).
    bob.create_table(
        TableName="orders", BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    for i in range(3):
        bob.put_item(TableName="orders", Item={"pk": {"S": "b%d" % i}})
    bob.create_table(
        TableName="gone", BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    bob.put_item(TableName="gone", Item={"pk": {"S": "last words"}})
    bob.delete_table(TableName="gone")


def read(url):
    move_clock(url, READ_AT_MILLIS)
    return {"snapshot": snapshot(url), "sweep": sweep_snapshot(url)}


def main(binary):
    write_fixture(HERE, SERVER_ARGS, binary, fill, read)


if __name__ == "__main__":
    main(sys.argv[1])
