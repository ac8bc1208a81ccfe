// A table's stored bytes — its items and index entries — read out with the
// table id cut off every key, and written back under another id. Named
// snapshots (snapshot.cc) and on-demand backups (backups.cc) both copy
// tables this way, so neither parses, re-indexes or re-encodes an item.
//
// Thread safety: pure functions over the store; the caller keeps the table
// still (its write_mu) while reading it.
#pragma once

#include <cstdint>
#include <functional>

#include "engine/backups/snapshot.h"
#include "engine/status.h"
#include "engine/storage/store.h"

namespace ddb::engine {

// Appends every item and index entry stored under `table_id` to
// `table.items` and `table.index_entries`, keys without the id, and adds
// their bytes to `*bytes`.
Status ReadTableData(const Store& store, uint64_t table_id, DataSnapshot::Table& table,
                     int64_t* bytes);

// Adds `table`'s items and index entries to `batch` under `table_id`.
// Vector index entries (found by `table.schema`'s vector indexes) embed the
// item's key, table id included, which is rewritten too. Entries of an
// index `keep_index` refuses are left out; none are without it.
void AddTableData(const DataSnapshot::Table& table, uint64_t table_id, Store::Batch& batch,
                  const std::function<bool(uint32_t index_id)>& keep_index = nullptr);

}  // namespace ddb::engine
