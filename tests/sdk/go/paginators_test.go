package scenarios

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func Test_paginators(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("paginators")
	createTable(t, client, keyedTable(table, "pk", "S", "sk", "N"))
	// Put in reverse so that sort-key order is the server's doing.
	for i := 25; i >= 1; i-- {
		item := map[string]types.AttributeValue{"pk": str("p"), "sk": num(strconv.Itoa(i))}
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}

	inPartition, err := expression.NewBuilder().
		WithKeyCondition(expression.Key("pk").Equal(expression.Value("p"))).Build()
	if err != nil {
		t.Fatal(err)
	}
	queryPages := dynamodb.NewQueryPaginator(client, &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    inPartition.KeyCondition(),
		ExpressionAttributeNames:  inPartition.Names(),
		ExpressionAttributeValues: inPartition.Values(),
		Limit:                     aws.Int32(4),
	})
	var sortKeys []string
	pages := 0
	var last *dynamodb.QueryOutput
	for queryPages.HasMorePages() {
		page, err := queryPages.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		last = page
		for _, item := range page.Items {
			sortKeys = append(sortKeys, item["sk"].(*types.AttributeValueMemberN).Value)
		}
	}
	if pages != 7 || len(sortKeys) != 25 {
		t.Fatalf("Query: %d pages, %d items; want 7 pages, 25 items", pages, len(sortKeys))
	}
	for i, sk := range sortKeys {
		if sk != strconv.Itoa(i+1) {
			t.Fatalf("Query: not in sort-key order: %v", sortKeys)
		}
	}
	if last.LastEvaluatedKey != nil {
		t.Fatalf("Query: the last page has LastEvaluatedKey %v", last.LastEvaluatedKey)
	}

	scanPages := dynamodb.NewScanPaginator(client, &dynamodb.ScanInput{TableName: aws.String(table), Limit: aws.Int32(7)})
	seen := map[string]bool{}
	pages = 0
	var lastScan *dynamodb.ScanOutput
	for scanPages.HasMorePages() {
		page, err := scanPages.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		lastScan = page
		for _, item := range page.Items {
			seen[fmt.Sprint(item["sk"].(*types.AttributeValueMemberN).Value)] = true
		}
	}
	if pages != 4 || len(seen) != 25 {
		t.Fatalf("Scan: %d pages, %d distinct items; want 4 pages, 25 items", pages, len(seen))
	}
	if lastScan.LastEvaluatedKey != nil {
		t.Fatalf("Scan: the last page has LastEvaluatedKey %v", lastScan.LastEvaluatedKey)
	}
}
