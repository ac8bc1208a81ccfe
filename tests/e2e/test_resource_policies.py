"""Resource-based policies: PutResourcePolicy, GetResourcePolicy,
DeleteResourcePolicy and CreateTable's ResourcePolicy, with the checks,
canonical form, revision ids and texts real DynamoDB answered
(docs/compatibility.md). Policies are kept, never enforced."""

import json

from .e2e_util import body_of, exact, expect_error, unique_name

ACCOUNT = "000000000000"


def statement(arn, **more):
    out = {"Sid": "read", "Effect": "Allow",
           "Principal": {"AWS": "arn:aws:iam::111122223333:role/reader"},
           "Action": ["dynamodb:GetItem"], "Resource": arn}
    out.update(more)
    return out


def policy(arn, **more):
    return json.dumps({"Version": "2012-10-17", "Statement": [statement(arn, **more)]})


def test_put_get_delete_with_revisions(table):
    name = table()
    arn = table.client.describe_table(TableName=name)["Table"]["TableArn"]
    with expect_error("PolicyNotFoundException",
                      "^Resource-based policy not found for the provided ResourceArn: " + arn + "$"):
        table.client.get_resource_policy(ResourceArn=arn)

    # Sent spaced, keys out of order, a one-element Action list: kept in
    # DynamoDB's canonical form.
    sent = json.dumps({"Statement": [{"Resource": arn, "Action": ["dynamodb:GetItem"],
                                      "Principal": {"AWS": "111122223333"}, "Effect": "allow",
                                      "Sid": "read"}], "Version": "2012-10-17"}, indent=2)
    first = table.client.put_resource_policy(ResourceArn=arn, Policy=sent)["RevisionId"]
    assert first.isdigit() and len(first) == 13
    got = table.client.get_resource_policy(ResourceArn=arn)
    assert got["RevisionId"] == first
    assert got["Policy"] == (
        '{"Version":"2012-10-17","Statement":[{"Sid":"read","Effect":"Allow","Principal":'
        '{"AWS":"arn:aws:iam::111122223333:root"},"Action":"dynamodb:GetItem","Resource":"'
        + arn + '"}]}')

    # The same policy again changes nothing; another one is a new revision.
    assert table.client.put_resource_policy(ResourceArn=arn, Policy=got["Policy"])[
        "RevisionId"] == first
    second = table.client.put_resource_policy(
        ResourceArn=arn, Policy=policy(arn, Action="dynamodb:Query"),
        ExpectedRevisionId=first)["RevisionId"]
    assert int(second) > int(first)

    # A stale or unwanted expectation is refused and changes nothing.
    with expect_error("PolicyNotFoundException", "Requested update for policy with revision id "
                                                 + first + ", but the policy associated"):
        table.client.put_resource_policy(ResourceArn=arn, Policy=policy(arn),
                                         ExpectedRevisionId=first)
    # DynamoDB's text as AWS-verified public suites pin it (2026).
    with expect_error("PolicyNotFoundException", exact(
            "Resource-based policy not found for the provided ResourceArn: Requested policy "
            "update expecting none to be present for table " + name + ", but a policy exists "
            "with revision id " + second + ".")):
        table.client.put_resource_policy(ResourceArn=arn, Policy=policy(arn),
                                         ExpectedRevisionId="NO_POLICY")
    assert table.client.get_resource_policy(ResourceArn=arn)["RevisionId"] == second

    assert body_of(table.client.delete_resource_policy(ResourceArn=arn,
                                                       ExpectedRevisionId=second)) == {
        "RevisionId": second}
    with expect_error("PolicyNotFoundException"):
        table.client.get_resource_policy(ResourceArn=arn)
    assert body_of(table.client.delete_resource_policy(ResourceArn=arn)) == {}
    with expect_error("PolicyNotFoundException", "has no associated policy"):
        table.client.delete_resource_policy(ResourceArn=arn, ExpectedRevisionId=second)
    # NO_POLICY attaches only where there is none.
    third = table.client.put_resource_policy(ResourceArn=arn, Policy=policy(arn),
                                             ExpectedRevisionId="NO_POLICY")["RevisionId"]
    assert int(third) > int(second)


def test_a_stream_has_its_own_policy(table):
    name = table(StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    desc = table.client.describe_table(TableName=name)["Table"]
    stream_arn = desc["LatestStreamArn"]
    table.client.put_resource_policy(ResourceArn=stream_arn, Policy=policy(
        stream_arn, Action="dynamodb:GetRecords"))
    assert "GetRecords" in table.client.get_resource_policy(ResourceArn=stream_arn)["Policy"]
    with expect_error("PolicyNotFoundException"):
        table.client.get_resource_policy(ResourceArn=desc["TableArn"])
    with expect_error("ResourceNotFoundException", "^Requested resource not found: Stream: "
                                                   "2000-01-01T00:00:00.000 not found for Table: "
                                                   + name + "$"):
        table.client.get_resource_policy(ResourceArn=desc["TableArn"] + "/stream/2000-01-01T00:00:00.000")


def test_create_table_takes_a_policy(dynamodb, table):
    name = unique_name("policy")
    arn = "arn:aws:dynamodb:us-east-1:{}:table/{}".format(ACCOUNT, name)
    created = table.client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        ResourcePolicy=json.dumps({"Statement": statement(arn)}))["TableDescription"]
    table.register(name)
    assert not any("olicy" in key for key in created)  # DynamoDB describes none
    got = table.client.get_resource_policy(ResourceArn=arn)
    # No Version: read back as 2008-10-17; a statement object as a list.
    assert got["Policy"].startswith('{"Version":"2008-10-17","Statement":[{"Sid":"read"')
    assert int(got["RevisionId"]) == round(created["CreationDateTime"].timestamp() * 1000)
    with expect_error("ValidationException", "Invalid policy document: This policy contains "
                                             "invalid Json$"):
        table.client.create_table(
            TableName=unique_name("never"), BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            ResourcePolicy="{not json")


def test_refusals_as_dynamodb_words_them(table):
    name = table()
    arn = table.client.describe_table(TableName=name)["Table"]["TableArn"]
    invalid = "^One or more parameter values were invalid: "

    def put(document, resource=arn, **more):
        return table.client.put_resource_policy(**dict(ResourceArn=resource, Policy=document, **more))

    cases = [
        ("{not json", invalid + "Invalid policy document: This policy contains invalid Json$"),
        (json.dumps({"Version": "2012-10-17", "Statement": []}),
         invalid + "Invalid policy document: Could not parse the policy: Statement is empty!$"),
        (json.dumps({"Statement": [{"Effect": "Allow", "Principal": {"AWS": "111122223333"},
                                    "Action": "dynamodb:GetItem"}]}),
         invalid + "Invalid policy document: Missing required field Resource$"),
        (json.dumps({"Statement": [statement(arn), statement(arn)]}),
         invalid + "Invalid policy document: The Statement Ids in the policy are not unique$"),
        (policy(arn, Principal="*"),
         "^Resource-based policy grants unbounded access in one or more elements"),
        (policy(arn, Principal={"AWS": "*"}),
         "^Resource-based policy grants unbounded access in one or more elements"),
        # Nesting no policy needs, refused as it is parsed.
        (policy(arn, Condition=json.loads("[" * 40 + "]" * 40)),
         invalid + "Invalid policy document: This policy contains invalid Json$"),
        (policy(arn, Description="x" * 20480),
         invalid + "Maximum policy size of 20480 bytes exceeded$"),
    ]
    for document, message in cases:
        with expect_error("ValidationException", message):
            put(document)
    # Whitespace counts toward the size; just under the limit is fine.
    fits = policy(arn)
    put(fits + " " * (20480 - len(fits)))
    # Denying everyone to everyone is fine: only an Allow is unbounded.
    denial = policy(arn, Effect="Deny", Principal="*", Action="dynamodb:DeleteTable")
    put(denial)

    # A policy that would lock its author out needs the confirmation.
    lockout = policy(arn, Effect="Deny", Principal={"AWS": ACCOUNT},
                     Action="dynamodb:PutResourcePolicy")
    with expect_error("AccessDeniedException", "^The new resource policy will not allow you to "
                                               "update the resource policy in the future.$"):
        put(lockout)
    put(lockout, ConfirmRemoveSelfResourceAccess=True)

    arn_cases = [
        (name, invalid + "ARNs must start with 'arn:': " + name + "$"),
        (arn + "/index/by_g", invalid + "Invalid resource arn provided, only table or stream is "
                                        "accepted. Provided resource arn: "),
        (arn.replace("us-east-1", "eu-west-1"), invalid + "Invalid resource Arn: "),
        (arn.replace(ACCOUNT, "123456789012"),
         "^This action is only supported by accounts that match the resource owner\u2019s "
         "account.$"),
        (arn + "/backup/01700000000000-0123abcd",
         invalid + "Provided Arn is not a DynamoDB resource arn: "),
    ]
    for resource, message in arn_cases:
        with expect_error("ValidationException", message):
            table.client.get_resource_policy(ResourceArn=resource)
    missing = arn.replace(name, unique_name("missing"))
    with expect_error("ResourceNotFoundException", "^Requested resource not found: Table: "
                                                   + missing.split("/")[-1] + " not found$"):
        put(policy(missing), resource=missing)


def test_a_restored_table_has_no_policy(dynamodb, table):
    name = table()
    arn = table.client.describe_table(TableName=name)["Table"]["TableArn"]
    table.client.put_resource_policy(ResourceArn=arn, Policy=policy(arn))
    backup = dynamodb.create_backup(TableName=name, BackupName="with-policy")["BackupDetails"]
    target = table.register(unique_name("restored"))
    dynamodb.restore_table_from_backup(TargetTableName=target, BackupArn=backup["BackupArn"])
    with expect_error("PolicyNotFoundException"):
        table.client.get_resource_policy(ResourceArn=arn.replace(name, target))
