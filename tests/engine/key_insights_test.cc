// Contributor Insights' counters: what each rule counts, a mode that
// counts throttled keys only, new rules counting afresh, keys outside a
// sparse index, and the cap on keys per rule.
#include "engine/key_insights.h"

#include <gtest/gtest.h>

namespace ddb::engine {
namespace {

AttributeValue S(std::string s) { return AttributeValue(std::move(s)); }

TableSchema Schema() {
  TableSchema schema;
  schema.table_id = 7;
  schema.name = "t";
  schema.key.hash = {{"pk", ScalarType::kS}};
  schema.key.range = {{"sk", ScalarType::kS}};
  IndexSchema gsi;
  gsi.name = "by_g";
  gsi.key.hash = {{"g", ScalarType::kS}};
  schema.global_indexes.push_back(gsi);
  schema.contributor_insights = {{"", true, "ACCESSED_AND_THROTTLED_KEYS", 1, 1},
                                 {"by_g", true, "THROTTLED_KEYS", 1, 1}};
  return schema;
}

std::vector<std::pair<std::string, uint64_t>> Counts(const KeyInsights& insights,
                                                     const TableSchema& schema,
                                                     std::string_view index, InsightsRule rule) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const auto& tally : insights.Top("", schema, index, rule, 10)) {
    out.emplace_back(DebugString(tally.key), tally.count);
  }
  return out;
}

TEST(KeyInsightsTest, EachRuleCountsItsKeys) {
  KeyInsights insights;
  TableSchema schema = Schema();
  Item a{{"pk", S("a")}, {"sk", S("1")}, {"other", S("x")}};
  Item a2{{"pk", S("a")}, {"sk", S("2")}};
  insights.Note("", schema, "", a, false);
  insights.Note("", schema, "", a, false);
  insights.Note("", schema, "", a2, false);
  insights.Note("", schema, "", a2, true);
  EXPECT_EQ(Counts(insights, schema, "", InsightsRule::kPartitionAccessed),
            (std::vector<std::pair<std::string, uint64_t>>{{DebugString(Item{{"pk", S("a")}}), 3}}));
  auto keys = Counts(insights, schema, "", InsightsRule::kKeyAccessed);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].second, 2u);  // a/1, the larger count first
  EXPECT_EQ(Counts(insights, schema, "", InsightsRule::kKeyThrottled).size(), 1u);
  // Another namespace's table of the same id is another resource.
  EXPECT_TRUE(insights.Top("other", schema, "", InsightsRule::kPartitionAccessed, 10).empty());
}

TEST(KeyInsightsTest, ThrottledKeysModeAndSparseIndexes) {
  KeyInsights insights;
  TableSchema schema = Schema();
  insights.Note("", schema, "by_g", Item{{"pk", S("a")}, {"g", S("G")}}, false);
  insights.Note("", schema, "by_g", Item{{"pk", S("b")}}, true);  // not in the index
  insights.Note("", schema, "by_g", Item{{"pk", S("c")}, {"g", S("G")}}, true);
  EXPECT_TRUE(Counts(insights, schema, "by_g", InsightsRule::kPartitionAccessed).empty());
  EXPECT_EQ(Counts(insights, schema, "by_g", InsightsRule::kPartitionThrottled),
            (std::vector<std::pair<std::string, uint64_t>>{{DebugString(Item{{"g", S("G")}}), 1}}));
}

TEST(KeyInsightsTest, NewRulesCountAfreshAndDisabledOnesShowNothing) {
  KeyInsights insights;
  TableSchema schema = Schema();
  insights.Note("", schema, "", Item{{"pk", S("a")}}, false);
  schema.contributor_insights[0].rules_created_millis = 2;  // enabled again later
  EXPECT_TRUE(Counts(insights, schema, "", InsightsRule::kPartitionAccessed).empty());
  insights.Note("", schema, "", Item{{"pk", S("a")}}, false);
  EXPECT_EQ(Counts(insights, schema, "", InsightsRule::kPartitionAccessed).size(), 1u);
  schema.contributor_insights[0].enabled = false;
  insights.Note("", schema, "", Item{{"pk", S("a")}}, false);
  EXPECT_TRUE(Counts(insights, schema, "", InsightsRule::kPartitionAccessed).empty());
}

TEST(KeyInsightsTest, ARuleKeepsAtMostItsCapOfKeys) {
  KeyInsights insights;
  TableSchema schema = Schema();
  for (size_t i = 0; i < KeyInsights::kMaxKeysPerRule + 5; ++i) {
    insights.Note("", schema, "", Item{{"pk", S("k" + std::to_string(i))}}, false);
  }
  insights.Note("", schema, "", Item{{"pk", S("k0")}}, false);  // a kept key still counts
  auto top = insights.Top("", schema, "", InsightsRule::kPartitionAccessed,
                          KeyInsights::kMaxKeysPerRule + 10);
  EXPECT_EQ(top.size(), KeyInsights::kMaxKeysPerRule);
  EXPECT_EQ(top[0].count, 2u);
}

}  // namespace
}  // namespace ddb::engine
