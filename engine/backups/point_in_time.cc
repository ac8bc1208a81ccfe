#include "engine/backups/point_in_time.h"

#include "engine/items/item_codec.h"
#include "engine/tables/table_fill.h"

namespace ddb::engine {

Result<TableDescription> PointInTime::Restore(std::string_view ns, std::string_view source,
                                              int64_t millis, TableSchema target) {
  std::map<std::string, std::string> items;
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, source, [&](TableState& state) -> Status {
    state.write_mu.AssertHeld();  // by WithTableLocked
    auto at = engine::ItemsAt(store_, state, millis);
    if (!at.ok()) return at.status();
    items = std::move(*at);
    return Status::Ok();
  }));
  TableRegistry::NewTable table{std::string(ns), std::move(target), {}, {}};
  auto fill = [&](uint64_t table_id, Store::Batch& batch, TableRegistry::NewTable& made) {
    return FillWithItems(writer_, items, table_id, batch, made);
  };
  return tables_.CreateFilled(std::move(table), fill);
}

Result<std::vector<Item>> PointInTime::ItemsAt(std::string_view ns, std::string_view table,
                                               int64_t millis) {
  std::vector<Item> items;
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, table, [&](TableState& state) -> Status {
    state.write_mu.AssertHeld();  // by WithTableLocked
    auto at = engine::ItemsAt(store_, state, millis);
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

Result<std::vector<ItemChange>> PointInTime::ChangesBetween(std::string_view ns,
                                                            std::string_view table,
                                                            int64_t from_millis,
                                                            int64_t to_millis) {
  std::vector<ItemChange> changes;
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, table, [&](TableState& state) -> Status {
    state.write_mu.AssertHeld();  // by WithTableLocked
    auto changed = ChangedBetween(store_, state, from_millis, to_millis);
    if (!changed.ok()) return changed.status();
    if (changed->empty()) return Status::Ok();
    auto before = engine::ItemsAt(store_, state, from_millis);
    if (!before.ok()) return before.status();
    auto after = engine::ItemsAt(store_, state, to_millis);
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
