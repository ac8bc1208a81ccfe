// The sample's tests, shared by its Vitest and Jest files: every file checks
// that it starts from the seed, then writes the same keys as every other
// file, at the same time in other workers, and checks it sees only its own
// writes. More files than workers: a worker runs several files, so a reset
// that did not happen shows as a file that does not start from the seed.
const assert = require("node:assert/strict");
const { setTimeout: sleep } = require("node:timers/promises");
const { DynamoDBClient, ListTablesCommand, CreateTableCommand,
        UpdateTableCommand } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand,
        UpdateCommand } = require("@aws-sdk/lib-dynamodb");
const { SEED_ITEMS } = require("./jest-dynamodb-config.js");

const SHARED_KEYS = 25;

// No endpoint, region or credentials: the environment the integration set
// names the worker's own database.
function client() {
  return DynamoDBDocumentClient.from(new DynamoDBClient({}));
}

function byKey(a, b) {
  return `${a.pk} ${a.sk}`.localeCompare(`${b.pk} ${b.sk}`);
}

async function expectSeeded(db) {
  const { TableNames } = await db.send(new ListTablesCommand({}));
  assert.deepEqual(TableNames, ["Orders"]);
  const { Items } = await db.send(new ScanCommand({ TableName: "Orders" }));
  assert.deepEqual(Items.sort(byKey), [...SEED_ITEMS].sort(byKey));
}

// The test cases of one file; `tag` names the file.
function cases(tag) {
  const db = client();
  return [
    ["starts from the seeded state", () => expectSeeded(db)],
    ["writes the keys every other file writes, and sees only its own", async () => {
      await Promise.all(Array.from({ length: SHARED_KEYS }, (_, i) => db.send(new PutCommand({
        TableName: "Orders", Item: { pk: "shared", sk: `item#${i}`, writer: tag },
      }))));
      await db.send(new UpdateCommand({
        TableName: "Orders", Key: { pk: "counter", sk: "counter" },
        UpdateExpression: "ADD n :one", ExpressionAttributeValues: { ":one": 1 },
      }));
      await db.send(new CreateTableCommand({
        TableName: `Scratch-${tag}`, BillingMode: "PAY_PER_REQUEST",
        KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
      }));
      // Give the other workers' files time to write the same keys.
      await sleep(100);
      const { Items } = await db.send(new QueryCommand({
        TableName: "Orders", KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "shared" },
      }));
      assert.equal(Items.length, SHARED_KEYS);
      assert.deepEqual(new Set(Items.map((item) => item.writer)), new Set([tag]));
      const { Item } = await db.send(new GetCommand({
        TableName: "Orders", Key: { pk: "counter", sk: "counter" },
      }));
      assert.equal(Item.n, 1);
    }],
    ["keeps its own writes for the rest of the file", async () => {
      const { Count } = await db.send(new QueryCommand({
        TableName: "Orders", KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "shared" }, Select: "COUNT",
      }));
      assert.equal(Count, SHARED_KEYS);
      const { TableNames } = await db.send(new ListTablesCommand({}));
      assert.deepEqual(TableNames, ["Orders", `Scratch-${tag}`]);
    }],
  ];
}

// The helpers: a named snapshot of the worker's database and back.
function helperCases(helpers) {
  const db = client();
  return [
    ["starts from the seeded state", () => expectSeeded(db)],
    ["restores a named snapshot of its own database", async () => {
      await db.send(new PutCommand({ TableName: "Orders", Item: { pk: "cart", sk: "1", n: 1 } }));
      await helpers.snapshot("cart");
      await db.send(new PutCommand({ TableName: "Orders", Item: { pk: "cart", sk: "1", n: 2 } }));
      await db.send(new PutCommand({ TableName: "Orders", Item: { pk: "cart", sk: "2", n: 2 } }));
      await helpers.restore("cart");
      const { Items } = await db.send(new QueryCommand({
        TableName: "Orders", KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "cart" },
      }));
      assert.deepEqual(Items, [{ pk: "cart", sk: "1", n: 1 }]);
    }],
    ["reset() goes back to the seed and clear() empties the database", async () => {
      await helpers.reset();
      await expectSeeded(db);
      await helpers.clear();
      assert.deepEqual((await db.send(new ListTablesCommand({}))).TableNames, []);
      await helpers.reset();
      await expectSeeded(db);
    }],
    ["names the worker's database and endpoint", () => {
      assert.equal(helpers.endpoint(), process.env.AWS_ENDPOINT_URL_DYNAMODB);
      assert.deepEqual(helpers.clientConfig(), {
        endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB, region: "us-east-1",
        credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID,
                       secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY },
      });
      const worker = process.env.VITEST_POOL_ID ?? process.env.JEST_WORKER_ID;
      if (process.env.LOCALDYNAMO_ISOLATION === "off") {
        assert.equal(helpers.namespace(), "");  // the shared database
      } else {
        // (on a server given by LOCALDYNAMO_URL, the keys carry the run's pid)
        assert.match(process.env.AWS_ACCESS_KEY_ID, new RegExp(`^(run\\d+-)?worker-${worker}$`));
        assert.equal(helpers.namespace(), `${process.env.AWS_ACCESS_KEY_ID}/us-east-1`);
      }
    }],
    ["a global table's replica in the worker's second region", async () => {
      if (process.env.LOCALDYNAMO_ISOLATION === "off") return;  // regions are per-key databases
      const TableName = "Carts";
      const home = new DynamoDBClient(helpers.clientConfig());
      const west = DynamoDBDocumentClient.from(
        new DynamoDBClient(helpers.clientConfig({ region: "eu-west-1" })));
      assert.equal(helpers.namespace("eu-west-1"), `${process.env.AWS_ACCESS_KEY_ID}/eu-west-1`);
      await home.send(new CreateTableCommand({
        TableName, BillingMode: "PAY_PER_REQUEST",
        KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
      }));
      await home.send(new UpdateTableCommand({
        TableName, ReplicaUpdates: [{ Create: { RegionName: "eu-west-1" } }],
      }));
      await db.send(new PutCommand({ TableName, Item: { id: "c-1", n: 1 } }));
      await helpers.settleReplication();
      const { Item } = await west.send(new GetCommand({
        TableName, Key: { id: "c-1" }, ConsistentRead: true }));
      assert.deepEqual(Item, { id: "c-1", n: 1 });
      // The next reset empties the second region too.
      await helpers.reset();
      assert.deepEqual((await west.send(new ListTablesCommand({}))).TableNames, []);
      home.destroy();
      west.destroy();
    }],
  ];
}

module.exports = { cases, helperCases, client, expectSeeded };
