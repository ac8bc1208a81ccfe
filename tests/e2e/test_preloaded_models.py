"""The preloaded models (design notes' models.md): the tables of the five
seed documents are there at start, exactly as specified, with their sample
items (--sample-items), and every access pattern runs against them through
boto3. Also: restarts keep the user's data, --no-models, --model for a
team's own folder, bad fixtures, per-key databases, and the reset endpoint.
"""

import json
import subprocess
import threading
import time
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Key

from .e2e_util import expect_error, make_resource
from .server_util import (
    own_server_fixtures,
    admin_ok,
    make_streams_client,
    read_stream,
    run_server,
    server_binary,
    sweep,
)

# models.md, as data: table -> (key schema, {index: (key schema, projection)}).
MODELS = {
    "lambda-layers": ([("pk", "HASH"), ("sk", "RANGE")], {
        "pckg-dplySts": ([("pckg", "HASH"), ("dplySts", "RANGE")], "ALL"),
        "rgn-dplySts": ([("rgn", "HASH"), ("dplySts", "RANGE")], "ALL")}),
    "DeploymentTable": ([("PK", "HASH"), ("SK", "RANGE")], {
        "CreateDateIndex": ([("PK", "HASH"), ("GSI1SK", "RANGE")],
                            ("INCLUDE", ["CreateDate", "DeploymentAlias", "DeploymentId", "Status"]))}),
    "AliasTable": ([("PK", "HASH"), ("SK", "RANGE")], {
        "DeploymentIdIndex": ([("GSI1PK", "HASH"), ("GSI1SK", "RANGE")],
                              ("INCLUDE", ["BasePath", "CreateDate", "DeploymentAlias",
                                           "DeploymentId", "HostnameRev"]))}),
    "ecommerce": ([("PK", "HASH"), ("SK", "RANGE")], {
        "GSI1": ([("SK", "HASH"), ("PK", "RANGE")], "ALL"),
        "GSI2": ([("PK", "HASH"), ("OrderStatusDate", "RANGE")], "ALL")}),
    "tenants": ([("pk", "HASH"), ("sk", "RANGE")], {}),
    "wrhs_build": ([("key", "HASH"), ("locale", "RANGE")], {}),
    "wrhs_build_file": ([("fingerprint", "HASH")], {}),
    "wrhs_build_head": ([("key", "HASH"), ("locale", "RANGE")], {}),
    "wrhs_dependent": ([("name", "HASH")], {}),
    "wrhs_dependent_of": ([("pkg", "HASH")], {}),
    "wrhs_release_line": ([("key", "HASH")], {}),
    "wrhs_release_line_dep": ([("key", "HASH"), ("dependent", "RANGE")], {}),
    "wrhs_release_line_head": ([("pkg", "HASH")], {}),
    "wrhs_version": ([("name", "HASH"), ("version", "RANGE")], {}),
    "wrhs_package": ([("name", "HASH")], {}),
    "wrhs_status": ([("key", "HASH")], {}),
    "wrhs_status_head": ([("key", "HASH")], {}),
    "wrhs_status_event": ([("key", "HASH"), ("event_id", "RANGE")], {}),
    "wrhs_status_counter": ([("key", "HASH")], {}),
}


server, ddb, tables = own_server_fixtures("--in-memory", "--sample-items",
                                          "--ttl-interval", "0")


@pytest.fixture(scope="module")
def db(server):
    return make_resource(server.url)


def keys(schema):
    return [(k["AttributeName"], k["KeyType"]) for k in schema]


# --- The contract: names, keys, indexes, TTL, stream ----------------------

def test_every_model_table_is_there_as_specified(ddb):
    assert sorted(ddb.list_tables()["TableNames"]) == sorted(MODELS)
    for name, (key_schema, indexes) in MODELS.items():
        table = ddb.describe_table(TableName=name)["Table"]
        assert keys(table["KeySchema"]) == key_schema, name
        got = {i["IndexName"]: i for i in table.get("GlobalSecondaryIndexes", [])}
        assert sorted(got) == sorted(indexes), name
        for index, (index_keys, projection) in indexes.items():
            assert keys(got[index]["KeySchema"]) == index_keys, index
            if projection == "ALL":
                assert got[index]["Projection"] == {"ProjectionType": "ALL"}
            else:
                assert got[index]["Projection"]["ProjectionType"] == projection[0]
                assert sorted(got[index]["Projection"]["NonKeyAttributes"]) == sorted(projection[1])
        assert all(d["AttributeType"] == "S" for d in table["AttributeDefinitions"]), name


def test_lambda_layers_has_its_ttl_and_stream(ddb):
    assert ddb.describe_time_to_live(TableName="lambda-layers")["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "ttl"}
    table = ddb.describe_table(TableName="lambda-layers")["Table"]
    assert table["StreamSpecification"] == {"StreamEnabled": True,
                                            "StreamViewType": "NEW_AND_OLD_IMAGES"}
    for name in MODELS:
        if name != "lambda-layers":
            assert "StreamSpecification" not in ddb.describe_table(TableName=name)["Table"]


# --- lambda-layers (seed 000) ------------------------------------------------

def test_layers_latest_arn_in_a_region(db):
    item = db.Table("lambda-layers").get_item(
        Key={"pk": "lyr#us-east-1.numpy", "sk": "lyrVrsn0#"})["Item"]
    assert item["arn"].endswith(":layer:numpy:2") and item["lyrVrsn"] == 2


def test_layers_latest_version_for_all_regions(db):
    items = db.Table("lambda-layers").query(
        IndexName="pckg-dplySts",
        KeyConditionExpression=Key("pckg").eq("numpy") & Key("dplySts").eq("latest"))["Items"]
    assert sorted((i["rgn"], i["lyrVrsn"]) for i in items) == [("eu-west-1", 2), ("us-east-1", 2)]


def test_layers_deployed_in_a_region_latest_and_deprecated_not_deleted(db):
    items = db.Table("lambda-layers").query(
        IndexName="rgn-dplySts", KeyConditionExpression=Key("rgn").eq("us-east-1"))["Items"]
    assert sorted((i["pckg"], i["lyrVrsn"], i["dplySts"]) for i in items) == [
        ("numpy", 1, "deprecated"), ("numpy", 2, "latest"), ("pandas", 2, "latest")]


def test_layers_latest_requirements_for_one_and_all_packages(db):
    table = db.Table("lambda-layers")
    one = table.get_item(Key={"pk": "bldVrsn0#", "sk": "pckg#numpy"})["Item"]
    assert one["req"].startswith("numpy==") and one["reqHsh"]
    every = table.query(KeyConditionExpression=Key("pk").eq("bldVrsn0#"))["Items"]
    assert [i["sk"] for i in every] == ["pckg#numpy", "pckg#pandas"]


def test_layers_deleting_a_layer_leaves_both_indexes(db):
    table = db.Table("lambda-layers")
    table.update_item(Key={"pk": "lyr#eu-west-1.numpy", "sk": "lyrVrsn#v2"},
                      UpdateExpression="REMOVE dplySts SET deleted_date = :d",
                      ExpressionAttributeValues={":d": "2024-06-01T00:00:00Z"})
    assert table.query(IndexName="rgn-dplySts",
                       KeyConditionExpression=Key("rgn").eq("eu-west-1"))["Items"] == []
    latest = table.query(IndexName="pckg-dplySts",
                         KeyConditionExpression=Key("pckg").eq("numpy"))["Items"]
    assert [i["rgn"] for i in latest] == ["us-east-1", "us-east-1"]


def test_layers_expired_deprecated_layer_is_removed_by_ttl_with_the_service_identity(server, ddb):
    arn = ddb.describe_table(TableName="lambda-layers")["Table"]["LatestStreamArn"]
    # The sample deprecated layer expires at 2100-01-01.
    admin_ok(server.url, "clock", {"SetMillis": 4102444800000 + 1000})
    try:
        deleted = sweep(server.url)["Deleted"]
    finally:
        admin_ok(server.url, "clock", {"Reset": True})
    assert [(d["TableName"], d["Key"]["sk"]["S"]) for d in deleted] == [
        ("lambda-layers", "lyrVrsn#v1")]
    removes = [r for r in read_stream(make_streams_client(server.url), arn)
               if r["eventName"] == "REMOVE"]
    assert len(removes) == 1
    assert removes[0]["userIdentity"] == {"Type": "Service",
                                          "PrincipalId": "dynamodb.amazonaws.com"}
    assert removes[0]["dynamodb"]["Keys"]["pk"]["S"].startswith("lyr#")


# --- deployments (seed 001) ----------------------------------------------------

def test_deployments_list_newest_first_with_the_projected_attributes(db):
    items = db.Table("DeploymentTable").query(
        IndexName="CreateDateIndex", KeyConditionExpression=Key("PK").eq("DEPLOYMENTS"),
        ScanIndexForward=False)["Items"]
    assert [i["DeploymentId"] for i in items] == ["d7e8", "d5c6", "d1a2"]
    assert set(items[0]) == {"PK", "SK", "GSI1SK", "CreateDate", "DeploymentAlias",
                             "DeploymentId", "Status"}


def test_deployments_alias_by_hostname_and_wildcard(db):
    table = db.Table("AliasTable")
    item = table.get_item(Key={"PK": "ROUTES", "SK": "com.example.www#/"})["Item"]
    assert item["DeploymentId"] == "d7e8"
    wildcard = table.query(KeyConditionExpression=Key("PK").eq("ROUTES") &
                           Key("SK").begins_with("com.example"))["Items"]
    assert [i["HostnameRev"] for i in wildcard] == [
        "com.example", "com.example.old", "com.example.shop", "com.example.www"]


def test_deployments_aliases_for_a_deployment_newest_first(db):
    items = db.Table("AliasTable").query(
        IndexName="DeploymentIdIndex", KeyConditionExpression=Key("GSI1PK").eq("D#d7e8"),
        ScanIndexForward=False)["Items"]
    assert [i["GSI1SK"].split("#")[1] for i in items] == ["R", "R", "R", "CN"]
    assert [i["HostnameRev"] for i in items[:2]] == ["com.example.www", "com.example"]


def test_deployments_status_updates_are_conditional(db):
    table = db.Table("DeploymentTable")
    key = {"PK": "DEPLOYMENTS", "SK": "D#d7e8"}
    table.update_item(Key=key, UpdateExpression="SET #s = :new",
                      ConditionExpression="#s = :expected",
                      ExpressionAttributeNames={"#s": "Status"},
                      ExpressionAttributeValues={":new": "FINISHED",
                                                 ":expected": "CREATE_IN_PROGRESS"})
    with expect_error("ConditionalCheckFailedException"):
        table.update_item(Key=key, UpdateExpression="SET #s = :new",
                          ConditionExpression="#s = :expected",
                          ExpressionAttributeNames={"#s": "Status"},
                          ExpressionAttributeValues={":new": "FINISHED",
                                                     ":expected": "CREATE_IN_PROGRESS"})


# --- ecommerce (seed 002) ----------------------------------------------------------

def test_ecommerce_user_profile(db):
    item = db.Table("ecommerce").get_item(Key={"PK": "USER#junior", "SK": "#PROFILE#junior"})["Item"]
    assert item["Username"] == "junior"
    assert item["Addresses"]["Home"]["State"] == "Rio de Janeiro"


def test_ecommerce_orders_for_a_user(db):
    items = db.Table("ecommerce").query(KeyConditionExpression=Key("PK").eq("USER#junior") &
                                        Key("SK").begins_with("ORDER#"))["Items"]
    assert [i["OrderId"] for i in items] == ["5eaf12", "ac630a", "f3990a"]


def test_ecommerce_an_orders_items_through_the_inverted_index(db):
    items = db.Table("ecommerce").query(
        IndexName="GSI1", KeyConditionExpression=Key("SK").eq("ORDER#5eaf12") &
        Key("PK").begins_with("ITEM#"))["Items"]
    assert [(i["ProductName"], i["Price"]) for i in items] == [
        ("Echo Dot", Decimal("59.99")), ("Macbook", Decimal("1999"))]


def test_ecommerce_a_users_orders_by_status(db):
    items = db.Table("ecommerce").query(
        IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#junior") &
        Key("OrderStatusDate").begins_with("SHIPPED#"))["Items"]
    assert [i["OrderId"] for i in items] == ["f3990a"]


# --- tenants (seed 003) --------------------------------------------------------------

def test_tenants_metadata_and_audits(db):
    table = db.Table("tenants")
    meta = table.get_item(Key={"pk": "TENANT_ID#032400-000000-0000-0002", "sk": "METADATA"})["Item"]
    assert meta["Version"] == "0.1.12" and meta["InboundQueueUrl"].startswith("https://")
    audits = table.query(KeyConditionExpression=Key("pk").eq("TENANT_ID#000000-000000-0000-0000") &
                         Key("sk").begins_with("AUDIT#UPDATE#"))["Items"]
    assert [(a["sk"], a["Status"]) for a in audits] == [("AUDIT#UPDATE#0.1.18", "Failure")]


# --- warehouse (seed 004) --------------------------------------------------------------

def test_warehouse_versions_locales_and_status_events(db):
    versions = db.Table("wrhs_version").query(
        KeyConditionExpression=Key("name").eq("@example/ui"))["Items"]
    assert [v["version"] for v in versions] == ["1.0.0", "1.1.0", "2.0.0"]
    builds = db.Table("wrhs_build").query(
        KeyConditionExpression=Key("key").eq("@example/ui!prod!2.0.0"))["Items"]
    assert [b["locale"] for b in builds] == ["de-DE", "en-US"]
    assert builds[0]["fingerprints"] == {"a1de-DE", "b2de-DE"}
    events = db.Table("wrhs_status_event").query(
        KeyConditionExpression=Key("key").eq("@example/ui!prod!2.0.0"))["Items"]
    assert [e["message"] for e in events] == ["Build queued", "Building en-US", "Build complete"]
    package = db.Table("wrhs_package").get_item(Key={"name": "@example/ui"})["Item"]
    assert package["dist_tags"] == {"latest": "2.0.0", "next": "2.1.0-beta.1"}
    assert package["keywords"] == {"react", "ui"}


def test_warehouse_progress_counter_is_exact_under_concurrency(server):
    table = make_resource(server.url).Table("wrhs_status_counter")
    key = {"key": "@example/ui!prod!2.0.0"}

    def bump():
        local = make_resource(server.url).Table("wrhs_status_counter")
        for _ in range(20):
            local.update_item(Key=key, UpdateExpression="ADD #c :one",
                              ExpressionAttributeNames={"#c": "count"},
                              ExpressionAttributeValues={":one": 1})

    threads = [threading.Thread(target=bump) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert table.get_item(Key=key)["Item"]["count"] == 1 + 8 * 20


def test_warehouse_full_listing_with_a_paged_scan(db):
    table = db.Table("wrhs_build")
    seen, start = [], None
    while True:
        kwargs = {"Limit": 1}
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = table.scan(**kwargs)
        seen += [i["locale"] for i in page["Items"]]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert sorted(seen) == ["de-DE", "en-US"]


# --- Loading rules -------------------------------------------------------------------------

def test_schemas_load_by_default_without_items():
    with run_server("--in-memory") as srv:
        ddb = srv.client()
        assert sorted(ddb.list_tables()["TableNames"]) == sorted(MODELS)
        assert ddb.scan(TableName="ecommerce")["Count"] == 0


def test_no_models():
    with run_server("--in-memory", "--no-models") as srv:
        assert srv.client().list_tables()["TableNames"] == []


def test_a_restart_keeps_the_users_data_and_duplicates_nothing(tmp_path):
    data = str(tmp_path / "data")
    with run_server("--data-dir", data, "--sample-items") as srv:
        table = make_resource(srv.url).Table("ecommerce")
        table.delete_item(Key={"PK": "USER#sarah", "SK": "#PROFILE#sarah"})
        table.put_item(Item={"PK": "USER#new", "SK": "#PROFILE#new"})
        count = srv.client().scan(TableName="ecommerce", Select="COUNT")["Count"]
    with run_server("--data-dir", data, "--sample-items") as srv:
        table = make_resource(srv.url).Table("ecommerce")
        assert srv.client().scan(TableName="ecommerce", Select="COUNT")["Count"] == count
        assert "Item" not in table.get_item(Key={"PK": "USER#sarah", "SK": "#PROFILE#sarah"})
        assert "Item" in table.get_item(Key={"PK": "USER#new", "SK": "#PROFILE#new"})


def write_model(root, tables, items=None, ttl=None):
    (root / "tables").mkdir(parents=True)
    for table in tables:
        (root / "tables" / (table["TableName"] + ".json")).write_text(json.dumps(table))
    for name, lines in (items or {}).items():
        (root / "items").mkdir(exist_ok=True)
        (root / "items" / (name + ".jsonl")).write_text("\n".join(lines) + "\n")
    for name, attribute in (ttl or {}).items():
        (root / "tables" / (name + ".ttl.json")).write_text(json.dumps({
            "TableName": name, "TimeToLiveSpecification": {"Enabled": True,
                                                           "AttributeName": attribute}}))


TEAM_TABLE = {"TableName": "team-orders", "BillingMode": "PAY_PER_REQUEST",
              "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
              "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}]}


def test_a_teams_own_model_folder(tmp_path):
    write_model(tmp_path / "team", [TEAM_TABLE],
                {"team-orders": ['{"id": {"S": "o1"}, "total": {"N": "12.5"}}', "",
                                 '// a comment', '{"id": {"S": "o2"}}']},
                {"team-orders": "expires"})
    with run_server("--in-memory", "--no-models", "--model", str(tmp_path / "team"),
                    "--sample-items") as srv:
        ddb = srv.client()
        assert ddb.list_tables()["TableNames"] == ["team-orders"]
        assert ddb.scan(TableName="team-orders")["Count"] == 2
        assert ddb.describe_time_to_live(TableName="team-orders")["TimeToLiveDescription"][
            "AttributeName"] == "expires"


@pytest.mark.parametrize("lines,expect", [
    (['{"id": {"S": "ok"}}', '{"id": {"N": "not a number"}}'],
     ["team-orders.jsonl:2", "ValidationException"]),
    (['{"id": {"S": "ok"}}', 'not json'], ["team-orders.jsonl:2", "not an item"]),
])
def test_a_bad_fixture_fails_naming_file_and_line(tmp_path, lines, expect):
    write_model(tmp_path / "team", [TEAM_TABLE], {"team-orders": lines})
    proc = subprocess.run([str(server_binary()), "--in-memory", "--port", "0", "--no-models",
                           "--sample-items", "--model", str(tmp_path / "team")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1
    for fragment in expect:
        assert fragment in proc.stderr, proc.stderr


def test_a_bad_table_definition_fails_like_a_bad_create_table(tmp_path):
    bad = dict(TEAM_TABLE, KeySchema=[{"AttributeName": "nope", "KeyType": "HASH"}])
    write_model(tmp_path / "team", [bad])
    proc = subprocess.run([str(server_binary()), "--in-memory", "--port", "0", "--no-models",
                           "--model", str(tmp_path / "team")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1
    assert "team-orders.json: ValidationException" in proc.stderr, proc.stderr


def test_each_per_key_database_gets_the_models():
    with run_server("--in-memory", "--per-key-databases", "--sample-items") as srv:
        alice, bob = srv.client(access_key="alice"), srv.client(access_key="bob")
        assert sorted(alice.list_tables()["TableNames"]) == sorted(MODELS)
        alice.delete_table(TableName="tenants")
        assert "tenants" in bob.list_tables()["TableNames"]
        assert bob.scan(TableName="ecommerce")["Count"] == 9


def test_reset_restores_the_freshly_loaded_state_quickly():
    with run_server("--in-memory", "--sample-items") as srv:
        ddb = srv.client()
        ddb.create_table(TableName="scratch", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}])
        ddb.delete_item(TableName="ecommerce",
                        Key={"PK": {"S": "USER#junior"}, "SK": {"S": "#PROFILE#junior"}})
        ddb.put_item(TableName="lambda-layers", Item={"pk": {"S": "x"}, "sk": {"S": "y"}})
        started = time.monotonic()
        answer = admin_ok(srv.url, "reset", {})
        took = time.monotonic() - started
        assert answer["Tables"] == len(MODELS) and answer["Items"] > 0
        assert took < 1.0 and answer["Millis"] < 500
        assert sorted(ddb.list_tables()["TableNames"]) == sorted(MODELS)
        assert ddb.scan(TableName="ecommerce")["Count"] == 9
        assert "Item" not in ddb.get_item(TableName="lambda-layers",
                                          Key={"pk": {"S": "x"}, "sk": {"S": "y"}})
        # The stream starts afresh: only the sample items' INSERTs.
        arn = ddb.describe_table(TableName="lambda-layers")["Table"]["LatestStreamArn"]
        records = read_stream(make_streams_client(srv.url), arn)
        assert {r["eventName"] for r in records} == {"INSERT"}
        assert len(records) == ddb.scan(TableName="lambda-layers", Select="COUNT")["Count"]
