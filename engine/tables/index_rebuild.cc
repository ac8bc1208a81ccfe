#include "engine/tables/index_rebuild.h"

#include <memory>

#include "engine/key_codec.h"
#include "engine/secondary_index.h"
#include "engine/tables/table_items.h"

namespace ddb::engine {

Result<RebuiltStats> RebuildSecondaryIndexes(Store& store, const TableSchema& schema) {
  const std::vector<const IndexSchema*> indexes = AllIndexes(schema);
  Store::Batch clear(store);
  for (const IndexSchema* index : indexes) {
    std::string prefix = IndexPrefix(schema.table_id, index->index_id);
    clear.DeleteRange(Family::kIndexes, prefix, PrefixSuccessor(prefix));
  }
  DDB_RETURN_IF_ERROR(store.Write(clear));
  RebuiltStats rebuilt;
  auto batch = std::make_unique<Store::Batch>(store);
  for (const IndexSchema* index : indexes) {
    auto stats =
        BackfillEntries(store, schema.table_id, batch, SecondaryIndexEntryOf(schema, *index));
    if (!stats.ok()) return stats.status();
    rebuilt.indexes[index->index_id] = *stats;
  }
  DDB_RETURN_IF_ERROR(ForEachTableItem(
      store, schema.table_id, batch, [&](std::string_view, const Item& item, Store::Batch&) {
        rebuilt.table.item_count += 1;
        rebuilt.table.size_bytes += static_cast<int64_t>(ItemSize(item));
        return Status::Ok();
      }));
  DDB_RETURN_IF_ERROR(store.Write(*batch));
  return rebuilt;
}

}  // namespace ddb::engine
