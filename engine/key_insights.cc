#include "engine/key_insights.h"

#include <algorithm>

namespace ddb::engine {
namespace {

const ContributorInsights* EnabledInsights(const TableSchema& schema, std::string_view index) {
  for (const auto& insights : schema.contributor_insights) {
    if (insights.index_name == index) return insights.enabled ? &insights : nullptr;
  }
  return nullptr;
}

// The attributes of `elements` in `item`; false when one is missing (an
// item outside a sparse index).
bool CopyKeyPart(const std::vector<KeyElement>& elements, const Item& item, Item* out) {
  for (const auto& element : elements) {
    auto it = item.find(element.name);
    if (it == item.end()) return false;
    out->emplace(*it);
  }
  return true;
}

}  // namespace

const KeySchema* InsightsKeySchema(const TableSchema& schema, std::string_view index) {
  if (index.empty()) return &schema.key;
  for (const auto& gsi : schema.global_indexes) {
    if (gsi.name == index) return &gsi.key;
  }
  return nullptr;
}

std::string KeyInsights::ResourceKey(std::string_view ns, uint64_t table_id,
                                     std::string_view index) {
  std::string key(ns);
  key += '\0';
  key += std::to_string(table_id);
  key += '\0';
  key += index;
  return key;
}

void KeyInsights::Note(std::string_view ns, const TableSchema& schema, std::string_view index,
                       const Item& item, bool throttled) {
  const ContributorInsights* insights = EnabledInsights(schema, index);
  if (!insights || (!throttled && insights->mode == "THROTTLED_KEYS")) return;
  const KeySchema* key = InsightsKeySchema(schema, index);
  Item partition;
  if (!key || !CopyKeyPart(key->hash, item, &partition)) return;
  Item full = partition;
  bool with_sort = !key->range.empty() && CopyKeyPart(key->range, item, &full);
  MutexLock lock(mu_);
  Resource& resource = resources_[ResourceKey(ns, schema.table_id, index)];
  if (resource.rules_created_millis != insights->rules_created_millis) {
    resource = Resource{insights->rules_created_millis, {}};  // new rules count afresh
  }
  auto count = [&](InsightsRule which, const Item& counted) {
    Rule& rule = resource.rules[static_cast<int>(which)];
    std::string text = DebugString(counted);
    auto it = rule.tallies.find(text);
    if (it == rule.tallies.end()) {
      if (rule.tallies.size() >= kMaxKeysPerRule) return;
      it = rule.tallies.emplace(std::move(text), KeyTally{counted, 0}).first;
    }
    ++it->second.count;
  };
  count(throttled ? InsightsRule::kPartitionThrottled : InsightsRule::kPartitionAccessed,
        partition);
  if (with_sort) {
    count(throttled ? InsightsRule::kKeyThrottled : InsightsRule::kKeyAccessed, full);
  }
}

std::vector<KeyTally> KeyInsights::Top(std::string_view ns, const TableSchema& schema,
                                       std::string_view index, InsightsRule rule,
                                       size_t limit) const {
  const ContributorInsights* insights = EnabledInsights(schema, index);
  if (!insights) return {};
  std::vector<std::pair<const std::string*, const KeyTally*>> ranked;
  MutexLock lock(mu_);
  auto found = resources_.find(ResourceKey(ns, schema.table_id, index));
  if (found == resources_.end() ||
      found->second.rules_created_millis != insights->rules_created_millis) {
    return {};
  }
  for (const auto& [text, tally] : found->second.rules[static_cast<int>(rule)].tallies) {
    ranked.emplace_back(&text, &tally);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second->count != b.second->count ? a.second->count > b.second->count
                                              : *a.first < *b.first;
  });
  std::vector<KeyTally> top;
  for (size_t i = 0; i < ranked.size() && i < limit; ++i) top.push_back(*ranked[i].second);
  return top;
}

}  // namespace ddb::engine
