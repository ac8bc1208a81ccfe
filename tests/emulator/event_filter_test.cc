// Lambda's event filtering as the triggers apply it: each operator, AND
// across keys, OR within a list and across filters, and bad patterns.
#include "emulator/event_filter.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>

#include "api/json_reader.h"

namespace ddb::emulator {
namespace {

constexpr const char* kRecord = R"({
  "eventName": "REMOVE",
  "awsRegion": "us-east-1",
  "dynamodb": {
    "Keys": {"pk": {"S": "lyr#us-east-1.numpy"}, "sk": {"S": "lyrVrsn#v1"}},
    "OldImage": {"lyrVrsn": {"N": "12"}, "tags": {"SS": ["a", "b"]}},
    "SizeBytes": 59
  },
  "userIdentity": {"type": "Service", "principalId": "dynamodb.amazonaws.com"}
})";

bool Matches(const std::string& pattern) {
  auto filter = EventFilter::Parse(pattern);
  EXPECT_TRUE(filter.ok()) << pattern << ": " << filter.error().message;
  rapidjson::Document record;
  record.Parse(kRecord);
  return filter.ok() && filter->Matches(record);
}

TEST(EventFilterTest, ExactValuesAndNesting) {
  EXPECT_TRUE(Matches(R"({"eventName": ["REMOVE"]})"));
  EXPECT_TRUE(Matches(R"({"eventName": ["INSERT", "REMOVE"]})"));
  EXPECT_FALSE(Matches(R"({"eventName": ["INSERT"]})"));
  EXPECT_TRUE(Matches(R"({"dynamodb": {"SizeBytes": [59]}})"));
  EXPECT_FALSE(Matches(R"({"dynamodb": {"SizeBytes": ["59"]}})"));
  EXPECT_FALSE(Matches(R"({"missing": ["x"]})"));
  // Every key must match.
  EXPECT_FALSE(Matches(R"({"eventName": ["REMOVE"], "awsRegion": ["eu-west-1"]})"));
}

TEST(EventFilterTest, Operators) {
  EXPECT_TRUE(Matches(R"({"dynamodb": {"Keys": {"pk": {"S": [{"prefix": "lyr#"}]}}}})"));
  EXPECT_FALSE(Matches(R"({"dynamodb": {"Keys": {"pk": {"S": [{"prefix": "bld#"}]}}}})"));
  EXPECT_TRUE(Matches(R"({"dynamodb": {"Keys": {"sk": {"S": [{"suffix": "#v1"}]}}}})"));
  EXPECT_TRUE(Matches(R"({"eventName": [{"equals-ignore-case": "remove"}]})"));
  EXPECT_TRUE(Matches(R"({"eventName": [{"anything-but": "INSERT"}]})"));
  EXPECT_FALSE(Matches(R"({"eventName": [{"anything-but": ["INSERT", "REMOVE"]}]})"));
  EXPECT_FALSE(Matches(R"({"eventName": [{"anything-but": {"prefix": "REM"}}]})"));
  EXPECT_TRUE(Matches(R"({"dynamodb": {"OldImage": {"lyrVrsn": {"N": [{"numeric": [">", 10, "<=", 12]}]}}}})"));
  EXPECT_FALSE(Matches(R"({"dynamodb": {"OldImage": {"lyrVrsn": {"N": [{"numeric": ["<", 10]}]}}}})"));
  EXPECT_TRUE(Matches(R"({"dynamodb": {"SizeBytes": [{"numeric": ["=", 59]}]}})"));
  EXPECT_TRUE(Matches(R"({"userIdentity": {"type": [{"exists": true}]}})"));
  EXPECT_TRUE(Matches(R"({"dynamodb": {"NewImage": {"x": {"S": [{"exists": false}]}}}})"));
  EXPECT_FALSE(Matches(R"({"eventName": [{"exists": false}]})"));
  // A list in the record matches when any element does.
  EXPECT_TRUE(Matches(R"({"dynamodb": {"OldImage": {"tags": {"SS": ["b"]}}}})"));
}

TEST(EventFilterTest, AnyFilterOfSeveral) {
  rapidjson::Document record;
  record.Parse(kRecord);
  std::vector<EventFilter> filters;
  filters.push_back(*EventFilter::Parse(R"({"eventName": ["INSERT"]})"));
  EXPECT_FALSE(MatchesAny(filters, record));
  filters.push_back(*EventFilter::Parse(R"({"eventName": ["REMOVE"]})"));
  EXPECT_TRUE(MatchesAny(filters, record));
  EXPECT_TRUE(MatchesAny({}, record));
}

TEST(EventFilterTest, BadPatternsAreRefused) {
  for (const char* pattern : {R"(["REMOVE"])", R"({"eventName": "REMOVE"})", R"({"a": [{"b": 1}]})",
                              R"({"a": [{"numeric": [">"]}]})", R"({"a": [{"exists": "yes"}]})",
                              R"({"a": [{"prefix": 1}]})", "not json"}) {
    auto filter = EventFilter::Parse(pattern);
    ASSERT_FALSE(filter.ok()) << pattern;
    EXPECT_EQ(filter.error().short_type(), "ValidationException");
  }
}

// A pattern arrives over the admin API: one nested deeper than any real
// pattern is refused before a recursive parser could run out of stack.
TEST(EventFilterTest, PatternsNestedTooDeepAreRefused) {
  std::string deep;
  for (int i = 0; i < 1'000'000; ++i) deep += "{\"a\":";
  deep += "[1]";
  for (int i = 0; i < 1'000'000; ++i) deep += "}";
  EXPECT_FALSE(EventFilter::Parse(deep).ok());
  rapidjson::Document doc;
  EXPECT_FALSE(api::ParseUntrustedJson(deep, doc));
  EXPECT_TRUE(api::ParseBounded(R"({"a": "{{{{[[[[", "b": [{"c": ["\"{"]}]})", 4, &doc));
  EXPECT_TRUE(api::ParseBounded("[[[]]]", 3, &doc));
  EXPECT_FALSE(api::ParseBounded("[[[[]]]]", 3, &doc));
  EXPECT_FALSE(api::ParseBounded("[[[[", 3, &doc));
}

}  // namespace
}  // namespace ddb::emulator
