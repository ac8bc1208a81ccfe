// The SDK scenarios (tests/sdk/SCENARIOS.md) through the AWS SDK for
// JavaScript v3: DynamoDBClient with its paginators, waiters and typed
// exceptions, the DynamoDBDocumentClient of @aws-sdk/lib-dynamodb, and
// DynamoDBStreamsClient, against the real binary started once with
// --throttle. One test per scenario, named exactly after its id.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
// SheetJS crc-32 rather than node:zlib's crc32, which Node 18 (Debian
// bookworm's) lacks; it answers a signed 32-bit integer.
import CRC32 from "crc-32";
import {
  DynamoDBClient, PutItemCommand, GetItemCommand, BatchWriteItemCommand, ScanCommand,
  DescribeTableCommand, DeleteTableCommand, UpdateTimeToLiveCommand,
  ConditionalCheckFailedException, TransactionCanceledException, DuplicateItemException,
  ResourceNotFoundException, paginateQuery, paginateScan, waitUntilTableExists,
  waitUntilTableNotExists,
} from "@aws-sdk/client-dynamodb";
import {
  DynamoDBDocumentClient, NumberValue, GetCommand, PutCommand, UpdateCommand, QueryCommand,
  BatchWriteCommand, TransactWriteCommand, ExecuteStatementCommand,
  BatchExecuteStatementCommand, ExecuteTransactionCommand, SearchVectorsCommand,
  paginateQuery as paginateDocumentQuery, paginateScan as paginateDocumentScan,
} from "@aws-sdk/lib-dynamodb";
import { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";

import { startServer } from "./localdynamo.mjs";
import { tableName, createTable, readStream, keepRawAnswers } from "./sdk_scenarios_support.mjs";

let server;
let ddb;   // the low-level client, no retries: each answer as the server gave it
let doc;   // a document client with the default marshalling options
const clients = [];

// A document client with its own low-level client: DynamoDBDocumentClient.from
// stores its marshalling options in the config object it shares with the
// client it wraps, so two document clients over one client would share the
// options last given.
function documentClient(translateConfig) {
  const client = new DynamoDBClient(server.config);
  clients.push(client);
  return DynamoDBDocumentClient.from(client, translateConfig);
}

const admin = (pathname, body) => server.admin(pathname, body);

// Every scenario leaves the test clock running at real time (SCENARIOS.md).
const clockBackToRealTime = () => admin("clock", { Reset: true, Freeze: false });

before(async () => {
  server = await startServer(["--throttle"]);
  ddb = new DynamoDBClient(server.config);
  doc = documentClient();
});

after(async () => {
  ddb?.destroy();
  for (const client of clients) client.destroy();
  await server?.stop();
});

const onePartition = { pk: { name: "pk", type: "S" }, sk: { name: "sk", type: "N" } };
const keyOnly = { pk: { name: "pk", type: "S" } };

// Writes `items` (plain objects) through the document client, 25 a batch,
// asserting that an on-demand table processed each batch whole.
async function writeAll(TableName, items) {
  for (let i = 0; i < items.length; i += 25) {
    const { UnprocessedItems } = await doc.send(new BatchWriteCommand({ RequestItems: {
      [TableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    assert.deepEqual(UnprocessedItems ?? {}, {});
  }
}

// An attribute value in a form deepEqual compares by meaning: sets sorted
// (DynamoDB keeps no order in them), bytes as hex.
function comparable(value) {
  const [[type, v]] = Object.entries(value);
  const hex = (bytes) => {
    assert.ok(bytes instanceof Uint8Array, `${type} holds ${typeof bytes}`);
    return Buffer.from(bytes).toString("hex");
  };
  switch (type) {
    case "B": return { B: hex(v) };
    case "SS": case "NS": return { [type]: [...v].sort() };
    case "BS": return { BS: v.map(hex).sort() };
    case "M": return { M: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, comparable(x)])) };
    case "L": return { L: v.map(comparable) };
    default: return { [type]: v };
  }
}

test("attribute_types", async () => {
  const TableName = tableName("attribute_types");
  await createTable(ddb, TableName, keyOnly);
  const digits38 = "12345678901234567890123456789012345678";
  const everyType = {
    s: { S: "text, ünïcode ✓" },
    n: { N: digits38 },
    b: { B: new Uint8Array([0, 1, 127, 128, 255]) },
    ss: { SS: ["a", "b", "c"] },
    ns: { NS: ["1", "-3.14", "99999999999999999999999999999999999999"] },
    bs: { BS: [new Uint8Array([0]), new Uint8Array([255, 254])] },
    bool: { BOOL: true },
    null: { NULL: true },
  };
  const item = { pk: { S: "all" }, ...everyType,
                 nested: { M: { list: { L: [{ M: everyType }] } } } };
  await ddb.send(new PutItemCommand({ TableName, Item: item }));

  const { Item } = await ddb.send(new GetItemCommand({
    TableName, Key: { pk: { S: "all" } }, ConsistentRead: true }));
  assert.deepEqual(comparable({ M: Item }), comparable({ M: item }));
  assert.equal(Item.nested.M.list.L[0].M.n.N, digits38);

  // The document client's view of the same item: sets as Set, the 38-digit
  // number exact only as a NumberValue.
  const wrapping = documentClient({ unmarshallOptions: { wrapNumbers: true } });
  const { Item: plain } = await wrapping.send(new GetCommand({
    TableName, Key: { pk: "all" }, ConsistentRead: true }));
  assert.ok(plain.ss instanceof Set);
  assert.deepEqual(plain.ss, new Set(["a", "b", "c"]));
  assert.ok(plain.n instanceof NumberValue);
  assert.equal(plain.n.toString(), digits38);
  assert.ok(plain.bs instanceof Set);
  assert.equal(plain.null, null);
});

test("conditional_write", async () => {
  const TableName = tableName("conditional_write");
  await createTable(ddb, TableName, keyOnly);
  const original = { pk: { S: "k" }, version: { N: "1" }, owner: { S: "ana" } };
  await ddb.send(new PutItemCommand({ TableName, Item: original }));

  await assert.rejects(ddb.send(new PutItemCommand({
    TableName, Item: { pk: { S: "k" }, version: { N: "2" } },
    ConditionExpression: "attribute_not_exists(pk)",
    ReturnValuesOnConditionCheckFailure: "ALL_OLD" })), (error) => {
    assert.ok(error instanceof ConditionalCheckFailedException, error.name);
    assert.equal(error.message, "The conditional request failed");
    assert.deepEqual(error.Item, original);
    return true;
  });
  const { Item } = await ddb.send(new GetItemCommand({
    TableName, Key: { pk: { S: "k" } }, ConsistentRead: true }));
  assert.deepEqual(Item, original);
});

test("paginators", async () => {
  const TableName = tableName("paginators");
  await createTable(ddb, TableName, onePartition);
  // Written out of order, so that sort-key order is the server's doing.
  const sortKeys = Array.from({ length: 25 }, (_, i) => (i * 7) % 25);
  await writeAll(TableName, sortKeys.map((sk) => ({ pk: "p", sk })));

  const queryPages = [];
  for await (const page of paginateQuery({ client: ddb }, {
    TableName, KeyConditionExpression: "pk = :p",
    ExpressionAttributeValues: { ":p": { S: "p" } }, Limit: 4 })) {
    queryPages.push(page);
  }
  assert.equal(queryPages.length, 7);
  assert.deepEqual(queryPages.flatMap((p) => p.Items.map((i) => Number(i.sk.N))),
                   Array.from({ length: 25 }, (_, i) => i));
  assert.equal(queryPages.at(-1).LastEvaluatedKey, undefined);
  assert.ok(queryPages.slice(0, -1).every((p) => p.LastEvaluatedKey));

  const scanPages = [];
  for await (const page of paginateScan({ client: ddb }, { TableName, Limit: 7 })) {
    scanPages.push(page);
  }
  assert.equal(scanPages.length, 4);
  assert.deepEqual(scanPages.map((p) => p.Items.length), [7, 7, 7, 4]);
  assert.equal(new Set(scanPages.flatMap((p) => p.Items.map((i) => i.sk.N))).size, 25);
  assert.equal(scanPages.at(-1).LastEvaluatedKey, undefined);
});

test("parallel_scan", async () => {
  const TableName = tableName("parallel_scan");
  await createTable(ddb, TableName, keyOnly);
  await writeAll(TableName, Array.from({ length: 100 }, (_, i) => ({ pk: `item-${i}` })));

  // One paginator per segment, all four walked at once; Limit makes each a
  // chain of several calls.
  const TotalSegments = 4;
  const segments = await Promise.all(Array.from({ length: TotalSegments }, async (_, Segment) => {
    const keys = [];
    for await (const page of paginateDocumentScan({ client: doc }, {
      TableName, Segment, TotalSegments, Limit: 10 })) {
      keys.push(...page.Items.map((i) => i.pk));
    }
    return keys;
  }));
  const all = segments.flat();
  assert.equal(all.length, 100, `segment sizes ${segments.map((s) => s.length)}`);
  assert.equal(new Set(all).size, 100, "segments overlap");
  assert.deepEqual(new Set(all), new Set(Array.from({ length: 100 }, (_, i) => `item-${i}`)));
});

test("batch_unprocessed", async () => {
  const TableName = tableName("batch_unprocessed");
  try {
    // Frozen before the table exists, so that its write bucket fills only
    // when the test moves the clock.
    await admin("clock", { Freeze: true });
    await createTable(ddb, TableName, { ...keyOnly, extra: {
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 } } });
    let requests = { [TableName]: Array.from({ length: 25 }, (_, i) =>
      ({ PutRequest: { Item: { pk: { S: `item-${i}` } } } })) };
    let rounds = 0;
    const unprocessedPerRound = [];
    while (Object.keys(requests).length > 0) {
      assert.ok(rounds < 50, `still unprocessed after ${rounds} rounds: ${unprocessedPerRound}`);
      if (rounds > 0) await admin("clock", { AdvanceSeconds: 1 });
      const { UnprocessedItems } = await ddb.send(new BatchWriteItemCommand({
        RequestItems: requests }));
      rounds += 1;
      requests = UnprocessedItems ?? {};
      unprocessedPerRound.push(requests[TableName]?.length ?? 0);
    }
    assert.ok(unprocessedPerRound[0] > 0, "the first answer left nothing unprocessed");
    assert.ok(rounds > 1);
    const { Count } = await ddb.send(new ScanCommand({ TableName, Select: "COUNT" }));
    assert.equal(Count, 25);
  } finally {
    await clockBackToRealTime();
  }
});

test("transaction_cancellation", async () => {
  const TableName = tableName("transaction_cancellation");
  await createTable(ddb, TableName, keyOnly);
  await doc.send(new PutCommand({ TableName, Item: { pk: "checked", state: "open" } }));
  await doc.send(new PutCommand({ TableName, Item: { pk: "updated", count: 1 } }));

  await assert.rejects(doc.send(new TransactWriteCommand({ TransactItems: [
    { Put: { TableName, Item: { pk: "new" } } },
    { ConditionCheck: { TableName, Key: { pk: "checked" },
                        ConditionExpression: "#s = :closed",
                        ExpressionAttributeNames: { "#s": "state" },
                        ExpressionAttributeValues: { ":closed": "closed" } } },
    { Update: { TableName, Key: { pk: "updated" }, UpdateExpression: "SET #c = #c + :one",
                ExpressionAttributeNames: { "#c": "count" },
                ExpressionAttributeValues: { ":one": 1 } } },
  ] })), (error) => {
    assert.ok(error instanceof TransactionCanceledException, error.name);
    assert.deepEqual(error.CancellationReasons.map((r) => r.Code),
                     ["None", "ConditionalCheckFailed", "None"]);
    assert.equal(error.message, "Transaction cancelled, please refer cancellation reasons " +
                 "for specific reasons [None, ConditionalCheckFailed, None]");
    return true;
  });
  const read = async (pk) => (await doc.send(new GetCommand({
    TableName, Key: { pk }, ConsistentRead: true }))).Item;
  assert.equal(await read("new"), undefined);
  assert.deepEqual(await read("checked"), { pk: "checked", state: "open" });
  assert.deepEqual(await read("updated"), { pk: "updated", count: 1 });
});

test("partiql", async () => {
  const TableName = tableName("partiql");
  await createTable(ddb, TableName, keyOnly);
  const select = async (pk) => (await doc.send(new ExecuteStatementCommand({
    Statement: `SELECT * FROM "${TableName}" WHERE pk = ?`, Parameters: [pk],
    ConsistentRead: true }))).Items;
  const insert = (pk, n) => new ExecuteStatementCommand({
    Statement: `INSERT INTO "${TableName}" VALUE {'pk': ?, 'n': ?}`, Parameters: [pk, n] });

  await doc.send(insert("a", 1));
  await doc.send(insert("b", 2));
  assert.deepEqual(await select("a"), [{ pk: "a", n: 1 }]);

  const { Responses } = await doc.send(new BatchExecuteStatementCommand({ Statements: [
    { Statement: `UPDATE "${TableName}" SET n = ? WHERE pk = ?`, Parameters: [10, "a"] },
    { Statement: `UPDATE "${TableName}" SET n = ? WHERE pk = ?`, Parameters: [20, "b"] },
  ] }));
  assert.deepEqual(Responses.map((r) => r.Error), [undefined, undefined]);
  assert.deepEqual(await select("a"), [{ pk: "a", n: 10 }]);
  assert.deepEqual(await select("b"), [{ pk: "b", n: 20 }]);

  await doc.send(new ExecuteTransactionCommand({ TransactStatements: [
    { Statement: `INSERT INTO "${TableName}" VALUE {'pk': ?, 'n': ?}`, Parameters: ["c", 3] },
    { Statement: `DELETE FROM "${TableName}" WHERE pk = ?`, Parameters: ["b"] },
  ] }));
  assert.deepEqual(await select("c"), [{ pk: "c", n: 3 }]);
  assert.deepEqual(await select("b"), []);

  await assert.rejects(doc.send(insert("a", 99)), (error) => {
    assert.ok(error instanceof DuplicateItemException, error.name);
    assert.equal(error.message, "Duplicate primary key exists in table");
    return true;
  });
  assert.deepEqual(await select("a"), [{ pk: "a", n: 10 }]);
});

test("waiters", async () => {
  const TableName = tableName("waiters");
  // The waiters poll at once, then every minDelay seconds: short delays keep
  // a table that takes a moment from costing the default 20 s.
  const waiter = { client: ddb, minDelay: 1, maxDelay: 2, maxWaitTime: 30 };
  await createTable(ddb, TableName, keyOnly);
  const exists = await waitUntilTableExists(waiter, { TableName });
  assert.equal(exists.state, "SUCCESS");
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName }));
  assert.equal(Table.TableStatus, "ACTIVE");

  await ddb.send(new DeleteTableCommand({ TableName }));
  const gone = await waitUntilTableNotExists(waiter, { TableName });
  assert.equal(gone.state, "SUCCESS");
  await assert.rejects(ddb.send(new DescribeTableCommand({ TableName })),
                       (error) => error instanceof ResourceNotFoundException);
});

test("retries", async () => {
  const TableName = tableName("retries");
  await createTable(ddb, TableName, keyOnly);
  await admin("faults", { Operations: ["PutItem"], Tables: [TableName], Count: 2,
                          Error: { Type: "ThrottlingException" } });
  const retrying = new DynamoDBClient({ ...server.config, retryMode: "standard", maxAttempts: 3 });
  try {
    const answer = await retrying.send(new PutItemCommand({
      TableName, Item: { pk: { S: "retried" } } }));
    // Counted by the SDK: the first attempt and its two retries.
    assert.equal(answer.$metadata.attempts, 3);
    assert.ok(answer.$metadata.totalRetryDelay > 0);
  } finally {
    retrying.destroy();
  }
  assert.deepEqual((await admin("faults")).Rules, []);
  const { Item } = await ddb.send(new GetItemCommand({
    TableName, Key: { pk: { S: "retried" } }, ConsistentRead: true }));
  assert.deepEqual(Item, { pk: { S: "retried" } });
});

test("crc32", async () => {
  const TableName = tableName("crc32");
  await createTable(ddb, TableName, keyOnly);
  const filler = "x".repeat(3000);
  await writeAll(TableName, Array.from({ length: 50 }, (_, i) => ({ pk: `item-${i}`, filler })));

  // The JS SDK does not check it: unlike botocore or the Java and Go SDKs,
  // client-dynamodb v3 has no x-amz-crc32 validation to turn on, so this
  // client keeps the raw answer and the test compares the header with the
  // body's CRC32 itself. The SDK sends no Accept-Encoding, so gzip is off.
  const seen = [];
  const checking = new DynamoDBClient(server.config);
  keepRawAnswers(checking, seen);
  try {
    const { Count, Items } = await checking.send(new ScanCommand({ TableName }));
    assert.equal(Count, 50);
    assert.equal(Items[0].filler.S, filler);
  } finally {
    checking.destroy();
  }
  assert.equal(seen.length, 1);
  const [{ headers, body }] = seen;
  assert.ok(body.length > 100 * 1024, `${body.length} bytes`);
  assert.equal(headers["content-encoding"], undefined);
  assert.ok(headers["x-amz-crc32"], "no x-amz-crc32 header");
  assert.equal(headers["x-amz-crc32"], String(CRC32.buf(body) >>> 0));
});

test("streams_ttl", async () => {
  const TableName = tableName("streams_ttl");
  const streams = new DynamoDBStreamsClient(server.config);
  try {
    await admin("clock", { Freeze: true });
    await createTable(ddb, TableName, { ...keyOnly, extra: {
      StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" } } });
    await ddb.send(new UpdateTimeToLiveCommand({ TableName, TimeToLiveSpecification: {
      Enabled: true, AttributeName: "expires" } }));
    const { NowMillis } = await admin("clock");
    const item = { pk: { S: "short-lived" },
                   expires: { N: String(Math.floor(NowMillis / 1000) + 60) } };
    await ddb.send(new PutItemCommand({ TableName, Item: item }));
    await admin("clock", { AdvanceSeconds: 120 });
    await admin("sweep", {});

    const records = await readStream(ddb, streams, TableName);
    assert.deepEqual(records.map((r) => r.eventName), ["INSERT", "REMOVE"]);
    const [insert, remove] = records;
    assert.deepEqual(insert.dynamodb.NewImage, item);
    assert.equal(insert.dynamodb.OldImage, undefined);
    assert.equal(insert.userIdentity, undefined);
    assert.deepEqual(remove.dynamodb.OldImage, item);
    assert.equal(remove.dynamodb.NewImage, undefined);
    assert.deepEqual(remove.userIdentity,
                     { Type: "Service", PrincipalId: "dynamodb.amazonaws.com" });
  } finally {
    streams.destroy();
    await clockBackToRealTime();
  }
});

test("vector_search", async () => {
  const TableName = tableName("vector_search");
  const IndexName = "embedding";
  await createTable(ddb, TableName, { ...keyOnly, extra: { VectorIndexes: [{
    IndexName, VectorAttribute: { AttributeName: "v" }, Dimensions: 3,
    DistanceFunction: "EUCLIDEAN", Projection: { ProjectionType: "ALL" } }] } });
  // The document client writes each vector as a list of numbers (L of N),
  // the form a vector index reads.
  const vectors = { far: [10, 10, 10], nearest: [1, 0.1, 0], second: [0, 1, 0], third: [0, 0, 3] };
  for (const [pk, v] of Object.entries(vectors)) {
    await doc.send(new PutCommand({ TableName, Item: { pk, v } }));
  }

  const { SearchResults } = await doc.send(new SearchVectorsCommand({
    TableName, IndexName, SearchVector: [1, 0, 0], TopK: 2 }));
  // Euclidean distances from (1,0,0): nearest 0.1, second √2, third √10.
  assert.deepEqual(SearchResults.map((hit) => hit.Item.pk), ["nearest", "second"]);
  // DynamoDB leaves the vector itself out of a result unless a
  // ProjectionExpression names it, even with Projection ALL.
  assert.deepEqual(SearchResults[0].Item, { pk: "nearest" });
  const [first, next] = SearchResults.map((hit) => hit.Score);
  assert.equal(typeof first, "number");
  assert.ok(first <= next,
            `scores ${first} then ${next}: the nearest should score the lower Euclidean distance`);
});

// The mapper scenario's class. The JS SDK has no class mapper: its guide maps
// objects with the document client, whose marshalling options below turn a
// class instance into a map and leave out undefined fields; `from` maps an
// answer back to the class.
class Order {
  constructor({ customerId, orderId, status, total, tags, note }) {
    Object.assign(this, { customerId, orderId, status, total, tags, note });
  }

  static from(item) {
    assert.ok(item, "no item");
    return new Order(item);
  }
}

test("mapper", async () => {
  const TableName = tableName("mapper");
  const IndexName = "byStatus";
  await createTable(ddb, TableName, {
    pk: { name: "customerId", type: "S" }, sk: { name: "orderId", type: "S" },
    extra: { GlobalSecondaryIndexes: [{ name: IndexName, keys: [
      { name: "status", type: "S" }, { name: "orderId", type: "S" }] }] } });
  const mapper = documentClient({
    marshallOptions: { convertClassInstanceToMap: true, removeUndefinedValues: true },
  });
  const first = new Order({ customerId: "ana", orderId: "o-1", status: "PLACED", total: 59.99,
                            tags: new Set(["gift", "fragile"]) });
  const second = new Order({ customerId: "ana", orderId: "o-2", status: "PLACED", total: 12,
                             tags: new Set(["books"]), note: "leave at the door" });
  for (const order of [first, second]) {
    await mapper.send(new PutCommand({ TableName, Item: order }));
  }

  const loaded = await mapper.send(new GetCommand({
    TableName, Key: { customerId: "ana", orderId: "o-1" }, ConsistentRead: true }));
  assert.deepEqual(Order.from(loaded.Item), first);

  // Updated only while still PLACED: the first update ships it, the second
  // finds it shipped already and is refused.
  const ship = () => new UpdateCommand({
    TableName, Key: { customerId: "ana", orderId: "o-1" },
    UpdateExpression: "SET #s = :shipped", ConditionExpression: "#s = :placed",
    ExpressionAttributeNames: { "#s": "status" },
    ExpressionAttributeValues: { ":shipped": "SHIPPED", ":placed": "PLACED" },
    ReturnValues: "ALL_NEW" });
  const shipped = new Order({ ...first, status: "SHIPPED" });
  assert.deepEqual(Order.from((await mapper.send(ship())).Attributes), shipped);
  await assert.rejects(mapper.send(ship()), ConditionalCheckFailedException);

  const onTable = await mapper.send(new QueryCommand({
    TableName, KeyConditionExpression: "customerId = :c",
    ExpressionAttributeValues: { ":c": "ana" }, ConsistentRead: true }));
  assert.deepEqual(onTable.Items.map(Order.from), [shipped, second]);

  const onIndex = [];
  for await (const page of paginateDocumentQuery({ client: mapper }, {
    TableName, IndexName, KeyConditionExpression: "#s = :placed",
    ExpressionAttributeNames: { "#s": "status" },
    ExpressionAttributeValues: { ":placed": "PLACED" } })) {
    onIndex.push(...page.Items.map(Order.from));
  }
  assert.deepEqual(onIndex, [second]);
});
