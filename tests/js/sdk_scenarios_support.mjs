// What several SDK scenarios (sdk_scenarios.test.mjs) share: making a
// scenario's table, reading a whole stream, and keeping the raw bytes of an
// answer. Knows the AWS SDK for JavaScript v3 and nothing of the server.
import {
  CreateTableCommand, DescribeTableCommand,
} from "@aws-sdk/client-dynamodb";
import {
  DescribeStreamCommand, GetShardIteratorCommand, GetRecordsCommand,
} from "@aws-sdk/client-dynamodb-streams";

// The scenario's table name: SCENARIOS.md names every table after the
// scenario and the SDK.
export const tableName = (scenario) => `${scenario}_js`;

// Creates a table keyed by `pk` (and `sk` when given, each {name, type});
// `extra` adds to the request (GSIs, streams, provisioned throughput).
// On demand unless `extra` says otherwise.
export async function createTable(ddb, TableName, { pk, sk, extra = {} }) {
  const keys = sk ? [pk, sk] : [pk];
  const definitions = new Map(keys.map((k) => [k.name, k.type]));
  for (const index of extra.GlobalSecondaryIndexes ?? []) {
    for (const k of index.keys) definitions.set(k.name, k.type);
  }
  const { GlobalSecondaryIndexes, ...rest } = extra;
  await ddb.send(new CreateTableCommand({
    TableName,
    BillingMode: rest.ProvisionedThroughput ? "PROVISIONED" : "PAY_PER_REQUEST",
    KeySchema: keys.map((k, i) => ({ AttributeName: k.name, KeyType: i === 0 ? "HASH" : "RANGE" })),
    AttributeDefinitions: [...definitions].map(([AttributeName, AttributeType]) =>
      ({ AttributeName, AttributeType })),
    GlobalSecondaryIndexes: GlobalSecondaryIndexes?.map((index) => ({
      IndexName: index.name,
      KeySchema: index.keys.map((k, i) =>
        ({ AttributeName: k.name, KeyType: i === 0 ? "HASH" : "RANGE" })),
      Projection: { ProjectionType: "ALL" },
    })),
    ...rest,
  }));
}

// Every record of a table's latest stream, shard by shard from TRIM_HORIZON,
// each shard read until GetRecords answers an empty page (an open shard
// always hands back a next iterator).
export async function readStream(ddb, streams, TableName) {
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName }));
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({
    StreamArn: Table.LatestStreamArn }));
  const records = [];
  for (const shard of StreamDescription.Shards) {
    let { ShardIterator } = await streams.send(new GetShardIteratorCommand({
      StreamArn: Table.LatestStreamArn, ShardId: shard.ShardId,
      ShardIteratorType: "TRIM_HORIZON" }));
    while (ShardIterator) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator }));
      records.push(...page.Records);
      ShardIterator = page.Records.length > 0 ? page.NextShardIterator : undefined;
    }
  }
  return records;
}

// Adds a middleware that keeps each raw HTTP answer's headers and body bytes
// in `seen` before the SDK's deserializer reads them. It sits right after
// the deserializer in the deserialize step, so it is the one nearest the
// wire: it reads the body stream to its end and hands the deserializer the
// same bytes.
export function keepRawAnswers(client, seen) {
  client.middlewareStack.addRelativeTo((next) => async (args) => {
    const result = await next(args);
    const chunks = [];
    for await (const chunk of result.response.body) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    seen.push({ headers: result.response.headers, body });
    result.response.body = body;
    return result;
  }, { relation: "after", toMiddleware: "deserializerMiddleware", name: "keepRawAnswers" });
}
