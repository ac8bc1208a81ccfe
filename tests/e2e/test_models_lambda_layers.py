"""The lambda-layers model (seed 000) as models.md specifies it: one table
with two sparse GSIs and a stream, and its access patterns (the latest ARN
in a region, the latest version for all regions, every layer deployed in
a region, requirements, inserting a new version, deleting one)."""

import time

import pytest
from boto3.dynamodb.conditions import Attr, Key

from .e2e_util import expect_error
from .models_util import CCF, defs, index, keys, model_table, put_all
from .models_util import run_id  # fixtures


LAYER_ARN = "arn:aws:lambda:{rgn}:123456789012:layer:{pckg}:{v}"


def layer(rgn, pckg, version, status=None, ttl=None, deleted=None):
    item = {"pk": "lyr#{}.{}".format(rgn, pckg), "sk": "lyrVrsn#v{}".format(version),
            "rgn": rgn, "pckg": pckg, "lyrVrsn": version,
            "arn": LAYER_ARN.format(rgn=rgn, pckg=pckg, v=version)}
    if status:
        item["dplySts"] = status
    if ttl:
        item["ttl"] = ttl
    if deleted:
        item["deleted_date"] = deleted
    return item


def latest_pointer(rgn, pckg, version):
    return {"pk": "lyr#{}.{}".format(rgn, pckg), "sk": "lyrVrsn0#", "rgn": rgn, "pckg": pckg,
            "lyrVrsn": version, "arn": LAYER_ARN.format(rgn=rgn, pckg=pckg, v=version)}


@pytest.fixture(scope="module")
def layers(tables, run_id, dynamodb_resource):
    name = model_table(
        tables, run_id, "lambda-layers",
        KeySchema=keys("pk", "sk"),
        AttributeDefinitions=defs(("pk", "S"), ("sk", "S"), ("pckg", "S"), ("rgn", "S"),
                                  ("dplySts", "S")),
        GlobalSecondaryIndexes=[
            index("pckg-dplySts", "pckg", "dplySts", {"ProjectionType": "ALL"}),
            index("rgn-dplySts", "rgn", "dplySts", {"ProjectionType": "ALL"})],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    table = dynamodb_resource.Table(name)
    expiry = int(time.time()) + 30 * 86400
    put_all(table, [
        layer("us-east-1", "numpy", 1, "deprecated", ttl=expiry),
        layer("us-east-1", "numpy", 2, "latest"),
        latest_pointer("us-east-1", "numpy", 2),
        layer("eu-west-1", "numpy", 1, "latest"),
        latest_pointer("eu-west-1", "numpy", 1),
        layer("us-east-1", "pandas", 4, "latest"),
        latest_pointer("us-east-1", "pandas", 4),
        layer("us-east-1", "pandas", 3, deleted="2024-01-02T03:04:05Z"),
        {"pk": "bld#v1", "sk": "pckg#numpy", "req": "numpy==1.26.0", "reqHsh": "h1"},
        {"pk": "bld#v2", "sk": "pckg#numpy", "req": "numpy==1.26.4", "reqHsh": "h2"},
        {"pk": "bld#v4", "sk": "pckg#pandas", "req": "pandas==2.2.0", "reqHsh": "h4"},
        {"pk": "bldVrsn0#", "sk": "pckg#numpy", "req": "numpy==1.26.4", "reqHsh": "h2"},
        {"pk": "bldVrsn0#", "sk": "pckg#pandas", "req": "pandas==2.2.0", "reqHsh": "h4"},
    ])
    return table


def test_layers_table_as_specified(dynamodb, layers):
    # lambda-layers: pk/sk, the two sparse ALL GSIs and a NEW_AND_OLD_IMAGES stream.
    desc = dynamodb.describe_table(TableName=layers.name)["Table"]
    assert desc["KeySchema"] == keys("pk", "sk")
    gsis = {g["IndexName"]: (g["KeySchema"], g["Projection"]["ProjectionType"])
            for g in desc["GlobalSecondaryIndexes"]}
    assert gsis == {"pckg-dplySts": (keys("pckg", "dplySts"), "ALL"),
                    "rgn-dplySts": (keys("rgn", "dplySts"), "ALL")}
    assert desc["StreamSpecification"] == {"StreamEnabled": True,
                                           "StreamViewType": "NEW_AND_OLD_IMAGES"}


def test_layers_latest_arn_in_region(layers):
    # Latest arn in a region: GetItem on the lyrVrsn0# pointer.
    item = layers.get_item(Key={"pk": "lyr#us-east-1.numpy", "sk": "lyrVrsn0#"},
                           ConsistentRead=True)["Item"]
    assert item["arn"] == LAYER_ARN.format(rgn="us-east-1", pckg="numpy", v=2)
    assert item["lyrVrsn"] == 2


def test_layers_latest_version_for_all_regions(layers):
    # Latest version for all regions: Query pckg-dplySts with pckg = :p AND dplySts = latest (pointers and deleted layers are not indexed).
    resp = layers.query(IndexName="pckg-dplySts",
                        KeyConditionExpression=Key("pckg").eq("numpy") & Key("dplySts").eq("latest"))
    assert sorted((i["rgn"], i["lyrVrsn"]) for i in resp["Items"]) == [("eu-west-1", 1),
                                                                      ("us-east-1", 2)]
    every = layers.query(IndexName="pckg-dplySts", KeyConditionExpression=Key("pckg").eq("numpy"))
    assert [(i["dplySts"], i["rgn"], i["lyrVrsn"]) for i in every["Items"]] == [
        ("deprecated", "us-east-1", 1), ("latest", "eu-west-1", 1), ("latest", "us-east-1", 2)]


def test_layers_all_deployed_in_region(layers):
    # All deployed layers in a region: Query rgn-dplySts on rgn returns latest and deprecated, never deleted ones.
    resp = layers.query(IndexName="rgn-dplySts", KeyConditionExpression=Key("rgn").eq("us-east-1"))
    got = sorted((i["pckg"], i["lyrVrsn"], i["dplySts"]) for i in resp["Items"])
    assert got == [("numpy", 1, "deprecated"), ("numpy", 2, "latest"), ("pandas", 4, "latest")]
    assert all("deleted_date" not in i for i in resp["Items"])
    latest_only = layers.query(IndexName="rgn-dplySts",
                               KeyConditionExpression=Key("rgn").eq("us-east-1")
                               & Key("dplySts").begins_with("lat"))
    assert len(latest_only["Items"]) == 2


def test_layers_latest_requirements(layers):
    # Latest requirements for one package (GetItem) or all packages (one Query on bldVrsn0#).
    one = layers.get_item(Key={"pk": "bldVrsn0#", "sk": "pckg#pandas"})["Item"]
    assert one["req"] == "pandas==2.2.0" and one["reqHsh"] == "h4"
    every = layers.query(KeyConditionExpression=Key("pk").eq("bldVrsn0#"))
    assert [(i["sk"], i["req"]) for i in every["Items"]] == [("pckg#numpy", "numpy==1.26.4"),
                                                            ("pckg#pandas", "pandas==2.2.0")]
    builds = layers.query(KeyConditionExpression=Key("pk").eq("bld#v2")
                          & Key("sk").begins_with("pckg#"))
    assert [i["req"] for i in builds["Items"]] == ["numpy==1.26.4"]


def test_layers_insert_new_version_flow(layers):
    # Inserting a layer: update lyrVrsn0#, insert the new version as latest, deprecate the previous one with a TTL; the indexes follow.
    rgn, pckg = "ca-central-1", "requests"
    pk = "lyr#{}.{}".format(rgn, pckg)
    put_all(layers, [layer(rgn, pckg, 1, "latest"), latest_pointer(rgn, pckg, 1),
                     layer("eu-west-1", pckg, 7, "latest")])

    layers.update_item(Key={"pk": pk, "sk": "lyrVrsn0#"}, UpdateExpression="SET lyrVrsn = :v, arn = :a",
                       ConditionExpression=Attr("lyrVrsn").lt(2),
                       ExpressionAttributeValues={":v": 2, ":a": LAYER_ARN.format(rgn=rgn, pckg=pckg, v=2)})
    layers.put_item(Item=layer(rgn, pckg, 2, "latest"))
    expiry = int(time.time()) + 7 * 86400
    layers.update_item(Key={"pk": pk, "sk": "lyrVrsn#v1"},
                       UpdateExpression="SET dplySts = :d, #t = :t",
                       ExpressionAttributeNames={"#t": "ttl"},
                       ExpressionAttributeValues={":d": "deprecated", ":t": expiry})

    latest = layers.query(IndexName="pckg-dplySts",
                          KeyConditionExpression=Key("pckg").eq(pckg) & Key("dplySts").eq("latest"))
    assert sorted((i["rgn"], i["lyrVrsn"]) for i in latest["Items"]) == [(rgn, 2), ("eu-west-1", 7)]
    region = layers.query(IndexName="rgn-dplySts", KeyConditionExpression=Key("rgn").eq(rgn))
    assert [(i["lyrVrsn"], i["dplySts"]) for i in region["Items"]] == [(1, "deprecated"),
                                                                       (2, "latest")]
    assert region["Items"][0]["ttl"] == expiry
    pointer = layers.get_item(Key={"pk": pk, "sk": "lyrVrsn0#"}, ConsistentRead=True)["Item"]
    assert pointer["lyrVrsn"] == 2 and pointer["arn"].endswith(":2")
    # A stale writer (still thinking v1 is latest) cannot move the pointer back.
    with expect_error(CCF):
        layers.update_item(Key={"pk": pk, "sk": "lyrVrsn0#"}, UpdateExpression="SET lyrVrsn = :v",
                           ConditionExpression=Attr("lyrVrsn").lt(2),
                           ExpressionAttributeValues={":v": 2})


def test_layers_delete_leaves_both_indexes(layers):
    # Deleting a layer removes dplySts and sets deleted_date: it leaves both indexes but stays in the table.
    rgn, pckg = "sa-east-1", "boto3"
    put_all(layers, [layer(rgn, pckg, 5, "deprecated"), layer(rgn, pckg, 6, "latest")])
    key = {"pk": "lyr#{}.{}".format(rgn, pckg), "sk": "lyrVrsn#v6"}
    layers.update_item(Key=key, UpdateExpression="REMOVE dplySts SET deleted_date = :d",
                       ExpressionAttributeValues={":d": "2024-06-01T00:00:00Z"})
    by_pckg = layers.query(IndexName="pckg-dplySts", KeyConditionExpression=Key("pckg").eq(pckg))
    assert [(i["lyrVrsn"], i["dplySts"]) for i in by_pckg["Items"]] == [(5, "deprecated")]
    by_rgn = layers.query(IndexName="rgn-dplySts", KeyConditionExpression=Key("rgn").eq(rgn))
    assert [i["lyrVrsn"] for i in by_rgn["Items"]] == [5]
    item = layers.get_item(Key=key, ConsistentRead=True)["Item"]
    assert "dplySts" not in item and item["deleted_date"] == "2024-06-01T00:00:00Z"
    partition = layers.query(KeyConditionExpression=Key("pk").eq(key["pk"]))
    assert [i["sk"] for i in partition["Items"]] == ["lyrVrsn#v5", "lyrVrsn#v6"]
