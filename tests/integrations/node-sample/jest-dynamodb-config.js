// @shelf/jest-dynamodb's config file, unchanged in shape: `tables` are
// CreateTable inputs (`port` and the DynamoDB Local options would be
// accepted too). `seed` is localdynamo-test's own: run once, saved as a
// snapshot, restored into each worker's database before every test file.
const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, BatchWriteCommand } = require("@aws-sdk/lib-dynamodb");

const SEED_ITEMS = [
  { pk: "customer#1", sk: "profile", name: "Ada" },
  { pk: "customer#1", sk: "order#1", total: 30 },
  { pk: "customer#1", sk: "order#2", total: 12 },
  { pk: "counter", sk: "counter", n: 0 },
];

module.exports = {
  tables: [
    {
      TableName: "Orders",
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" },
                             { AttributeName: "sk", AttributeType: "S" }],
      BillingMode: "PAY_PER_REQUEST",
    },
  ],
  // The AWS environment points at the seed database here: a client made
  // with no configuration writes into it.
  async seed() {
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    await db.send(new BatchWriteCommand({
      RequestItems: { Orders: SEED_ITEMS.map((Item) => ({ PutRequest: { Item } })) },
    }));
    db.destroy();
  },
  // A second region for each worker: the global-table case writes there.
  regions: ["eu-west-1"],
  SEED_ITEMS,
};
