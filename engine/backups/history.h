// The change history point-in-time recovery keeps. Every write to a table
// with recovery enabled adds, in the write's own batch, the item's value
// before it (or that there was none) and the write's time by the clock,
// under the table and a per-table sequence number. The table as it was at
// an instant is the table as it is, with every change made after that
// instant undone, newest first: so a restore sees exactly the writes that
// had been acknowledged by then.
//
// Layout (persisted — do not change; docs/storage.md), family `history`:
//   table_id:u64be sequence:u64be -> millis:varint item_key:string old_item
// where `old_item` is the item's encoding (item_codec.h), empty when the
// write created the item.
//
// Thread safety: the caller holds the table's write_mu (TableState).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "engine/items/item_codec.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_state.h"
#include "engine/thread_annotations.h"

namespace ddb::engine {

// One item's change over a window of history: its value at the window's
// start and end (nullopt: absent), and when it was last written within it.
struct ItemChange {
  std::optional<Item> old_item;
  std::optional<Item> new_item;
  int64_t last_write_millis = 0;
};

// Adds to `batch` the record of a write at `millis` that replaces
// `old_item` (null: none) at `item_key`.
Status AppendHistory(const Store& store, TableState& state, const std::string& item_key,
                     const Item* old_item, int64_t millis, Store::Batch& batch)
    REQUIRES(state.write_mu);

// The table's items as they were at `millis` — after every write made at or
// before it — by item key (table id included), encoded.
Result<std::map<std::string, std::string>> ItemsAt(const Store& store, const TableState& state,
                                                   int64_t millis) REQUIRES(state.write_mu);

// The items written after `from_millis` and at or before `to_millis`, by
// item key, with the time of the last of those writes.
Result<std::map<std::string, int64_t>> ChangedBetween(const Store& store, const TableState& state,
                                                      int64_t from_millis, int64_t to_millis)
    REQUIRES(state.write_mu);

// Deletes the table's history (recovery turned off, the table dropped).
void DropHistory(uint64_t table_id, Store::Batch& batch);

// Deletes the table's records older than `before_millis` (past the recovery
// period). They are the oldest, in sequence order: one range delete.
Status TrimHistory(Store& store, uint64_t table_id, int64_t before_millis);

}  // namespace ddb::engine
