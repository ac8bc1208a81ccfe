// AccessRecord: what one successful request read and wrote, for the
// emulator's access profile (emulator/profile/access_profile.h). The data
// operations fill it when their Context carries one (api::Dispatch's
// `record`); nothing here is rendered to the client.
//
// Thread safety: a record belongs to one request on one thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/capacity.h"
#include "engine/attribute_value.h"

namespace ddb::api {

struct AccessRecord {
  // One table or index a request named: a Query or Scan with IndexName
  // names the index (index non-empty), everything else the table.
  struct Access {
    std::string table;
    std::string index;
    uint64_t items_read = 0;      // ScannedCount, or the items a key lookup found
    uint64_t items_returned = 0;  // Count: what passed the filter
    bool scan = false;
    // A Scan's items read over the items the table or index held (0 to 1).
    double table_fraction = 0;
  };
  // A partition key a request read or wrote, as Contributor Insights'
  // "most accessed" rules count it: on the table, and on each global index
  // a write changed or a Query named. The key is kept as its text
  // (AppendKeyText): for most keys a string short enough for no
  // allocation, where a copy of the attributes made several on every write.
  struct PartitionKey {
    std::string table;
    std::string index;
    std::string key_text;
  };

  // The request's operation ("Query"), set by api::Dispatch.
  std::string operation;
  // What DynamoDB would return as ConsumedCapacity (INDEXES), per table,
  // whether or not the request asked for it.
  std::vector<Consumption> consumed;
  std::vector<Access> accesses;
  std::vector<PartitionKey> partition_keys;
  // The request's shape, set by api::Dispatch for the operations naming one
  // table: its key condition and filter with values written as `?`, and its
  // projection (access_shape.h).
  std::string key_condition;
  std::string filter;
  std::string projection;

  // Empties the record for the next request, keeping what it allocated (a
  // server thread reuses one record).
  void Clear() {
    operation.clear();
    consumed.clear();
    accesses.clear();
    for (PartitionKey& key : partition_keys) spare_keys_.push_back(std::move(key));
    partition_keys.clear();
    key_condition.clear();
    filter.clear();
    projection.clear();
  }

  // Adds a partition key to partition_keys, into the strings of one an
  // earlier request noted: a write notes one per index, and copying into
  // strings that have the room costs less than making new ones.
  void NotePartitionKey(std::string_view table, std::string_view index, std::string_view text) {
    if (spare_keys_.empty()) {
      partition_keys.push_back({std::string(table), std::string(index), std::string(text)});
      return;
    }
    PartitionKey& key = partition_keys.emplace_back(std::move(spare_keys_.back()));
    spare_keys_.pop_back();
    key.table.assign(table);
    key.index.assign(index);
    key.key_text.assign(text);
  }

 private:
  std::vector<PartitionKey> spare_keys_;
};

// A key's attributes as one string, equal for equal keys: each attribute's
// name, type and value (a number in its canonical text), each name and
// value after its length, so that any bytes in them read back as they were.
void AppendKeyText(std::string_view name, const engine::AttributeValue& value,
                   std::string& text);
std::string KeyText(const engine::Item& key);
// The key a KeyText was made from.
engine::Item KeyFromText(std::string_view text);

}  // namespace ddb::api
