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
  // (AppendKeyText). The views are into the record, valid until it changes.
  struct PartitionKey {
    std::string_view table;
    std::string_view index;
    std::string_view key_text;
  };

  // The request's operation ("Query"), set by api::Dispatch: a view of a
  // name that lives as long as the program.
  std::string_view operation;
  // What DynamoDB would return as ConsumedCapacity (INDEXES), per table,
  // whether or not the request asked for it.
  std::vector<Consumption> consumed;
  std::vector<Access> accesses;
  // The request's shape, set by api::Dispatch for the operations naming one
  // table: its key condition and filter with values written as `?`, and its
  // projection (access_shape.h).
  std::string key_condition;
  std::string filter;
  std::string projection;

  // Empties the record for the next request, keeping what it allocated (a
  // server thread reuses one record).
  void Clear() {
    operation = {};
    consumed.clear();
    accesses.clear();
    keys_.clear();
    key_marks_.clear();
    key_condition.clear();
    filter.clear();
    projection.clear();
  }

  // Starts a partition key of `table` on `index` (""; the table): the
  // caller appends its text to the string returned, and drops it with
  // DropPartitionKey when the item turns out to have none. Every key's
  // table, index and text follow each other in one string, reused from
  // request to request: a write notes one per index, and appending to a
  // string with the room costs less than filling three strings for each.
  std::string& StartPartitionKey(std::string_view table, std::string_view index) {
    key_marks_.push_back({keys_.size(), table.size(), index.size()});
    keys_ += table;
    keys_ += index;
    return keys_;
  }
  void DropPartitionKey() {
    keys_.resize(key_marks_.back().start);
    key_marks_.pop_back();
  }
  size_t partition_key_count() const { return key_marks_.size(); }
  // Views made from the marks directly, without substr's bounds checks:
  // the marks are in bounds by construction, and this runs once per key
  // on every recorded request.
  PartitionKey partition_key(size_t i) const {
    const KeyMark& mark = key_marks_[i];
    size_t end = i + 1 < key_marks_.size() ? key_marks_[i + 1].start : keys_.size();
    const char* table = keys_.data() + mark.start;
    const char* index = table + mark.table_size;
    const char* text = index + mark.index_size;
    return {std::string_view(table, mark.table_size), std::string_view(index, mark.index_size),
            std::string_view(text, keys_.data() + end - text)};
  }

 private:
  // Where a partition key starts in keys_, and its table's and index's sizes.
  struct KeyMark {
    size_t start;
    size_t table_size;
    size_t index_size;
  };
  std::string keys_;
  std::vector<KeyMark> key_marks_;
};

// A key's attributes as one string, equal for equal keys: each attribute's
// name, type and value (a number in its canonical text), each name and
// value after its length (binary), so that any bytes in them read back as
// they were. Kept in memory only, never shown.
void AppendKeyText(std::string_view name, const engine::AttributeValue& value,
                   std::string& text);
std::string KeyText(const engine::Item& key);
// The key a KeyText was made from.
engine::Item KeyFromText(std::string_view text);

}  // namespace ddb::api
