// The known workload both runners' files run, through the real AWS SDK with
// no configuration (the worker's database): 3 PutItem, then one Scan whose
// filter keeps 1 of the 3 items. Its profile: ItemsRead 3, ItemsReturned 1.
const assert = require("node:assert/strict");
const { DynamoDBClient, PutItemCommand, ScanCommand } = require("@aws-sdk/client-dynamodb");

async function workload() {
  const db = new DynamoDBClient({});
  try {
    for (const [sk, status] of [["order#1", "OPEN"], ["order#2", "SHIPPED"], ["order#3", "SHIPPED"]]) {
      await db.send(new PutItemCommand({
        TableName: "Orders", Item: { pk: { S: "customer#1" }, sk: { S: sk }, status: { S: status } },
      }));
    }
    const { Items, ScannedCount } = await db.send(new ScanCommand({
      TableName: "Orders", FilterExpression: "#s = :s",
      ExpressionAttributeNames: { "#s": "status" }, ExpressionAttributeValues: { ":s": { S: "OPEN" } },
    }));
    assert.equal(ScannedCount, 3);
    assert.equal(Items.length, 1);
  } finally {
    db.destroy();
  }
}

module.exports = { workload };
