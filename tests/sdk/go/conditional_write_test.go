package scenarios

import (
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func Test_conditional_write(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("conditional_write")
	createTable(t, client, keyedTable(table, "pk", "S", "", ""))
	original := map[string]types.AttributeValue{"pk": str("k"), "version": num("1")}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: original}); err != nil {
		t.Fatal(err)
	}

	onlyNew, err := expression.NewBuilder().
		WithCondition(expression.AttributeNotExists(expression.Name("pk"))).Build()
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                           aws.String(table),
		Item:                                map[string]types.AttributeValue{"pk": str("k"), "version": num("2")},
		ConditionExpression:                 onlyNew.Condition(),
		ExpressionAttributeNames:            onlyNew.Names(),
		ExpressionAttributeValues:           onlyNew.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var failed *types.ConditionalCheckFailedException
	if !errors.As(err, &failed) {
		t.Fatalf("want ConditionalCheckFailedException, got %v", err)
	}
	if !reflect.DeepEqual(normalized(failed.Item), normalized(original)) {
		t.Fatalf("the exception carries %#v, want the old item %#v", normalized(failed.Item), normalized(original))
	}

	after, err := client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(table), Key: map[string]types.AttributeValue{"pk": str("k")}, ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(normalized(after.Item), normalized(original)) {
		t.Fatalf("the item changed: %#v", normalized(after.Item))
	}
}
