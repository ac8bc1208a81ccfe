#include "engine/tables/table_fill.h"

#include "engine/items/item_codec.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"

namespace ddb::engine {

Status FillWithItems(ItemWriter& writer, const std::map<std::string, std::string>& items,
                     uint64_t table_id, Store::Batch& batch, TableRegistry::NewTable& made) {
  const TableSchema& schema = made.schema;
  TableState building(made.ns, std::make_shared<const TableSchema>(schema), {});
  MutexLock lock(building.write_mu);
  PendingStats pending(building);
  const std::string prefix = TablePrefix(table_id);
  for (const auto& [source_key, encoded] : items) {
    auto item = DecodeItem(encoded);
    if (!item.ok()) return item.status();
    Mutation put;
    put.kind = Mutation::Kind::kPut;
    put.borrowed_item = &*item;
    // An item key is the table id, then what the key's values give.
    std::string item_key = prefix + source_key.substr(prefix.size());
    DDB_RETURN_IF_ERROR(writer.AddMutation(building, schema, item_key, ExtractKey(schema, *item),
                                           std::nullopt, put, batch, pending));
  }
  made.stats = pending.table;
  for (const auto& [index_id, stats] : pending.indexes) made.index_stats[index_id] = stats;
  return Status::Ok();
}

}  // namespace ddb::engine
