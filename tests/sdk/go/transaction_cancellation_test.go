package scenarios

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func Test_transaction_cancellation(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("transaction_cancellation")
	createTable(t, client, keyedTable(table, "pk", "S", "", ""))
	key := func(pk string) map[string]types.AttributeValue { return map[string]types.AttributeValue{"pk": str(pk)} }

	mustExist, err := expression.NewBuilder().WithCondition(expression.AttributeExists(expression.Name("pk"))).Build()
	if err != nil {
		t.Fatal(err)
	}
	increment, err := expression.NewBuilder().
		WithUpdate(expression.Set(expression.Name("count"), expression.Value(1))).Build()
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: key("put")}},
		{ConditionCheck: &types.ConditionCheck{
			TableName: aws.String(table), Key: key("missing"),
			ConditionExpression:      mustExist.Condition(),
			ExpressionAttributeNames: mustExist.Names(),
		}},
		{Update: &types.Update{
			TableName: aws.String(table), Key: key("updated"),
			UpdateExpression:          increment.Update(),
			ExpressionAttributeNames:  increment.Names(),
			ExpressionAttributeValues: increment.Values(),
		}},
	}})
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) {
		t.Fatalf("want TransactionCanceledException, got %v", err)
	}
	var codes []string
	for _, reason := range canceled.CancellationReasons {
		codes = append(codes, aws.ToString(reason.Code))
	}
	if len(codes) != 3 || codes[0] != "None" || codes[1] != "ConditionalCheckFailed" || codes[2] != "None" {
		t.Fatalf("cancellation reasons %q, want [None ConditionalCheckFailed None]", codes)
	}

	for _, pk := range []string{"put", "updated"} {
		got, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key(pk), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		if got.Item != nil {
			t.Fatalf("the cancelled transaction wrote %v", got.Item)
		}
	}
}
