package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// awsConfig is built by hand rather than by config.LoadDefaultConfig, so that
// a developer's AWS_PROFILE or ~/.aws files cannot change what the suite sends.
func awsConfig() aws.Config {
	return aws.Config{
		Region:      "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("sdk-go", "localdynamo", ""),
		Retryer:     func() aws.Retryer { return retry.NewStandard() },
	}
}

func newClient(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	atServer := func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(endpoint) }
	return dynamodb.NewFromConfig(awsConfig(), append([]func(*dynamodb.Options){atServer}, optFns...)...)
}

func newStreamsClient() *dynamodbstreams.Client {
	return dynamodbstreams.NewFromConfig(awsConfig(), func(o *dynamodbstreams.Options) {
		o.BaseEndpoint = aws.String(endpoint)
	})
}

// testContext ends with the test, and after a minute at most.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
