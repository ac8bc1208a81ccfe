package scenarios

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func Test_partiql(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("partiql")
	createTable(t, client, keyedTable(table, "pk", "S", "", ""))
	insert := fmt.Sprintf(`INSERT INTO "%s" VALUE {'pk': ?, 'n': ?}`, table)

	for _, pk := range []string{"a", "b"} {
		if _, err := client.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
			Statement: aws.String(insert), Parameters: []types.AttributeValue{str(pk), num("1")},
		}); err != nil {
			t.Fatalf("INSERT %s: %v", pk, err)
		}
	}
	if n := selectN(ctx, t, client, table, "a"); n != "1" {
		t.Fatalf("SELECT after INSERT: n = %q, want 1", n)
	}

	update := fmt.Sprintf(`UPDATE "%s" SET n = ? WHERE pk = ?`, table)
	batch, err := client.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(update), Parameters: []types.AttributeValue{num("2"), str("a")}},
		{Statement: aws.String(update), Parameters: []types.AttributeValue{num("3"), str("b")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, answer := range batch.Responses {
		if answer.Error != nil {
			t.Fatalf("UPDATE %d: %s %s", i, answer.Error.Code, aws.ToString(answer.Error.Message))
		}
	}
	if a, b := selectN(ctx, t, client, table, "a"), selectN(ctx, t, client, table, "b"); a != "2" || b != "3" {
		t.Fatalf("SELECT after the UPDATEs: a.n = %q, b.n = %q; want 2 and 3", a, b)
	}

	if _, err := client.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(insert), Parameters: []types.AttributeValue{str("c"), num("4")}},
		{Statement: aws.String(fmt.Sprintf(`DELETE FROM "%s" WHERE pk = ?`, table)), Parameters: []types.AttributeValue{str("a")}},
	}}); err != nil {
		t.Fatal(err)
	}
	if a, c := selectN(ctx, t, client, table, "a"), selectN(ctx, t, client, table, "c"); a != "" || c != "4" {
		t.Fatalf("SELECT after the transaction: a.n = %q (want none), c.n = %q (want 4)", a, c)
	}

	_, err = client.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement: aws.String(insert), Parameters: []types.AttributeValue{str("b"), num("9")},
	})
	var duplicate *types.DuplicateItemException
	if !errors.As(err, &duplicate) {
		t.Fatalf("a duplicate INSERT: want DuplicateItemException, got %v", err)
	}
}

// selectN reads item pk by key through PartiQL: its n, or "" when it is gone.
func selectN(ctx context.Context, t *testing.T, client *dynamodb.Client, table, pk string) string {
	t.Helper()
	answer, err := client.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement:      aws.String(fmt.Sprintf(`SELECT * FROM "%s" WHERE pk = ?`, table)),
		Parameters:     []types.AttributeValue{str(pk)},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatalf("SELECT %s: %v", pk, err)
	}
	switch len(answer.Items) {
	case 0:
		return ""
	case 1:
		return answer.Items[0]["n"].(*types.AttributeValueMemberN).Value
	default:
		t.Fatalf("SELECT %s by key: %d items", pk, len(answer.Items))
		return ""
	}
}
