// Database::RestoreToPointInTime (database.h): a table as it was at an
// instant (history.h), written as a new table in one batch.
#include "engine/database.h"
#include "engine/history.h"
#include "engine/item_codec.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"

namespace ddb::engine {

Result<TableDescription> Database::RestoreToPointInTime(std::string_view ns,
                                                        std::string_view source, int64_t millis,
                                                        TableSchema target) {
  std::map<std::string, std::string> items;
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, source, [&](TableState& state) -> Status {
    state.write_mu.AssertHeld();  // by WithTableLocked
    auto at = ItemsAt(*store_, state, millis);
    if (!at.ok()) return at.status();
    items = std::move(*at);
    return Status::Ok();
  }));
  TableRegistry::NewTable table{std::string(ns), std::move(target), {}, {}};
  auto fill = [&](uint64_t table_id, Store::Batch& batch, TableRegistry::NewTable& made) -> Status {
    // Each item is written as any write writes one — index entries,
    // statistics — through a state of the new table that no one else sees
    // until the batch is written.
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
      DDB_RETURN_IF_ERROR(writer_.AddMutation(building, schema, item_key, ExtractKey(schema, *item),
                                              std::nullopt, put, batch, pending));
    }
    made.stats = pending.table;
    for (const auto& [index_id, stats] : pending.indexes) made.index_stats[index_id] = stats;
    return Status::Ok();
  };
  return tables_.CreateFilled(std::move(table), fill);
}

}  // namespace ddb::engine
