// What Query and Scan ask of the engine, and the page they get back.
//
// The api layer turns KeyConditionExpression (or KeyConditions) into a
// QueryRequest: the partition key values and a condition on the sort key.
// The engine reads exactly the matching key range of the table or index
// (one RocksDB range scan), in key order or reversed, stopping at `limit`
// items or once 1 MB has been read, as DynamoDB does. Filters and
// projections are applied by the caller on the returned items.
//
// Thread safety: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_value.h"

namespace ddb::engine {

// DynamoDB's page size cap for Query and Scan.
inline constexpr size_t kMaxPageBytes = 1024 * 1024;

// A condition on the sort key: equality on the first `equal.size()` sort
// key attributes (multi-attribute GSI keys), then optionally one operator on
// the next attribute.
struct SortKeyCondition {
  enum class Op { kNone, kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };
  std::vector<AttributeValue> equal;
  Op op = Op::kNone;
  AttributeValue low;   // the operand; BETWEEN's lower bound
  AttributeValue high;  // BETWEEN's upper bound
};

struct QueryRequest {
  std::string index_name;                 // empty: the table itself
  std::vector<AttributeValue> partition;  // one value per partition key attribute
  SortKeyCondition sort;
  bool forward = true;                    // ScanIndexForward
  std::optional<Item> exclusive_start_key;
  size_t limit = 0;                       // 0: no limit
  // For a local index: return the table's whole item, not the projection.
  bool fetch_table_items = false;
};

struct ScanRequest {
  std::string index_name;  // empty: the table itself
  uint32_t segment = 0;
  uint32_t total_segments = 1;
  std::optional<Item> exclusive_start_key;
  size_t limit = 0;  // 0: no limit
  bool fetch_table_items = false;
};

struct Page {
  std::vector<Item> items;                  // every item evaluated, in order
  std::optional<Item> last_evaluated_key;   // set when the read stopped early
  size_t bytes_read = 0;  // of the table's items, or of the index's entries
  // The size of each table item a local index read fetched (fetch_table_items),
  // which DynamoDB bills one by one, as whole-item reads of the table.
  std::vector<size_t> fetched_sizes;
};

}  // namespace ddb::engine
