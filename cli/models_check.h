// What `localdynamo models --check` does with one access pattern: the
// patterns a model folder states in access-patterns.json (fixtures/README.md),
// and one pattern's request run through api::Dispatch, as a client sends it,
// with ReturnConsumedCapacity INDEXES — how the answer was served (a key
// condition on the table or an index, a key lookup, or a Scan), what it
// consumed, the items it read against those it returned, and for a pattern
// that relies on a sparse index, how many of the table's items the index
// holds afterwards.
//
// A Scan is a finding of the check, not a failure: the model's design reads
// the whole table for that pattern, and the report says how much of it.
//
// Thread safety: plain values; RunPattern uses the database on the calling
// thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"

namespace ddb::cli {

// One entry of a model's access-patterns.json.
struct AccessPattern {
  std::string model;  // the model folder's name
  std::string name;
  std::string description;
  std::string operation;  // "Query", "GetItem", ...
  std::string request;    // the request body (JSON), as written
  std::string sparse_index;  // empty: the pattern relies on no sparse index
  bool all_pages = false;    // follow LastEvaluatedKey to the last page
  // Set when the entry itself is malformed: it is reported, not run.
  std::string problem;
};

// The model folders among `dirs` (each a model, one with a tables/ folder,
// or a folder of models, as emulator::Models::Read takes them) and their
// patterns, in file order. A folder without access-patterns.json adds its
// name to `*without_patterns`. Fails naming the file that is not a JSON
// list of objects.
api::ApiResult<std::vector<AccessPattern>> ReadAccessPatterns(
    const std::vector<std::string>& dirs, std::vector<std::string>* without_patterns);

// How a pattern's request was served.
enum class Access {
  kKeyCondition,  // Query: on the table, or on `index`
  kKeyLookup,     // GetItem, BatchGetItem, TransactGetItems
  kKeyWrite,      // PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems
  kScan,          // reads the whole table or index: a finding
  kStream,        // a Streams request: no capacity
  kStatement,     // PartiQL
};

struct SparseVerdict {
  std::string index;
  uint64_t index_items = 0;
  uint64_t table_items = 0;
  bool sparse() const { return index_items < table_items; }
};

struct PatternResult {
  const AccessPattern* pattern = nullptr;
  Access access = Access::kKeyLookup;
  std::string table;  // the first table the request names
  std::string index;  // IndexName, when given
  // ConsumedCapacity, summed over pages and tables.
  double read_units = 0;
  double write_units = 0;
  // The part of the units each table and index consumed, by name.
  std::map<std::string, double> table_units;
  std::map<std::string, double> index_units;
  // ScannedCount and Count (a key lookup: the items found); none for writes.
  std::optional<uint64_t> items_read;
  std::optional<uint64_t> items_returned;
  int pages = 0;
  // For a Scan: the items the table (or index) held.
  std::optional<uint64_t> scan_total;
  std::optional<SparseVerdict> sparse;
  std::string error;  // "<ErrorType>: <message>", or the entry's problem
  bool ok() const { return error.empty(); }
};

// Sends "<prefix><operation>" with a body; answers (HTTP status, body).
using CallFn = std::function<std::pair<int, std::string>(std::string_view target,
                                                        std::string_view body)>;

PatternResult RunPattern(const AccessPattern& pattern, const CallFn& call);

// Whether the pattern's operation only reads (the database is unchanged
// after it, so the next pattern needs no fresh copy of the sample items).
bool IsReadOnly(std::string_view operation);

}  // namespace ddb::cli
