#include "api/access_shape.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "api/access_record.h"

namespace ddb::api {
namespace {

AccessRecord ShapeOf(std::string_view operation, const char* json) {
  rapidjson::Document doc;
  doc.Parse(json);
  AccessRecord record;
  DescribeShape(operation, doc, record);
  return record;
}

TEST(NormalizedExpressionTest, ValuesBecomeQuestionMarksAndNamesResolve) {
  rapidjson::Document names;
  names.Parse(R"({"#s": "status", "#p": "pk"})");
  EXPECT_EQ(NormalizedExpression("#p = :v1 AND begins_with(#s,  :prefix_2)", &names),
            "pk = ? AND begins_with(status, ?)");
  EXPECT_EQ(NormalizedExpression("  a   BETWEEN :lo AND\n:hi ", nullptr), "a BETWEEN ? AND ?");
  // A name without a definition stays as written: the request was refused
  // before it could be profiled, or the text is not DynamoDB's.
  EXPECT_EQ(NormalizedExpression("#unknown = :v", &names), "#unknown = ?");
}

TEST(DescribeShapeTest, PlaceholderNamesAndValuesDoNotSplitAShape) {
  AccessRecord one = ShapeOf("Query", R"({"KeyConditionExpression": "#a = :x",
      "ExpressionAttributeNames": {"#a": "pk"}, "FilterExpression": "size(#a) > :y"})");
  AccessRecord two = ShapeOf("Query", R"({"KeyConditionExpression": "#key = :other",
      "ExpressionAttributeNames": {"#key": "pk"}, "FilterExpression": "size(#key) > :z"})");
  EXPECT_EQ(one.key_condition, "pk = ?");
  EXPECT_EQ(one.filter, "size(pk) > ?");
  EXPECT_EQ(one.key_condition, two.key_condition);
  EXPECT_EQ(one.filter, two.filter);
}

TEST(DescribeShapeTest, LegacyConditionsAreSortedByAttribute) {
  AccessRecord record = ShapeOf("Query", R"({
      "KeyConditions": {"sk": {"ComparisonOperator": "GT"}, "pk": {"ComparisonOperator": "EQ"}},
      "QueryFilter": {"b": {"ComparisonOperator": "NOT_NULL"}, "a": {"ComparisonOperator": "EQ"}},
      "ConditionalOperator": "OR", "AttributesToGet": ["pk", "a"]})");
  EXPECT_EQ(record.key_condition, "pk EQ ? AND sk GT ?");
  EXPECT_EQ(record.filter, "a EQ ? OR b NOT_NULL");
  EXPECT_EQ(record.projection, "pk, a");
}

TEST(DescribeShapeTest, AWritesConditionStandsAsItsFilter) {
  EXPECT_EQ(ShapeOf("PutItem", R"j({"ConditionExpression": "attribute_not_exists(pk)"})j").filter,
            "attribute_not_exists(pk)");
  AccessRecord expected = ShapeOf("DeleteItem", R"({"Expected": {"v": {"Value": {"S": "1"}}}})");
  EXPECT_EQ(expected.filter, "v EQ ?");
  EXPECT_EQ(ShapeOf("Scan", R"({"Select": "COUNT"})").projection, "COUNT");
}

TEST(DescribeShapeTest, OperationsOnManyTablesHaveNoShapeParts) {
  AccessRecord record =
      ShapeOf("BatchGetItem", R"({"RequestItems": {}, "ProjectionExpression": "a"})");
  EXPECT_EQ(record.projection, "");
  EXPECT_EQ(record.key_condition, "");
}

}  // namespace
}  // namespace ddb::api
