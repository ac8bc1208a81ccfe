package scenarios

import (
	"reflect"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func everyType() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"s":    str("text ✓"),
		"n":    num("12345678901234567890123456789012345678"), // 38 digits: no float may carry it
		"b":    &types.AttributeValueMemberB{Value: []byte{0, 1, 2, 254, 255}},
		"ss":   &types.AttributeValueMemberSS{Value: []string{"a", "b", "c"}},
		"ns":   &types.AttributeValueMemberNS{Value: []string{"1", "-2.5", "99999999999999999999999999999999999999"}},
		"bs":   &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}, {0}}},
		"bool": &types.AttributeValueMemberBOOL{Value: true},
		"null": &types.AttributeValueMemberNULL{Value: true},
	}
}

func Test_attribute_types(t *testing.T) {
	ctx, client, table := testContext(t), newClient(), tableName("attribute_types")
	createTable(t, client, keyedTable(table, "pk", "S", "", ""))

	item := everyType()
	item["pk"] = str("all")
	item["nested"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"list": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberM{Value: everyType()},
		}},
	}}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatal(err)
	}
	got, err := client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(table), Key: map[string]types.AttributeValue{"pk": str("all")},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if want, have := normalized(item), normalized(got.Item); !reflect.DeepEqual(want, have) {
		t.Fatalf("item differs:\nput  %#v\ngot  %#v", want, have)
	}
	// Each set came back as a set of its own type, not as a list.
	if _, ok := got.Item["ss"].(*types.AttributeValueMemberSS); !ok {
		t.Fatalf("ss came back as %T", got.Item["ss"])
	}
}

// normalized turns a value into plain Go values, sets sorted (a set has no
// order), so that two items compare with reflect.DeepEqual.
func normalized(value any) any {
	switch v := value.(type) {
	case map[string]types.AttributeValue:
		out := map[string]any{}
		for name, member := range v {
			out[name] = normalized(member)
		}
		return out
	case *types.AttributeValueMemberS:
		return [2]any{"S", v.Value}
	case *types.AttributeValueMemberN:
		return [2]any{"N", v.Value}
	case *types.AttributeValueMemberB:
		return [2]any{"B", string(v.Value)}
	case *types.AttributeValueMemberSS:
		return [2]any{"SS", sortedStrings(v.Value)}
	case *types.AttributeValueMemberNS:
		return [2]any{"NS", sortedStrings(v.Value)}
	case *types.AttributeValueMemberBS:
		members := make([]string, len(v.Value))
		for i, b := range v.Value {
			members[i] = string(b)
		}
		return [2]any{"BS", sortedStrings(members)}
	case *types.AttributeValueMemberBOOL:
		return [2]any{"BOOL", v.Value}
	case *types.AttributeValueMemberNULL:
		return [2]any{"NULL", v.Value}
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, member := range v.Value {
			out[i] = normalized(member)
		}
		return [2]any{"L", out}
	case *types.AttributeValueMemberM:
		return [2]any{"M", normalized(v.Value)}
	default:
		return [2]any{"unknown", value}
	}
}

func sortedStrings(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}
