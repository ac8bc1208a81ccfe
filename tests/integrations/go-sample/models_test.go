package orders

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/localdynamo/localdynamo/integrations/go"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// The preloaded ecommerce model (docs/models.md): its access pattern 4, a
// user's orders with one status through GSI2, on the model's own table.
func TestPreloadedEcommerceModel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := localdynamotest.Start(t, localdynamotest.WithModels())
	client := dynamodb.NewFromConfig(db.Config)

	tables, err := client.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tables.TableNames, "ecommerce") {
		t.Fatalf("the models' tables are missing: %v", tables.TableNames)
	}
	for _, order := range []struct{ id, statusDate string }{
		{"o-1", "SHIPPED#2026-01-02"}, {"o-2", "PLACED#2026-01-03"}, {"o-3", "SHIPPED#2026-01-01"},
	} {
		item := map[string]types.AttributeValue{
			"PK": s("USER#ada"), "SK": s("ORDER#" + order.id), "OrderId": s(order.id), "OrderStatusDate": s(order.statusDate),
		}
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("ecommerce"), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	shipped, err := client.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String("ecommerce"), IndexName: aws.String("GSI2"),
		KeyConditionExpression:    aws.String("PK = :u AND begins_with(OrderStatusDate, :s)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":u": s("USER#ada"), ":s": s("SHIPPED#")},
	})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, item := range shipped.Items {
		ids = append(ids, item["OrderId"].(*types.AttributeValueMemberS).Value)
	}
	if !slices.Equal(ids, []string{"o-3", "o-1"}) { // by date within the status
		t.Fatalf("shipped orders %v, want [o-3 o-1]", ids)
	}
}

// Without WithModels a database starts empty, whatever the server preloads.
func TestStartsEmpty(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := localdynamotest.Start(t)
	tables, err := dynamodb.NewFromConfig(db.Config).ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables.TableNames) != 0 {
		t.Fatalf("a new database holds %v", tables.TableNames)
	}
}

// Reset puts the database back to how Start gave it, mid-test.
func TestReset(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := localdynamotest.Start(t)
	store := Store{Client: dynamodb.NewFromConfig(db.Config)}
	if err := store.CreateTable(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Get(ctx, "order-1"); err == nil {
		t.Fatal("the table outlived Reset")
	}
}
