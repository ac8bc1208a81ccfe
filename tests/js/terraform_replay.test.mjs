// Replays what the Terraform AWS provider (v6) asks of DynamoDB for an
// `aws_dynamodb_table` with a global index, TTL, point-in-time recovery and
// tags — create, read, update, destroy — for one restored to a point in
// time, for one made by `import_table` from an `aws_dynamodb_table_export`,
// and for an `aws_dynamodb_resource_policy`, in the provider's order,
// and asserts every field its waiters and its read depend on.
//
// The provider's waiters poll DescribeTable until a status is ACTIVE; a
// status that is missing counts as "not found", and after 20 such answers
// the apply fails with "couldn't find resource (21 retries)". Since v6.13
// they wait on Table.WarmThroughput.Status and on each global index's
// WarmThroughput.Status, which is why both must always be there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  DynamoDBClient, CreateTableCommand, DescribeTableCommand, UpdateTableCommand,
  DeleteTableCommand, UpdateTimeToLiveCommand, DescribeTimeToLiveCommand,
  UpdateContinuousBackupsCommand, DescribeContinuousBackupsCommand,
  ListTagsOfResourceCommand, TagResourceCommand, UntagResourceCommand,
  ResourceNotFoundException, PutItemCommand, ScanCommand, RestoreTableToPointInTimeCommand,
  PutResourcePolicyCommand, GetResourcePolicyCommand, DeleteResourcePolicyCommand,
  ExportTableToPointInTimeCommand, DescribeExportCommand, ImportTableCommand,
  DescribeImportCommand,
} from "@aws-sdk/client-dynamodb";

import { startServer } from "./localdynamo.mjs";

let server;
let ddb;

before(async () => {
  server = await startServer();
  ddb = new DynamoDBClient(server.config);
});

after(async () => {
  ddb?.destroy();
  await server?.stop();
});

// The provider's waiter: polls until `status()` answers `target` on
// `consecutive` reads in a row; undefined is "not found", and 20 of those
// fail as the provider fails. Local statuses settle at once, so no polling
// delay is needed: the bound is on attempts, not time.
async function waitFor(name, status, target, { consecutive = 1, pending = [] } = {}) {
  let notFound = 0;
  let seen = 0;
  for (let attempt = 0; attempt < 50; attempt++) {
    const value = await status();
    if (value === undefined) {
      assert.ok(++notFound <= 20, `${name}: couldn't find resource (21 retries)`);
      continue;
    }
    if (value === target) {
      if (++seen >= consecutive) return;
      continue;
    }
    seen = 0;
    assert.ok(pending.includes(value), `${name}: unexpected state ${value}`);
  }
  assert.fail(`${name}: still not ${target}`);
}

const describe = async (name) => (await ddb.send(new DescribeTableCommand({ TableName: name }))).Table;
const index = (table, name) => table.GlobalSecondaryIndexes?.find((i) => i.IndexName === name);

async function waitTableActive(name) {
  await waitFor("table", async () => (await describe(name)).TableStatus, "ACTIVE",
                { consecutive: 2, pending: ["CREATING", "UPDATING"] });
}
async function waitTableWarmThroughputActive(name) {
  await waitFor("table warm throughput", async () => (await describe(name)).WarmThroughput?.Status,
                "ACTIVE", { pending: ["CREATING", "UPDATING"] });
}
async function waitGSIActive(name, gsi) {
  await waitFor(`index ${gsi}`, async () => index(await describe(name), gsi)?.IndexStatus, "ACTIVE",
                { pending: ["CREATING", "UPDATING"] });
}
async function waitGSIWarmThroughputActive(name, gsi) {
  await waitFor(`index ${gsi} warm throughput`,
                async () => index(await describe(name), gsi)?.WarmThroughput?.Status, "ACTIVE",
                { pending: ["CREATING", "UPDATING"] });
}
async function waitTTL(name, target) {
  await waitFor("ttl", async () => (await ddb.send(new DescribeTimeToLiveCommand({ TableName: name })))
    .TimeToLiveDescription.TimeToLiveStatus, target, { pending: ["ENABLING", "DISABLING"] });
}
async function waitPITR(name, target) {
  await waitFor("pitr", async () => (await ddb.send(new DescribeContinuousBackupsCommand({ TableName: name })))
    .ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus, target,
                { pending: ["ENABLING", "DISABLED", "DISABLING"] });
}

// The provider's read: every field it flattens into state.
async function read(name) {
  const table = await describe(name);
  const backups = await ddb.send(new DescribeContinuousBackupsCommand({ TableName: name }));
  const ttl = await ddb.send(new DescribeTimeToLiveCommand({ TableName: name }));
  const tags = await ddb.send(new ListTagsOfResourceCommand({ ResourceArn: table.TableArn }));
  return { table, backups, ttl, tags: Object.fromEntries(tags.Tags.map((t) => [t.Key, t.Value])) };
}

test("aws_dynamodb_table on demand: create, read, update, destroy", async () => {
  const name = "tf-orders";
  // Create: one CreateTable with everything but TTL and PITR.
  const created = await ddb.send(new CreateTableCommand({
    TableName: name, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" },
                           { AttributeName: "sk", AttributeType: "S" },
                           { AttributeName: "status", AttributeType: "S" }],
    GlobalSecondaryIndexes: [{
      IndexName: "by-status", KeySchema: [{ AttributeName: "status", KeyType: "HASH" }],
      Projection: { ProjectionType: "ALL" },
      OnDemandThroughput: { MaxReadRequestUnits: 200, MaxWriteRequestUnits: 100 },
    }],
    OnDemandThroughput: { MaxReadRequestUnits: 500 },
    StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
    DeletionProtectionEnabled: false,
    Tags: [{ Key: "env", Value: "test" }, { Key: "team", Value: "orders" }],
  }));
  // DynamoDB's CreateTable answer leaves warm throughput out unless it was asked for.
  assert.equal(created.TableDescription.WarmThroughput, undefined);
  await waitTableActive(name);
  await waitTableWarmThroughputActive(name);
  await waitGSIActive(name, "by-status");
  await waitGSIWarmThroughputActive(name, "by-status");
  await ddb.send(new UpdateTimeToLiveCommand({
    TableName: name, TimeToLiveSpecification: { Enabled: true, AttributeName: "expires" } }));
  await waitTTL(name, "ENABLED");
  await ddb.send(new UpdateContinuousBackupsCommand({
    TableName: name, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }));
  await waitPITR(name, "ENABLED");

  let state = await read(name);
  assert.match(state.table.TableArn, /^arn:aws:dynamodb:us-east-1:\d{12}:table\/tf-orders$/);
  assert.equal(state.table.BillingModeSummary.BillingMode, "PAY_PER_REQUEST");
  assert.deepEqual(state.table.WarmThroughput,
                   { ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 4000, Status: "ACTIVE" });
  assert.deepEqual(state.table.OnDemandThroughput, { MaxReadRequestUnits: 500 });
  const gsi = index(state.table, "by-status");
  assert.deepEqual(gsi.ProvisionedThroughput,
                   { NumberOfDecreasesToday: 0, ReadCapacityUnits: 0, WriteCapacityUnits: 0 });
  assert.deepEqual(gsi.OnDemandThroughput, { MaxReadRequestUnits: 200, MaxWriteRequestUnits: 100 });
  assert.deepEqual(gsi.WarmThroughput,
                   { ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 4000, Status: "ACTIVE" });
  assert.deepEqual(gsi.Projection, { ProjectionType: "ALL" });
  assert.equal(state.table.StreamSpecification.StreamViewType, "NEW_AND_OLD_IMAGES");
  assert.ok(state.table.LatestStreamArn.startsWith(state.table.TableArn + "/stream/"));
  assert.equal(state.table.DeletionProtectionEnabled, false);
  assert.equal(state.backups.ContinuousBackupsDescription.PointInTimeRecoveryDescription
    .PointInTimeRecoveryStatus, "ENABLED");
  assert.deepEqual(state.ttl.TimeToLiveDescription,
                   { TimeToLiveStatus: "ENABLED", AttributeName: "expires" });
  assert.deepEqual(state.tags, { env: "test", team: "orders" });

  // Update: one UpdateTable with the table's and the index's on-demand
  // maximums, then the index's warm throughput, then tags, then the table's
  // warm throughput — each followed by the provider's waiters.
  await ddb.send(new UpdateTableCommand({
    TableName: name, OnDemandThroughput: { MaxReadRequestUnits: -1, MaxWriteRequestUnits: 300 },
    GlobalSecondaryIndexUpdates: [{ Update: {
      IndexName: "by-status", OnDemandThroughput: { MaxReadRequestUnits: 400 } } }],
  }));
  await waitTableActive(name);
  await waitTableWarmThroughputActive(name);
  await waitGSIActive(name, "by-status");
  await waitGSIWarmThroughputActive(name, "by-status");
  await ddb.send(new UpdateTableCommand({
    TableName: name, GlobalSecondaryIndexUpdates: [{ Update: {
      IndexName: "by-status", WarmThroughput: { ReadUnitsPerSecond: 15000 } } }],
  }));
  await waitGSIActive(name, "by-status");
  await waitGSIWarmThroughputActive(name, "by-status");
  await ddb.send(new UntagResourceCommand({ ResourceArn: state.table.TableArn, TagKeys: ["team"] }));
  await ddb.send(new TagResourceCommand({ ResourceArn: state.table.TableArn,
                                          Tags: [{ Key: "owner", Value: "ops" }] }));
  const raised = await ddb.send(new UpdateTableCommand({
    TableName: name, WarmThroughput: { ReadUnitsPerSecond: 14000, WriteUnitsPerSecond: 5000 } }));
  // The answer shows the values from before the increase, UPDATING.
  assert.deepEqual(raised.TableDescription.WarmThroughput,
                   { ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 4000, Status: "UPDATING" });
  await waitTableActive(name);
  await waitTableWarmThroughputActive(name);

  state = await read(name);
  assert.deepEqual(state.table.OnDemandThroughput, { MaxWriteRequestUnits: 300 });
  assert.deepEqual(state.table.WarmThroughput,
                   { ReadUnitsPerSecond: 14000, WriteUnitsPerSecond: 5000, Status: "ACTIVE" });
  const updated = index(state.table, "by-status");
  assert.deepEqual(updated.OnDemandThroughput, { MaxReadRequestUnits: 400, MaxWriteRequestUnits: 100 });
  assert.deepEqual(updated.WarmThroughput,
                   { ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 4000, Status: "ACTIVE" });
  assert.deepEqual(state.tags, { env: "test", owner: "ops" });

  // Destroy: DeleteTable, then DescribeTable until ResourceNotFoundException.
  await ddb.send(new DeleteTableCommand({ TableName: name }));
  await assert.rejects(describe(name), (e) => e instanceof ResourceNotFoundException &&
                       e.message === `Requested resource not found: Table: ${name} not found`);
});

test("aws_dynamodb_table provisioned: warm throughput follows the highest capacity", async () => {
  const name = "tf-provisioned";
  await ddb.send(new CreateTableCommand({
    TableName: name, BillingMode: "PROVISIONED",
    ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" },
                           { AttributeName: "g", AttributeType: "S" }],
    GlobalSecondaryIndexes: [{
      IndexName: "g-index", KeySchema: [{ AttributeName: "g", KeyType: "HASH" }],
      Projection: { ProjectionType: "KEYS_ONLY" },
      ProvisionedThroughput: { ReadCapacityUnits: 3, WriteCapacityUnits: 2 },
    }],
  }));
  await waitTableActive(name);
  await waitTableWarmThroughputActive(name);
  await waitGSIWarmThroughputActive(name, "g-index");
  let table = await describe(name);
  assert.equal(table.BillingModeSummary, undefined);  // the provider reads that as PROVISIONED
  assert.deepEqual(table.WarmThroughput, { ReadUnitsPerSecond: 5, WriteUnitsPerSecond: 5, Status: "ACTIVE" });
  assert.deepEqual(index(table, "g-index").WarmThroughput,
                   { ReadUnitsPerSecond: 3, WriteUnitsPerSecond: 2, Status: "ACTIVE" });
  assert.equal(table.OnDemandThroughput, undefined);

  for (const units of [10, 2]) {
    await ddb.send(new UpdateTableCommand({
      TableName: name, ProvisionedThroughput: { ReadCapacityUnits: units, WriteCapacityUnits: units },
      GlobalSecondaryIndexUpdates: [{ Update: { IndexName: "g-index",
        ProvisionedThroughput: { ReadCapacityUnits: units, WriteCapacityUnits: units } } }],
    }));
    await waitTableActive(name);
    await waitTableWarmThroughputActive(name);
    await waitGSIWarmThroughputActive(name, "g-index");
  }
  table = await describe(name);
  assert.equal(table.ProvisionedThroughput.ReadCapacityUnits, 2);
  // Lowering capacity never lowers warm throughput.
  assert.deepEqual(table.WarmThroughput, { ReadUnitsPerSecond: 10, WriteUnitsPerSecond: 10, Status: "ACTIVE" });
  assert.deepEqual(index(table, "g-index").WarmThroughput,
                   { ReadUnitsPerSecond: 10, WriteUnitsPerSecond: 10, Status: "ACTIVE" });

  // On demand and back: 12,000/4,000, kept after the switch back.
  await ddb.send(new UpdateTableCommand({ TableName: name, BillingMode: "PAY_PER_REQUEST" }));
  await ddb.send(new UpdateTableCommand({
    TableName: name, BillingMode: "PROVISIONED",
    ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
    GlobalSecondaryIndexUpdates: [{ Update: { IndexName: "g-index",
      ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 } } }],
  }));
  table = await describe(name);
  assert.deepEqual(table.WarmThroughput,
                   { ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 4000, Status: "ACTIVE" });
  await ddb.send(new DeleteTableCommand({ TableName: name }));
});

test("aws_dynamodb_table restored to a point in time, and aws_dynamodb_resource_policy", async () => {
  // The source, with point_in_time_recovery { enabled = true }.
  const source = "tf-pitr-source";
  await ddb.send(new CreateTableCommand({
    TableName: source, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  }));
  await waitTableActive(source);
  await ddb.send(new UpdateContinuousBackupsCommand({
    TableName: source, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }));
  await waitPITR(source, "ENABLED");
  await ddb.send(new PutItemCommand({ TableName: source, Item: { pk: { S: "kept" } } }));

  // restore_source_name + restore_to_latest_time: RestoreTableToPointInTime,
  // then the provider's create waiters.
  const restored = "tf-pitr-restored";
  const answer = await ddb.send(new RestoreTableToPointInTimeCommand({
    SourceTableName: source, TargetTableName: restored, UseLatestRestorableTime: true }));
  assert.equal(answer.TableDescription.RestoreSummary.RestoreInProgress, true);
  await waitTableActive(restored);
  await waitTableWarmThroughputActive(restored);
  const { Items } = await ddb.send(new ScanCommand({ TableName: restored }));
  assert.deepEqual(Items, [{ pk: { S: "kept" } }]);
  // The provider then applies the resource's own recovery setting.
  await waitPITR(restored, "DISABLED");

  // aws_dynamodb_resource_policy: put, then read until it is there; destroy.
  const arn = (await describe(restored)).TableArn;
  const policy = JSON.stringify({ Version: "2012-10-17", Statement: [{
    Effect: "Allow", Principal: { AWS: "arn:aws:iam::111122223333:root" },
    Action: "dynamodb:GetItem", Resource: arn }] });
  const { RevisionId } = await ddb.send(new PutResourcePolicyCommand({ ResourceArn: arn, Policy: policy }));
  const read = await ddb.send(new GetResourcePolicyCommand({ ResourceArn: arn }));
  assert.equal(read.RevisionId, RevisionId);
  assert.deepEqual(JSON.parse(read.Policy), JSON.parse(policy));
  await ddb.send(new DeleteResourcePolicyCommand({ ResourceArn: arn }));
  await assert.rejects(ddb.send(new GetResourcePolicyCommand({ ResourceArn: arn })),
                       (e) => e.name === "PolicyNotFoundException");
  for (const name of [restored, source]) await ddb.send(new DeleteTableCommand({ TableName: name }));
});

test("aws_dynamodb_table_export, then aws_dynamodb_table with import_table", async () => {
  const source = "tf-export-source";
  await ddb.send(new CreateTableCommand({
    TableName: source, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  }));
  await waitTableActive(source);
  await ddb.send(new UpdateContinuousBackupsCommand({
    TableName: source, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }));
  await waitPITR(source, "ENABLED");
  for (const pk of ["a", "b", "c"]) {
    await ddb.send(new PutItemCommand({ TableName: source, Item: { pk: { S: pk }, g: { S: "x" } } }));
  }

  // aws_dynamodb_table_export: the export, then DescribeExport until
  // COMPLETED; ExportManifest becomes manifest_files_s3_key.
  const { ExportDescription } = await ddb.send(new ExportTableToPointInTimeCommand({
    TableArn: (await describe(source)).TableArn, S3Bucket: "tf-exports",
    ExportFormat: "DYNAMODB_JSON" }));
  await waitFor("export", async () => (await ddb.send(new DescribeExportCommand({
    ExportArn: ExportDescription.ExportArn }))).ExportDescription.ExportStatus, "COMPLETED",
                { pending: ["IN_PROGRESS"] });
  const exported = (await ddb.send(new DescribeExportCommand({
    ExportArn: ExportDescription.ExportArn }))).ExportDescription;
  assert.match(exported.ExportManifest, /^AWSDynamoDB\/\d{14}-[0-9a-f]{8}\/manifest-summary\.json$/);
  const exportId = ExportDescription.ExportArn.split("/").pop();

  // import_table { s3_bucket_source { bucket, key_prefix } ... } with a
  // global index: ImportTable, DescribeImport until COMPLETED, then the
  // table's create waiters and the provider's read.
  const name = "tf-imported";
  const imported = await ddb.send(new ImportTableCommand({
    ClientToken: "terraform-import-1",
    InputFormat: "DYNAMODB_JSON", InputCompressionType: "GZIP",
    S3BucketSource: { S3Bucket: "tf-exports", S3KeyPrefix: `AWSDynamoDB/${exportId}/data/` },
    TableCreationParameters: {
      TableName: name, BillingMode: "PAY_PER_REQUEST",
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" },
                             { AttributeName: "g", AttributeType: "S" }],
      GlobalSecondaryIndexes: [{ IndexName: "by_g",
                                 KeySchema: [{ AttributeName: "g", KeyType: "HASH" }],
                                 Projection: { ProjectionType: "ALL" } }],
    },
  }));
  await waitFor("import", async () => (await ddb.send(new DescribeImportCommand({
    ImportArn: imported.ImportTableDescription.ImportArn }))).ImportTableDescription.ImportStatus,
                "COMPLETED", { pending: ["IN_PROGRESS"] });
  await waitTableActive(name);
  await waitTableWarmThroughputActive(name);
  await waitGSIActive(name, "by_g");
  const state = await read(name);
  assert.equal(state.table.ItemCount, 3);
  assert.equal(index(state.table, "by_g").ItemCount, 3);
  assert.equal(state.backups.ContinuousBackupsDescription.PointInTimeRecoveryDescription
    .PointInTimeRecoveryStatus, "DISABLED");
  for (const table of [name, source]) await ddb.send(new DeleteTableCommand({ TableName: table }));
});
