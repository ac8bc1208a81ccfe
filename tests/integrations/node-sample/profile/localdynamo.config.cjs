// The profile sample's config: the table the tests use, with an index they
// never read; a table only the seed writes (the report counts the tests'
// requests, not the seed's); and the rules the run must keep, given by
// check.mjs as JSON in $PROFILE_SAMPLE_RULES.
const { DynamoDBClient, PutItemCommand } = require("@aws-sdk/client-dynamodb");

module.exports = {
  tables: [{
    TableName: "Orders",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" },
                           { AttributeName: "sk", AttributeType: "S" },
                           { AttributeName: "status", AttributeType: "S" }],
    GlobalSecondaryIndexes: [{
      IndexName: "ByStatus", KeySchema: [{ AttributeName: "status", KeyType: "HASH" }],
      Projection: { ProjectionType: "ALL" },
    }],
    BillingMode: "PAY_PER_REQUEST",
  }, {
    TableName: "Audit",
    KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
    BillingMode: "PAY_PER_REQUEST",
  }],
  async seed() {
    const db = new DynamoDBClient({});
    await db.send(new PutItemCommand({ TableName: "Audit", Item: { id: { S: "seeded" } } }));
    db.destroy();
  },
  profileRules: JSON.parse(process.env.PROFILE_SAMPLE_RULES || "[]"),
};
