// PointInTime: point-in-time recovery — a table as it was at an instant,
// from the history every write keeps of the value it replaced (history.h).
// A restore writes that state as a new table in one batch; exports read the
// same history (ItemsAt for a full export, ChangesBetween for an
// incremental one).
//
// State: none of its own; history lives in the store, trimmed by
// Housekeeping (housekeeping.h).
// Lock: the source table's write_mu while its history is read (through
// TableRegistry::WithTableLocked), so no write lands in between; then the
// registry's to create the new table.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/backups/history.h"
#include "engine/catalog/catalog.h"
#include "engine/items/item_writer.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_registry.h"

namespace ddb::engine {

class PointInTime {
 public:
  PointInTime(const Store& store, TableRegistry& tables, ItemWriter& writer)
      : store_(store), tables_(tables), writer_(writer) {}

  // Creates `target` (derived by the caller from the source's schema) with
  // the items the table `source` held at `millis` — after every write made
  // at or before it — and their index entries, in one batch. The caller
  // checks that `millis` is within the recovery window.
  Result<TableDescription> Restore(std::string_view ns, std::string_view source, int64_t millis,
                                   TableSchema target);
  // The table's items at `millis`, in item-key order (a full export).
  Result<std::vector<Item>> ItemsAt(std::string_view ns, std::string_view table, int64_t millis);
  // Each item written after `from_millis` and at or before `to_millis`: its
  // value at both ends (an incremental export). Items absent at both ends
  // (made and deleted within the window) are left out.
  Result<std::vector<ItemChange>> ChangesBetween(std::string_view ns, std::string_view table,
                                                 int64_t from_millis, int64_t to_millis);

 private:
  const Store& store_;
  TableRegistry& tables_;
  ItemWriter& writer_;
};

}  // namespace ddb::engine
