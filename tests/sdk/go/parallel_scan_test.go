package scenarios

import (
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func Test_parallel_scan(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("parallel_scan")
	createTable(t, client, keyedTable(table, "pk", "S", "", ""))
	for i := 0; i < 100; i++ {
		item := map[string]types.AttributeValue{"pk": str("item-" + strconv.Itoa(i))}
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}

	const segments = 4
	keys := make([][]string, segments)
	failures := make([]error, segments)
	var wg sync.WaitGroup
	for segment := 0; segment < segments; segment++ {
		wg.Add(1)
		go func(segment int) {
			defer wg.Done()
			pages := dynamodb.NewScanPaginator(client, &dynamodb.ScanInput{
				TableName: aws.String(table), Segment: aws.Int32(int32(segment)), TotalSegments: aws.Int32(segments),
				Limit: aws.Int32(10), // several pages per segment, so each chain really pages
			})
			for pages.HasMorePages() {
				page, err := pages.NextPage(ctx)
				if err != nil {
					failures[segment] = err
					return
				}
				for _, item := range page.Items {
					keys[segment] = append(keys[segment], item["pk"].(*types.AttributeValueMemberS).Value)
				}
			}
		}(segment)
	}
	wg.Wait()

	owner := map[string]int{}
	for segment := 0; segment < segments; segment++ {
		if failures[segment] != nil {
			t.Fatalf("segment %d: %v", segment, failures[segment])
		}
		for _, key := range keys[segment] {
			if other, twice := owner[key]; twice {
				t.Fatalf("%s is in segments %d and %d", key, other, segment)
			}
			owner[key] = segment
		}
	}
	if len(owner) != 100 {
		t.Fatalf("the segments hold %d items, want 100", len(owner))
	}
}
