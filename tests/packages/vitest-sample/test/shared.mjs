// Two files, run by two workers at once, write the same key of the preloaded
// ecommerce model: each must read back its own value (a database per worker).
import { DynamoDBClient, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { expect, it } from "vitest";

export function writesItsOwnCopy(writer) {
  it(`${writer} reads back what it wrote to the shared key`, async () => {
    const client = new DynamoDBClient({});  // the worker's environment points it at localdynamo
    const Key = { PK: { S: "USER#sample" }, SK: { S: "PROFILE" } };
    for (let round = 0; round < 20; round++) {
      const value = `${writer}-${round}`;
      await client.send(new PutItemCommand({ TableName: "ecommerce",
                                             Item: { ...Key, writer: { S: value } } }));
      const { Item } = await client.send(new GetItemCommand({ TableName: "ecommerce", Key,
                                                               ConsistentRead: true }));
      expect(Item.writer.S).toBe(value);
    }
  });
}
