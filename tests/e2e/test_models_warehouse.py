"""The warehouse model (seed 004) as models.md specifies it: fourteen wrhs_
tables, and their access patterns (versions of a package, locales of a
build, status events in time order, an exact progress counter under
concurrent callers, package maps and head tables, a full paged listing)."""

import threading

import pytest
from boto3.dynamodb.conditions import Key

from .e2e_util import make_client
from .models_util import all_pages, defs, keys, model_table
from .models_util import run_id  # fixtures


WAREHOUSE_TABLES = {
    "wrhs_build": ("key", "locale"),
    "wrhs_build_file": ("fingerprint", None),
    "wrhs_build_head": ("key", "locale"),
    "wrhs_dependent": ("name", None),
    "wrhs_dependent_of": ("pkg", None),
    "wrhs_release_line": ("key", None),
    "wrhs_release_line_dep": ("key", "dependent"),
    "wrhs_release_line_head": ("pkg", None),
    "wrhs_version": ("name", "version"),
    "wrhs_package": ("name", None),
    "wrhs_status": ("key", None),
    "wrhs_status_head": ("key", None),
    "wrhs_status_event": ("key", "event_id"),
    "wrhs_status_counter": ("key", None),
}


@pytest.fixture(scope="module")
def warehouse(tables, run_id, dynamodb_resource):
    out = {}
    for model_name, (h, r) in WAREHOUSE_TABLES.items():
        attrs = [(h, "S")] + ([(r, "S")] if r else [])
        name = model_table(tables, run_id, model_name, KeySchema=keys(h, r),
                           AttributeDefinitions=defs(*attrs))
        out[model_name] = dynamodb_resource.Table(name)
    return out


def test_warehouse_tables_as_specified(dynamodb, warehouse):
    # Every wrhs_ table exists with the key models.md gives it (package_cache is not migrated).
    assert len(warehouse) == 14 and "wrhs_package_cache" not in warehouse
    for model_name, (h, r) in WAREHOUSE_TABLES.items():
        desc = dynamodb.describe_table(TableName=warehouse[model_name].name)["Table"]
        assert desc["KeySchema"] == keys(h, r), model_name
        assert {d["AttributeType"] for d in desc["AttributeDefinitions"]} == {"S"}


def test_warehouse_all_versions_of_a_package(warehouse):
    # All versions of a package: Query wrhs_version on name (versions are strings, so in byte order).
    versions = warehouse["wrhs_version"]
    for name, version in (("@wrhs/ui", "1.2.0"), ("@wrhs/ui", "1.10.0"), ("@wrhs/ui", "1.0.0"),
                          ("@wrhs/ui", "2.0.0-beta.1"), ("@wrhs/api", "0.1.0")):
        versions.put_item(Item={"name": name, "version": version,
                                "value": '{"name": "%s", "version": "%s"}' % (name, version)})
    resp = versions.query(KeyConditionExpression=Key("name").eq("@wrhs/ui"))
    assert [i["version"] for i in resp["Items"]] == ["1.0.0", "1.10.0", "1.2.0", "2.0.0-beta.1"]
    ones = versions.query(KeyConditionExpression=Key("name").eq("@wrhs/ui")
                          & Key("version").begins_with("1."))
    assert len(ones["Items"]) == 3


def test_warehouse_all_locales_of_a_build(warehouse):
    # All locales of a build: Query wrhs_build on key = name!env!version; the string sets come back as sets.
    builds = warehouse["wrhs_build"]
    key = "@wrhs/ui!prod!1.2.0"
    for locale in ("en-US", "de-DE", "zh-CN", "en-GB"):
        builds.put_item(Item={
            "key": key, "locale": locale, "build_id": key + "!" + locale, "name": "@wrhs/ui",
            "env": "prod", "version": "1.2.0", "create_date": "2020-05-01T00:00:00Z",
            "cdn_url": "https://cdn.example.com/ui/" + locale,
            "fingerprints": {"abc123", "def456"}, "artifacts": {"main.js", "main.css"},
            "recommended": {"main.js"}})
    builds.put_item(Item={"key": "@wrhs/ui!dev!1.2.0", "locale": "en-US", "name": "@wrhs/ui"})
    resp = builds.query(KeyConditionExpression=Key("key").eq(key))
    assert [i["locale"] for i in resp["Items"]] == ["de-DE", "en-GB", "en-US", "zh-CN"]
    assert resp["Items"][0]["fingerprints"] == {"abc123", "def456"}
    # Adding and removing set members.
    builds.update_item(Key={"key": key, "locale": "de-DE"},
                       UpdateExpression="ADD artifacts :a DELETE recommended :r",
                       ExpressionAttributeValues={":a": {"vendor.js"}, ":r": {"main.js"}})
    item = builds.get_item(Key={"key": key, "locale": "de-DE"}, ConsistentRead=True)["Item"]
    assert item["artifacts"] == {"main.js", "main.css", "vendor.js"}
    assert "recommended" not in item


def test_warehouse_status_events_in_time_order(warehouse):
    # Status events in time order: Query wrhs_status_event on key; event_id is a time-ordered unique id.
    events = warehouse["wrhs_status_event"]
    key = "@wrhs/ui!prod!1.2.0"
    stamps = ["2020-05-01T00:00:03.000Z", "2020-05-01T00:00:01.000Z", "2020-05-01T00:00:02.500Z",
              "2020-05-01T00:00:02.000Z"]
    for n, stamp in enumerate(stamps):
        events.put_item(Item={"key": key, "event_id": "{}-{:04d}".format(stamp, n),
                              "message": "step %d" % n, "locale": "en-US", "error": False,
                              "create_date": stamp})
    resp = events.query(KeyConditionExpression=Key("key").eq(key))
    assert [i["create_date"] for i in resp["Items"]] == sorted(stamps)
    latest = events.query(KeyConditionExpression=Key("key").eq(key), ScanIndexForward=False, Limit=1)
    assert latest["Items"][0]["create_date"] == max(stamps)
    since = events.query(KeyConditionExpression=Key("key").eq(key)
                         & Key("event_id").gt("2020-05-01T00:00:02"))
    assert len(since["Items"]) == 3


def test_warehouse_progress_counter_exact_under_concurrency(server_url, warehouse):
    # The progress counter: UpdateItem ADD count :one on wrhs_status_counter is exact under concurrent callers.
    name = warehouse["wrhs_status_counter"].name
    key = {"key": {"S": "@wrhs/ui!prod!1.2.0"}}
    errors = []

    def bump(n):
        client = make_client(server_url)
        try:
            for _ in range(n):
                client.update_item(TableName=name, Key=key, UpdateExpression="ADD #c :one",
                                   ExpressionAttributeNames={"#c": "count"},
                                   ExpressionAttributeValues={":one": {"N": "1"}})
        except Exception as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=bump, args=(25,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    item = warehouse["wrhs_status_counter"].get_item(Key={"key": "@wrhs/ui!prod!1.2.0"},
                                                     ConsistentRead=True)["Item"]
    assert item["count"] == 100


def test_warehouse_package_maps_and_heads(warehouse):
    # wrhs_package keeps maps (dist_tags, dependencies) and string sets; nested map updates; the head tables are one item per key.
    packages = warehouse["wrhs_package"]
    packages.put_item(Item={
        "name": "@wrhs/ui", "version": "1.2.0", "description": "UI", "main": "index.js",
        "keywords": {"ui", "react"}, "dist_tags": {"latest": "1.2.0", "next": "2.0.0-beta.1"},
        "dependencies": {"react": "^18.0.0"}, "dev_dependencies": {}, "extended": {"a": [1, 2]}})
    packages.update_item(Key={"name": "@wrhs/ui"},
                         UpdateExpression="SET dist_tags.latest = :v, dependencies.#d = :r",
                         ExpressionAttributeNames={"#d": "react-dom"},
                         ExpressionAttributeValues={":v": "1.2.1", ":r": "^18.0.0"})
    item = packages.get_item(Key={"name": "@wrhs/ui"}, ConsistentRead=True)["Item"]
    assert item["dist_tags"] == {"latest": "1.2.1", "next": "2.0.0-beta.1"}
    assert item["dependencies"] == {"react": "^18.0.0", "react-dom": "^18.0.0"}
    assert item["keywords"] == {"ui", "react"}

    head = warehouse["wrhs_release_line_head"]
    head.put_item(Item={"pkg": "@wrhs/ui", "version": "1.2.0", "previous_version": "1.1.0"})
    head.put_item(Item={"pkg": "@wrhs/ui", "version": "1.2.1", "previous_version": "1.2.0"})
    assert head.get_item(Key={"pkg": "@wrhs/ui"})["Item"]["version"] == "1.2.1"

    deps = warehouse["wrhs_release_line_dep"]
    for dependent in ("@wrhs/shell", "@wrhs/admin"):
        deps.put_item(Item={"key": "@wrhs/ui!1.2.1", "pkg": "@wrhs/ui", "version": "1.2.1",
                            "dependent": dependent, "dependent_version": "3.0.0"})
    resp = deps.query(KeyConditionExpression=Key("key").eq("@wrhs/ui!1.2.1"))
    assert [i["dependent"] for i in resp["Items"]] == ["@wrhs/admin", "@wrhs/shell"]

    dependent = warehouse["wrhs_dependent"]
    dependent.update_item(Key={"name": "@wrhs/ui"}, UpdateExpression="ADD dependents :d",
                          ExpressionAttributeValues={":d": {"@wrhs/shell"}})
    dependent.update_item(Key={"name": "@wrhs/ui"}, UpdateExpression="ADD dependents :d",
                          ExpressionAttributeValues={":d": {"@wrhs/admin", "@wrhs/shell"}})
    assert dependent.get_item(Key={"name": "@wrhs/ui"})["Item"]["dependents"] == {
        "@wrhs/admin", "@wrhs/shell"}

    status_head = warehouse["wrhs_status_head"]
    status_head.put_item(Item={"key": "@wrhs/ui!prod", "pkg": "@wrhs/ui", "env": "prod",
                               "version": "1.2.1", "total": 4})
    status = warehouse["wrhs_status"]
    status.put_item(Item={"key": "@wrhs/ui!prod!1.2.1", "pkg": "@wrhs/ui", "env": "prod",
                          "version": "1.2.1", "total": 4, "error": False, "complete": True})
    assert status.get_item(Key={"key": "@wrhs/ui!prod!1.2.1"})["Item"]["complete"] is True
    build_file = warehouse["wrhs_build_file"]
    build_file.put_item(Item={"fingerprint": "abc123", "build_id": "@wrhs/ui!prod!1.2.1!en-US",
                              "url": "https://cdn.example.com/abc123.js", "extension": ".js"})
    assert build_file.get_item(Key={"fingerprint": "abc123"})["Item"]["extension"] == ".js"


def test_warehouse_full_listing_with_paged_scan(warehouse):
    # A full listing of packages is a paged Scan: every package exactly once.
    packages = warehouse["wrhs_package"]
    names = ["@wrhs/pkg-%02d" % i for i in range(23)]
    for name in names:
        packages.put_item(Item={"name": name, "version": "1.0.0"})
    listed = all_pages(packages.scan, Limit=4, ProjectionExpression="#n",
                       ExpressionAttributeNames={"#n": "name"})
    got = [i["name"] for i in listed]
    assert len(got) == len(set(got))
    assert set(names) <= set(got)
