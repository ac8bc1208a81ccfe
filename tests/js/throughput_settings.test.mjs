// WarmThroughput and OnDemandThroughput through the AWS SDK for JavaScript
// v3 (Debian's boto3 predates both): DynamoDB's defaults, and its checks
// with their texts, on CreateTable and UpdateTable.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  DynamoDBClient, CreateTableCommand, DescribeTableCommand, UpdateTableCommand,
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

const kInvalid = "One or more parameter values were invalid: ";
let tables = 0;

function tableInput(extra = {}, gsi = {}) {
  return {
    TableName: `warm-${++tables}`, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" },
                           { AttributeName: "g", AttributeType: "S" }],
    GlobalSecondaryIndexes: [{ IndexName: "gsi1", KeySchema: [{ AttributeName: "g", KeyType: "HASH" }],
                               Projection: { ProjectionType: "ALL" }, ...gsi }],
    ...extra,
  };
}

async function rejects(command, name, message) {
  await assert.rejects(ddb.send(command), (e) => {
    assert.equal(e.name, name);
    assert.equal(e.message, message);
    return true;
  });
}

test("CreateTable on demand: asked-for warm throughput, the missing side at its default", async () => {
  const input = tableInput({ WarmThroughput: { ReadUnitsPerSecond: 12001 } });
  const created = await ddb.send(new CreateTableCommand(input));
  assert.deepEqual(created.TableDescription.WarmThroughput,
                   { ReadUnitsPerSecond: 12001, WriteUnitsPerSecond: 4000, Status: "UPDATING" });
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName: input.TableName }));
  assert.deepEqual(Table.WarmThroughput,
                   { ReadUnitsPerSecond: 12001, WriteUnitsPerSecond: 4000, Status: "ACTIVE" });
});

test("CreateTable: warm throughput below the floor is refused", async () => {
  for (const read of [1, 0, -1]) {
    await rejects(new CreateTableCommand(tableInput({ WarmThroughput: { ReadUnitsPerSecond: read } })),
                  "ValidationException",
                  kInvalid + "Requested ReadUnitsPerSecond for WarmThroughput for table is lower than " +
                  "initial throughput for OnDemand. See: https://docs.aws.amazon.com/amazondynamodb/" +
                  "latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial");
  }
  const provisioned = tableInput({
    BillingMode: "PROVISIONED", ProvisionedThroughput: { ReadCapacityUnits: 10, WriteCapacityUnits: 10 },
    WarmThroughput: { ReadUnitsPerSecond: 5, WriteUnitsPerSecond: 5 },
  }, { ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 } });
  await rejects(new CreateTableCommand(provisioned), "ValidationException",
                kInvalid + "Requested ReadUnitsPerSecond for WarmThroughput for table is lower than " +
                "ReadCapacityUnits of ProvisionedThroughput");
  // At or above the provisioned capacity is fine, even below 12,000.
  provisioned.WarmThroughput = { ReadUnitsPerSecond: 10, WriteUnitsPerSecond: 20 };
  const created = await ddb.send(new CreateTableCommand(provisioned));
  assert.deepEqual(created.TableDescription.WarmThroughput,
                   { ReadUnitsPerSecond: 10, WriteUnitsPerSecond: 20, Status: "UPDATING" });
});

test("OnDemandThroughput: range, account maximum and billing mode", async () => {
  for (const units of [0, -2]) {
    await rejects(new CreateTableCommand(tableInput({ OnDemandThroughput: { MaxReadRequestUnits: units } })),
                  "ValidationException",
                  kInvalid + "Requested MaxReadRequestUnits for OnDemandThroughput for table is outside of valid range");
  }
  await rejects(new CreateTableCommand(tableInput({ OnDemandThroughput: { MaxWriteRequestUnits: 40001 } })),
                "LimitExceededException",
                "Subscriber limit exceeded: Requested MaxWriteRequestUnits for OnDemandThroughput for " +
                "table exceeds TableMaxWriteCapacityUnits of the account in region us-east-1");
  const provisioned = tableInput({
    BillingMode: "PROVISIONED", ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
    OnDemandThroughput: { MaxReadRequestUnits: 5 },
  }, { ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 } });
  await rejects(new CreateTableCommand(provisioned), "ValidationException",
                kInvalid + "MaxReadRequestUnits for OnDemandThroughput cannot be specified when table " +
                "BillingMode is PROVISIONED.");
  delete provisioned.OnDemandThroughput;
  await ddb.send(new CreateTableCommand(provisioned));
  await rejects(new UpdateTableCommand({ TableName: provisioned.TableName,
                                         OnDemandThroughput: { MaxWriteRequestUnits: 5 } }),
                "ValidationException",
                kInvalid + "MaxWriteRequestUnits for OnDemandThroughput cannot be specified when the " +
                "table BillingMode is PROVISIONED");
});

test("UpdateTable: warm throughput never decreases; -1 removes an on-demand maximum", async () => {
  const input = tableInput({ OnDemandThroughput: { MaxReadRequestUnits: 100, MaxWriteRequestUnits: 50 } });
  await ddb.send(new CreateTableCommand(input));
  const TableName = input.TableName;
  await ddb.send(new UpdateTableCommand({ TableName, WarmThroughput: { WriteUnitsPerSecond: 6000 } }));
  await rejects(new UpdateTableCommand({ TableName, WarmThroughput: { WriteUnitsPerSecond: 5000 } }),
                "ValidationException",
                kInvalid + "Requested WriteUnitsPerSecond for WarmThroughput for table is lower than " +
                "current WarmThroughput, decreasing WarmThroughput is not supported");
  await rejects(new UpdateTableCommand({ TableName, GlobalSecondaryIndexUpdates: [{ Update: {
                  IndexName: "gsi1", WarmThroughput: { ReadUnitsPerSecond: 11000 } } }] }),
                "ValidationException",
                kInvalid + "Requested ReadUnitsPerSecond for WarmThroughput for index gsi1 is lower " +
                "than current WarmThroughput, decreasing WarmThroughput is not supported");
  await rejects(new UpdateTableCommand({ TableName, GlobalSecondaryIndexUpdates: [{ Update: {
                  IndexName: "gsi1", WarmThroughput: {} } }] }),
                "ValidationException",
                kInvalid + "WarmThroughput must have at least one of ReadUnitsPerSecond or " +
                "WriteUnitsPerSecond specified for index: gsi1");
  await rejects(new UpdateTableCommand({ TableName, GlobalSecondaryIndexUpdates: [{ Update: {
                  IndexName: "gsi1", ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 } } }] }),
                "ValidationException",
                kInvalid + "The only Updates for index: gsi1 when TableThroughputMode is PAY_PER_REQUEST " +
                "can be to OnDemandThroughput, WarmThroughput");
  await ddb.send(new UpdateTableCommand({ TableName, OnDemandThroughput: { MaxReadRequestUnits: -1 } }));
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName }));
  assert.deepEqual(Table.OnDemandThroughput, { MaxWriteRequestUnits: 50 });
  assert.deepEqual(Table.WarmThroughput,
                   { ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 6000, Status: "ACTIVE" });
  // Both removed: the member goes.
  await ddb.send(new UpdateTableCommand({ TableName, OnDemandThroughput: { MaxWriteRequestUnits: -1 } }));
  const after = (await ddb.send(new DescribeTableCommand({ TableName }))).Table;
  assert.equal(after.OnDemandThroughput, undefined);
});

test("a GSI created by UpdateTable takes its own warm throughput and maximums", async () => {
  const input = tableInput();
  delete input.GlobalSecondaryIndexes;
  input.AttributeDefinitions = [{ AttributeName: "pk", AttributeType: "S" }];
  await ddb.send(new CreateTableCommand(input));
  await ddb.send(new UpdateTableCommand({
    TableName: input.TableName, AttributeDefinitions: [{ AttributeName: "g", AttributeType: "S" }],
    GlobalSecondaryIndexUpdates: [{ Create: {
      IndexName: "later", KeySchema: [{ AttributeName: "g", KeyType: "HASH" }],
      Projection: { ProjectionType: "KEYS_ONLY" },
      WarmThroughput: { ReadUnitsPerSecond: 20000 }, OnDemandThroughput: { MaxWriteRequestUnits: 7 },
    } }],
  }));
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName: input.TableName }));
  const gsi = Table.GlobalSecondaryIndexes[0];
  assert.deepEqual(gsi.WarmThroughput, { ReadUnitsPerSecond: 20000, WriteUnitsPerSecond: 4000, Status: "ACTIVE" });
  assert.deepEqual(gsi.OnDemandThroughput, { MaxWriteRequestUnits: 7 });
});
