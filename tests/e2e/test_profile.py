"""The access profile (docs/profile.md): known workloads through boto3, and
the profile's exact figures. Every request here asks for ConsumedCapacity
INDEXES, and the profile's units must equal what those answers add up to,
per table and per index. Shapes group requests that differ only in values
and placeholder names; a Scan's filter waste and table fraction are counted;
an index no read named shows as never read; the cost is the units at the
on-demand prices."""

import json
import subprocess

import pytest

from .e2e_util import avs, expect_error
from .server_util import ServerProcess, admin, admin_ok, own_server_fixtures, server_binary

server, ddb, tables = own_server_fixtures("--in-memory")

INDEXES = {"ReturnConsumedCapacity": "INDEXES"}


class Ledger:
    """Adds up the ConsumedCapacity answers: read and write units per table
    and index, as the profile should report them."""

    def __init__(self):
        self.units = {}  # (table, index or "", "read"|"write") -> units

    def add(self, consumed, kind):
        for entry in consumed if isinstance(consumed, list) else [consumed]:
            table = entry["TableName"]
            own = entry.get("Table", {}).get("CapacityUnits", 0)
            self._add(table, "", kind, own)
            for group in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
                for index, units in entry.get(group, {}).items():
                    self._add(table, index, kind, units["CapacityUnits"])
            parts = own + sum(u["CapacityUnits"] for g in ("GlobalSecondaryIndexes",
                                                             "LocalSecondaryIndexes")
                              for u in entry.get(g, {}).values())
            assert parts == entry["CapacityUnits"], entry

    def _add(self, table, index, kind, units):
        key = (table, index, kind)
        self.units[key] = self.units.get(key, 0) + units

    def get(self, table, index, kind):
        return self.units.get((table, index, kind), 0)


def profile_of(server, table, **params):
    query = "&".join("{}={}".format(k, v) for k, v in params.items())
    answer = admin_ok(server.url, "profile" + ("?" + query if query else ""))
    for database in answer["Databases"]:
        for entry in database["Tables"]:
            if entry["TableName"] == table:
                return answer, entry
    raise AssertionError("{} is not in the profile: {}".format(table, answer))


def index_of(entry, name):
    return next(i for i in entry["Indexes"] if i["IndexName"] == name)


@pytest.fixture(scope="module")
def orders(tables):
    """pk (S) + sk (N); GSI by_status (status, ALL), GSI by_region (region,
    KEYS_ONLY) that no read names; LSI by_total (total N)."""
    return tables(
        prefix="profile",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "status", "AttributeType": "S"},
                              {"AttributeName": "region", "AttributeType": "S"},
                              {"AttributeName": "total", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[
            {"IndexName": "by_status", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "by_region", "KeySchema": [{"AttributeName": "region", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        LocalSecondaryIndexes=[
            {"IndexName": "by_total", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                    {"AttributeName": "total", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}}])


@pytest.fixture(scope="module")
def workload(server, ddb, orders):
    """Drives every kind of data operation once or more; answers the ledger
    and what the reads counted."""
    admin_ok(server.url, "profile", method="DELETE")
    ledger = Ledger()
    counted = {"read": 0, "returned": 0}

    def order(pk, sk, status=None, region=None, total=None, pad=0):
        item = {"pk": pk, "sk": sk, "note": "x" * pad}
        if status:
            item["status"] = status
        if region:
            item["region"] = region
        if total is not None:
            item["total"] = total
        return avs(item)

    for n in range(10):  # 10 items of growing size; every third without a status (sparse)
        item = order("c#1" if n < 6 else "c#2", n, None if n % 3 == 0 else "open",
                     "eu" if n % 2 else None, n * 10, pad=300 * n)
        ledger.add(ddb.put_item(TableName=orders, Item=item, **INDEXES)["ConsumedCapacity"],
                   "write")
    ledger.add(ddb.update_item(TableName=orders, Key=avs({"pk": "c#1", "sk": 1}),
                               UpdateExpression="SET #s = :s", ExpressionAttributeNames={"#s": "status"},
                               ExpressionAttributeValues=avs({":s": "shipped"}),
                               **INDEXES)["ConsumedCapacity"], "write")
    ledger.add(ddb.delete_item(TableName=orders, Key=avs({"pk": "c#2", "sk": 9}),
                               **INDEXES)["ConsumedCapacity"], "write")
    for consistent in (True, False, False):
        answer = ddb.get_item(TableName=orders, Key=avs({"pk": "c#1", "sk": 2}),
                              ConsistentRead=consistent, **INDEXES)
        ledger.add(answer["ConsumedCapacity"], "read")
        counted["read"] += 1
        counted["returned"] += 1
    # One shape twice, with different placeholder names and values.
    for names, values in (({"#p": "pk"}, {":v": "c#1"}), ({"#key": "pk"}, {":w": "c#2"})):
        placeholder = next(iter(names))
        value = next(iter(values))
        answer = ddb.query(TableName=orders, KeyConditionExpression="{} = {}".format(placeholder, value),
                           ExpressionAttributeNames=names, ExpressionAttributeValues=avs(values),
                           **INDEXES)
        ledger.add(answer["ConsumedCapacity"], "read")
        counted["read"] += answer["ScannedCount"]
        counted["returned"] += answer["Count"]
    answer = ddb.query(TableName=orders, IndexName="by_status",
                       KeyConditionExpression="#s = :s", ExpressionAttributeNames={"#s": "status"},
                       ExpressionAttributeValues=avs({":s": "open"}), **INDEXES)
    ledger.add(answer["ConsumedCapacity"], "read")
    by_status = (answer["ScannedCount"], answer["Count"])
    # The LSI read with an unprojected attribute: the table's items fetched too.
    answer = ddb.query(TableName=orders, IndexName="by_total",
                       KeyConditions={"pk": {"ComparisonOperator": "EQ",
                                             "AttributeValueList": [{"S": "c#1"}]}},
                       AttributesToGet=["pk", "note"], **INDEXES)
    ledger.add(answer["ConsumedCapacity"], "read")
    by_total = (answer["ScannedCount"], answer["Count"])
    # A Scan that reads the whole table (9 items) in one page and keeps two.
    answer = ddb.scan(TableName=orders, FilterExpression="#t >= :t",
                      ExpressionAttributeNames={"#t": "total"},
                      ExpressionAttributeValues=avs({":t": 70}), **INDEXES)
    ledger.add(answer["ConsumedCapacity"], "read")
    scan = (answer["ScannedCount"], answer["Count"])
    counted["read"] += scan[0]
    counted["returned"] += scan[1]
    answer = ddb.batch_write_item(RequestItems={orders: [
        {"PutRequest": {"Item": order("c#3", 1, "open", "us", 5)}},
        {"DeleteRequest": {"Key": avs({"pk": "c#2", "sk": 8})}}]}, **INDEXES)
    ledger.add(answer["ConsumedCapacity"], "write")
    answer = ddb.batch_get_item(RequestItems={orders: {"Keys": [
        avs({"pk": "c#1", "sk": 2}), avs({"pk": "c#1", "sk": 3}), avs({"pk": "c#9", "sk": 1})]}},
        **INDEXES)
    ledger.add(answer["ConsumedCapacity"], "read")
    counted["read"] += 2
    counted["returned"] += 2
    answer = ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": orders, "Item": order("c#3", 2, "open", None, 6, pad=2000)}},
        {"ConditionCheck": {"TableName": orders, "Key": avs({"pk": "c#1", "sk": 2}),
                            "ConditionExpression": "attribute_exists(pk)"}}], **INDEXES)
    ledger.add(answer["ConsumedCapacity"], "write")
    answer = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": orders, "Key": avs({"pk": "c#3", "sk": 2})}}], **INDEXES)
    ledger.add(answer["ConsumedCapacity"], "read")
    counted["read"] += 1
    counted["returned"] += 1
    # Refused: counted nowhere (DynamoDB returns no ConsumedCapacity with an error).
    with expect_error("ConditionalCheckFailedException"):
        ddb.put_item(TableName=orders, Item=order("c#1", 2), ConditionExpression="attribute_not_exists(pk)")
    return {"ledger": ledger, "counted": counted, "scan": scan, "by_status": by_status,
            "by_total": by_total}


def test_units_match_what_consumed_capacity_said(server, orders, workload):
    ledger = workload["ledger"]
    _, entry = profile_of(server, orders)
    assert entry["ReadUnits"] == ledger.get(orders, "", "read")
    assert entry["WriteUnits"] == ledger.get(orders, "", "write")
    for name in ("by_status", "by_region", "by_total"):
        index = index_of(entry, name)
        assert (name, index["ReadUnits"], index["WriteUnits"]) == (
            name, ledger.get(orders, name, "read"), ledger.get(orders, name, "write"))
    assert entry["CapacityUnits"] == sum(ledger.units.values())
    # Writes to the sparse GSIs were charged only for the items in them.
    assert 0 < index_of(entry, "by_region")["WriteUnits"] < entry["WriteUnits"]


def test_requests_by_operation_and_index(server, orders, workload):
    _, entry = profile_of(server, orders)
    assert entry["Requests"] == {"PutItem": 10, "UpdateItem": 1, "DeleteItem": 1, "GetItem": 3,
                                 "Query": 2, "Scan": 1, "BatchWriteItem": 1, "BatchGetItem": 1,
                                 "TransactWriteItems": 1, "TransactGetItems": 1}
    assert index_of(entry, "by_status")["Requests"] == {"Query": 1}
    assert index_of(entry, "by_total")["Requests"] == {"Query": 1}
    assert index_of(entry, "by_region")["Requests"] == {}


def test_items_read_against_returned_and_the_scan(server, orders, workload):
    _, entry = profile_of(server, orders)
    counted = workload["counted"]
    assert (entry["ItemsRead"], entry["ItemsReturned"]) == (counted["read"], counted["returned"])
    scanned, kept = workload["scan"]
    assert (scanned, kept) == (9, 2)
    assert entry["Scans"] == {"Count": 1, "ItemsRead": 9, "MeanTableFraction": 1,
                              "MaxTableFraction": 1}
    assert entry["FilterWaste"] == pytest.approx(1 - counted["returned"] / counted["read"])
    status = index_of(entry, "by_status")
    assert (status["ItemsRead"], status["ItemsReturned"]) == workload["by_status"]
    assert status["FilterWaste"] == 0


def test_indexes_never_read(server, orders, workload):
    _, entry = profile_of(server, orders)
    assert {i["IndexName"]: i["NeverRead"] for i in entry["Indexes"]} == {
        "by_status": False, "by_region": True, "by_total": False}
    assert {i["IndexName"]: (i["Kind"], i["Projection"]) for i in entry["Indexes"]} == {
        "by_status": ("GLOBAL", "ALL"), "by_region": ("GLOBAL", "KEYS_ONLY"),
        "by_total": ("LOCAL", "KEYS_ONLY")}


def test_shapes_group_values_and_placeholder_names(server, orders, workload):
    _, entry = profile_of(server, orders, shapes=50)
    shapes = {(s["Operation"], s["IndexName"], s["KeyCondition"], s["Filter"], s["Projection"]):
              s for s in entry["Shapes"]}
    query = shapes[("Query", "", "pk = ?", "", "")]
    assert query["Count"] == 2
    assert shapes[("Query", "by_total", "pk EQ ?", "", "pk, note")]["Count"] == 1
    assert shapes[("Query", "by_status", "status = ?", "", "")]["Count"] == 1
    scan = shapes[("Scan", "", "", "total >= ?", "")]
    assert (scan["Count"], scan["ItemsRead"], scan["ItemsReturned"]) == (1, 9, 2)
    assert shapes[("PutItem", "", "", "", "")]["Count"] == 10
    assert shapes[("UpdateItem", "", "", "", "")]["WriteUnits"] > 0
    # The most expensive first.
    units = [s["ReadUnits"] + s["WriteUnits"] for s in entry["Shapes"]]
    assert units == sorted(units, reverse=True)
    # Every unit of the table is in exactly one shape.
    assert sum(units) == entry["CapacityUnits"]


def test_hot_partition_keys(server, orders, workload):
    _, entry = profile_of(server, orders)
    hot = entry["HotPartitionKeys"]
    counts = [k["Count"] for k in hot]
    assert counts == sorted(counts, reverse=True)
    table_keys = {k["Key"]["pk"]["S"]: k["Count"] for k in hot if k["IndexName"] == ""}
    # c#1: six puts, an update, three gets, a query, the LSI query, two
    # batch gets, the condition check and the refused put (not counted).
    assert table_keys["c#1"] == 6 + 1 + 3 + 1 + 1 + 2 + 1
    assert hot[0]["Key"] == {"pk": {"S": "c#1"}}
    status_keys = {k["Key"]["status"]["S"]: k["Count"] for k in hot if k["IndexName"] == "by_status"}
    assert status_keys["open"] >= 1


def test_cost_at_the_chosen_regions_prices(server, orders, workload):
    answer, entry = profile_of(server, orders, region="us-east-1")
    prices = answer["Prices"]
    assert prices["Region"] == "us-east-1" and prices["Read"]
    read = entry["ReadUnits"] + sum(i["ReadUnits"] for i in entry["Indexes"])
    write = entry["WriteUnits"] + sum(i["WriteUnits"] for i in entry["Indexes"])
    expected = (read * prices["ReadRequestUnitsPerMillion"] +
                write * prices["WriteRequestUnitsPerMillion"]) / 1e6
    assert entry["Cost"] == pytest.approx(expected, rel=1e-12)
    status, error = admin(server.url, "profile?region=mars-north-1")
    assert status == 400 and "mars-north-1" in error["message"], error


def test_timeline_holds_every_unit(server, orders, workload):
    _, entry = profile_of(server, orders)
    timeline = entry["Timeline"]
    assert timeline and [s["Second"] for s in timeline] == sorted(s["Second"] for s in timeline)
    assert sum(s["ReadUnits"] + s["WriteUnits"] for s in timeline) == entry["CapacityUnits"]


def test_profile_command_summarises_a_running_server(server, orders, workload):
    binary = str(server_binary())
    text = subprocess.run([binary, "profile", "--endpoint", server.url], capture_output=True,
                          text=True, timeout=30, check=True).stdout
    assert orders in text and "SCANS: 1, 9 items read" in text, text
    assert "index by_region (GLOBAL, KEYS_ONLY): NEVER READ" in text, text
    as_json = subprocess.run([binary, "profile", "--endpoint", server.url, "--json"],
                             capture_output=True, text=True, timeout=30, check=True).stdout
    assert any(t["TableName"] == orders for d in json.loads(as_json)["Databases"]
               for t in d["Tables"])


def test_reset_starts_afresh(server, ddb, tables, workload):
    name = tables(prefix="profile-reset")
    ddb.put_item(TableName=name, Item=avs({"pk": "a"}))
    admin_ok(server.url, "profile", method="DELETE")
    answer = admin_ok(server.url, "profile")
    assert answer["Requests"] == 0 and answer["Databases"] == []


def test_a_stopped_server_leaves_its_profile_in_the_data_directory(tmp_path):
    process = ServerProcess(["--data-dir", str(tmp_path)]).start()
    try:
        client = process.client()
        client.create_table(TableName="kept", BillingMode="PAY_PER_REQUEST",
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        client.put_item(TableName="kept", Item=avs({"pk": "a", "v": "x" * 1500}))
    finally:
        assert process.stop() == 0, process.log_tail()
        process.remove_log()
    saved = subprocess.run([str(server_binary()), "profile", "--data-dir", str(tmp_path), "--json"],
                           capture_output=True, text=True, timeout=30, check=True).stdout
    tables = {t["TableName"]: t for d in json.loads(saved)["Databases"] for t in d["Tables"]}
    assert tables["kept"]["Requests"] == {"PutItem": 1}
    assert tables["kept"]["WriteUnits"] == 2  # 1,509 bytes: two 1 KB units


def test_no_profile_turns_it_off():
    process = ServerProcess(["--in-memory", "--no-profile"]).start()
    try:
        status, error = admin(process.url, "profile")
        assert status == 404 and "--no-profile" in error["message"], error
    finally:
        assert process.stop() == 0, process.log_tail()
        process.remove_log()


def test_a_batch_naming_a_table_by_its_arn_counts_once(server, ddb, tables):
    name = tables(prefix="profile-arn")
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    ddb.put_item(TableName=name, Item=avs({"pk": "a"}))
    answer = ddb.batch_get_item(RequestItems={arn: {"Keys": [avs({"pk": "a"})]}}, **INDEXES)
    consumed = sum(c["CapacityUnits"] for c in answer["ConsumedCapacity"])
    _, entry = profile_of(server, name)
    assert entry["Requests"]["BatchGetItem"] == 1
    assert (entry["ItemsRead"], entry["ReadUnits"]) == (1, consumed)
    assert all(not t["TableName"].startswith("arn:") for d in admin_ok(server.url, "profile")
               ["Databases"] for t in d["Tables"])
