// Every command of the AWS SDK for JavaScript's DynamoDB client reaches an
// operation the server knows — a new SDK command makes this test say so —
// and the operations built last through this second client: on-demand backups,
// resource policies, Contributor Insights and Kinesis destinations (exports
// and imports: export_import.test.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as sdk from "@aws-sdk/client-dynamodb";

import { startServer } from "./localdynamo.mjs";

const {
  DynamoDBClient, CreateTableCommand, PutItemCommand, ScanCommand, DeleteTableCommand,
  CreateBackupCommand, DescribeBackupCommand, ListBackupsCommand, RestoreTableFromBackupCommand,
  DeleteBackupCommand, PutResourcePolicyCommand, GetResourcePolicyCommand,
  DeleteResourcePolicyCommand, UpdateContributorInsightsCommand,
  DescribeContributorInsightsCommand, EnableKinesisStreamingDestinationCommand,
  DescribeKinesisStreamingDestinationCommand,
} = sdk;

let server;
let ddb;

before(async () => {
  server = await startServer(["--no-models"]);
  ddb = new DynamoDBClient(server.config);
});

after(async () => {
  ddb?.destroy();
  await server?.stop();
});

test("every SDK command reaches a known operation", async () => {
  const operations = Object.keys(sdk)
    .filter((name) => /^[A-Z]\w+Command$/.test(name))
    .map((name) => name.slice(0, -"Command".length));
  assert.ok(operations.length >= 57, `only ${operations.length} commands`);
  const unknown = [];
  for (const operation of operations) {
    // An empty request: a known operation refuses it as invalid (or answers
    // it); only an unknown one says so.
    try {
      await ddb.send(new sdk[`${operation}Command`]({}));
    } catch (e) {
      if (e.name === "UnknownOperationException") unknown.push(operation);
    }
  }
  assert.deepEqual(unknown, []);
});

async function makeTable(TableName) {
  await ddb.send(new CreateTableCommand({
    TableName, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  }));
}

test("a backup restores the table as it was, and outlives it", async () => {
  await makeTable("js-backed-up");
  for (const pk of ["a", "b"]) {
    await ddb.send(new PutItemCommand({ TableName: "js-backed-up", Item: { pk: { S: pk } } }));
  }
  const { BackupDetails } = await ddb.send(new CreateBackupCommand({
    TableName: "js-backed-up", BackupName: "js-backup" }));
  assert.equal(BackupDetails.BackupStatus, "CREATING");
  assert.ok(BackupDetails.BackupCreationDateTime instanceof Date);
  await ddb.send(new PutItemCommand({ TableName: "js-backed-up", Item: { pk: { S: "c" } } }));
  await ddb.send(new DeleteTableCommand({ TableName: "js-backed-up" }));

  const { BackupDescription } = await ddb.send(new DescribeBackupCommand({
    BackupArn: BackupDetails.BackupArn }));
  assert.equal(BackupDescription.BackupDetails.BackupStatus, "AVAILABLE");
  assert.equal(BackupDescription.SourceTableDetails.ItemCount, 2);
  const { BackupSummaries } = await ddb.send(new ListBackupsCommand({ TableName: "js-backed-up" }));
  assert.deepEqual(BackupSummaries.map((b) => b.BackupArn), [BackupDetails.BackupArn]);

  const { TableDescription } = await ddb.send(new RestoreTableFromBackupCommand({
    TargetTableName: "js-restored", BackupArn: BackupDetails.BackupArn }));
  assert.equal(TableDescription.RestoreSummary.RestoreInProgress, true);
  const { Items } = await ddb.send(new ScanCommand({ TableName: "js-restored" }));
  assert.deepEqual(Items.map((i) => i.pk.S).sort(), ["a", "b"]);

  await ddb.send(new DeleteBackupCommand({ BackupArn: BackupDetails.BackupArn }));
  await assert.rejects(ddb.send(new DescribeBackupCommand({ BackupArn: BackupDetails.BackupArn })),
                       (e) => e.name === "BackupNotFoundException" &&
                              e.message === `Backup not found: ${BackupDetails.BackupArn}`);
});

test("a resource policy is kept in canonical form with its revision", async () => {
  await makeTable("js-policy");
  const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/js-policy";
  const document = {
    Version: "2012-10-17",
    Statement: [{ Sid: "read", Effect: "Allow", Principal: { AWS: "111122223333" },
                  Action: ["dynamodb:GetItem"], Resource: arn }],
  };
  const { RevisionId } = await ddb.send(new PutResourcePolicyCommand({
    ResourceArn: arn, Policy: JSON.stringify(document, null, 2) }));
  const got = await ddb.send(new GetResourcePolicyCommand({ ResourceArn: arn }));
  assert.equal(got.RevisionId, RevisionId);
  assert.deepEqual(JSON.parse(got.Policy).Statement[0], {
    Sid: "read", Effect: "Allow", Principal: { AWS: "arn:aws:iam::111122223333:root" },
    Action: "dynamodb:GetItem", Resource: arn });
  const deleted = await ddb.send(new DeleteResourcePolicyCommand({
    ResourceArn: arn, ExpectedRevisionId: RevisionId }));
  assert.equal(deleted.RevisionId, RevisionId);
  await assert.rejects(ddb.send(new GetResourcePolicyCommand({ ResourceArn: arn })),
                       (e) => e.name === "PolicyNotFoundException");
});

test("Contributor Insights and a Kinesis destination settle as DynamoDB's do", async () => {
  await makeTable("js-insights");
  const updated = await ddb.send(new UpdateContributorInsightsCommand({
    TableName: "js-insights", ContributorInsightsAction: "ENABLE" }));
  assert.equal(updated.ContributorInsightsStatus, "ENABLING");
  const described = await ddb.send(new DescribeContributorInsightsCommand({
    TableName: "js-insights" }));
  assert.equal(described.ContributorInsightsStatus, "ENABLED");
  assert.equal(described.ContributorInsightsRuleList.length, 2);

  const StreamArn = "arn:aws:kinesis:us-east-1:000000000000:stream/js-insights-changes";
  const enabled = await ddb.send(new EnableKinesisStreamingDestinationCommand({
    TableName: "js-insights", StreamArn }));
  assert.equal(enabled.DestinationStatus, "ENABLING");
  const { KinesisDataStreamDestinations } = await ddb.send(
    new DescribeKinesisStreamingDestinationCommand({ TableName: "js-insights" }));
  assert.deepEqual(KinesisDataStreamDestinations, [{ DestinationStatus: "ACTIVE", StreamArn }]);
});
