// ExportTableToPointInTime and ImportTable through the JS SDK, with the
// objects in a real S3 API server (s3rver, pinned by package-lock.json) read
// and written through the SDK's S3 client, as a nightly export job or a
// seeding script would.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import {
  DynamoDBClient, CreateTableCommand, PutItemCommand, ScanCommand,
  UpdateContinuousBackupsCommand, ExportTableToPointInTimeCommand, DescribeExportCommand,
  ListExportsCommand, ImportTableCommand, DescribeImportCommand, ListImportsCommand,
} from "@aws-sdk/client-dynamodb";
import { S3Client, GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";

import { startServer } from "./localdynamo.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const S3_KEY = "S3RVER";  // s3rver's own credentials

let s3rver;
let s3dir;
let s3;
let server;
let ddb;

async function startS3rver() {
  s3dir = mkdtempSync(path.join(tmpdir(), "localdynamo-s3rver-"));
  const child = spawn(process.execPath, [
    // On 127.0.0.1: its default, "localhost", is ::1 where Node resolves it
    // to IPv6 first (Debian's Node 18 does).
    path.join(here, "node_modules", "s3rver", "bin", "s3rver.js"), "-d", s3dir, "-p", "0",
    "-a", "127.0.0.1", "--configure-bucket", "exports"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    let seen = "";
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = /listening on [^:]+:(\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.on("exit", () => reject(new Error("s3rver exited: " + seen)));
  });
  return { child, endpoint: `http://127.0.0.1:${port}` };
}

before(async () => {
  s3rver = await startS3rver();
  s3 = new S3Client({ endpoint: s3rver.endpoint, region: "us-east-1", forcePathStyle: true,
                      credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_KEY } });
  server = await startServer(["--no-models", "--s3-endpoint", s3rver.endpoint], {
    AWS_ACCESS_KEY_ID: S3_KEY, AWS_SECRET_ACCESS_KEY: S3_KEY, AWS_REGION: "us-east-1" });
  ddb = new DynamoDBClient(server.config);
});

after(async () => {
  ddb?.destroy();
  s3?.destroy();
  await server?.stop();
  s3rver?.child.kill();
  if (s3dir) rmSync(s3dir, { recursive: true, force: true });
});

const keySchema = {
  BillingMode: "PAY_PER_REQUEST",
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
};

async function text(Key) {
  const object = await s3.send(new GetObjectCommand({ Bucket: "exports", Key }));
  return Buffer.from(await object.Body.transformToByteArray());
}

test("an ION export lands in S3 and imports back into a new table", async () => {
  await ddb.send(new CreateTableCommand({ TableName: "js-export", ...keySchema }));
  await ddb.send(new UpdateContinuousBackupsCommand({
    TableName: "js-export",
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }));
  for (let i = 0; i < 12; i++) {
    await ddb.send(new PutItemCommand({ TableName: "js-export", Item: {
      pk: { S: `item-${i}` }, n: { N: String(i * 100) }, tags: { SS: ["a", `t${i}`] } } }));
  }
  const started = await ddb.send(new ExportTableToPointInTimeCommand({
    TableArn: "arn:aws:dynamodb:us-east-1:000000000000:table/js-export",
    S3Bucket: "exports", S3Prefix: "js", ExportFormat: "ION" }));
  assert.equal(started.ExportDescription.ExportStatus, "IN_PROGRESS");
  const { ExportDescription: done } = await ddb.send(new DescribeExportCommand({
    ExportArn: started.ExportDescription.ExportArn }));
  assert.equal(done.ExportStatus, "COMPLETED");
  assert.equal(done.ItemCount, 12);
  const listed = await ddb.send(new ListExportsCommand({ TableArn: done.TableArn }));
  assert.deepEqual(listed.ExportSummaries, [{
    ExportArn: done.ExportArn, ExportStatus: "COMPLETED", ExportType: "FULL_EXPORT" }]);

  const summary = JSON.parse(await text(done.ExportManifest));
  assert.equal(summary.outputFormat, "ION");
  const [entry] = (await text(summary.manifestFilesS3Key)).toString().trim().split("\n")
    .map((line) => JSON.parse(line));
  const lines = gunzipSync(await text(entry.dataFileS3Key)).toString().trim().split("\n");
  assert.equal(lines.length, 12);
  assert.ok(lines.every((line) => line.startsWith("$ion_1_0 {Item:{")), lines[0]);

  const imported = await ddb.send(new ImportTableCommand({
    S3BucketSource: { S3Bucket: "exports", S3KeyPrefix: entry.dataFileS3Key },
    InputFormat: "ION", InputCompressionType: "GZIP",
    TableCreationParameters: { TableName: "js-imported", ...keySchema } }));
  assert.equal(imported.ImportTableDescription.ImportStatus, "IN_PROGRESS");
  const { ImportTableDescription: finished } = await ddb.send(new DescribeImportCommand({
    ImportArn: imported.ImportTableDescription.ImportArn }));
  assert.equal(finished.ImportStatus, "COMPLETED");
  assert.equal(finished.ImportedItemCount, 12);
  const sorted = async (TableName) => (await ddb.send(new ScanCommand({ TableName }))).Items
    .sort((a, b) => a.pk.S.localeCompare(b.pk.S));
  assert.deepEqual(await sorted("js-imported"), await sorted("js-export"));
});

test("a CSV object put in S3 imports with its key typed", async () => {
  await s3.send(new PutObjectCommand({ Bucket: "exports", Key: "seed/orders.csv",
                                       Body: "id|customer\n1|ann\n2|bob\n" }));
  const imported = await ddb.send(new ImportTableCommand({
    S3BucketSource: { S3Bucket: "exports", S3KeyPrefix: "seed/" },
    InputFormat: "CSV", InputFormatOptions: { Csv: { Delimiter: "|" } },
    TableCreationParameters: {
      TableName: "js-orders", BillingMode: "PAY_PER_REQUEST",
      KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "N" }] } }));
  const { ImportSummaryList } = await ddb.send(new ListImportsCommand({
    TableArn: imported.ImportTableDescription.TableArn }));
  assert.equal(ImportSummaryList.length, 1);
  assert.equal(ImportSummaryList[0].ImportStatus, "COMPLETED");
  const { Items } = await ddb.send(new ScanCommand({ TableName: "js-orders" }));
  assert.deepEqual(Items.sort((a, b) => a.id.N - b.id.N), [
    { id: { N: "1" }, customer: { S: "ann" } }, { id: { N: "2" }, customer: { S: "bob" } }]);
});
