"""Table-level operations: CreateTable, DescribeTable, DeleteTable, UpdateTable,
ListTables, tagging, DescribeLimits, DescribeEndpoints."""

import re
import time

import pytest

from .e2e_util import (
    REGION,
    UUID_RE,
    all_table_names,
    expect_error,
    unique_name,
    wait_active,
    wait_gone,
)


def arn_re(name):
    return r"^arn:aws:dynamodb:{}:\d{{12}}:table/{}$".format(re.escape(REGION), re.escape(name))


def as_multiset(dicts):
    return sorted(tuple(sorted(d.items())) for d in dicts)


HASH_ONLY = dict(
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
)

HASH_RANGE = dict(
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
               {"AttributeName": "sk", "KeyType": "RANGE"}],
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                          {"AttributeName": "sk", "AttributeType": "N"}],
)


def test_create_table_hash_only_on_demand_description(dynamodb, table):
    # CreateTable returns a full TableDescription: name, schema, status, creation time, ARN, uuid TableId, zero counts, PAY_PER_REQUEST billing summary and zeroed throughput.
    name = table.register(unique_name("create"))
    before = time.time()
    desc = dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                 **HASH_ONLY)["TableDescription"]
    after = time.time()
    assert desc["TableName"] == name
    assert desc["KeySchema"] == HASH_ONLY["KeySchema"]
    assert as_multiset(desc["AttributeDefinitions"]) == as_multiset(HASH_ONLY["AttributeDefinitions"])
    # Real DynamoDB answers CREATING and turns ACTIVE shortly; a local server is ACTIVE at once.
    assert desc["TableStatus"] in ("CREATING", "ACTIVE")
    assert before - 60 <= desc["CreationDateTime"].timestamp() <= after + 60
    assert re.match(arn_re(name), desc["TableArn"]), desc["TableArn"]
    assert UUID_RE.match(desc["TableId"]), desc["TableId"]
    assert desc["ItemCount"] == 0
    assert desc["TableSizeBytes"] == 0
    assert desc["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert "LastUpdateToPayPerRequestDateTime" in desc["BillingModeSummary"]
    pt = desc["ProvisionedThroughput"]
    assert pt["ReadCapacityUnits"] == 0
    assert pt["WriteCapacityUnits"] == 0
    assert pt["NumberOfDecreasesToday"] == 0


def test_create_table_hash_range_provisioned_description(dynamodb, table):
    # A PROVISIONED hash+range table reports its key schema in HASH, RANGE order and the requested read/write capacity units.
    name = table.register(unique_name("prov"))
    desc = dynamodb.create_table(TableName=name, BillingMode="PROVISIONED",
                                 ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                        "WriteCapacityUnits": 7},
                                 **HASH_RANGE)["TableDescription"]
    assert desc["TableName"] == name
    assert desc["KeySchema"] == HASH_RANGE["KeySchema"]
    assert as_multiset(desc["AttributeDefinitions"]) == as_multiset(HASH_RANGE["AttributeDefinitions"])
    assert desc["TableStatus"] in ("CREATING", "ACTIVE")
    assert re.match(arn_re(name), desc["TableArn"])
    assert UUID_RE.match(desc["TableId"])
    assert desc["ItemCount"] == 0
    assert desc["TableSizeBytes"] == 0
    pt = desc["ProvisionedThroughput"]
    assert pt["ReadCapacityUnits"] == 5
    assert pt["WriteCapacityUnits"] == 7
    assert pt["NumberOfDecreasesToday"] == 0
    if "BillingModeSummary" in desc:
        assert desc["BillingModeSummary"]["BillingMode"] == "PROVISIONED"


def test_create_table_without_billing_mode_defaults_to_provisioned(dynamodb, table):
    # BillingMode defaults to PROVISIONED, so a CreateTable with only ProvisionedThroughput gets those capacity units.
    name = table.register(unique_name("default"))
    desc = dynamodb.create_table(TableName=name,
                                 ProvisionedThroughput={"ReadCapacityUnits": 2,
                                                        "WriteCapacityUnits": 3},
                                 **HASH_ONLY)["TableDescription"]
    assert desc["ProvisionedThroughput"]["ReadCapacityUnits"] == 2
    assert desc["ProvisionedThroughput"]["WriteCapacityUnits"] == 3
    assert desc.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED") == "PROVISIONED"


def test_describe_table_matches_create(dynamodb, table):
    # DescribeTable returns the same identity and schema CreateTable returned, with TableStatus ACTIVE once ready.
    name = table.register(unique_name("describe"))
    created = dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                    **HASH_RANGE)["TableDescription"]
    wait_active(dynamodb, name)
    desc = dynamodb.describe_table(TableName=name)["Table"]
    assert desc["TableName"] == name
    assert desc["TableStatus"] == "ACTIVE"
    for field in ("TableArn", "TableId", "KeySchema", "CreationDateTime"):
        assert desc[field] == created[field], field
    assert as_multiset(desc["AttributeDefinitions"]) == as_multiset(created["AttributeDefinitions"])
    assert desc["ItemCount"] == 0
    assert desc["TableSizeBytes"] == 0
    assert desc["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert desc["ProvisionedThroughput"]["ReadCapacityUnits"] == 0
    assert desc["ProvisionedThroughput"]["WriteCapacityUnits"] == 0
    # Features that were not requested are not described.
    for absent in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes", "StreamSpecification",
                   "LatestStreamArn", "RestoreSummary"):
        assert absent not in desc, absent


def test_table_exists_waiter(dynamodb, table):
    # boto3's table_exists waiter (DescribeTable until ACTIVE) succeeds for a freshly created table.
    name = table.register(unique_name("waiter"))
    dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_ONLY)
    dynamodb.get_waiter("table_exists").wait(TableName=name,
                                             WaiterConfig={"Delay": 1, "MaxAttempts": 30})
    assert dynamodb.describe_table(TableName=name)["Table"]["TableStatus"] == "ACTIVE"


def test_create_existing_table_is_resource_in_use(dynamodb, table):
    # CreateTable with the name of an existing table fails with ResourceInUseException ("Table already exists").
    name = table()
    with expect_error("ResourceInUseException", "already exists"):
        dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_ONLY)


def test_describe_missing_table_is_resource_not_found(dynamodb):
    # DescribeTable of a table that does not exist fails with ResourceNotFoundException.
    with expect_error("ResourceNotFoundException", "not found"):
        dynamodb.describe_table(TableName=unique_name("missing"))


def test_delete_missing_table_is_resource_not_found(dynamodb):
    # DeleteTable of a table that does not exist fails with ResourceNotFoundException.
    with expect_error("ResourceNotFoundException", "not found"):
        dynamodb.delete_table(TableName=unique_name("missing"))


@pytest.mark.parametrize("bad_name", ["ab", "bad name!", "x" * 256],
                         ids=["too-short", "bad-chars", "too-long"])
def test_invalid_table_name_rejected(dynamodb, table, bad_name):
    # Table names must be 3-255 characters of [a-zA-Z0-9_.-]; others fail with a ValidationException constraint message.
    table.register(bad_name)  # in case a buggy server creates it anyway
    with expect_error("ValidationException", "failed to satisfy constraint"):
        dynamodb.create_table(TableName=bad_name, BillingMode="PAY_PER_REQUEST", **HASH_ONLY)


@pytest.mark.parametrize("key_schema,attr_defs", [
    # key attribute missing from AttributeDefinitions
    ([{"AttributeName": "pk", "KeyType": "HASH"}],
     [{"AttributeName": "other", "AttributeType": "S"}]),
    # AttributeDefinitions has an attribute no key (or index) uses
    ([{"AttributeName": "pk", "KeyType": "HASH"}],
     [{"AttributeName": "pk", "AttributeType": "S"},
      {"AttributeName": "extra", "AttributeType": "S"}]),
], ids=["key-not-defined", "extra-definition"])
def test_key_schema_must_match_attribute_definitions(dynamodb, table, key_schema, attr_defs):
    # KeySchema and AttributeDefinitions must name exactly the same attributes, else ValidationException.
    name = table.register(unique_name("badschema"))
    with expect_error("ValidationException", "AttributeDefinitions"):
        dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                              KeySchema=key_schema, AttributeDefinitions=attr_defs)


def test_provisioned_without_throughput_rejected(dynamodb, table):
    # BillingMode PROVISIONED without ProvisionedThroughput is a ValidationException naming the missing throughput/capacity units.
    name = table.register(unique_name("nothroughput"))
    with expect_error("ValidationException", r"(?i)provisioned ?throughput|ReadCapacityUnits"):
        dynamodb.create_table(TableName=name, BillingMode="PROVISIONED", **HASH_ONLY)


def test_create_table_options_are_described(dynamodb, table):
    # GSIs, LSIs, streams, SSE, tags, table class and deletion protection given to CreateTable are all reported back by DescribeTable.
    gsi = {
        "IndexName": "by_g",
        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"},
    }
    lsi = {
        "IndexName": "by_l",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "l", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"},
    }
    tags = [{"Key": "team", "Value": "storage"}, {"Key": "env", "Value": "test"}]
    attr_defs = [{"AttributeName": "pk", "AttributeType": "S"},
                 {"AttributeName": "sk", "AttributeType": "S"},
                 {"AttributeName": "g", "AttributeType": "N"},
                 {"AttributeName": "l", "AttributeType": "S"}]
    name = table.register(unique_name("opts"))
    table.client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=attr_defs,
        GlobalSecondaryIndexes=[gsi],
        LocalSecondaryIndexes=[lsi],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        SSESpecification={"Enabled": True, "SSEType": "KMS"},
        Tags=tags,
        TableClass="STANDARD_INFREQUENT_ACCESS",
        DeletionProtectionEnabled=True,
    )
    wait_active(dynamodb, name)
    desc = table.client.describe_table(TableName=name)["Table"]
    table_arn = desc["TableArn"]
    assert desc["TableStatus"] == "ACTIVE"
    assert as_multiset(desc["AttributeDefinitions"]) == as_multiset(attr_defs)

    gsis = desc["GlobalSecondaryIndexes"]
    assert len(gsis) == 1
    assert gsis[0]["IndexName"] == "by_g"
    assert gsis[0]["KeySchema"] == gsi["KeySchema"]
    assert gsis[0]["Projection"] == gsi["Projection"]
    assert gsis[0]["IndexStatus"] == "ACTIVE"
    assert gsis[0]["IndexArn"] == table_arn + "/index/by_g"

    lsis = desc["LocalSecondaryIndexes"]
    assert len(lsis) == 1
    assert lsis[0]["IndexName"] == "by_l"
    assert lsis[0]["KeySchema"] == lsi["KeySchema"]
    assert lsis[0]["Projection"] == lsi["Projection"]
    assert lsis[0]["IndexArn"] == table_arn + "/index/by_l"

    assert desc["StreamSpecification"] == {"StreamEnabled": True,
                                           "StreamViewType": "NEW_AND_OLD_IMAGES"}
    label = desc["LatestStreamLabel"]
    assert label
    assert desc["LatestStreamArn"] == table_arn + "/stream/" + label

    sse = desc["SSEDescription"]
    assert sse["Status"] == "ENABLED"
    assert sse["SSEType"] == "KMS"
    assert sse["KMSMasterKeyArn"].startswith("arn:")

    assert desc["TableClassSummary"]["TableClass"] == "STANDARD_INFREQUENT_ACCESS"
    assert desc["DeletionProtectionEnabled"] is True

    got_tags = dynamodb.list_tags_of_resource(ResourceArn=table_arn)["Tags"]
    assert as_multiset(got_tags) == as_multiset(tags)

    # The same description reaches a boto3 client (for the members it knows).
    parsed = dynamodb.describe_table(TableName=name)["Table"]
    assert parsed["GlobalSecondaryIndexes"][0]["IndexArn"] == table_arn + "/index/by_g"
    assert parsed["TableClassSummary"]["TableClass"] == "STANDARD_INFREQUENT_ACCESS"


def test_delete_table_returns_description_and_table_is_gone(dynamodb, table):
    # DeleteTable returns the table's description (status DELETING); the table then disappears from DescribeTable and ListTables.
    name = table()
    arn = dynamodb.describe_table(TableName=name)["Table"]["TableArn"]
    desc = dynamodb.delete_table(TableName=name)["TableDescription"]
    assert desc["TableName"] == name
    assert desc["TableArn"] == arn
    assert desc["TableStatus"] == "DELETING"
    wait_gone(dynamodb, name)
    with expect_error("ResourceNotFoundException"):
        dynamodb.describe_table(TableName=name)
    assert name not in all_table_names(dynamodb)


def test_deletion_protection_blocks_delete_until_disabled(dynamodb, table):
    # With DeletionProtectionEnabled, DeleteTable fails with ValidationException; after UpdateTable disables it, the delete succeeds.
    name = table.register(unique_name("protected"))
    created = table.client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                        DeletionProtectionEnabled=True, **HASH_ONLY)
    assert created["TableDescription"]["DeletionProtectionEnabled"] is True
    wait_active(dynamodb, name)
    with expect_error("ValidationException",
                      r"protected against deletion|[Dd]eletion ?[Pp]rotection"):
        dynamodb.delete_table(TableName=name)
    desc = table.client.describe_table(TableName=name)["Table"]
    assert desc["TableStatus"] == "ACTIVE"
    assert desc["DeletionProtectionEnabled"] is True

    updated = table.client.update_table(TableName=name, DeletionProtectionEnabled=False)
    assert updated["TableDescription"]["TableName"] == name
    wait_active(dynamodb, name)
    assert table.client.describe_table(TableName=name)["Table"]["DeletionProtectionEnabled"] is False
    dynamodb.delete_table(TableName=name)
    wait_gone(dynamodb, name)


def test_update_table_billing_mode_and_throughput(dynamodb, table):
    # UpdateTable switching PAY_PER_REQUEST -> PROVISIONED and then changing capacity is reflected by DescribeTable.
    name = table()
    dynamodb.update_table(TableName=name, BillingMode="PROVISIONED",
                          ProvisionedThroughput={"ReadCapacityUnits": 3, "WriteCapacityUnits": 4})
    wait_active(dynamodb, name)
    desc = dynamodb.describe_table(TableName=name)["Table"]
    assert desc["BillingModeSummary"]["BillingMode"] == "PROVISIONED"
    assert desc["ProvisionedThroughput"]["ReadCapacityUnits"] == 3
    assert desc["ProvisionedThroughput"]["WriteCapacityUnits"] == 4

    resp = dynamodb.update_table(TableName=name, ProvisionedThroughput={
        "ReadCapacityUnits": 6, "WriteCapacityUnits": 8})
    assert resp["TableDescription"]["TableName"] == name
    wait_active(dynamodb, name)
    desc = dynamodb.describe_table(TableName=name)["Table"]
    assert desc["BillingModeSummary"]["BillingMode"] == "PROVISIONED"
    assert desc["ProvisionedThroughput"]["ReadCapacityUnits"] == 6
    assert desc["ProvisionedThroughput"]["WriteCapacityUnits"] == 8


def test_update_table_throughput_on_provisioned_table(dynamodb, table):
    # UpdateTable on a table created PROVISIONED changes its capacity units as DescribeTable reports.
    name = table(ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    dynamodb.update_table(TableName=name, ProvisionedThroughput={
        "ReadCapacityUnits": 10, "WriteCapacityUnits": 20})
    wait_active(dynamodb, name)
    pt = dynamodb.describe_table(TableName=name)["Table"]["ProvisionedThroughput"]
    assert pt["ReadCapacityUnits"] == 10
    assert pt["WriteCapacityUnits"] == 20


def test_update_missing_table_is_resource_not_found(dynamodb):
    # UpdateTable of a table that does not exist fails with ResourceNotFoundException.
    with expect_error("ResourceNotFoundException"):
        dynamodb.update_table(TableName=unique_name("missing"), BillingMode="PAY_PER_REQUEST")


def test_list_tables_limit_and_exclusive_start(dynamodb, table):
    # ListTables returns names in ascending order; Limit caps a page, LastEvaluatedTableName continues it via ExclusiveStartTableName.
    prefix = unique_name("lt") + "-"
    names = [table(name=prefix + suffix) for suffix in ("a", "b", "c")]

    page = dynamodb.list_tables(ExclusiveStartTableName=names[0], Limit=1)
    assert page["TableNames"] == [names[1]]
    assert page["LastEvaluatedTableName"] == names[1]

    page = dynamodb.list_tables(ExclusiveStartTableName=page["LastEvaluatedTableName"], Limit=1)
    assert page["TableNames"] == [names[2]]

    page = dynamodb.list_tables(ExclusiveStartTableName=names[0], Limit=2)
    assert page["TableNames"] == names[1:]
    if "LastEvaluatedTableName" in page:
        assert page["LastEvaluatedTableName"] == names[2]

    # A full walk with Limit=2 sees every table exactly once, in order.
    seen = []
    kwargs = {"Limit": 2}
    for _ in range(5000):
        page = dynamodb.list_tables(**kwargs)
        assert len(page["TableNames"]) <= 2
        seen.extend(page["TableNames"])
        last = page.get("LastEvaluatedTableName")
        if not last:
            break
        assert last == page["TableNames"][-1]
        kwargs = {"Limit": 2, "ExclusiveStartTableName": last}
    else:
        pytest.fail("ListTables pagination did not terminate")
    assert seen == sorted(seen)
    assert len(seen) == len(set(seen))
    assert set(names) <= set(seen)


def test_list_tables_paginator(dynamodb, table):
    # boto3's list_tables paginator (following LastEvaluatedTableName) returns every created table.
    names = {table(prefix="pg") for _ in range(3)}
    paginator = dynamodb.get_paginator("list_tables")
    listed = []
    for page in paginator.paginate(PaginationConfig={"PageSize": 1}):
        listed.extend(page["TableNames"])
    assert names <= set(listed)
    assert len(listed) == len(set(listed))


def test_tag_untag_round_trip(dynamodb, table):
    # TagResource adds tags, ListTagsOfResource lists them, UntagResource removes the named keys.
    name = table()
    arn = dynamodb.describe_table(TableName=name)["Table"]["TableArn"]
    assert dynamodb.list_tags_of_resource(ResourceArn=arn).get("Tags", []) == []
    dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": "a", "Value": "1"},
                                                 {"Key": "b", "Value": "2"}])
    tags = dynamodb.list_tags_of_resource(ResourceArn=arn)["Tags"]
    assert as_multiset(tags) == as_multiset([{"Key": "a", "Value": "1"},
                                             {"Key": "b", "Value": "2"}])
    # Tagging an existing key overwrites its value.
    dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": "a", "Value": "one"}])
    dynamodb.untag_resource(ResourceArn=arn, TagKeys=["b"])
    tags = dynamodb.list_tags_of_resource(ResourceArn=arn)["Tags"]
    assert tags == [{"Key": "a", "Value": "one"}]


def test_describe_limits(dynamodb):
    # DescribeLimits reports the four account/table capacity limits as positive integers.
    resp = dynamodb.describe_limits()
    for key in ("AccountMaxReadCapacityUnits", "AccountMaxWriteCapacityUnits",
                "TableMaxReadCapacityUnits", "TableMaxWriteCapacityUnits"):
        assert isinstance(resp[key], int) and resp[key] > 0, key
    assert resp["TableMaxReadCapacityUnits"] <= resp["AccountMaxReadCapacityUnits"]
    assert resp["TableMaxWriteCapacityUnits"] <= resp["AccountMaxWriteCapacityUnits"]


def test_describe_endpoints(dynamodb, server_url):
    # DescribeEndpoints names the host the client used (never an AWS hostname to leave for),
    # cached for a day.
    endpoints = dynamodb.describe_endpoints()["Endpoints"]
    host = server_url.split("://", 1)[1].rstrip("/")
    assert endpoints == [{"Address": host, "CachePeriodInMinutes": 1440}]
