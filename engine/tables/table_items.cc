#include "engine/tables/table_items.h"

#include "engine/items/item_codec.h"
#include "engine/key_codec.h"

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

}  // namespace ddb::engine
