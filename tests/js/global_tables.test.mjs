// Global tables through the AWS SDK for JavaScript, with a client per region:
// a write seen in the other region only once the replication delay has
// passed on the emulator's clock (and at once after a settle), a conflict
// resolved last-writer-wins; a strongly consistent (MRSC) table whose write,
// held in flight, meets another region's with ReplicatedWriteConflictException;
// and a replay of what the Terraform AWS
// provider (v6) sends for an `aws_dynamodb_table` with two `replica`
// blocks — create (one replica at a time, each awaited on the home region's
// Replicas entry), read, destroy (the replicas concurrently, then the table).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  DynamoDBClient, CreateTableCommand, DescribeTableCommand, UpdateTableCommand,
  DeleteTableCommand, PutItemCommand, GetItemCommand, UpdateTimeToLiveCommand,
  DescribeTimeToLiveCommand, UpdateContinuousBackupsCommand, DescribeContinuousBackupsCommand,
  ListTagsOfResourceCommand, TagResourceCommand, ResourceNotFoundException,
  ResourceInUseException, ReplicatedWriteConflictException, ConditionalCheckFailedException,
} from "@aws-sdk/client-dynamodb";

import { startServer } from "./localdynamo.mjs";

let server;
const clients = {};
const client = (region) =>
  (clients[region] ??= new DynamoDBClient({ ...server.config, region }));

before(async () => {
  // The hold only touches strongly consistent tables: the other tests'
  // writes commit at once.
  server = await startServer(["--no-models", "--replication-hold-ms", "2000"]);
});

after(async () => {
  for (const c of Object.values(clients)) c.destroy();
  await server?.stop();
});

const describe = async (region, TableName) =>
  (await client(region).send(new DescribeTableCommand({ TableName }))).Table;

async function makeTable(region, TableName, extra = {}) {
  await client(region).send(new CreateTableCommand({
    TableName, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
    ...extra,
  }));
}

const get = async (region, TableName, pk) => (await client(region).send(new GetItemCommand({
  TableName, Key: { pk: { S: pk } }, ConsistentRead: true,
}))).Item;

test("a write reaches the other region after the delay, or at once when settled", async () => {
  const TableName = "carts";
  await makeTable("us-east-1", TableName);
  await client("us-east-1").send(new UpdateTableCommand({
    TableName, ReplicaUpdates: [{ Create: { RegionName: "ap-northeast-1" } }],
  }));
  await server.admin("clock", { Freeze: true });

  await client("us-east-1").send(new PutItemCommand({
    TableName, Item: { pk: { S: "cart-1" }, by: { S: "east" } },
  }));
  assert.equal(await get("ap-northeast-1", TableName, "cart-1"), undefined);
  const backlog = await server.admin("replication");
  assert.equal(backlog.Members.find((m) => m.Region === "us-east-1").Pending, 1);
  await server.admin("clock", { AdvanceMillis: 1000 });
  let seen;
  for (let i = 0; i < 500 && !seen; i++) {
    seen = await get("ap-northeast-1", TableName, "cart-1");
    if (!seen) await new Promise((r) => setTimeout(r, 10));
  }
  assert.deepEqual(seen?.by, { S: "east" });

  // Both regions write before either hears of the other: the later wins.
  await client("ap-northeast-1").send(new PutItemCommand({
    TableName, Item: { pk: { S: "cart-2" }, by: { S: "tokyo" } },
  }));
  await server.admin("clock", { AdvanceMillis: 3 });
  await client("us-east-1").send(new PutItemCommand({
    TableName, Item: { pk: { S: "cart-2" }, by: { S: "east" } },
  }));
  const settled = await server.admin("replication/settle", {});
  assert.equal(settled.Applied, 2);
  assert.deepEqual((await get("ap-northeast-1", TableName, "cart-2")).by, { S: "east" });
  assert.deepEqual((await get("us-east-1", TableName, "cart-2")).by, { S: "east" });
  await server.admin("clock", { Freeze: false });
});

test("MRSC: reads see every region's write; a write held in flight conflicts", async () => {
  const TableName = "ledger";
  await makeTable("us-east-1", TableName);
  await client("us-east-1").send(new UpdateTableCommand({
    TableName, MultiRegionConsistency: "STRONG",
    ReplicaUpdates: [{ Create: { RegionName: "us-east-2" } }],
    GlobalTableWitnessUpdates: [{ Create: { RegionName: "us-west-2" } }],
  }));
  assert.equal((await describe("us-east-2", TableName)).MultiRegionConsistency, "STRONG");

  const Key = { pk: { S: "entry-1" } };
  const held = client("us-east-1").send(new PutItemCommand({
    TableName, Item: { ...Key, by: { S: "east" } },
  }));
  // A write that cannot succeed fails its condition, writing nothing, until
  // the east write's claim makes it conflict; bounded by attempts.
  let conflict;
  for (let attempt = 0; attempt < 3000 && !conflict; attempt++) {
    try {
      await client("us-east-2").send(new PutItemCommand({
        TableName, Item: Key, ConditionExpression: "attribute_exists(never)",
      }));
      assert.fail("the condition cannot hold");
    } catch (error) {
      if (error instanceof ReplicatedWriteConflictException) conflict = error;
      else {
        assert.ok(error instanceof ConditionalCheckFailedException, String(error));
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }
  assert.ok(conflict, "the east write never held its item");
  assert.equal(conflict.message, "The request was rejected because one or more items in the " +
    "request are being modified by a request in another Region.");
  await held;
  // Answered means everywhere: Ohio reads it at once, and its retry wins.
  assert.deepEqual((await get("us-east-2", TableName, "entry-1")).by, { S: "east" });
  await client("us-east-2").send(new PutItemCommand({
    TableName, Item: { ...Key, by: { S: "ohio" } },
  }));
  assert.deepEqual((await get("us-east-1", TableName, "entry-1")).by, { S: "ohio" });
});

// The provider's waiter: polls until `status()` answers `target`; a
// missing value is "pending" here (a replica's entry not yet listed), and
// the bound is on attempts, not time.
async function waitFor(what, status, target, pending) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const value = await status();
    if (value === target) return;
    assert.ok(pending.includes(value), `${what}: unexpected state ${value}`);
  }
  assert.fail(`${what}: still not ${target}`);
}

const replicaStatus = async (home, TableName, region) =>
  (await describe(home, TableName)).Replicas?.find((r) => r.RegionName === region)?.ReplicaStatus;

test("Terraform: aws_dynamodb_table with two replica blocks, created, read and destroyed", async () => {
  const home = "us-west-2";
  const TableName = "tf-global";
  const replicas = ["eu-west-1", "ap-southeast-2"];
  // Create: the table alone (no stream asked for), then TTL and PITR.
  await makeTable(home, TableName, { Tags: [{ Key: "team", Value: "orders" }] });
  await waitFor("table", async () => (await describe(home, TableName)).TableStatus, "ACTIVE",
                ["CREATING"]);
  await client(home).send(new UpdateTimeToLiveCommand({
    TableName, TimeToLiveSpecification: { Enabled: true, AttributeName: "expires" },
  }));
  await client(home).send(new UpdateContinuousBackupsCommand({
    TableName, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
  }));
  // One UpdateTable per replica block, in order, each awaited in the home region.
  for (const region of replicas) {
    const answer = await client(home).send(new UpdateTableCommand({
      TableName, ReplicaUpdates: [{ Create: { RegionName: region } }],
    }));
    assert.equal(answer.TableDescription.GlobalTableVersion, "2019.11.21");
    await waitFor(`replica ${region}`, () => replicaStatus(home, TableName, region), "ACTIVE",
                  [undefined, "CREATING", "UPDATING"]);
    await waitFor("table", async () => (await describe(home, TableName)).TableStatus, "ACTIVE",
                  ["UPDATING"]);
    // Then, in the replica's region: its own point-in-time recovery, and
    // the tags (propagate_tags) on the ARN with the region swapped.
    await client(region).send(new UpdateContinuousBackupsCommand({
      TableName, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
    }));
    const backups = await client(region).send(new DescribeContinuousBackupsCommand({ TableName }));
    assert.equal(backups.ContinuousBackupsDescription.PointInTimeRecoveryDescription
      .PointInTimeRecoveryStatus, "DISABLED");
    const arn = (await describe(home, TableName)).TableArn.replace(`:${home}:`, `:${region}:`);
    assert.deepEqual((await client(region).send(new ListTagsOfResourceCommand({
      ResourceArn: arn }))).Tags ?? [], []);
    await client(region).send(new TagResourceCommand({
      ResourceArn: arn, Tags: [{ Key: "team", Value: "orders" }] }));
  }

  // Read: the home table, then each replica in its region.
  const table = await describe(home, TableName);
  assert.deepEqual(table.Replicas.map((r) => r.RegionName), replicas);
  assert.ok(table.Replicas.every((r) => r.ReplicaStatus === "ACTIVE"));
  assert.equal(table.MultiRegionConsistency, undefined);  // EVENTUAL is not shown
  assert.equal(table.StreamSpecification.StreamViewType, "NEW_AND_OLD_IMAGES");
  for (const region of replicas) {
    const replica = await describe(region, TableName);
    assert.ok(replica.TableArn.startsWith(`arn:aws:dynamodb:${region}:`));
    assert.ok(replica.LatestStreamArn.startsWith(`arn:aws:dynamodb:${region}:`));
    assert.equal(replica.DeletionProtectionEnabled, false);
    assert.deepEqual(replica.Replicas.map((r) => r.RegionName).sort(),
                     [home, ...replicas.filter((r) => r !== region)].sort());
    const ttl = await client(region).send(new DescribeTimeToLiveCommand({ TableName }));
    assert.equal(ttl.TimeToLiveDescription.TimeToLiveStatus, "ENABLED");
  }

  // Destroy: every replica at once, one Delete each, retried while the
  // table is busy; each awaited until its entry leaves the home region.
  await Promise.all(replicas.map(async (region) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client(home).send(new UpdateTableCommand({
          TableName, ReplicaUpdates: [{ Delete: { RegionName: region } }],
        }));
        break;
      } catch (e) {
        assert.ok(e instanceof ResourceInUseException && attempt < 20, String(e));
      }
    }
    await waitFor(`replica ${region} gone`, () => replicaStatus(home, TableName, region),
                  undefined, ["ACTIVE", "DELETING"]);
  }));
  for (const region of replicas) {
    await assert.rejects(describe(region, TableName), ResourceNotFoundException);
  }
  assert.equal((await describe(home, TableName)).Replicas, undefined);
  await client(home).send(new DeleteTableCommand({ TableName }));
  await assert.rejects(describe(home, TableName), ResourceNotFoundException);
});
