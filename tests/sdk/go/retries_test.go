package scenarios

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

func Test_retries(t *testing.T) {
	ctx, table := testContext(t), tableName("retries")
	createTable(t, newClient(), keyedTable(table, "pk", "S", "", ""))
	injectFault(t, map[string]any{
		"Operations": []string{"PutItem"}, "Tables": []string{table}, "Count": 2,
		"Error": map[string]any{"Type": "ThrottlingException"},
	})

	var sent atomic.Int32
	client := newClient(func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard() // 3 attempts, exponential backoff with jitter
		o.APIOptions = append(o.APIOptions, countAttempts(&sent))
	})
	answer, err := client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(table), Item: map[string]types.AttributeValue{"pk": str("k")},
	})
	if err != nil {
		t.Fatalf("PutItem through the standard retryer: %v", err)
	}
	attempts, ok := retry.GetAttemptResults(answer.ResultMetadata)
	if !ok {
		t.Fatal("the answer's metadata has no attempt results")
	}
	if len(attempts.Results) != 3 {
		t.Fatalf("the SDK made %d attempts, want 3", len(attempts.Results))
	}
	if n := sent.Load(); n != 3 {
		t.Fatalf("%d attempts reached the transport, want 3", n)
	}
}

// countAttempts counts each attempt the retry middleware lets through.
func countAttempts(sent *atomic.Int32) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		return stack.Finalize.Insert(middleware.FinalizeMiddlewareFunc("CountAttempts",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (
				middleware.FinalizeOutput, middleware.Metadata, error) {
				sent.Add(1)
				return next.HandleFinalize(ctx, in)
			}), "Retry", middleware.After)
	}
}
