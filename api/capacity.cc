#include "api/capacity.h"

#include <algorithm>
#include <cmath>

#include "api/access_record.h"
#include "api/attribute_json.h"
#include "engine/secondary_index.h"
#include "engine/vectors/vector_index.h"

namespace ddb::api {
namespace {

size_t Blocks(size_t bytes, size_t block) { return std::max<size_t>(1, (bytes + block - 1) / block); }

// {"CapacityUnits": n}, with the read/write split that DynamoDB adds only
// for transactions.
void WriteUnitsObject(JsonWriter& w, double units, const Consumption& c) {
  w.StartObject();
  w.Key("CapacityUnits");
  w.Double(units);
  if (c.transactional) {
    w.Key(c.write ? "WriteCapacityUnits" : "ReadCapacityUnits");
    w.Double(units);
  }
  w.EndObject();
}

// The entry named `name` in a list sorted by name, added when missing.
template <class Entry>
Entry& Named(std::vector<Entry>& entries, std::string_view name) {
  auto it = std::lower_bound(entries.begin(), entries.end(), name,
                             [](const Entry& e, std::string_view n) { return e.name < n; });
  if (it == entries.end() || it->name != name) it = entries.insert(it, Entry{std::string(name)});
  return *it;
}

}  // namespace

std::string_view CapacityMode(const rapidjson::Value& request) {
  auto it = request.FindMember("ReturnConsumedCapacity");
  return it != request.MemberEnd() && it->value.IsString() ? View(it->value) : "NONE";
}

double Consumption::total() const {
  double sum = table_units;
  for (const IndexConsumption& index : indexes) sum += index.units;
  return sum;
}

IndexConsumption& Consumption::Index(std::string_view name, bool local) {
  IndexConsumption& index = Named(indexes, name);
  index.local = local;
  return index;
}

VectorWriteBytes& Consumption::VectorWrite(std::string_view name) {
  return Named(vector_writes, name);
}

void Consumption::Add(const Consumption& other) {
  transactional = transactional || other.transactional;
  table_units += other.table_units;
  table_bytes += other.table_bytes;
  for (const IndexConsumption& index : other.indexes) {
    IndexConsumption& into = Index(index.name, index.local);
    into.units += index.units;
    into.bytes += index.bytes;
  }
  for (const VectorWriteBytes& vector : other.vector_writes) {
    VectorWrite(vector.name).bytes += vector.bytes;
  }
}

double ReadUnits(size_t bytes, bool consistent, bool transactional) {
  double units = static_cast<double>(Blocks(bytes, 4096));
  if (transactional) return units * 2;
  return consistent ? units : units / 2;
}

double WriteUnits(size_t bytes, bool transactional) {
  double units = static_cast<double>(Blocks(bytes, 1024));
  return transactional ? units * 2 : units;
}

Consumption WriteConsumption(const engine::TableSchema& schema, const engine::Item* old_item,
                             const engine::Item* new_item, bool transactional,
                             const engine::ItemSizes* sizes) {
  Consumption c(schema.name, true);
  c.transactional = transactional;
  // The billed size is the item's size but for vectors: without vector
  // indexes the write's own measures serve, and walking both items again
  // was a sixth of what the access profile added to a PutItem.
  const bool measured = sizes && sizes->known && schema.vector_indexes.empty();
  size_t old_size = !old_item ? 0
                    : measured ? sizes->old_size
                               : engine::BilledItemSize(schema, *old_item);
  size_t new_size = !new_item ? 0
                    : measured ? sizes->new_size
                               : engine::BilledItemSize(schema, *new_item);
  c.table_bytes = std::max(old_size, new_size);
  c.table_units = WriteUnits(c.table_bytes, transactional);
  if (schema.global_indexes.empty() && schema.local_indexes.empty() &&
      schema.vector_indexes.empty()) {
    return c;  // the commonest case, without the index loops' code
  }
  // Index entries are charged once, also in transactions.
  for (const engine::IndexSchema* index : engine::AllIndexes(schema)) {
    auto old_key = old_item ? engine::IndexEntryKey(schema, *index, *old_item) : std::nullopt;
    auto new_key = new_item ? engine::IndexEntryKey(schema, *index, *new_item) : std::nullopt;
    // Each entry projected once: compared, then sized.
    std::optional<engine::Item> old_entry, new_entry;
    if (old_key) old_entry = engine::ProjectForIndex(schema, *index, *old_item);
    if (new_key) new_entry = engine::ProjectForIndex(schema, *index, *new_item);
    size_t old_bytes = old_entry ? engine::ItemSize(*old_entry) : 0;
    size_t new_bytes = new_entry ? engine::ItemSize(*new_entry) : 0;
    double units = 0;
    size_t bytes = 0;
    if (old_key && new_key && *old_key == *new_key) {
      if (*old_entry == *new_entry) continue;  // the index does not change
      units = std::max(WriteUnits(old_bytes), WriteUnits(new_bytes));
      bytes = std::max(old_bytes, new_bytes);
    } else {
      if (old_entry) units += WriteUnits(old_bytes);
      if (new_entry) units += WriteUnits(new_bytes);
      bytes = old_bytes + new_bytes;
    }
    if (units == 0) continue;
    IndexConsumption& entry = c.Index(index->name, index->is_local);
    entry.units = units;
    entry.bytes = bytes;
  }
  for (const engine::VectorIndexSchema& index : schema.vector_indexes) {
    if (!engine::VectorEntryChanges(schema, index, old_item, new_item)) continue;
    auto bytes = new_item ? engine::VectorWriteBytes(schema, index, *new_item) : std::nullopt;
    if (!bytes && old_item) bytes = engine::VectorWriteBytes(schema, index, *old_item);
    if (bytes) c.VectorWrite(index.name).bytes = *bytes;
  }
  return c;
}

Consumption ReadConsumption(const engine::TableSchema& schema, const engine::IndexSchema* index,
                            size_t bytes, bool consistent, bool transactional) {
  Consumption c(schema.name, false);
  c.transactional = transactional;
  double units = ReadUnits(bytes, consistent, transactional);
  if (!index) {
    c.table_units = units;
    c.table_bytes = bytes;
  } else {
    IndexConsumption& entry = c.Index(index->name, index->is_local);
    entry.units = units;
    entry.bytes = bytes;
  }
  return c;
}

void AddFetchedItems(Consumption& consumption, const std::vector<size_t>& fetched_sizes,
                     bool consistent) {
  for (size_t size : fetched_sizes) {
    consumption.table_units += ReadUnits(size, consistent);
    consumption.table_bytes += size;
  }
}

void WriteVectorSearchCapacity(JsonWriter& w, size_t request_bytes) {
  w.StartObject();
  w.Key("VectorSearchRequestBytes");
  w.Uint64(request_bytes);
  w.EndObject();
}

void WriteCapacity(JsonWriter& w, std::string_view mode, const Consumption& consumption) {
  w.StartObject();
  w.Key("TableName");
  WriteString(w, consumption.table);
  w.Key("CapacityUnits");
  w.Double(consumption.total());
  if (consumption.transactional) {
    w.Key(consumption.write ? "WriteCapacityUnits" : "ReadCapacityUnits");
    w.Double(consumption.total());
  }
  if (mode == "INDEXES") {
    w.Key("Table");
    WriteUnitsObject(w, consumption.table_units, consumption);
    for (bool local : {true, false}) {
      auto of_kind = [&](const IndexConsumption& index) { return index.local == local; };
      if (std::none_of(consumption.indexes.begin(), consumption.indexes.end(), of_kind)) continue;
      w.Key(local ? "LocalSecondaryIndexes" : "GlobalSecondaryIndexes");
      w.StartObject();
      for (const IndexConsumption& index : consumption.indexes) {
        if (!of_kind(index)) continue;
        WriteString(w, index.name);  // as a key
        WriteUnitsObject(w, index.units, consumption);
      }
      w.EndObject();
    }
    if (!consumption.vector_writes.empty()) {
      w.Key("VectorIndexes");
      w.StartObject();
      for (const VectorWriteBytes& vector : consumption.vector_writes) {
        WriteString(w, vector.name);  // as a key
        w.StartObject();
        w.Key("VectorWriteRequestBytes");
        w.Uint64(vector.bytes);
        w.EndObject();
      }
      w.EndObject();
    }
  }
  w.EndObject();
}

void TableCapacities::Add(const Consumption& consumption) {
  tables_.try_emplace(consumption.table, consumption.table, consumption.write)
      .first->second.Add(consumption);
}

void TableCapacities::RecordIn(AccessRecord& record) const {
  // A table named by its ARN has an entry under the ARN as well (BatchGetItem
  // lists every table it was asked for): one access per table. A request
  // names a few tables, searched in order: a map of them cost a node to
  // allocate and free per table on every batch and transaction.
  const size_t first = record.accesses.size();
  for (const auto& [table, consumption] : tables_) {
    record.consumed.push_back(consumption);
    auto read = items_read_.find(table);
    uint64_t items = read == items_read_.end() ? 0 : read->second;
    std::string_view name = TableNameInArn(table);
    auto named = std::find_if(record.accesses.begin() + first, record.accesses.end(),
                              [&](const AccessRecord::Access& access) { return access.table == name; });
    AccessRecord::Access* access = named != record.accesses.end() ? &*named : nullptr;
    if (!access) {
      access = &record.accesses.emplace_back();
      access->table = name;
    }
    access->items_read += items;
    access->items_returned += items;
  }
}

void TableCapacities::WriteTo(JsonWriter& w, std::string_view mode) const {
  if (!WantsCapacity(mode)) return;
  w.Key("ConsumedCapacity");
  w.StartArray();
  for (const auto& [_, consumption] : tables_) WriteCapacity(w, mode, consumption);
  w.EndArray();
}

bool HasItemCollections(const engine::TableSchema& schema) {
  return !schema.local_indexes.empty();
}

void WriteItemCollection(JsonWriter& w, const engine::TableSchema& schema,
                         const engine::Item& item) {
  w.StartObject();
  w.Key("ItemCollectionKey");
  engine::Item key;
  auto it = item.find(schema.hash_key().name);
  if (it != item.end()) key.insert(*it);
  WriteItem(w, key);
  w.Key("SizeEstimateRangeGB");
  w.StartArray();
  w.Double(0.0);
  w.Double(1.0);
  w.EndArray();
  w.EndObject();
}

void ItemCollections::Add(const engine::TableSchema& schema, const engine::Item& item) {
  if (!HasItemCollections(schema)) return;
  auto it = item.find(schema.hash_key().name);
  if (it == item.end()) return;
  auto& [table_schema, partitions] = tables_[schema.name];
  table_schema = &schema;
  partitions.try_emplace(engine::DebugString(it->second), item);
}

void ItemCollections::WriteTo(JsonWriter& w) const {
  if (tables_.empty()) return;
  w.Key("ItemCollectionMetrics");
  w.StartObject();
  for (const auto& [table, entry] : tables_) {
    WriteString(w, table);
    w.StartArray();
    for (const auto& [_, item] : entry.second) WriteItemCollection(w, *entry.first, item);
    w.EndArray();
  }
  w.EndObject();
}

}  // namespace ddb::api
