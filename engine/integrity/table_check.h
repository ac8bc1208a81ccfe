// The per-table part of IntegrityCheck (integrity_check.h): one table's —
// or one backup's — items and GSI and LSI entries read and checked against
// each other and against the statistics kept for them.
//
// Thread safety: reads a store nobody writes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "engine/catalog/catalog.h"
#include "engine/integrity/integrity_check.h"
#include "engine/storage/store_check.h"

namespace ddb::engine {

// Fills `check`'s counts and findings. `schema.table_id` is the id the
// keys begin with (a backup's data id); `recorded` and `index_recorded`
// are the statistics kept for the data (by index_id), each absent when
// they could not be read.
void CheckTableData(const ReadOnlyStore& store, const TableSchema& schema,
                    const std::optional<TableStats>& recorded,
                    const std::map<uint32_t, TableStats>& index_recorded, TableCheck& check);

}  // namespace ddb::engine
