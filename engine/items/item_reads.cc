#include "engine/items/item_reads.h"

#include "engine/items/item_codec.h"

namespace ddb::engine {

Result<std::optional<Item>> ReadItem(const Store& store, const std::string& item_key,
                                     const Store::Snapshot* snapshot) {
  auto stored = store.Get(Family::kItems, item_key, snapshot);
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return std::optional<Item>();
  auto decoded = DecodeItem(**stored);
  if (!decoded.ok()) return decoded.status();
  return std::optional<Item>(std::move(decoded).value());
}

Result<std::vector<std::optional<Item>>> ReadItems(const Store& store,
                                                   const std::vector<ItemLocation>& locations) {
  auto snapshot = store.GetSnapshot();
  std::vector<std::optional<Item>> found;
  for (const ItemLocation& location : locations) {
    auto item = ReadItem(store, location.item_key, snapshot.get());
    if (!item.ok()) return item.status();
    found.push_back(std::move(item).value());
  }
  return found;
}

}  // namespace ddb::engine
