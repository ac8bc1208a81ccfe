package scenarios

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// tableName is the scenario's table for this SDK: attribute_types_go.
func tableName(scenario string) string { return scenario + "_go" }

// keyedTable is an on-demand CreateTable input with a hash key and, when
// sortKey is not empty, a range key; types are "S", "N" or "B".
func keyedTable(name, hashKey, hashType, sortKey, sortType string) *dynamodb.CreateTableInput {
	input := &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String(hashKey), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(hashKey), AttributeType: types.ScalarAttributeType(hashType)},
		},
	}
	if sortKey != "" {
		input.KeySchema = append(input.KeySchema,
			types.KeySchemaElement{AttributeName: aws.String(sortKey), KeyType: types.KeyTypeRange})
		input.AttributeDefinitions = append(input.AttributeDefinitions,
			types.AttributeDefinition{AttributeName: aws.String(sortKey), AttributeType: types.ScalarAttributeType(sortType)})
	}
	return input
}

// createTable creates the table and waits for it with the SDK's waiter.
func createTable(t *testing.T, client *dynamodb.Client, input *dynamodb.CreateTableInput) {
	t.Helper()
	ctx := testContext(t)
	if _, err := client.CreateTable(ctx, input); err != nil {
		t.Fatalf("CreateTable %s: %v", *input.TableName, err)
	}
	waiter := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 100*time.Millisecond, time.Second
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: input.TableName}, 30*time.Second); err != nil {
		t.Fatalf("waiting for %s: %v", *input.TableName, err)
	}
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func num(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
