// Package orders is the sample's code under test: a small store of orders
// in DynamoDB, as an application would write it.
package orders

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const Table = "orders"

type Order struct {
	ID       string `dynamodbav:"id"`
	Customer string `dynamodbav:"customer"`
	Total    int    `dynamodbav:"total"`
}

type Store struct{ Client *dynamodb.Client }

var ErrNotFound = errors.New("no such order")

// CreateTable makes the orders table and waits until it can be used.
func (s Store) CreateTable(ctx context.Context) error {
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(Table),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
	})
	if err != nil {
		return err
	}
	return dynamodb.NewTableExistsWaiter(s.Client).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(Table)}, 30*time.Second)
}

func (s Store) Put(ctx context.Context, order Order) error {
	item, err := attributevalue.MarshalMap(order)
	if err != nil {
		return err
	}
	_, err = s.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(Table), Item: item})
	return err
}

func (s Store) Get(ctx context.Context, id string) (Order, error) {
	var order Order
	answer, err := s.Client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(Table), Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return order, err
	}
	if answer.Item == nil {
		return order, ErrNotFound
	}
	err = attributevalue.UnmarshalMap(answer.Item, &order)
	return order, err
}

// All reads every order (a Scan, paged by the SDK's paginator).
func (s Store) All(ctx context.Context) ([]Order, error) {
	var all []Order
	pages := dynamodb.NewScanPaginator(s.Client, &dynamodb.ScanInput{TableName: aws.String(Table), ConsistentRead: aws.Bool(true)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		var orders []Order
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &orders); err != nil {
			return nil, err
		}
		all = append(all, orders...)
	}
	return all, nil
}
