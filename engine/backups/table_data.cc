#include "engine/backups/table_data.h"

#include <set>
#include <string>

#include "engine/coding.h"
#include "engine/key_codec.h"

namespace ddb::engine {
namespace {

constexpr size_t kIndexIdSize = 4;

}  // namespace

Status ReadTableData(const Store& store, uint64_t table_id, DataSnapshot::Table& table,
                     int64_t* bytes) {
  std::string begin = TablePrefix(table_id);
  std::string end = PrefixSuccessor(begin);
  for (auto [family, out] : {std::pair(Family::kItems, &table.items),
                             std::pair(Family::kIndexes, &table.index_entries)}) {
    auto it = store.NewIterator(family, begin, end);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out->emplace_back(std::string(it->key().substr(kTablePrefixSize)), std::string(it->value()));
      *bytes += static_cast<int64_t>(it->key().size() + it->value().size());
    }
    DDB_RETURN_IF_ERROR(it->status());
  }
  return Status::Ok();
}

void AddTableData(const DataSnapshot::Table& table, uint64_t table_id, Store::Batch& batch,
                  const std::function<bool(uint32_t index_id)>& keep_index) {
  const std::string prefix = TablePrefix(table_id);
  std::string key;
  for (const auto& [suffix, value] : table.items) {
    key.assign(prefix).append(suffix);
    batch.Put(Family::kItems, key, value);
  }
  // A vector index entry's key ends with the item's own key, which starts
  // with the table id too (vector_index.h).
  std::set<uint32_t> vector_indexes;
  for (const VectorIndexSchema& index : table.schema.vector_indexes) {
    vector_indexes.insert(index.index_id);
  }
  for (const auto& [suffix, value] : table.index_entries) {
    if (suffix.size() < kIndexIdSize) continue;
    uint32_t index_id = coding::DecodeFixed32BE(suffix);
    if (keep_index && !keep_index(index_id)) continue;
    key.assign(prefix).append(suffix);
    if (suffix.size() >= kIndexIdSize + kTablePrefixSize && vector_indexes.count(index_id)) {
      key.replace(kTablePrefixSize + kIndexIdSize, kTablePrefixSize, prefix);
    }
    batch.Put(Family::kIndexes, key, value);
  }
}

}  // namespace ddb::engine
