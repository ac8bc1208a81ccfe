// ConsumedCapacity: the read and write units DynamoDB charges for each
// data operation ("Read/write capacity mode" in the developer guide), and
// their rendering for ReturnConsumedCapacity TOTAL and INDEXES.
//
// Reads cost one unit per 4 KB (rounded up, at least one), half that when
// eventually consistent; writes one unit per 1 KB of the larger of the old
// and new item; transactional operations twice that on the table. An index
// costs what writing its entries costs (never doubled): the old entry's
// deletion and the new one's write when the index key changes, nothing when
// its entry does not change.
//
// Thread safety: plain values and pure functions.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_reader.h"
#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/items/item_write.h"

namespace ddb::api {

struct AccessRecord;

// What one request consumed on one of a table's secondary indexes.
struct IndexConsumption {
  std::string name;
  bool local = false;  // a local secondary index; else a global one
  double units = 0;
  // The entries' bytes behind the units, for the access profile; never
  // rendered.
  size_t bytes = 0;
};

// VectorWriteRequestBytes of one vector index a write changed, reported
// under INDEXES only and never in CapacityUnits (captured 2026-08).
struct VectorWriteBytes {
  std::string name;
  size_t bytes = 0;
};

// What one request consumed on one table and its indexes. The indexes are
// lists sorted by name, not maps: most requests touch no index, and every
// request the access profile records moves one of these; four empty maps
// cost more to move and destroy than the rest of the record's share.
struct Consumption {
  Consumption() = default;
  Consumption(std::string table_name, bool is_write) : table(std::move(table_name)), write(is_write) {}

  std::string table;
  bool write = false;
  double table_units = 0;
  bool transactional = false;  // rendered with the Read/WriteCapacityUnits split
  // The table's item bytes behind its units (the billed size), for the
  // access profile; never rendered.
  size_t table_bytes = 0;
  std::vector<IndexConsumption> indexes;
  std::vector<VectorWriteBytes> vector_writes;

  double total() const;
  void Add(const Consumption& other);
  // The entry of index `name`, added (with no units) when missing.
  IndexConsumption& Index(std::string_view name, bool local);
  VectorWriteBytes& VectorWrite(std::string_view name);
};

double ReadUnits(size_t bytes, bool consistent, bool transactional = false);
// Bills the table items a local index read fetched (engine::Page::
// fetched_sizes) to the table: each a read of the whole item, as DynamoDB
// documents for LSI queries that name unprojected attributes.
void AddFetchedItems(Consumption& consumption, const std::vector<size_t>& fetched_sizes,
                     bool consistent);
double WriteUnits(size_t bytes, bool transactional = false);

// The cost of writing `new_item` over `old_item` (either may be null): the
// table's units for the larger item at its billed size (a vector counts 4
// bytes per dimension), each changed index entry's, and each changed vector
// index entry's VectorWriteRequestBytes (the new entry's; a removed entry's
// when the item leaves the index, inferred). `sizes`, when known, are the
// items' sizes as the write measured them (engine::Mutation::sizes).
Consumption WriteConsumption(const engine::TableSchema& schema, const engine::Item* old_item,
                             const engine::Item* new_item, bool transactional = false,
                             const engine::ItemSizes* sizes = nullptr);

// The cost of reading `bytes` from the table, or from `index` when given.
Consumption ReadConsumption(const engine::TableSchema& schema, const engine::IndexSchema* index,
                            size_t bytes, bool consistent, bool transactional = false);

// The request's ReturnConsumedCapacity ("NONE" when absent).
std::string_view CapacityMode(const rapidjson::Value& request);

// Whether ReturnConsumedCapacity asks for anything.
inline bool WantsCapacity(std::string_view mode) { return mode == "TOTAL" || mode == "INDEXES"; }

// SearchVectors' ConsumedCapacity: {"VectorSearchRequestBytes": n} alone,
// under TOTAL and INDEXES alike (captured 2026-08).
void WriteVectorSearchCapacity(JsonWriter& w, size_t request_bytes);

// Writes one ConsumedCapacity object. REQUIRES: WantsCapacity(mode).
void WriteCapacity(JsonWriter& w, std::string_view mode, const Consumption& consumption);

// ItemCollectionMetrics for a write to the item collection (partition) of
// `item`: only tables with local secondary indexes report it. Writes one
// {ItemCollectionKey, SizeEstimateRangeGB} object; collections here are
// always under 1 GB. Returns false (writing nothing) for other tables.
bool HasItemCollections(const engine::TableSchema& schema);
void WriteItemCollection(JsonWriter& w, const engine::TableSchema& schema,
                         const engine::Item& item);

// Consumption per table, for the operations that answer with a list of
// ConsumedCapacity (batches and transactions).
class TableCapacities {
 public:
  // Adds to the entry of `consumption.table`.
  void Add(const Consumption& consumption);
  // Writes "ConsumedCapacity": [one per table] when `mode` asks for it.
  void WriteTo(JsonWriter& w, std::string_view mode) const;
  // Counts an item a read found in `table`, for the access profile.
  void CountRead(const std::string& table) { ++items_read_[table]; }
  // Adds each table's consumption, and the request's access to it, to
  // the access profile's record.
  void RecordIn(AccessRecord& record) const;

 private:
  std::map<std::string, Consumption> tables_;
  std::map<std::string, uint64_t> items_read_;
};

// The ItemCollectionMetrics member of BatchWriteItem and TransactWriteItems:
// per table with local indexes, one entry per partition written.
class ItemCollections {
 public:
  void Add(const engine::TableSchema& schema, const engine::Item& item);
  // Writes "ItemCollectionMetrics" when anything was added.
  void WriteTo(JsonWriter& w) const;

 private:
  // table -> partition key (DebugString) -> the item, with its schema.
  std::map<std::string, std::pair<const engine::TableSchema*, std::map<std::string, engine::Item>>>
      tables_;
};

}  // namespace ddb::api
