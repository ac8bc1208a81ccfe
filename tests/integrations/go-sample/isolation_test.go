package orders

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/localdynamo/localdynamo/integrations/go"
)

// bothWrote holds each parallel test back until both have written the same
// keys, so that each one's reads come after the other's writes.
var bothWrote sync.WaitGroup

func init() { bothWrote.Add(2) }

func TestParallelAlice(t *testing.T) { writeSameKeysAndSeeOwn(t, "alice", 10) }
func TestParallelBob(t *testing.T)   { writeSameKeysAndSeeOwn(t, "bob", 20) }

func writeSameKeysAndSeeOwn(t *testing.T, customer string, total int) {
	t.Parallel()
	// Arrive even when failing before writing, so that the other test is not kept waiting.
	arrive := sync.OnceFunc(bothWrote.Done)
	defer arrive()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := localdynamotest.Start(t)
	store := Store{Client: dynamodb.NewFromConfig(db.Config)}
	if err := store.CreateTable(ctx); err != nil { // the same table name in both
		t.Fatal(err)
	}
	mine := []Order{{ID: "order-1", Customer: customer, Total: total}, {ID: "order-2", Customer: customer, Total: total + 1}}
	for _, order := range mine {
		if err := store.Put(ctx, order); err != nil {
			t.Fatal(err)
		}
	}

	arrive()
	waited := make(chan struct{})
	go func() { bothWrote.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		t.Fatal("the other parallel test did not write within 20 s: the two did not run at once (-parallel 1?)")
	}

	got, err := store.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%s sees %d orders, want its own 2: %+v", customer, len(got), got)
	}
	for _, want := range mine {
		order, err := store.Get(ctx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(order, want) {
			t.Fatalf("%s reads %+v, want its own %+v", customer, order, want)
		}
	}
}
