// Database::RestoreToPointInTime (database.h): a table as it was at an
// instant (history.h), written as a new table in one batch; and what
// exports read of the same history (ItemsAt, ChangesBetween).
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
    auto at = engine::ItemsAt(*store_, state, millis);
    if (!at.ok()) return at.status();
    items = std::move(*at);
    return Status::Ok();
  }));
  TableRegistry::NewTable table{std::string(ns), std::move(target), {}, {}};
  auto fill = [&](uint64_t table_id, Store::Batch& batch, TableRegistry::NewTable& made) {
    return FillWithItems(items, table_id, batch, made);
  };
  return tables_.CreateFilled(std::move(table), fill);
}

Status Database::FillWithItems(const std::map<std::string, std::string>& items,
                               uint64_t table_id, Store::Batch& batch,
                               TableRegistry::NewTable& made) {
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
}

Result<std::vector<Item>> Database::ItemsAt(std::string_view ns, std::string_view table,
                                            int64_t millis) {
  std::vector<Item> items;
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, table, [&](TableState& state) -> Status {
    state.write_mu.AssertHeld();  // by WithTableLocked
    auto at = engine::ItemsAt(*store_, state, millis);
    if (!at.ok()) return at.status();
    items.reserve(at->size());
    for (const auto& [key, encoded] : *at) {
      auto item = DecodeItem(encoded);
      if (!item.ok()) return item.status();
      items.push_back(std::move(*item));
    }
    return Status::Ok();
  }));
  return items;
}

Result<std::vector<ItemChange>> Database::ChangesBetween(std::string_view ns,
                                                         std::string_view table,
                                                         int64_t from_millis, int64_t to_millis) {
  std::vector<ItemChange> changes;
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, table, [&](TableState& state) -> Status {
    state.write_mu.AssertHeld();  // by WithTableLocked
    auto changed = ChangedBetween(*store_, state, from_millis, to_millis);
    if (!changed.ok()) return changed.status();
    if (changed->empty()) return Status::Ok();
    auto before = engine::ItemsAt(*store_, state, from_millis);
    if (!before.ok()) return before.status();
    auto after = engine::ItemsAt(*store_, state, to_millis);
    if (!after.ok()) return after.status();
    auto value_in = [](const std::map<std::string, std::string>& items,
                       const std::string& key) -> Result<std::optional<Item>> {
      auto it = items.find(key);
      if (it == items.end()) return std::optional<Item>();
      auto item = DecodeItem(it->second);
      if (!item.ok()) return item.status();
      return std::optional<Item>(std::move(*item));
    };
    for (const auto& [key, millis] : *changed) {
      auto old_item = value_in(*before, key);
      if (!old_item.ok()) return old_item.status();
      auto new_item = value_in(*after, key);
      if (!new_item.ok()) return new_item.status();
      if (!*old_item && !*new_item) continue;
      changes.push_back({std::move(*old_item), std::move(*new_item), millis});
    }
    return Status::Ok();
  }));
  return changes;
}

}  // namespace ddb::engine
