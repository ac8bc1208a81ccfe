// Rebuilding what a table's items imply — the entries of its GSIs and LSIs
// and the statistics of the table and of those indexes — from the items
// alone: `localdynamo repair`'s answer (data_repair.h) to index entries
// that a lost file left without their items, or items without their
// entries. The items are what a query's answers must agree with, so they
// are taken as the truth.
//
// Thread safety: the caller has the store to itself (an offline repair):
// a write between the steps would be missed by them.
#pragma once

#include <cstdint>
#include <map>

#include "engine/catalog/catalog.h"
#include "engine/status.h"
#include "engine/storage/store.h"

namespace ddb::engine {

struct RebuiltStats {
  TableStats table;
  std::map<uint32_t, TableStats> indexes;  // by index_id, the secondary ones
};

// Deletes every entry of `schema`'s secondary indexes, backfills each
// from the items under `schema.table_id` (a backup's data id works too), and
// counts the items. Stores none of the statistics: the caller puts them
// where they belong (a table's catalog keys, a backup's entry). A crash
// midway leaves indexes short of entries: run it again.
Result<RebuiltStats> RebuildSecondaryIndexes(Store& store, const TableSchema& schema);

}  // namespace ddb::engine
