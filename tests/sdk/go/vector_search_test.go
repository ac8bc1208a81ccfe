package scenarios

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func Test_vector_search(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("vector_search")
	input := keyedTable(table, "pk", "S", "", "")
	input.VectorIndexes = []types.VectorIndex{{
		IndexName:        aws.String("embedding"),
		VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String("v")},
		Dimensions:       aws.Int64(3),
		DistanceFunction: types.VectorDistanceFunctionEuclidean,
		Projection:       &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	createTable(t, client, input)
	vectors := map[string][]string{
		"far":     {"10", "10", "10"},
		"nearest": {"1", "0.1", "0"},
		"second":  {"0", "1", "0"},
		"third":   {"0", "0", "3"},
	}
	for pk, components := range vectors {
		vector := make([]types.AttributeValue, len(components))
		for i, c := range components {
			vector[i] = num(c)
		}
		item := map[string]types.AttributeValue{"pk": str(pk), "v": &types.AttributeValueMemberL{Value: vector}}
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}

	answer, err := client.SearchVectors(ctx, &dynamodb.SearchVectorsInput{
		TableName: aws.String(table), IndexName: aws.String("embedding"),
		SearchVector: []types.AttributeValue{num("1"), num("0"), num("0")},
		TopK:         aws.Int32(2),
	})
	if err != nil {
		t.Fatalf("SearchVectors: %v", err)
	}
	var keys []string
	for _, hit := range answer.SearchResults {
		keys = append(keys, hit.Item["pk"].(*types.AttributeValueMemberS).Value)
	}
	// Euclidean distances from (1,0,0): nearest 0.1, second √2, third √10.
	if len(keys) != 2 || keys[0] != "nearest" || keys[1] != "second" {
		t.Fatalf("the two nearest are %q, want [nearest second]", keys)
	}
	if answer.SearchResults[0].Score > answer.SearchResults[1].Score {
		t.Fatalf("scores %v then %v: the nearest should score the lower Euclidean distance",
			answer.SearchResults[0].Score, answer.SearchResults[1].Score)
	}
}
