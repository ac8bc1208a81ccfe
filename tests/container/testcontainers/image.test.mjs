// The built image started the way projects start DynamoDB Local today:
// through Testcontainers for Node, against a Docker-compatible API (podman's,
// see run.sh), then used through the AWS SDK for JavaScript v3.
//
// - the default wait strategy: Testcontainers checks the mapped port from the
//   host and, with /bin/sh in the container, the port from inside it
//   (`cat /proc/net/tcp* | awk … | grep …`, `nc -vz …`); an image without a
//   shell never becomes ready;
// - DynamoDB Local's command line (`-jar DynamoDBLocal.jar -sharedDb
//   -inMemory`) with a wait for DynamoDB Local's start-up log line;
// - the Testcontainers .NET module's wait, GET / answering 400, with
//   LOCALDYNAMO_ROOT_ANSWER=dynamodb-local.
import { test } from "node:test";
import assert from "node:assert/strict";
import { GenericContainer, Wait } from "testcontainers";
import {
  CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand,
} from "@aws-sdk/client-dynamodb";

const IMAGE = process.env.LOCALDYNAMO_IMAGE ?? "localhost/localdynamo:test";
const STARTUP_MS = Number(process.env.LOCALDYNAMO_STARTUP_MS ?? 90_000);

// Writes an item and reads it back through the mapped port.
async function writeAndRead(container, table) {
  const endpoint = `http://${container.getHost()}:${container.getMappedPort(8000)}`;
  const client = new DynamoDBClient({
    endpoint, region: "us-east-1",
    credentials: { accessKeyId: "testcontainers", secretAccessKey: "x" },
  });
  try {
    await client.send(new CreateTableCommand({
      TableName: table,
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
      BillingMode: "PAY_PER_REQUEST",
    }));
    await client.send(new PutItemCommand({
      TableName: table, Item: { pk: { S: "from-node" }, n: { N: "7" } },
    }));
    const { Item } = await client.send(new GetItemCommand({
      TableName: table, Key: { pk: { S: "from-node" } }, ConsistentRead: true,
    }));
    assert.deepEqual(Item, { pk: { S: "from-node" }, n: { N: "7" } });
  } finally {
    client.destroy();
  }
}

async function logsOf(container) {
  const stream = await container.logs();
  let text = "";
  stream.on("data", (chunk) => { text += chunk.toString(); });
  await new Promise((resolve) => setTimeout(resolve, 300));
  stream.destroy();
  return text;
}

test("the default wait strategy (host and in-container port checks)", async () => {
  const container = await new GenericContainer(IMAGE)
    .withExposedPorts(8000)
    .withStartupTimeout(STARTUP_MS)
    .start();
  try {
    // The in-container check ran through the image's shell.
    const probe = await container.exec(["/bin/sh", "-c",
      "cat /proc/net/tcp* | awk '{print $2}' | grep -i :1f40"]);
    assert.equal(probe.exitCode, 0, probe.output);
    await writeAndRead(container, "tc-default-wait");
  } finally {
    await container.stop();
  }
});

test("DynamoDB Local's command line and its log line", async () => {
  const container = await new GenericContainer(IMAGE)
    .withCommand(["-jar", "DynamoDBLocal.jar", "-sharedDb", "-inMemory"])
    .withExposedPorts(8000)
    .withWaitStrategy(
      Wait.forLogMessage("Initializing DynamoDB Local with the following configuration:"))
    .withStartupTimeout(STARTUP_MS)
    .start();
  try {
    await writeAndRead(container, "tc-log-wait");
    const logs = await logsOf(container);
    assert.match(logs, /Port:\t8000\nInMemory:\ttrue\n/);
    assert.match(logs, /SharedDb:\ttrue\n/);
  } finally {
    await container.stop();
  }
});

test("the .NET module's wait: GET / answering 400 as DynamoDB Local does", async () => {
  const container = await new GenericContainer(IMAGE)
    .withEnvironment({ LOCALDYNAMO_ROOT_ANSWER: "dynamodb-local" })
    .withExposedPorts(8000)
    .withWaitStrategy(Wait.forHttp("/", 8000).forStatusCode(400))
    .withStartupTimeout(STARTUP_MS)
    .start();
  try {
    const answer = await fetch(
      `http://${container.getHost()}:${container.getMappedPort(8000)}/`);
    assert.equal(answer.status, 400);
    assert.match(await answer.text(), /#MissingAuthenticationToken"/);
    await writeAndRead(container, "tc-http-wait");
  } finally {
    await container.stop();
  }
});
