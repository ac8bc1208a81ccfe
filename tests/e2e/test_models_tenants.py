"""The tenants model (seed 003) as models.md specifies it, and its access
patterns: metadata by tenant, the audits of one operation, and a provision
that only the first caller can start."""

import pytest
from boto3.dynamodb.conditions import Attr, Key

from .e2e_util import expect_error
from .models_util import CCF, defs, keys, model_table, put_all
from .models_util import run_id  # fixtures


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
