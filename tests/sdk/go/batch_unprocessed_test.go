package scenarios

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func Test_batch_unprocessed(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("batch_unprocessed")
	input := keyedTable(table, "pk", "S", "", "")
	input.BillingMode = types.BillingModeProvisioned
	input.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
	freezeClock(t) // before the table exists: its capacity accrues only when the test says
	createTable(t, client, input)

	var writes []types.WriteRequest
	for i := 0; i < 25; i++ {
		item := map[string]types.AttributeValue{"pk": str("item-" + strconv.Itoa(i))}
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
	}
	pending := map[string][]types.WriteRequest{table: writes}
	rounds := 0
	for len(pending) > 0 {
		if rounds == 60 {
			t.Fatalf("still %d items unprocessed after %d rounds", len(pending[table]), rounds)
		}
		if rounds > 0 {
			advanceClock(t, 1) // a second's worth of capacity, and no more
		}
		answer, err := client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			t.Fatalf("round %d: %v", rounds+1, err)
		}
		rounds++
		if rounds == 1 && len(answer.UnprocessedItems) == 0 {
			t.Fatal("the first answer processed all 25 items on a 5 WCU table with a frozen clock")
		}
		pending = answer.UnprocessedItems
	}
	if rounds < 2 {
		t.Fatalf("done in %d round", rounds)
	}

	count, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if count.Count != 25 {
		t.Fatalf("the table holds %d items, want 25", count.Count)
	}
	t.Logf("25 items in %d rounds", rounds)
}
