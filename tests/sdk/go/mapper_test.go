package scenarios

import (
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// order is mapped the way the SDK's guide maps a struct: dynamodbav tags.
type order struct {
	Customer string            `dynamodbav:"customer"` // the table's key
	OrderID  string            `dynamodbav:"order_id"` // its sort key
	Status   string            `dynamodbav:"status"`   // the by_status index's key
	Total    float64           `dynamodbav:"total"`
	Lines    []string          `dynamodbav:"lines"`
	Tags     []string          `dynamodbav:"tags,stringset"`
	Notes    map[string]string `dynamodbav:"notes,omitempty"`
	Gift     bool              `dynamodbav:"gift"`
}

func (o order) key(t *testing.T) map[string]types.AttributeValue {
	t.Helper()
	key, err := attributevalue.MarshalMap(struct {
		Customer string `dynamodbav:"customer"`
		OrderID  string `dynamodbav:"order_id"`
	}{o.Customer, o.OrderID})
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func Test_mapper(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("mapper")
	input := keyedTable(table, "customer", "S", "order_id", "S")
	input.AttributeDefinitions = append(input.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("status"), AttributeType: types.ScalarAttributeTypeS})
	input.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("by_status"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	createTable(t, client, input)

	saved := order{Customer: "ada", OrderID: "o-1", Status: "NEW", Total: 12.5,
		Lines: []string{"book", "pen"}, Tags: []string{"fragile", "paper"}, Notes: map[string]string{"door": "blue"}}
	other := order{Customer: "ada", OrderID: "o-2", Status: "SHIPPED", Total: 3, Lines: []string{"ink"}, Tags: []string{"small"}}
	for _, o := range []order{saved, other} {
		item, err := attributevalue.MarshalMap(o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}

	// Load.
	got, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: saved.key(t), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	expectOrder(t, "GetItem", got.Item, saved)

	// Update with a condition: only a NEW order ships.
	shipped := saved
	shipped.Status, shipped.Gift = "SHIPPED", true
	onlyNew := expression.Name("status").Equal(expression.Value("NEW"))
	ship, err := expression.NewBuilder().WithCondition(onlyNew).WithUpdate(
		expression.Set(expression.Name("status"), expression.Value("SHIPPED")).
			Set(expression.Name("gift"), expression.Value(true))).Build()
	if err != nil {
		t.Fatal(err)
	}
	update := &dynamodb.UpdateItemInput{
		TableName: aws.String(table), Key: saved.key(t),
		ConditionExpression: ship.Condition(), UpdateExpression: ship.Update(),
		ExpressionAttributeNames: ship.Names(), ExpressionAttributeValues: ship.Values(),
		ReturnValues: types.ReturnValueAllNew,
	}
	updated, err := client.UpdateItem(ctx, update)
	if err != nil {
		t.Fatal(err)
	}
	expectOrder(t, "UpdateItem", updated.Attributes, shipped)
	_, err = client.UpdateItem(ctx, update) // no longer NEW
	var failed *types.ConditionalCheckFailedException
	if !errors.As(err, &failed) {
		t.Fatalf("the second update: want ConditionalCheckFailedException, got %v", err)
	}

	// Query the table, projecting the struct's attributes.
	byCustomer, err := expression.NewBuilder().
		WithKeyCondition(expression.Key("customer").Equal(expression.Value("ada"))).
		WithProjection(expression.NamesList(expression.Name("customer"), expression.Name("order_id"),
			expression.Name("status"), expression.Name("total"), expression.Name("lines"),
			expression.Name("tags"), expression.Name("notes"), expression.Name("gift"))).Build()
	if err != nil {
		t.Fatal(err)
	}
	onTable, err := client.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String(table), KeyConditionExpression: byCustomer.KeyCondition(),
		ProjectionExpression: byCustomer.Projection(), ExpressionAttributeNames: byCustomer.Names(),
		ExpressionAttributeValues: byCustomer.Values(), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	expectOrders(t, "Query on the table", onTable.Items, []order{shipped, other})

	// Query the index.
	byStatus, err := expression.NewBuilder().
		WithKeyCondition(expression.Key("status").Equal(expression.Value("SHIPPED"))).Build()
	if err != nil {
		t.Fatal(err)
	}
	onIndex, err := client.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String(table), IndexName: aws.String("by_status"),
		KeyConditionExpression: byStatus.KeyCondition(), ExpressionAttributeNames: byStatus.Names(),
		ExpressionAttributeValues: byStatus.Values(),
	})
	if err != nil {
		t.Fatal(err)
	}
	expectOrders(t, "Query on the index", onIndex.Items, []order{shipped, other})
}

func expectOrder(t *testing.T, what string, item map[string]types.AttributeValue, want order) {
	t.Helper()
	var got order
	if err := attributevalue.UnmarshalMap(item, &got); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !reflect.DeepEqual(normalizedOrder(got), normalizedOrder(want)) {
		t.Fatalf("%s maps back to %+v, want %+v", what, got, want)
	}
}

// expectOrders compares by order id: an index's order among equal keys is not the table's.
func expectOrders(t *testing.T, what string, items []map[string]types.AttributeValue, want []order) {
	t.Helper()
	var got []order
	if err := attributevalue.UnmarshalListOfMaps(items, &got); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	byID := map[string]order{}
	for _, o := range got {
		byID[o.OrderID] = normalizedOrder(o)
	}
	if len(got) != len(want) || len(byID) != len(want) {
		t.Fatalf("%s: %d orders %+v, want %d", what, len(got), got, len(want))
	}
	for _, o := range want {
		if !reflect.DeepEqual(byID[o.OrderID], normalizedOrder(o)) {
			t.Fatalf("%s: order %s maps back to %+v, want %+v", what, o.OrderID, byID[o.OrderID], o)
		}
	}
}

// normalizedOrder sorts the string set: a set comes back in any order.
func normalizedOrder(o order) order {
	o.Tags = sortedStrings(o.Tags)
	return o
}
