// Package localdynamotest gives each Go test its own DynamoDB database on one
// localdynamo server shared by the test binary.
//
//	func TestOrders(t *testing.T) {
//		db := localdynamotest.Start(t)
//		client := dynamodb.NewFromConfig(db.Config)
//		...
//	}
//
// The server is LOCALDYNAMO_URL's (started with --per-key-databases), or
// one this package starts on first use: $LOCALDYNAMO_BIN, else localdynamo
// on PATH, with --in-memory --per-key-databases on a free port. Each Start
// signs with a new access key, and with --per-key-databases a key is a
// database: tests running in parallel can write the same keys and each sees
// only its own.
package localdynamotest

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// SecretAccessKey signs every database's requests; the server checks no
// signatures unless started with --verify-signatures, which Start does not
// support (its set-up requests are not signed).
const SecretAccessKey = "localdynamo"

// Database is one test's database.
type Database struct {
	Endpoint    string // the server, http://127.0.0.1:port
	Region      string
	AccessKeyID string // this database's key
	Namespace   string // its name in the admin API: "<AccessKeyID>/<Region>"
	// Config reaches the database: region, the database's credentials and
	// BaseEndpoint. dynamodb.NewFromConfig(db.Config) needs nothing more.
	Config aws.Config

	models bool
}

type options struct {
	region string
	models bool
}

// Option changes what Start gives.
type Option func(*options)

// WithModels starts the database with the server's preloaded models
// (docs/models.md: ecommerce, tenants, ...) instead of empty.
func WithModels() Option { return func(o *options) { o.models = true } }

// WithRegion puts the database in another region than us-east-1.
func WithRegion(region string) Option { return func(o *options) { o.region = region } }

// Start gives the test a database of its own, empty (or holding the
// preloaded models, WithModels), emptied again when the test ends.
func Start(t testing.TB, opts ...Option) *Database {
	t.Helper()
	chosen := options{region: "us-east-1"}
	for _, opt := range opts {
		opt(&chosen)
	}
	url, err := server()
	if err != nil {
		t.Fatal(err)
	}
	key := nextAccessKey()
	db := &Database{
		Endpoint: url, Region: chosen.region, AccessKeyID: key, Namespace: key + "/" + chosen.region,
		Config: aws.Config{
			Region:       chosen.region,
			BaseEndpoint: aws.String(url),
			Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
				return aws.Credentials{AccessKeyID: key, SecretAccessKey: SecretAccessKey, Source: "localdynamotest"}, nil
			}),
		},
		models: chosen.models,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A database is made, and given the models, on its first request: make
	// that happen now, so that the reset below has the last word.
	if err := dynamodbCall(ctx, url, key, chosen.region, "ListTables", map[string]any{"Limit": 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// Emptied, not left holding the test's data in the server's memory.
		if err := db.reset(ctx, false); err != nil {
			t.Error(err)
		}
	})
	return db
}

// Reset puts the database back to how Start gave it: empty, or the models.
func (db *Database) Reset(ctx context.Context) error { return db.reset(ctx, db.models) }

func (db *Database) reset(ctx context.Context, models bool) error {
	return adminCall(ctx, db.Endpoint, "POST", "reset", map[string]any{"Namespace": db.Namespace, "Models": models}, nil)
}

// Admin sends any admin API call (docs/admin-api.md), e.g.
// db.Admin(ctx, "POST", "sweep", map[string]any{}, &answer). The test clock
// and fault rules without a Namespace are the whole server's: tests that
// move the clock should not run in parallel with tests that depend on it.
func (db *Database) Admin(ctx context.Context, method, path string, body, answer any) error {
	return adminCall(ctx, db.Endpoint, method, path, body, answer)
}
