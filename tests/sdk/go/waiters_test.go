package scenarios

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func Test_waiters(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("waiters")
	describe := &dynamodb.DescribeTableInput{TableName: aws.String(table)}
	if _, err := client.CreateTable(ctx, keyedTable(table, "pk", "S", "", "")); err != nil {
		t.Fatal(err)
	}
	exists := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 100*time.Millisecond, time.Second
	})
	if err := exists.Wait(ctx, describe, 30*time.Second); err != nil {
		t.Fatalf("table-exists waiter: %v", err)
	}
	described, err := client.DescribeTable(ctx, describe)
	if err != nil {
		t.Fatal(err)
	}
	if described.Table.TableStatus != types.TableStatusActive {
		t.Fatalf("after the waiter the table is %s", described.Table.TableStatus)
	}

	if _, err := client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)}); err != nil {
		t.Fatal(err)
	}
	gone := dynamodb.NewTableNotExistsWaiter(client, func(o *dynamodb.TableNotExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 100*time.Millisecond, time.Second
	})
	if err := gone.Wait(ctx, describe, 30*time.Second); err != nil {
		t.Fatalf("table-not-exists waiter: %v", err)
	}
	_, err = client.DescribeTable(ctx, describe)
	var notFound *types.ResourceNotFoundException
	if !errors.As(err, &notFound) {
		t.Fatalf("DescribeTable after the waiter: want ResourceNotFoundException, got %v", err)
	}
}
