// FillWithItems: how restores and new replicas fill a table. Another
// table's items are written as the new table's, through the write path
// (item_writer.h) into a TableState no one else sees, so each gets its
// index entries and the new table its statistics, all in the caller's
// batch (TableRegistry::CreateFilled).
//
// Thread safety: touches only the private state it makes.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "engine/items/item_writer.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_registry.h"

namespace ddb::engine {

// `items`: stored item keys of another table -> encoded items.
Status FillWithItems(ItemWriter& writer, const std::map<std::string, std::string>& items,
                     uint64_t table_id, Store::Batch& batch, TableRegistry::NewTable& made);

}  // namespace ddb::engine
