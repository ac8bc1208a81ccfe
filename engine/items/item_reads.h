// Point reads of stored items: one item, or several from one snapshot (a
// consistent view across tables). Query and Scan are range reads
// (query_scan.cc).
//
// Thread safety: as Store; reads take no lock.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_state.h"

namespace ddb::engine {

// The item stored under `item_key`, or nullopt.
Result<std::optional<Item>> ReadItem(const Store& store, const std::string& item_key,
                                     const Store::Snapshot* snapshot = nullptr);

// The items at `locations`, read from one snapshot.
Result<std::vector<std::optional<Item>>> ReadItems(const Store& store,
                                                   const std::vector<ItemLocation>& locations);

}  // namespace ddb::engine
