package scenarios

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

func Test_streams_ttl(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("streams_ttl")
	input := keyedTable(table, "pk", "S", "", "")
	input.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
	createTable(t, client, input)
	if _, err := client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName:               aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires"), Enabled: aws.Bool(true)},
	}); err != nil {
		t.Fatal(err)
	}

	nowMillis := freezeClock(t)
	item := map[string]types.AttributeValue{"pk": str("short-lived"), "expires": num(strconv.FormatInt(nowMillis/1000+60, 10))}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatal(err)
	}
	advanceClock(t, 120)
	sweep(t)

	described, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	records := readStream(t, newStreamsClient(), aws.ToString(described.Table.LatestStreamArn), 2)
	if len(records) != 2 {
		t.Fatalf("%d stream records, want 2: %+v", len(records), records)
	}
	insert, remove := records[0], records[1]
	if insert.EventName != streamtypes.OperationTypeInsert || !sameItem(t, insert.Dynamodb.NewImage, item) {
		t.Fatalf("first record: %s with new image %v, want INSERT of %v", insert.EventName, insert.Dynamodb.NewImage, item)
	}
	if remove.EventName != streamtypes.OperationTypeRemove || !sameItem(t, remove.Dynamodb.OldImage, item) {
		t.Fatalf("second record: %s with old image %v, want REMOVE of %v", remove.EventName, remove.Dynamodb.OldImage, item)
	}
	who := remove.UserIdentity
	if who == nil || aws.ToString(who.Type) != "Service" || aws.ToString(who.PrincipalId) != "dynamodb.amazonaws.com" {
		t.Fatalf("the TTL deletion's userIdentity is %+v, want Service / dynamodb.amazonaws.com", who)
	}
}

// readStream reads every shard from TRIM_HORIZON until `want` records came or
// the shards have nothing more (a bounded number of calls: open shards never end).
func readStream(t *testing.T, streams *dynamodbstreams.Client, arn string, want int) []streamtypes.Record {
	t.Helper()
	ctx := testContext(t)
	stream, err := streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	var records []streamtypes.Record
	for _, shard := range stream.StreamDescription.Shards {
		iterator, err := streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn: aws.String(arn), ShardId: shard.ShardId, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon,
		})
		if err != nil {
			t.Fatal(err)
		}
		next := iterator.ShardIterator
		for calls := 0; next != nil && calls < 10 && len(records) < want; calls++ {
			page, err := streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: next})
			if err != nil {
				t.Fatal(err)
			}
			records = append(records, page.Records...)
			next = page.NextShardIterator
		}
	}
	return records
}

// sameItem compares a stream image with the item the test wrote.
func sameItem(t *testing.T, image map[string]streamtypes.AttributeValue, item map[string]types.AttributeValue) bool {
	t.Helper()
	converted, err := attributevalue.FromDynamoDBStreamsMap(image)
	if err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(normalized(converted), normalized(item))
}
