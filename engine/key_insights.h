// KeyInsights: the counters behind Contributor Insights — for a table and
// each global index with insights enabled, how often each key was accessed
// and how often a request for it was throttled, as the rules DynamoDB
// creates count them: most accessed (C) and most throttled (T) partition
// keys (PK), and partition-and-sort keys (SK) where there is a sort key.
// DynamoDB keeps these in CloudWatch; here they are the emulator's own, in
// memory (a restart starts them afresh), shown by the admin API and the
// console.
//
// A rule counts from the moment its setting was enabled: enabling again
// (new rules) starts from zero. Each rule keeps at most kMaxKeysPerRule
// keys; later new keys are not counted, as a CloudWatch rule reports only
// its top contributors.
//
// Thread safety: safe for concurrent use (`mu_`, a leaf lock).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/mutex.h"

namespace ddb::engine {

enum class InsightsRule { kPartitionAccessed, kPartitionThrottled, kKeyAccessed, kKeyThrottled };

struct KeyTally {
  Item key;  // the counted key's attributes: the partition key, or it and the sort key
  uint64_t count = 0;
};

// The key the rules of `index` ("": the table) watch: the table's or the
// global index's; null for an index the table does not have.
const KeySchema* InsightsKeySchema(const TableSchema& schema, std::string_view index);

class KeyInsights {
 public:
  static constexpr size_t kMaxKeysPerRule = 10'000;

  // Counts a request for `item` (any item holding the key attributes) on
  // `index` ("": the table) of `schema`, when insights are enabled there —
  // accessed ones only in ACCESSED_AND_THROTTLED_KEYS mode.
  void Note(std::string_view ns, const TableSchema& schema, std::string_view index,
            const Item& item, bool throttled) EXCLUDES(mu_);
  // The rule's `limit` largest counts, largest first (ties by key).
  std::vector<KeyTally> Top(std::string_view ns, const TableSchema& schema,
                            std::string_view index, InsightsRule rule, size_t limit) const
      EXCLUDES(mu_);

 private:
  struct Rule {
    std::map<std::string, KeyTally> tallies;  // by the key's DebugString
  };
  struct Resource {
    int64_t rules_created_millis = 0;
    Rule rules[4];  // by InsightsRule
  };
  // "<ns>\0<table id>\0<index>"
  static std::string ResourceKey(std::string_view ns, uint64_t table_id, std::string_view index);

  mutable Mutex mu_;
  std::map<std::string, Resource> resources_ GUARDED_BY(mu_);
};

}  // namespace ddb::engine
