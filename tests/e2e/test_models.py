"""The team's data models (the design notes' models.md and the seed
documents it cites), each built exactly as models.md specifies (same key,
index and attribute names; table names get a unique prefix so the tests
never collide with preloaded tables) and exercised through every access
pattern models.md lists, with a handful of realistic items each."""

import threading
import time
import uuid
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key

from .e2e_util import expect_error, make_client

CCF = "ConditionalCheckFailedException"


@pytest.fixture(scope="module")
def run_id():
    return uuid.uuid4().hex[:8]


def model_table(tables, run_id, model_name, **kwargs):
    """Create the models.md table `model_name` under a unique prefix."""
    return tables(name="e2e-{}-{}".format(run_id, model_name), **kwargs)


def defs(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


def keys(hash_key, range_key=None):
    ks = [{"AttributeName": hash_key, "KeyType": "HASH"}]
    if range_key:
        ks.append({"AttributeName": range_key, "KeyType": "RANGE"})
    return ks


def index(name, hash_key, range_key, projection):
    return {"IndexName": name, "KeySchema": keys(hash_key, range_key), "Projection": projection}


def put_all(table, items):
    """PutItem one by one (BatchWriteItem is not what these tests are about)."""
    for item in items:
        table.put_item(Item=item)


def all_pages(call, **kwargs):
    items = []
    for _ in range(1000):
        resp = call(**kwargs)
        items.extend(resp.get("Items", []))
        if "LastEvaluatedKey" not in resp:
            return items
        kwargs["ExclusiveStartKey"] = resp["LastEvaluatedKey"]
    raise AssertionError("pagination did not terminate")


# ==========================================================================
# lambda-layers (seed 000)
# ==========================================================================

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


# ==========================================================================
# deployments (seed 001)
# ==========================================================================

DEPLOYMENT_INCLUDE = ["CreateDate", "DeploymentAlias", "DeploymentId", "Status"]
ALIAS_INCLUDE = ["BasePath", "CreateDate", "DeploymentId", "DeploymentAlias", "HostnameRev"]


def deployment(dep_id, created, status="FINISHED", alias=None):
    return {"PK": "DEPLOYMENTS", "SK": "D#" + dep_id, "GSI1SK": "{}#D#{}".format(created, dep_id),
            "DeploymentId": dep_id, "CreateDate": created, "Status": status,
            "DeploymentAlias": alias or dep_id + ".example.com",
            "Runtime": "nodejs20.x", "Lambdas": {"server": {"arn": "arn:aws:lambda:x"}},
            "TerraformState": "s3://bucket/" + dep_id}


def route(entity, hostname_rev, base_path, dep_id, created):
    pk = {"R": "ROUTES", "CN": "CONFIGNEXTJS"}[entity]
    return {"PK": pk, "SK": "{}#{}".format(hostname_rev, base_path),
            "GSI1PK": "D#" + dep_id,
            "GSI1SK": "{}#{}#{}#{}".format(created, entity, hostname_rev, base_path),
            "HostnameRev": hostname_rev, "BasePath": base_path, "DeploymentId": dep_id,
            "CreateDate": created, "DeploymentAlias": ".".join(reversed(hostname_rev.split("."))),
            "Origin": "cloudfront", "Config": {"images": {"domains": ["example.com"]}}}


DEPLOYMENTS = [
    deployment("d1a2", "2023-01-05T10:00:00.000Z"),
    deployment("d3b4", "2023-03-17T08:30:00.000Z", "DESTROY_REQUESTED"),
    deployment("d5c6", "2023-02-01T12:00:00.000Z"),
    deployment("d7e8", "2023-03-17T09:00:00.000Z", "CREATE_IN_PROGRESS"),
]

ROUTES = [
    route("R", "com.example", "/", "d7e8", "2023-03-17T09:05:00.000Z"),
    route("R", "com.example.www", "/", "d7e8", "2023-03-17T09:06:00.000Z"),
    route("R", "com.example.shop", "/cart", "d7e8", "2023-03-17T09:01:00.000Z"),
    route("CN", "com.example.shop", "/cart", "d7e8", "2023-03-17T09:01:00.000Z"),
    route("R", "com.example.old", "/", "d1a2", "2023-01-05T10:05:00.000Z"),
    route("R", "org.other", "/", "d5c6", "2023-02-01T12:01:00.000Z"),
]


@pytest.fixture(scope="module")
def deployments(tables, run_id, dynamodb_resource):
    dep = model_table(
        tables, run_id, "DeploymentTable", KeySchema=keys("PK", "SK"),
        AttributeDefinitions=defs(("PK", "S"), ("SK", "S"), ("GSI1SK", "S")),
        GlobalSecondaryIndexes=[index("CreateDateIndex", "PK", "GSI1SK", {
            "ProjectionType": "INCLUDE", "NonKeyAttributes": DEPLOYMENT_INCLUDE})])
    alias = model_table(
        tables, run_id, "AliasTable", KeySchema=keys("PK", "SK"),
        AttributeDefinitions=defs(("PK", "S"), ("SK", "S"), ("GSI1PK", "S"), ("GSI1SK", "S")),
        GlobalSecondaryIndexes=[index("DeploymentIdIndex", "GSI1PK", "GSI1SK", {
            "ProjectionType": "INCLUDE", "NonKeyAttributes": ALIAS_INCLUDE})])
    dep_table = dynamodb_resource.Table(dep)
    alias_table = dynamodb_resource.Table(alias)
    put_all(dep_table, DEPLOYMENTS)
    put_all(alias_table, ROUTES)
    return dep_table, alias_table


def test_deployments_tables_as_specified(dynamodb, deployments):
    # DeploymentTable/CreateDateIndex and AliasTable/DeploymentIdIndex with their INCLUDE projections.
    dep, alias = deployments
    for table, idx, key_schema, include in (
            (dep, "CreateDateIndex", keys("PK", "GSI1SK"), DEPLOYMENT_INCLUDE),
            (alias, "DeploymentIdIndex", keys("GSI1PK", "GSI1SK"), ALIAS_INCLUDE)):
        desc = dynamodb.describe_table(TableName=table.name)["Table"]
        assert desc["KeySchema"] == keys("PK", "SK")
        (gsi,) = desc["GlobalSecondaryIndexes"]
        assert gsi["IndexName"] == idx and gsi["KeySchema"] == key_schema
        assert gsi["Projection"]["ProjectionType"] == "INCLUDE"
        assert sorted(gsi["Projection"]["NonKeyAttributes"]) == sorted(include)


def test_list_deployments_newest_first_projected_only(deployments):
    # listDeployments: Query CreateDateIndex with PK = DEPLOYMENTS, newest first, only the projected attributes.
    dep, _ = deployments
    resp = dep.query(IndexName="CreateDateIndex", KeyConditionExpression=Key("PK").eq("DEPLOYMENTS"),
                     ScanIndexForward=False)
    assert [i["DeploymentId"] for i in resp["Items"]] == ["d7e8", "d3b4", "d5c6", "d1a2"]
    allowed = {"PK", "SK", "GSI1SK"} | set(DEPLOYMENT_INCLUDE)
    for item in resp["Items"]:
        assert set(item) == allowed
    # Paged, two at a time, the order holds.
    pages = all_pages(dep.query, IndexName="CreateDateIndex",
                      KeyConditionExpression=Key("PK").eq("DEPLOYMENTS"), ScanIndexForward=False,
                      Limit=2)
    assert [i["DeploymentId"] for i in pages] == ["d7e8", "d3b4", "d5c6", "d1a2"]
    # Deployments created in a time window.
    window = dep.query(IndexName="CreateDateIndex",
                       KeyConditionExpression=Key("PK").eq("DEPLOYMENTS")
                       & Key("GSI1SK").between("2023-02", "2023-03-17T08:59"))
    assert [i["DeploymentId"] for i in window["Items"]] == ["d5c6", "d3b4"]


def test_get_deployment_by_id(deployments):
    # getDeploymentById: GetItem returns the whole item, or nothing for an unknown id.
    dep, _ = deployments
    item = dep.get_item(Key={"PK": "DEPLOYMENTS", "SK": "D#d5c6"})["Item"]
    assert item == DEPLOYMENTS[2]
    assert "Item" not in dep.get_item(Key={"PK": "DEPLOYMENTS", "SK": "D#missing"})


def test_deployment_status_updates_are_conditional(deployments):
    # updateDeploymentStatus*: conditional UpdateItems; a stale expected status fails, and the index shows the new status.
    dep, _ = deployments
    key = {"PK": "DEPLOYMENTS", "SK": "D#d7e8"}

    def set_status(new, expected):
        return dep.update_item(
            Key=key, UpdateExpression="SET #s = :new",
            ConditionExpression=Attr("PK").exists() & Attr("Status").eq(expected),
            ExpressionAttributeNames={"#s": "Status"},
            ExpressionAttributeValues={":new": new}, ReturnValues="UPDATED_NEW")

    assert set_status("FINISHED", "CREATE_IN_PROGRESS")["Attributes"] == {"Status": "FINISHED"}
    with expect_error(CCF):
        set_status("CREATE_FAILED", "CREATE_IN_PROGRESS")
    # A status update for a deployment that does not exist must not create it.
    with expect_error(CCF):
        dep.update_item(Key={"PK": "DEPLOYMENTS", "SK": "D#ghost"}, UpdateExpression="SET #s = :new",
                        ConditionExpression=Attr("PK").exists(),
                        ExpressionAttributeNames={"#s": "Status"},
                        ExpressionAttributeValues={":new": "FINISHED"})
    assert "Item" not in dep.get_item(Key={"PK": "DEPLOYMENTS", "SK": "D#ghost"})
    listed = dep.query(IndexName="CreateDateIndex",
                       KeyConditionExpression=Key("PK").eq("DEPLOYMENTS"), ScanIndexForward=False,
                       FilterExpression=Attr("Status").eq("FINISHED"))
    assert [i["DeploymentId"] for i in listed["Items"]] == ["d7e8", "d5c6", "d1a2"]
    set_status("CREATE_IN_PROGRESS", "FINISHED")


def test_delete_deployment_by_id(dynamodb_resource, tables, run_id):
    # deleteDeploymentById: DeleteItem removes the deployment from the table and from CreateDateIndex.
    name = model_table(
        tables, run_id, "DeploymentTable-del", KeySchema=keys("PK", "SK"),
        AttributeDefinitions=defs(("PK", "S"), ("SK", "S"), ("GSI1SK", "S")),
        GlobalSecondaryIndexes=[index("CreateDateIndex", "PK", "GSI1SK", {
            "ProjectionType": "INCLUDE", "NonKeyAttributes": DEPLOYMENT_INCLUDE})])
    dep = dynamodb_resource.Table(name)
    put_all(dep, DEPLOYMENTS)
    old = dep.delete_item(Key={"PK": "DEPLOYMENTS", "SK": "D#d3b4"}, ReturnValues="ALL_OLD")
    assert old["Attributes"]["Status"] == "DESTROY_REQUESTED"
    resp = dep.query(IndexName="CreateDateIndex", KeyConditionExpression=Key("PK").eq("DEPLOYMENTS"))
    assert [i["DeploymentId"] for i in resp["Items"]] == ["d1a2", "d5c6", "d7e8"]


def test_get_alias_by_hostname(deployments):
    # getAliasByHostname: GetItem on PK=ROUTES, SK=<HostnameRev>#<BasePath>.
    _, alias = deployments
    item = alias.get_item(Key={"PK": "ROUTES", "SK": "com.example.shop#/cart"})["Item"]
    assert item["DeploymentId"] == "d7e8" and item["DeploymentAlias"] == "shop.example.com"
    assert "Item" not in alias.get_item(Key={"PK": "ROUTES", "SK": "com.example.shop#/"})


def test_alias_wildcard_lookup(deployments):
    # Wildcard lookup: begins_with(SK, 'com.example') finds the domain and all its subdomains, nothing else.
    _, alias = deployments
    resp = alias.query(KeyConditionExpression=Key("PK").eq("ROUTES")
                       & Key("SK").begins_with("com.example"))
    assert [i["SK"] for i in resp["Items"]] == ["com.example#/", "com.example.old#/",
                                                "com.example.shop#/cart", "com.example.www#/"]
    sub = alias.query(KeyConditionExpression=Key("PK").eq("ROUTES")
                      & Key("SK").begins_with("com.example."))
    assert len(sub["Items"]) == 3


def test_list_aliases_for_deployment(deployments):
    # listAliasesForDeployment: Query DeploymentIdIndex with GSI1PK = D#<id>, newest first, routes and Next.js configs, projected attributes only.
    _, alias = deployments
    resp = alias.query(IndexName="DeploymentIdIndex", KeyConditionExpression=Key("GSI1PK").eq("D#d7e8"),
                       ScanIndexForward=False)
    assert [(i["PK"], i["SK"]) for i in resp["Items"]] == [
        ("ROUTES", "com.example.www#/"), ("ROUTES", "com.example#/"),
        ("ROUTES", "com.example.shop#/cart"), ("CONFIGNEXTJS", "com.example.shop#/cart")]
    allowed = {"PK", "SK", "GSI1PK", "GSI1SK"} | set(ALIAS_INCLUDE)
    assert all(set(i) == allowed for i in resp["Items"])
    routes_only = alias.query(IndexName="DeploymentIdIndex",
                              KeyConditionExpression=Key("GSI1PK").eq("D#d7e8")
                              & Key("GSI1SK").begins_with("2023-03-17T09:01:00.000Z#R#"))
    assert [i["PK"] for i in routes_only["Items"]] == ["ROUTES"]
    assert alias.query(IndexName="DeploymentIdIndex",
                       KeyConditionExpression=Key("GSI1PK").eq("D#none"))["Items"] == []


# ==========================================================================
# ecommerce (seed 002)
# ==========================================================================

ECOMMERCE_ITEMS = [
    {"PK": "USER#junior", "SK": "#PROFILE#junior", "Username": "junior",
     "FullName": "Sarah Mamede", "Email": "sarah@email.com", "CreatedAt": "2018-10-03",
     "Addresses": {"Home": {"StreetAddress": "Rua X, 10", "State": "Rio de Janeiro"}}},
    {"PK": "USER#sarah", "SK": "#PROFILE#sarah", "Username": "sarah",
     "FullName": "Normandes Jr", "Email": "normandes@email.com", "CreatedAt": "2018-10-03",
     "Addresses": {"Home": {"StreetAddress": "Rua X, 10", "State": "Rio de Janeiro"},
                   "Business": {"StreetAddress": "Rua Floriano, 304 ap 302",
                                "State": "Rio de Janeiro"}}},
    {"PK": "USER#junior", "SK": "ORDER#5eaf12", "Username": "junior", "OrderId": "5eaf12",
     "Status": "SHIPPED", "CreatedAt": "2019-03-22", "OrderStatusDate": "SHIPPED#2019-12-22",
     "Addresses": {"Home": {"StreetAddress": "Rua X, 10", "State": "Rio de Janeiro"}}},
    {"PK": "USER#junior", "SK": "ORDER#ac630a", "Username": "junior", "OrderId": "ac630a",
     "Status": "PLACED", "CreatedAt": "2019-05-10", "OrderStatusDate": "PLACED#2019-05-10",
     "Addresses": {"Business": {"StreetAddress": "Rua Floriano, 304 ap 302",
                                "State": "Rio de Janeiro"}}},
    {"PK": "USER#junior", "SK": "ORDER#f3990a", "Username": "junior", "OrderId": "f3990a",
     "Status": "SHIPPED", "CreatedAt": "2019-11-23", "OrderStatusDate": "SHIPPED#2019-11-23",
     "Addresses": {"Home": {"StreetAddress": "Rua X, 10", "State": "Rio de Janeiro"}}},
    {"PK": "USER#sarah", "SK": "ORDER#B39AD", "Username": "sarah", "OrderId": "B39AD",
     "Status": "PLACED", "CreatedAt": "2019-02-03", "OrderStatusDate": "PLACED#2019-02-03",
     "Addresses": {"Business": {"StreetAddress": "Rua Floriano, 304 ap 302",
                                "State": "Rio de Janeiro"}}},
    {"PK": "ITEM#28291", "SK": "ORDER#5eaf12", "ItemId": "28291", "OrderId": "5eaf12",
     "ProductName": "Echo Dot", "Price": Decimal("59.99"), "Status": "FAILED"},
    {"PK": "ITEM#99834", "SK": "ORDER#5eaf12", "ItemId": "99834", "OrderId": "5eaf12",
     "ProductName": "Macbook", "Price": Decimal("1999"), "Status": "SUCCESS"},
    {"PK": "ITEM#17333", "SK": "ORDER#ac630a", "ItemId": "17333", "OrderId": "ac630a",
     "ProductName": "Mouse", "Price": Decimal("100"), "Status": "FAILED"},
]


@pytest.fixture(scope="module")
def ecommerce(tables, run_id, dynamodb_resource):
    name = model_table(
        tables, run_id, "ecommerce", KeySchema=keys("PK", "SK"),
        AttributeDefinitions=defs(("PK", "S"), ("SK", "S"), ("OrderStatusDate", "S")),
        GlobalSecondaryIndexes=[
            index("GSI1", "SK", "PK", {"ProjectionType": "ALL"}),
            index("GSI2", "PK", "OrderStatusDate", {"ProjectionType": "ALL"})])
    table = dynamodb_resource.Table(name)
    put_all(table, ECOMMERCE_ITEMS)
    return table


def test_ecommerce_table_as_specified(dynamodb, ecommerce):
    # ecommerce: PK/SK, GSI1 the inverted index (SK HASH, PK RANGE), GSI2 on PK/OrderStatusDate, both ALL.
    desc = dynamodb.describe_table(TableName=ecommerce.name)["Table"]
    assert desc["KeySchema"] == keys("PK", "SK")
    gsis = {g["IndexName"]: (g["KeySchema"], g["Projection"]["ProjectionType"])
            for g in desc["GlobalSecondaryIndexes"]}
    assert gsis == {"GSI1": (keys("SK", "PK"), "ALL"), "GSI2": (keys("PK", "OrderStatusDate"), "ALL")}
    assert desc["ItemCount"] == len(ECOMMERCE_ITEMS)


def test_ecommerce_user_profile(ecommerce):
    # Get user profile: GetItem USER#<u> / #PROFILE#<u>.
    item = ecommerce.get_item(Key={"PK": "USER#sarah", "SK": "#PROFILE#sarah"})["Item"]
    assert item == ECOMMERCE_ITEMS[1]


def test_ecommerce_orders_for_user(ecommerce):
    # Orders for a user: PK = USER#<u> AND begins_with(SK, 'ORDER#'), without the profile.
    resp = ecommerce.query(KeyConditionExpression=Key("PK").eq("USER#junior")
                           & Key("SK").begins_with("ORDER#"))
    assert [i["OrderId"] for i in resp["Items"]] == ["5eaf12", "ac630a", "f3990a"]
    everything = ecommerce.query(KeyConditionExpression=Key("PK").eq("USER#junior"))
    assert [i["SK"] for i in everything["Items"]] == ["#PROFILE#junior", "ORDER#5eaf12",
                                                     "ORDER#ac630a", "ORDER#f3990a"]


def test_ecommerce_order_items_via_inverted_index(ecommerce):
    # An order's items: Query GSI1 with SK = ORDER#<id> AND begins_with(PK, 'ITEM#'); without the condition the order itself comes too.
    resp = ecommerce.query(IndexName="GSI1", KeyConditionExpression=Key("SK").eq("ORDER#5eaf12")
                           & Key("PK").begins_with("ITEM#"))
    assert [(i["ProductName"], i["Price"]) for i in resp["Items"]] == [
        ("Echo Dot", Decimal("59.99")), ("Macbook", Decimal("1999"))]
    order_and_items = ecommerce.query(IndexName="GSI1",
                                      KeyConditionExpression=Key("SK").eq("ORDER#5eaf12"))
    assert [i["PK"] for i in order_and_items["Items"]] == ["ITEM#28291", "ITEM#99834",
                                                           "USER#junior"]
    assert order_and_items["Items"][2]["Status"] == "SHIPPED"
    profile = ecommerce.query(IndexName="GSI1", KeyConditionExpression=Key("SK").eq("#PROFILE#junior"))
    assert [i["PK"] for i in profile["Items"]] == ["USER#junior"]
    failed = ecommerce.query(IndexName="GSI1", KeyConditionExpression=Key("SK").eq("ORDER#5eaf12")
                             & Key("PK").begins_with("ITEM#"), FilterExpression=Attr("Status").eq("FAILED"))
    assert [i["ItemId"] for i in failed["Items"]] == ["28291"]
    assert failed["ScannedCount"] == 2


def test_ecommerce_orders_by_status(ecommerce):
    # A user's orders by status: Query GSI2 with PK = USER#<u> AND begins_with(OrderStatusDate, 'SHIPPED#'), ordered by date; GSI2 is sparse.
    resp = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#junior")
                           & Key("OrderStatusDate").begins_with("SHIPPED#"))
    assert [(i["OrderId"], i["OrderStatusDate"]) for i in resp["Items"]] == [
        ("f3990a", "SHIPPED#2019-11-23"), ("5eaf12", "SHIPPED#2019-12-22")]
    newest = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#junior")
                             & Key("OrderStatusDate").begins_with("SHIPPED#"),
                             ScanIndexForward=False, Limit=1)
    assert [i["OrderId"] for i in newest["Items"]] == ["5eaf12"]
    every = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#junior"))
    assert [i["OrderId"] for i in every["Items"]] == ["ac630a", "f3990a", "5eaf12"]
    placed_2019 = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#sarah")
                                  & Key("OrderStatusDate").between("PLACED#2019-01-01",
                                                                   "PLACED#2019-12-31"))
    assert [i["OrderId"] for i in placed_2019["Items"]] == ["B39AD"]


def test_ecommerce_status_change_moves_order_in_gsi2(ecommerce):
    # Shipping an order rewrites OrderStatusDate; the order moves from PLACED# to SHIPPED# in GSI2.
    ecommerce.put_item(Item={"PK": "USER#maria", "SK": "ORDER#C77XY", "Username": "maria",
                             "OrderId": "C77XY", "Status": "PLACED", "CreatedAt": "2020-01-15",
                             "OrderStatusDate": "PLACED#2020-01-15"})

    def by_status(prefix):
        resp = ecommerce.query(IndexName="GSI2", KeyConditionExpression=Key("PK").eq("USER#maria")
                               & Key("OrderStatusDate").begins_with(prefix))
        return [i["OrderId"] for i in resp["Items"]]

    assert by_status("PLACED#") == ["C77XY"] and by_status("SHIPPED#") == []
    ecommerce.update_item(Key={"PK": "USER#maria", "SK": "ORDER#C77XY"},
                          UpdateExpression="SET #s = :s, OrderStatusDate = :osd",
                          ConditionExpression=Attr("Status").eq("PLACED"),
                          ExpressionAttributeNames={"#s": "Status"},
                          ExpressionAttributeValues={":s": "SHIPPED", ":osd": "SHIPPED#2020-01-17"})
    assert by_status("PLACED#") == [] and by_status("SHIPPED#") == ["C77XY"]
    ecommerce.delete_item(Key={"PK": "USER#maria", "SK": "ORDER#C77XY"})
    assert ecommerce.query(IndexName="GSI2",
                           KeyConditionExpression=Key("PK").eq("USER#maria"))["Items"] == []


def test_music_walkthrough(dynamodb, tables, run_id):
    # The document's Music walk-through (create, scan, put, get, update ALL_NEW, query, add AlbumTitle-index, query it, scan) through boto3.
    name = model_table(tables, run_id, "Music",
                       AttributeDefinitions=defs(("Artist", "S"), ("SongTitle", "S")),
                       KeySchema=keys("Artist", "SongTitle"),
                       ProvisionedThroughput={"ReadCapacityUnits": 10, "WriteCapacityUnits": 5})
    assert dynamodb.scan(TableName=name)["Items"] == []
    dynamodb.put_item(TableName=name, Item={
        "Artist": {"S": "No One You Know"}, "SongTitle": {"S": "Call Me Today"},
        "AlbumTitle": {"S": "Somewhat Famous"}, "Awards": {"N": "1"}})
    dynamodb.put_item(TableName=name, Item={
        "Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"},
        "AlbumTitle": {"S": "Songs About Life"}, "Awards": {"N": "10"}})
    got = dynamodb.get_item(TableName=name, ConsistentRead=True, Key={
        "Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}})["Item"]
    assert got["AlbumTitle"] == {"S": "Songs About Life"}
    updated = dynamodb.update_item(
        TableName=name, Key={"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}},
        UpdateExpression="SET AlbumTitle = :newval",
        ExpressionAttributeValues={":newval": {"S": "Updated Album Title"}}, ReturnValues="ALL_NEW")
    assert updated["Attributes"] == {"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"},
                                     "AlbumTitle": {"S": "Updated Album Title"},
                                     "Awards": {"N": "10"}}
    resp = dynamodb.query(TableName=name, KeyConditionExpression="Artist = :name",
                          ExpressionAttributeValues={":name": {"S": "Acme Band"}}, Limit=100)
    assert [i["SongTitle"]["S"] for i in resp["Items"]] == ["Happy Day"]
    resp = dynamodb.update_table(
        TableName=name, AttributeDefinitions=defs(("AlbumTitle", "S")),
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "AlbumTitle-index",
            "KeySchema": keys("AlbumTitle"),
            "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5},
            "Projection": {"ProjectionType": "ALL"}}}])
    assert any(g["IndexName"] == "AlbumTitle-index"
               for g in resp["TableDescription"]["GlobalSecondaryIndexes"])
    deadline = time.monotonic() + 30
    while True:
        desc = dynamodb.describe_table(TableName=name)["Table"]
        if all(g["IndexStatus"] == "ACTIVE" for g in desc["GlobalSecondaryIndexes"]):
            break
        assert time.monotonic() < deadline
        time.sleep(0.2)
    found = dynamodb.query(TableName=name, IndexName="AlbumTitle-index",
                           KeyConditionExpression="AlbumTitle = :name",
                           ExpressionAttributeValues={":name": {"S": "Somewhat Famous"}})
    assert [i["SongTitle"]["S"] for i in found["Items"]] == ["Call Me Today"]
    assert dynamodb.scan(TableName=name)["Count"] == 2


# ==========================================================================
# tenants (seed 003)
# ==========================================================================

TENANT_ITEMS = [
    {"pk": "TENANT_ID#032400-000000-0000-0002", "sk": "METADATA",
     "CreatedAt": "2020-08-31T16:02:16.808Z", "UpdatedAt": "2020-08-31T16:02:16.808Z",
     "Version": "0.1.12", "OutboundQueueArn": "arn:aws:sqs:us-east-1:1:out-2",
     "OutboundQueueUrl": "https://sqs.us-east-1.amazonaws.com/1/out-2",
     "InboundQueueArn": "arn:aws:sqs:us-east-1:1:in-2",
     "InboundQueueUrl": "https://sqs.us-east-1.amazonaws.com/1/in-2"},
    {"pk": "TENANT_ID#005320-000000-0000-0003", "sk": "METADATA",
     "CreatedAt": "2020-08-31T16:02:16.808Z", "UpdatedAt": "2020-08-31T16:02:16.808Z",
     "Version": "0.1.14", "InboundQueueArn": "arn:aws:sqs:us-east-1:1:in-3",
     "InboundQueueUrl": "https://sqs.us-east-1.amazonaws.com/1/in-3"},
    {"pk": "TENANT_ID#000000-000000-0000-0000", "sk": "AUDIT#CREATE",
     "UpdatedAt": "2020-08-31T16:02:16.808Z", "Execution": "arn:aws:states:us-east-1:1:execution:c",
     "Status": "Started"},
    {"pk": "TENANT_ID#000000-000000-0000-0000", "sk": "AUDIT#UPDATE#0.1.18",
     "UpdatedAt": "2020-08-31T16:02:16.808Z", "Execution": "arn:aws:states:us-east-1:1:execution:u",
     "Status": "Failure"},
    {"pk": "TENANT_ID#000000-000000-0000-0000", "sk": "AUDIT#UPDATE#0.1.19",
     "UpdatedAt": "2020-09-01T09:00:00.000Z", "Execution": "arn:aws:states:us-east-1:1:execution:v",
     "Status": "Success"},
    {"pk": "TENANT_ID#000000-000000-0000-0000", "sk": "AUDIT#DELETE",
     "UpdatedAt": "2020-08-31T16:02:16.808Z", "Execution": "arn:aws:states:us-east-1:1:execution:d",
     "Status": "Success"},
    {"pk": "TENANT_ID#000000-000000-0000-0000", "sk": "METADATA",
     "CreatedAt": "2020-08-31T16:02:16.808Z", "UpdatedAt": "2020-09-01T09:00:00.000Z",
     "Version": "0.1.19"},
]


@pytest.fixture(scope="module")
def tenants(tables, run_id, dynamodb_resource):
    name = model_table(tables, run_id, "tenants", KeySchema=keys("pk", "sk"),
                       AttributeDefinitions=defs(("pk", "S"), ("sk", "S")))
    table = dynamodb_resource.Table(name)
    put_all(table, TENANT_ITEMS)
    return table


def test_tenant_metadata_by_tenant(tenants):
    # Metadata by tenant: GetItem pk=TENANT_ID#<id>, sk=METADATA (queue attributes included).
    item = tenants.get_item(Key={"pk": "TENANT_ID#005320-000000-0000-0003", "sk": "METADATA"})["Item"]
    assert item["InboundQueueUrl"] == "https://sqs.us-east-1.amazonaws.com/1/in-3"
    assert "OutboundQueueArn" not in item
    assert "Item" not in tenants.get_item(Key={"pk": "TENANT_ID#unknown", "sk": "METADATA"})


def test_tenant_audits_of_one_operation(tenants):
    # Audits of one operation (and version): begins_with(sk, 'AUDIT#UPDATE#') and an exact version lookup.
    tid = "TENANT_ID#000000-000000-0000-0000"
    updates = tenants.query(KeyConditionExpression=Key("pk").eq(tid)
                            & Key("sk").begins_with("AUDIT#UPDATE#"))
    assert [(i["sk"], i["Status"]) for i in updates["Items"]] == [
        ("AUDIT#UPDATE#0.1.18", "Failure"), ("AUDIT#UPDATE#0.1.19", "Success")]
    audits = tenants.query(KeyConditionExpression=Key("pk").eq(tid) & Key("sk").begins_with("AUDIT#"),
                           ProjectionExpression="sk, #s", ExpressionAttributeNames={"#s": "Status"})
    assert audits["Items"] == [{"sk": "AUDIT#CREATE", "Status": "Started"},
                               {"sk": "AUDIT#DELETE", "Status": "Success"},
                               {"sk": "AUDIT#UPDATE#0.1.18", "Status": "Failure"},
                               {"sk": "AUDIT#UPDATE#0.1.19", "Status": "Success"}]
    current = tenants.get_item(Key={"pk": tid, "sk": "METADATA"})["Item"]["Version"]
    provision = tenants.get_item(Key={"pk": tid, "sk": "AUDIT#UPDATE#" + current})["Item"]
    assert provision["Status"] == "Success"


def test_tenant_provision_started_once(tenants):
    # Kicking off a provision for a version is a conditional put: only the first caller wins.
    tid = "TENANT_ID#032400-000000-0000-0002"
    audit = {"pk": tid, "sk": "AUDIT#UPDATE#0.1.20", "UpdatedAt": "2020-10-01T00:00:00.000Z",
             "Execution": "arn:aws:states:us-east-1:1:execution:w", "Status": "Started"}
    tenants.put_item(Item=audit, ConditionExpression=Attr("sk").not_exists())
    with expect_error(CCF):
        tenants.put_item(Item=dict(audit, Execution="other"),
                         ConditionExpression=Attr("sk").not_exists())


# ==========================================================================
# warehouse (seed 004)
# ==========================================================================

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
