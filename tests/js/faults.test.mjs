// Failure paths through the AWS SDK for JavaScript v3: the throttle's
// ProvisionedThroughputExceededException with its ThrottlingReasons, the
// SDK's own retries of an injected throttling error, a transaction
// cancelled by an injected fault with CancellationReasons, and a batch
// answering the injected UnprocessedItems — the same answers boto3 gets
// (tests/e2e/test_faults.py, test_throttle.py).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

import {
  DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand, BatchWriteItemCommand,
  TransactWriteItemsCommand, ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from "@aws-sdk/client-dynamodb";

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.env.LOCALDYNAMO_BIN ?? path.join(here, "..", "..", "build", "localdynamo");
let server;
let url;
let ddb;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

async function admin(pathname, body, method) {
  const response = await fetch(`${url}/_localdynamo/${pathname}`, {
    method: method ?? (body === undefined ? "GET" : "POST"),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}

const client = (maxAttempts) => new DynamoDBClient({
  endpoint: url, region: "us-east-1", maxAttempts,
  credentials: { accessKeyId: "js", secretAccessKey: "js" },
});

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
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = spawn(binary, ["--in-memory", "--no-models", "--throttle", "--ttl-interval", "0",
                          "--host", "127.0.0.1", "--port", String(port)],
                 { stdio: ["ignore", "ignore", "inherit"] });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 25));
  }
  ddb = client(1);
  await admin("clock", { Freeze: true });
  await createTable("tight", 1);
  await createTable("roomy", 1000);
});

after(async () => {
  ddb?.destroy();
  if (server) {
    const exited = new Promise((resolve) => server.on("exit", resolve));
    server.kill("SIGTERM");
    assert.equal(await exited, 0);
  }
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
