// The preloaded ecommerce and lambda-layers models through the AWS SDK for
// JavaScript v3 — a second real client besides boto3: DynamoDBClient,
// the DocumentClient of lib-dynamodb, and DynamoDBStreamsClient against the
// real binary started on a free port.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  DynamoDBClient, DescribeTableCommand, ConditionalCheckFailedException,
} from "@aws-sdk/client-dynamodb";
import {
  DynamoDBDocumentClient, GetCommand, QueryCommand, PutCommand, UpdateCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import {
  DynamoDBStreamsClient, DescribeStreamCommand, GetShardIteratorCommand, GetRecordsCommand,
} from "@aws-sdk/client-dynamodb-streams";

import { startServer } from "./localdynamo.mjs";

let server;
let ddb;
let doc;
let streams;

before(async () => {
  server = await startServer(["--sample-items"]);
  ddb = new DynamoDBClient(server.config);
  doc = DynamoDBDocumentClient.from(ddb);
  streams = new DynamoDBStreamsClient(server.config);
});

after(async () => {
  ddb?.destroy();
  streams?.destroy();
  await server?.stop();
});

test("ecommerce: user profile", async () => {
  const { Item } = await doc.send(new GetCommand({
    TableName: "ecommerce", Key: { PK: "USER#junior", SK: "#PROFILE#junior" } }));
  assert.equal(Item.Username, "junior");
  assert.equal(Item.Addresses.Home.State, "Rio de Janeiro");
});

test("ecommerce: orders for a user", async () => {
  const { Items } = await doc.send(new QueryCommand({
    TableName: "ecommerce",
    KeyConditionExpression: "PK = :u AND begins_with(SK, :o)",
    ExpressionAttributeValues: { ":u": "USER#junior", ":o": "ORDER#" } }));
  assert.deepEqual(Items.map((i) => i.OrderId), ["5eaf12", "ac630a", "f3990a"]);
});

test("ecommerce: an order's items through GSI1", async () => {
  const { Items } = await doc.send(new QueryCommand({
    TableName: "ecommerce", IndexName: "GSI1",
    KeyConditionExpression: "SK = :o AND begins_with(PK, :i)",
    ExpressionAttributeValues: { ":o": "ORDER#5eaf12", ":i": "ITEM#" } }));
  assert.deepEqual(Items.map((i) => [i.ProductName, i.Price]), [["Echo Dot", 59.99], ["Macbook", 1999]]);
});

test("ecommerce: a user's orders by status through GSI2", async () => {
  const { Items } = await doc.send(new QueryCommand({
    TableName: "ecommerce", IndexName: "GSI2",
    KeyConditionExpression: "PK = :u AND begins_with(OrderStatusDate, :s)",
    ExpressionAttributeValues: { ":u": "USER#junior", ":s": "SHIPPED#" } }));
  assert.deepEqual(Items.map((i) => i.OrderId), ["f3990a"]);
});

test("ecommerce: a conditional put fails with the SDK's exception class", async () => {
  await assert.rejects(
    doc.send(new PutCommand({
      TableName: "ecommerce", Item: { PK: "USER#junior", SK: "#PROFILE#junior" },
      ConditionExpression: "attribute_not_exists(PK)" })),
    (error) => error instanceof ConditionalCheckFailedException);
});

test("lambda-layers: the table as models.md describes it", async () => {
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName: "lambda-layers" }));
  assert.deepEqual(Table.GlobalSecondaryIndexes.map((g) => g.IndexName).sort(),
                   ["pckg-dplySts", "rgn-dplySts"]);
  assert.equal(Table.StreamSpecification.StreamViewType, "NEW_AND_OLD_IMAGES");
});

test("lambda-layers: latest arn, latest for all regions, deployed in a region", async () => {
  const pointer = await doc.send(new GetCommand({
    TableName: "lambda-layers", Key: { pk: "lyr#us-east-1.numpy", sk: "lyrVrsn0#" } }));
  assert.match(pointer.Item.arn, /:layer:numpy:2$/);
  const latest = await doc.send(new QueryCommand({
    TableName: "lambda-layers", IndexName: "pckg-dplySts",
    KeyConditionExpression: "pckg = :p AND dplySts = :l",
    ExpressionAttributeValues: { ":p": "numpy", ":l": "latest" } }));
  assert.deepEqual(latest.Items.map((i) => i.rgn).sort(), ["eu-west-1", "us-east-1"]);
  const region = await doc.send(new QueryCommand({
    TableName: "lambda-layers", IndexName: "rgn-dplySts",
    KeyConditionExpression: "rgn = :r", ExpressionAttributeValues: { ":r": "us-east-1" } }));
  assert.deepEqual(region.Items.map((i) => `${i.pckg}:${i.dplySts}`).sort(),
                   ["numpy:deprecated", "numpy:latest", "pandas:latest"]);
  const builds = await doc.send(new QueryCommand({
    TableName: "lambda-layers", KeyConditionExpression: "pk = :b",
    ExpressionAttributeValues: { ":b": "bldVrsn0#" } }));
  assert.deepEqual(builds.Items.map((i) => i.sk), ["pckg#numpy", "pckg#pandas"]);
});

test("lambda-layers: a new version deprecates the old one with a TTL; expiry reaches the stream", async () => {
  const now = Math.floor((await server.admin("clock")).NowMillis / 1000);
  await doc.send(new TransactWriteCommand({ TransactItems: [
    { Put: { TableName: "lambda-layers", Item: {
      pk: "lyr#us-east-1.pandas", sk: "lyrVrsn#v3", rgn: "us-east-1", pckg: "pandas",
      lyrVrsn: 3, dplySts: "latest", arn: "arn:aws:lambda:us-east-1:000000000000:layer:pandas:3" } } },
    { Update: { TableName: "lambda-layers", Key: { pk: "lyr#us-east-1.pandas", sk: "lyrVrsn#v2" },
      UpdateExpression: "SET dplySts = :d, #t = :t", ExpressionAttributeNames: { "#t": "ttl" },
      ExpressionAttributeValues: { ":d": "deprecated", ":t": now + 3600 } } },
    { Update: { TableName: "lambda-layers", Key: { pk: "lyr#us-east-1.pandas", sk: "lyrVrsn0#" },
      UpdateExpression: "SET lyrVrsn = :v, arn = :a",
      ExpressionAttributeValues: { ":v": 3, ":a": "arn:aws:lambda:us-east-1:000000000000:layer:pandas:3" } } },
  ] }));
  await server.admin("clock", { AdvanceSeconds: 3601 });
  const swept = await server.admin("sweep", {});
  assert.deepEqual(swept.Deleted.map((d) => d.Key.sk.S), ["lyrVrsn#v2"]);

  const { Table } = await ddb.send(new DescribeTableCommand({ TableName: "lambda-layers" }));
  const { StreamDescription } = await streams.send(
    new DescribeStreamCommand({ StreamArn: Table.LatestStreamArn }));
  const records = [];
  for (const shard of StreamDescription.Shards) {
    let { ShardIterator } = await streams.send(new GetShardIteratorCommand({
      StreamArn: Table.LatestStreamArn, ShardId: shard.ShardId, ShardIteratorType: "TRIM_HORIZON" }));
    while (ShardIterator) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator }));
      records.push(...page.Records);
      if (page.Records.length === 0) break;
      ShardIterator = page.NextShardIterator;
    }
  }
  const removes = records.filter((r) => r.eventName === "REMOVE");
  assert.equal(removes.length, 1);
  assert.deepEqual(removes[0].userIdentity, { Type: "Service", PrincipalId: "dynamodb.amazonaws.com" });
  assert.equal(removes[0].dynamodb.OldImage.dplySts.S, "deprecated");
  assert.ok(removes[0].dynamodb.ApproximateCreationDateTime instanceof Date);
  const modifies = records.filter((r) => r.eventName === "MODIFY");
  assert.equal(modifies.length, 2);  // the deprecation and the pointer, one transaction
});

test("lambda-layers: an update on a stale pointer fails its condition", async () => {
  await assert.rejects(doc.send(new UpdateCommand({
    TableName: "lambda-layers", Key: { pk: "lyr#us-east-1.numpy", sk: "lyrVrsn0#" },
    UpdateExpression: "SET lyrVrsn = :v", ConditionExpression: "lyrVrsn = :expected",
    ExpressionAttributeValues: { ":v": 9, ":expected": 1 } })), ConditionalCheckFailedException);
});
