"""The deployments model (seed 001) as models.md specifies it: the
deployment and alias tables with their INCLUDE indexes, and their access
patterns (listing deployments newest first, by id, conditional status
updates, deletes, aliases by hostname and by wildcard, aliases of a
deployment)."""

import pytest
from boto3.dynamodb.conditions import Attr, Key

from .e2e_util import expect_error
from .models_util import CCF, all_pages, defs, index, keys, model_table, put_all
from .models_util import run_id  # fixtures


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
