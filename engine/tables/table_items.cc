#include "engine/tables/table_items.h"

#include "engine/items/item_codec.h"
#include "engine/key_codec.h"
#include "engine/secondary_index.h"

namespace ddb::engine {

Status ForEachTableItem(Store& store, uint64_t table_id, std::unique_ptr<Store::Batch>& batch,
                        const ItemVisitor& visit) {
  std::string prefix = TablePrefix(table_id);
  auto it = store.NewIterator(Family::kItems, prefix, PrefixSuccessor(prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto item = DecodeItem(it->value());
    if (!item.ok()) return item.status();
    DDB_RETURN_IF_ERROR(visit(it->key(), *item, *batch));
    if (batch->count() >= kEntriesPerBatch) {
      DDB_RETURN_IF_ERROR(store.Write(*batch));
      batch = std::make_unique<Store::Batch>(store);
    }
  }
  return it->status();
}

BackfillEntryOf SecondaryIndexEntryOf(const TableSchema& schema, const IndexSchema& index) {
  return [&schema, &index](std::string_view, const Item& item) -> std::optional<BackfillEntry> {
    if (!ValidateIndexKeys(schema, item, false).ok()) return std::nullopt;
    auto key = IndexEntryKey(schema, index, item);
    if (!key) return std::nullopt;
    Item projected = ProjectForIndex(schema, index, item);
    return BackfillEntry{*key, EncodeItem(projected), static_cast<int64_t>(ItemSize(projected))};
  };
}

Result<TableStats> BackfillEntries(Store& store, uint64_t table_id,
                                   std::unique_ptr<Store::Batch>& batch,
                                   const BackfillEntryOf& entry_of) {
  TableStats stats;
  DDB_RETURN_IF_ERROR(ForEachTableItem(
      store, table_id, batch,
      [&](std::string_view item_key, const Item& item, Store::Batch& batch) {
        auto entry = entry_of(item_key, item);
        if (!entry) return Status::Ok();
        stats.item_count += 1;
        stats.size_bytes += entry->size;
        batch.Put(Family::kIndexes, entry->key, entry->value);
        return Status::Ok();
      }));
  return stats;
}

}  // namespace ddb::engine
