// `localdynamo mcp` end to end through the official MCP client SDK: the
// SDK spawns the binary over stdio (as a coding agent does) against a real
// server on a free port, and once against a data directory opened
// in-process.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

import { startServer } from "../js/localdynamo.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.env.LOCALDYNAMO_BIN ?? path.join(here, "..", "..", "build", "localdynamo");

// An MCP client connected to `localdynamo mcp <args>`.
async function connect(args) {
  const client = new Client({ name: "localdynamo-mcp-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: binary, args: ["mcp", ...args],
                                                  stderr: "ignore" }));
  return client;
}

// A tool's answer: the parsed JSON of its first text block, and its note.
async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const [first, second] = result.content;
  assert.equal(first.type, "text");
  let json;
  try { json = JSON.parse(first.text); } catch { json = undefined; }
  return { isError: result.isError === true, text: first.text, json, note: second?.text ?? "" };
}

const ordersOfJunior = {
  TableName: "ecommerce",
  KeyConditionExpression: "PK = :u AND begins_with(SK, :o)",
  ExpressionAttributeValues: { ":u": { S: "USER#junior" }, ":o": { S: "ORDER#" } },
};

// Every item of a Scan, paging through LastEvaluatedKey; fails on a repeated key.
async function scanAll(client, table) {
  const seen = new Set();
  let start;
  for (let pages = 0; pages < 50; pages++) {
    const page = await call(client, "Scan", { TableName: table, ...(start && { ExclusiveStartKey: start }) });
    assert.equal(page.isError, false, page.text);
    for (const item of page.json.Items) {
      const key = JSON.stringify([item.PK, item.SK]);
      assert.ok(!seen.has(key), `item ${key} came twice`);
      seen.add(key);
    }
    start = page.json.LastEvaluatedKey;
    if (!start) return { keys: seen, pages: pages + 1 };
  }
  assert.fail("Scan did not end");
}

describe("localdynamo mcp --endpoint", () => {
  let server;
  let readOnly;
  before(async () => {
    server = await startServer(["--sample-items"]);
    readOnly = await connect(["--endpoint", server.url]);
  });
  after(async () => {
    await readOnly?.close();
    await server?.stop();
  });

  test("initialize negotiates the SDK's protocol version and says what it serves", () => {
    // connect() has sent initialize and notifications/initialized.
    assert.equal(readOnly.getServerVersion().name, "localdynamo");
    assert.match(readOnly.getInstructions(), /read-only/);
    assert.ok(readOnly.getServerCapabilities().tools);
    assert.ok(readOnly.getServerCapabilities().resources);
  });

  test("read-only: read tools are listed, write tools are not", async () => {
    const { tools } = await readOnly.listTools();
    const names = tools.map((t) => t.name);
    for (const read of ["ListTables", "DescribeTable", "GetItem", "Query", "Scan", "BatchGetItem",
                        "TransactGetItems", "ExecuteStatement", "ListStreams", "GetRecords",
                        "SearchVectors", "GetClock", "ListSnapshots"]) {
      assert.ok(names.includes(read), `${read} missing from ${names}`);
    }
    for (const write of ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem",
                         "TransactWriteItems", "DeleteTable", "MoveClock", "Sweep",
                         "ResetDatabase", "SaveSnapshot", "RestoreSnapshot"]) {
      assert.ok(!names.includes(write), `${write} listed without --allow-writes`);
    }
    const query = tools.find((t) => t.name === "Query");
    assert.equal(query.inputSchema.type, "object");
    assert.equal(query.annotations.readOnlyHint, true);
  });

  test("reads answer with DynamoDB's JSON", async () => {
    const tables = await call(readOnly, "ListTables");
    assert.ok(tables.json.TableNames.includes("ecommerce"));
    const orders = await call(readOnly, "Query", ordersOfJunior);
    assert.equal(orders.isError, false);
    assert.deepEqual(orders.json.Items.map((i) => i.OrderId.S).sort(), ["5eaf12", "ac630a", "f3990a"]);
    const shipped = await call(readOnly, "Query", {
      TableName: "ecommerce", IndexName: "GSI2",
      KeyConditionExpression: "PK = :u AND begins_with(OrderStatusDate, :s)",
      ExpressionAttributeValues: { ":u": { S: "USER#junior" }, ":s": { S: "SHIPPED#" } },
    });
    assert.deepEqual(shipped.json.Items.map((i) => i.OrderId.S), ["f3990a"]);
    const got = await call(readOnly, "GetItem", {
      TableName: "ecommerce", Key: { PK: { S: "USER#sarah" }, SK: { S: "#PROFILE#sarah" } },
    });
    assert.equal(got.json.Item.FullName.S, "Normandes Jr");
    const select = await call(readOnly, "ExecuteStatement", {
      Statement: "SELECT OrderId FROM \"ecommerce\" WHERE PK = 'USER#sarah' AND begins_with(SK, 'ORDER#')",
    });
    assert.equal(select.isError, false, select.text);
    assert.deepEqual(select.json.Items, [{ OrderId: { S: "B39AD" } }]);
    const streams = await call(readOnly, "ListStreams", { TableName: "lambda-layers" });
    assert.equal(streams.json.Streams.length, 1);
  });

  test("a DynamoDB error comes back as an error result with its __type", async () => {
    const missing = await call(readOnly, "DescribeTable", { TableName: "nope" });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /ResourceNotFoundException/);
  });

  test("writes are refused without --allow-writes, saying how to allow them", async () => {
    const put = await call(readOnly, "PutItem", {
      TableName: "ecommerce", Item: { PK: { S: "USER#mcp" }, SK: { S: "#PROFILE#mcp" } },
    });
    assert.equal(put.isError, true);
    assert.match(put.text, /read-only/);
    assert.match(put.text, /--allow-writes/);
    const insert = await call(readOnly, "ExecuteStatement", {
      Statement: "INSERT INTO \"ecommerce\" VALUE {'PK': 'USER#mcp', 'SK': 'x'}",
    });
    assert.equal(insert.isError, true);
    assert.match(insert.text, /--allow-writes/);
    const reset = await call(readOnly, "ResetDatabase");
    assert.equal(reset.isError, true);
    const got = await call(readOnly, "GetItem", {
      TableName: "ecommerce", Key: { PK: { S: "USER#mcp" }, SK: { S: "#PROFILE#mcp" } },
    });
    assert.equal(got.json.Item, undefined);
    await assert.rejects(readOnly.callTool({ name: "NoSuchTool", arguments: {} }), /Unknown tool/);
  });

  test("--max-items caps a page and paging reaches every item exactly once", async () => {
    const capped = await connect(["--endpoint", server.url, "--max-items", "2"]);
    try {
      const page = await call(capped, "Scan", { TableName: "ecommerce" });
      assert.equal(page.json.Items.length, 2);
      assert.ok(page.json.LastEvaluatedKey);
      assert.match(page.note, /--max-items cap of 2/);
      assert.match(page.note, /ExclusiveStartKey/);
      const all = await scanAll(capped, "ecommerce");
      assert.equal(all.keys.size, 9);
      assert.ok(all.pages >= 5);
    } finally {
      await capped.close();
    }
  });

  test("--max-bytes trims a page and sets LastEvaluatedKey to the last item shown", async () => {
    const capped = await connect(["--endpoint", server.url, "--max-bytes", "1024"]);
    try {
      const page = await call(capped, "Scan", { TableName: "ecommerce" });
      assert.ok(page.text.length <= 1024, `${page.text.length} bytes`);
      assert.ok(page.json.Items.length >= 1 && page.json.Items.length < 9);
      assert.equal(page.json.Count, page.json.Items.length);
      assert.equal(page.json.ScannedCount, page.json.Items.length);  // no filter: exact
      const last = page.json.Items.at(-1);
      assert.deepEqual(page.json.LastEvaluatedKey, { PK: last.PK, SK: last.SK });
      assert.match(page.note, /--max-bytes cap of 1024 bytes/);
      const all = await scanAll(capped, "ecommerce");
      assert.equal(all.keys.size, 9);
      // The live tables resource drops whole tables, and says so.
      const small = await connect(["--endpoint", server.url, "--max-bytes", "8192"]);
      const text = (await small.readResource({ uri: "localdynamo://tables" })).contents[0].text;
      await small.close();
      assert.ok(text.length <= 8192);
      const live = JSON.parse(text);
      assert.ok(live.Tables.length >= 1 && live.Tables.length < 19, `${live.Tables.length} tables`);
      assert.match(live.Truncated, /of \d+ tables shown/);
      // An index page's key holds the index's keys too.
      const indexed = await call(capped, "Scan", { TableName: "ecommerce", IndexName: "GSI2" });
      if (indexed.json.LastEvaluatedKey) {
        assert.deepEqual(Object.keys(indexed.json.LastEvaluatedKey).sort(),
                         ["OrderStatusDate", "PK", "SK"]);
      }
    } finally {
      await capped.close();
    }
  });

  test("resources: each model's access patterns and the live tables", async () => {
    const { resources } = await readOnly.listResources();
    const uris = resources.map((r) => r.uri);
    for (const model of ["deployments", "ecommerce", "lambda-layers", "tenants", "warehouse"]) {
      assert.ok(uris.includes(`localdynamo://models/${model}`), `${model} missing from ${uris}`);
    }
    const guide = await readOnly.readResource({ uri: "localdynamo://models/ecommerce" });
    assert.equal(guide.contents[0].mimeType, "text/markdown");
    assert.match(guide.contents[0].text, /GSI2/);
    assert.match(guide.contents[0].text, /begins_with\(OrderStatusDate/);
    const live = await readOnly.readResource({ uri: "localdynamo://tables" });
    const tables = JSON.parse(live.contents[0].text).Tables;
    const ecommerce = tables.find((t) => t.TableName === "ecommerce");
    assert.deepEqual(ecommerce.GlobalSecondaryIndexes.map((i) => i.IndexName).sort(), ["GSI1", "GSI2"]);
    await assert.rejects(readOnly.readResource({ uri: "localdynamo://models/nope" }), /not found/);
  });

  test("--allow-writes: items, the clock and a sweep through MCP", async () => {
    const writer = await connect(["--endpoint", server.url, "--allow-writes"]);
    try {
      const names = (await writer.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes("PutItem") && names.includes("SaveSnapshot"));
      assert.doesNotMatch(writer.getInstructions(), /read-only/);
      const put = await call(writer, "PutItem", {
        TableName: "ecommerce", Item: { PK: { S: "USER#mcp" }, SK: { S: "#PROFILE#mcp" } },
      });
      assert.equal(put.isError, false, put.text);
      // The read-only client sees the write: the same server.
      const got = await call(readOnly, "GetItem", {
        TableName: "ecommerce", Key: { PK: { S: "USER#mcp" }, SK: { S: "#PROFILE#mcp" } },
      });
      assert.equal(got.json.Item.PK.S, "USER#mcp");
      const insert = await call(writer, "ExecuteStatement", {
        Statement: "INSERT INTO \"tenants\" VALUE {'pk': 'TENANT_ID#mcp', 'sk': 'METADATA'}",
      });
      assert.equal(insert.isError, false, insert.text);

      const before = (await call(writer, "GetClock")).json;
      const moved = await call(writer, "MoveClock", { AdvanceSeconds: 3600 });
      assert.equal(moved.isError, false, moved.text);
      assert.ok(moved.json.OffsetMillis - before.OffsetMillis >= 3600 * 1000);
      const swept = await call(writer, "Sweep");
      assert.equal(swept.isError, false, swept.text);
      assert.equal(typeof swept.json.DeletedCount, "number");
      await call(writer, "MoveClock", { Reset: true });
    } finally {
      await writer.close();
    }
  });

  test("--admin-token: admin tools send the server's token", async () => {
    const locked = await startServer(["--admin-token", "mcp-token"]);
    const withToken = await connect(["--endpoint", locked.url, "--allow-writes",
                                     "--admin-token", "mcp-token"]);
    const without = await connect(["--endpoint", locked.url, "--allow-writes"]);
    try {
      const moved = await call(withToken, "MoveClock", { AdvanceSeconds: 60 });
      assert.equal(moved.isError, false, moved.text);
      const refused = await call(without, "GetClock");
      assert.equal(refused.isError, true);
      assert.match(refused.text, /UnauthorizedException/);
    } finally {
      await withToken.close();
      await without.close();
      await locked.stop();
    }
  });

  test("batches, transactions, streams and SearchVectors", async () => {
    const writer = await connect(["--endpoint", server.url, "--allow-writes"]);
    const capped = await connect(["--endpoint", server.url, "--max-items", "1"]);
    try {
      const profiles = [{ PK: { S: "USER#junior" }, SK: { S: "#PROFILE#junior" } },
                        { PK: { S: "USER#sarah" }, SK: { S: "#PROFILE#sarah" } }];
      const batch = await call(readOnly, "BatchGetItem", {
        RequestItems: { ecommerce: { Keys: profiles, ProjectionExpression: "Username" } },
      });
      assert.deepEqual(batch.json.Responses.ecommerce.map((i) => i.Username.S).sort(),
                       ["junior", "sarah"]);
      const trimmed = await call(capped, "BatchGetItem", { RequestItems: { ecommerce: { Keys: profiles } } });
      assert.equal(trimmed.json.Responses.ecommerce.length, 1);
      assert.match(trimmed.note, /1 of 2 results shown/);
      const transact = await call(readOnly, "TransactGetItems", {
        TransactItems: profiles.map((Key) => ({ Get: { TableName: "ecommerce", Key } })),
      });
      assert.equal(transact.json.Responses.length, 2);

      // A write to the stream-enabled table, read back through a shard iterator.
      const layer = { pk: { S: "lyr#ap-south-1.scipy" }, sk: { S: "lyrVrsn#v1" } };
      await call(writer, "PutItem", { TableName: "lambda-layers", Item: { ...layer, dplySts: { S: "latest" } } });
      const { StreamArn } = (await call(readOnly, "ListStreams", { TableName: "lambda-layers" })).json.Streams[0];
      const shards = (await call(readOnly, "DescribeStream", { StreamArn })).json.StreamDescription.Shards;
      const records = [];
      for (const { ShardId } of shards) {
        const iterator = await call(readOnly, "GetShardIterator", { StreamArn, ShardId, ShardIteratorType: "TRIM_HORIZON" });
        const got = await call(readOnly, "GetRecords", { ShardIterator: iterator.json.ShardIterator });
        assert.equal(got.isError, false, got.text);
        records.push(...got.json.Records);
      }
      const insert = records.find((r) => r.dynamodb.Keys.pk.S === layer.pk.S);
      assert.equal(insert.eventName, "INSERT");
      assert.equal(insert.dynamodb.NewImage.dplySts.S, "latest");

      // SearchVectors on a table the writer creates.
      const created = await call(writer, "CreateTable", {
        TableName: "mcp_vectors", BillingMode: "PAY_PER_REQUEST",
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
        AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
        VectorIndexes: [{ IndexName: "vix", VectorAttribute: { AttributeName: "v" }, Dimensions: 2,
                          DistanceFunction: "EUCLIDEAN", Projection: { ProjectionType: "ALL" } }],
      });
      assert.equal(created.isError, false, created.text);
      for (const [pk, x, y] of [["a", 0, 0], ["b", 1, 0], ["c", 5, 5]]) {
        await call(writer, "PutItem", { TableName: "mcp_vectors",
          Item: { pk: { S: pk }, v: { L: [{ N: String(x) }, { N: String(y) }] } } });
      }
      const nearest = await call(readOnly, "SearchVectors", { TableName: "mcp_vectors", IndexName: "vix",
        SearchVector: [{ N: "0.9" }, { N: "0" }], TopK: 2 });
      assert.equal(nearest.isError, false, nearest.text);
      assert.deepEqual(nearest.json.SearchResults.map((r) => r.Item.pk.S), ["b", "a"]);
      const one = await call(capped, "SearchVectors", { TableName: "mcp_vectors", IndexName: "vix",
        SearchVector: [{ N: "0.9" }, { N: "0" }], TopK: 3 });
      assert.deepEqual(one.json.SearchResults.map((r) => r.Item.pk.S), ["b"]);
      assert.match(one.note, /smaller TopK/);
    } finally {
      await writer.close();
      await capped.close();
    }
  });

  test("snapshots: save, list, restore and delete through MCP", async () => {
    const writer = await connect(["--endpoint", server.url, "--allow-writes"]);
    try {
      const key = { PK: { S: "USER#snap" }, SK: { S: "#PROFILE#snap" } };
      const saved = await call(writer, "SaveSnapshot", { Name: "seeded" });
      assert.equal(saved.isError, false, saved.text);
      assert.equal(saved.json.Name, "seeded");
      const listed = await call(writer, "ListSnapshots");
      assert.ok(listed.json.Snapshots.some((s) => s.Name === "seeded"));
      await call(writer, "PutItem", { TableName: "ecommerce", Item: key });
      assert.ok((await call(writer, "GetItem", { TableName: "ecommerce", Key: key })).json.Item);
      const restored = await call(writer, "RestoreSnapshot", { Name: "seeded" });
      assert.equal(restored.isError, false, restored.text);
      assert.equal((await call(writer, "GetItem", { TableName: "ecommerce", Key: key })).json.Item,
                   undefined);
      const orders = await call(writer, "Query", ordersOfJunior);
      assert.equal(orders.json.Items.length, 3);
      const deleted = await call(writer, "DeleteSnapshot", { Name: "seeded" });
      assert.equal(deleted.isError, false, deleted.text);
      const gone = await call(writer, "RestoreSnapshot", { Name: "seeded" });
      assert.equal(gone.isError, true);
      assert.match(gone.text, /HTTP 404.*seeded/);
    } finally {
      await writer.close();
    }
  });
});

describe("localdynamo mcp with --per-key-databases", () => {
  test("--access-key picks the database, as an SDK's credentials do", async () => {
    const server = await startServer(["--per-key-databases"]);
    const alice = await connect(["--endpoint", server.url, "--access-key", "alice", "--allow-writes"]);
    const bob = await connect(["--endpoint", server.url, "--access-key", "bob"]);
    try {
      const key = { pk: { S: "TENANT_ID#alice" }, sk: { S: "METADATA" } };
      assert.equal((await call(alice, "PutItem", { TableName: "tenants", Item: key })).isError, false);
      assert.ok((await call(alice, "GetItem", { TableName: "tenants", Key: key })).json.Item);
      assert.equal((await call(bob, "GetItem", { TableName: "tenants", Key: key })).json.Item, undefined);
      // Seed once, restore into another worker's database: alice's snapshot into bob's.
      const saved = await call(alice, "SaveSnapshot", { Name: "seed", Namespace: "alice/us-east-1" });
      assert.equal(saved.isError, false, saved.text);
      assert.equal(saved.json.Namespace, "alice/us-east-1");
      const restored = await call(alice, "RestoreSnapshot", { Name: "seed", Namespace: "bob/us-east-1" });
      assert.equal(restored.isError, false, restored.text);
      assert.ok((await call(bob, "GetItem", { TableName: "tenants", Key: key })).json.Item);
      // And a reset of bob's database alone leaves alice's alone.
      const reset = await call(alice, "ResetDatabase", { Namespace: "bob/us-east-1" });
      assert.equal(reset.isError, false, reset.text);
      assert.equal((await call(bob, "GetItem", { TableName: "tenants", Key: key })).json.Item, undefined);
      assert.ok((await call(alice, "GetItem", { TableName: "tenants", Key: key })).json.Item);
    } finally {
      await alice.close();
      await bob.close();
      await server.stop();
    }
  });
});

describe("localdynamo mcp --data-dir", () => {
  let dir;
  before(async () => {
    // A data directory written by a real server, then closed: RocksDB allows one process.
    // (startServer runs in memory, so this one is started here.)
    dir = mkdtempSync(path.join(tmpdir(), "localdynamo-mcp-"));
    const server = spawn(binary, ["--data-dir", dir, "--sample-items", "--host", "127.0.0.1",
                                  "--port", "0", "--ttl-interval", "0"],
                         { stdio: ["ignore", "pipe", "inherit"] });
    for await (const line of createInterface({ input: server.stdout })) {
      if (line.startsWith("models:")) break;  // printed once the models are loaded
    }
    server.kill("SIGTERM");
    assert.equal(await new Promise((resolve) => server.on("exit", resolve)), 0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("reads, refused writes, then writes and the admin API in-process", async () => {
    const readOnly = await connect(["--data-dir", dir]);
    try {
      const orders = await call(readOnly, "Query", ordersOfJunior);
      assert.equal(orders.json.Items.length, 3);
      const put = await call(readOnly, "PutItem", { TableName: "ecommerce", Item: { PK: { S: "a" }, SK: { S: "b" } } });
      assert.equal(put.isError, true);
      assert.match(put.text, /--allow-writes/);
      const { resources } = await readOnly.listResources();
      assert.ok(resources.some((r) => r.uri === "localdynamo://models/warehouse"));
    } finally {
      await readOnly.close();
    }
    const writer = await connect(["--data-dir", dir, "--allow-writes", "--sample-items"]);
    try {
      const item = { PK: { S: "USER#offline" }, SK: { S: "#PROFILE#offline" } };
      assert.equal((await call(writer, "PutItem", { TableName: "ecommerce", Item: item })).isError, false);
      assert.ok((await call(writer, "GetItem", { TableName: "ecommerce", Key: item })).json.Item);
      const moved = await call(writer, "MoveClock", { AdvanceSeconds: 60 });
      assert.equal(moved.isError, false, moved.text);
      assert.ok(moved.json.OffsetMillis >= 60 * 1000);
      // Snapshots live in the mcp process here: save, change, restore.
      assert.equal((await call(writer, "SaveSnapshot", { Name: "before" })).isError, false);
      await call(writer, "DeleteItem", { TableName: "ecommerce", Key: item });
      assert.equal((await call(writer, "GetItem", { TableName: "ecommerce", Key: item })).json.Item, undefined);
      const restored = await call(writer, "RestoreSnapshot", { Name: "before" });
      assert.equal(restored.isError, false, restored.text);
      assert.ok((await call(writer, "GetItem", { TableName: "ecommerce", Key: item })).json.Item);
      const reset = await call(writer, "ResetDatabase");
      assert.equal(reset.isError, false, reset.text);
      assert.equal((await call(writer, "GetItem", { TableName: "ecommerce", Key: item })).json.Item, undefined);
      assert.ok((await call(writer, "ListTables")).json.TableNames.includes("ecommerce"));
      // --sample-items: the reset loaded the models' items again.
      assert.equal((await call(writer, "Query", ordersOfJunior)).json.Items.length, 3);
    } finally {
      await writer.close();
    }
  });
});

describe("localdynamo mcp's JSON-RPC framing", () => {
  // Raw lines, as a client other than the SDK might send them.
  test("version negotiation, ping, and JSON-RPC's errors", async () => {
    const child = spawn(binary, ["mcp", "--endpoint", "http://127.0.0.1:9"], { stdio: ["pipe", "pipe", "ignore"] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const ask = async (text) => {
      child.stdin.write(text + "\n");
      return JSON.parse((await lines.next()).value);
    };
    try {
      const old = await ask(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } } }));
      assert.equal(old.result.protocolVersion, "2024-11-05");
      const unknown = await ask(JSON.stringify({ jsonrpc: "2.0", id: "two", method: "initialize",
        params: { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "t", version: "1" } } }));
      assert.equal(unknown.id, "two");
      assert.equal(unknown.result.protocolVersion, LATEST_PROTOCOL_VERSION);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
      assert.deepEqual(await ask(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" })),
                       { jsonrpc: "2.0", id: 3, result: {} });
      assert.equal((await ask("{not json")).error.code, -32700);
      assert.equal((await ask(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "nope" }))).error.code, -32601);
      // A server that is not there: a tool error naming the endpoint, not a crash.
      const down = await ask(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call",
        params: { name: "ListTables", arguments: {} } }));
      assert.equal(down.result.isError, true);
      assert.match(down.result.content[0].text, /cannot reach localdynamo at http:\/\/127.0.0.1:9/);
    } finally {
      child.stdin.end();
      assert.equal(await new Promise((resolve) => child.on("exit", resolve)), 0);
    }
  });
});
