// Failure paths through the AWS SDK for JavaScript v3: the throttle's
// ProvisionedThroughputExceededException with its ThrottlingReasons, the
// SDK's own retries of an injected throttling error, a transaction
// cancelled by an injected fault with CancellationReasons, and a batch
// answering the injected UnprocessedItems — the same answers boto3 gets
// (tests/e2e/test_faults.py, test_throttle.py).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";

import {
  DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand, BatchWriteItemCommand,
  TransactWriteItemsCommand, ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from "@aws-sdk/client-dynamodb";

import { startServer } from "./localdynamo.mjs";

let server;
let ddb;

const admin = (pathname, body) => server.admin(pathname, body);

const client = (maxAttempts) => new DynamoDBClient({ ...server.config, maxAttempts });

async function createTable(name, writeUnits) {
  await ddb.send(new CreateTableCommand({
    TableName: name,
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
    ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: writeUnits },
  }));
}

const put = (c, table, pk) =>
  c.send(new PutItemCommand({ TableName: table, Item: { pk: { S: pk } } }));

before(async () => {
  server = await startServer(["--no-models", "--throttle"]);
  ddb = client(1);
  await admin("clock", { Freeze: true });
  await createTable("tight", 1);
  await createTable("roomy", 1000);
});

after(async () => {
  ddb?.destroy();
  await server?.stop();
});

test("the throttle's error carries DynamoDB's message and ThrottlingReasons", async () => {
  await put(ddb, "tight", "1");
  await assert.rejects(put(ddb, "tight", "2"), (error) => {
    assert.ok(error instanceof ProvisionedThroughputExceededException);
    assert.match(error.message, /^The level of configured provisioned throughput for the table was exceeded/);
    assert.deepEqual(error.ThrottlingReasons, [{
      reason: "TableWriteProvisionedThroughputExceeded",
      resource: "arn:aws:dynamodb:us-east-1:000000000000:table/tight" }]);
    assert.equal(error.$metadata.httpStatusCode, 400);
    return true;
  });
  await admin("clock", { AdvanceSeconds: 1 });
  await put(ddb, "tight", "2");
});

test("the SDK retries an injected throttling error and succeeds", async () => {
  await admin("faults", { Operations: ["GetItem"], Count: 2, Error: { Type: "ThrottlingException" } });
  const retrying = client(3);
  const answer = await retrying.send(new GetItemCommand({ TableName: "roomy", Key: { pk: { S: "x" } } }));
  assert.equal(answer.$metadata.attempts, 3);
  retrying.destroy();
});

test("an injected fault cancels a transaction with CancellationReasons", async () => {
  await admin("faults", { Operations: ["TransactWriteItems"], Tables: ["roomy"], Count: 1,
                          Error: { Type: "ConditionalCheckFailedException" } });
  await admin("clock", { AdvanceSeconds: 10 });
  await assert.rejects(ddb.send(new TransactWriteItemsCommand({ TransactItems: [
    { Put: { TableName: "tight", Item: { pk: { S: "t" } } } },
    { Put: { TableName: "roomy", Item: { pk: { S: "r" } } } },
  ] })), (error) => {
    assert.ok(error instanceof TransactionCanceledException);
    assert.deepEqual(error.CancellationReasons.map((r) => r.Code), ["None", "ConditionalCheckFailed"]);
    assert.equal(error.CancellationReasons[1].Message, "The conditional request failed");
    return true;
  });
});

test("an injected fault leaves a batch's items unprocessed", async () => {
  await admin("faults", { Operations: ["BatchWriteItem"], Tables: ["roomy"], Count: 1,
                          Error: { Type: "ProvisionedThroughputExceededException" } });
  const requests = [{ PutRequest: { Item: { pk: { S: "b1" } } } }];
  const answer = await ddb.send(new BatchWriteItemCommand({ RequestItems: { roomy: requests } }));
  assert.deepEqual(answer.UnprocessedItems, { roomy: requests });
  const again = await ddb.send(new BatchWriteItemCommand({ RequestItems: answer.UnprocessedItems }));
  assert.deepEqual(again.UnprocessedItems ?? {}, {});
  const { Item } = await ddb.send(new GetItemCommand({ TableName: "roomy", Key: { pk: { S: "b1" } } }));
  assert.deepEqual(Item, { pk: { S: "b1" } });
  assert.deepEqual((await admin("faults")).Rules, []);
});
