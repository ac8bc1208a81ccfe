// Item salvage: what `localdynamo repair` (data_repair.h) keeps of the items
// RocksDB's repair (store_repair.h) would lose. That repair sets a table
// file aside whole when one block of it is damaged, and what it keeps can
// bring back versions the lost file had replaced or deleted (older ones,
// in older files). So, before it, every readable item of the tables and
// backups is copied to a file (read past damaged blocks,
// scan_past_damage.h); after it, the items are put back as they were read:
// one missing or different is written again, and one that was not there
// is deleted — unless it lies where damage kept the first read from
// seeing, and then it stays.
//
// The file: per table, data_id:u64be count:u64be, then `count` records of
// key_length:u32be key value_length:u32be value, in key order.
//
// Thread safety: the caller has the directory to itself.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/integrity/scan_past_damage.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/storage/store_check.h"

namespace ddb::engine {

// What the salvage read of one table's (or backup's) items.
struct SalvagedItems {
  uint64_t data_id = 0;
  int64_t items = 0;
  std::vector<HashRange> skipped;  // where damage kept keys from being read
};

// Copies every readable item under each of `data_ids` to `file`.
Result<std::vector<SalvagedItems>> SalvageItems(const ReadOnlyStore& store,
                                                const std::vector<uint64_t>& data_ids,
                                                const std::string& file);

struct ItemRestore {
  int64_t written_back = 0;  // missing or different after the repair
  int64_t deleted = 0;       // back after the repair, though not there before
};

// Puts the items of `salvaged` (as `file` holds them) back into `store`,
// for the data ids `keep` names only (tables that are still there).
// Returns the counts by data id.
Result<std::map<uint64_t, ItemRestore>> RestoreItems(Store& store,
                                                     const std::vector<SalvagedItems>& salvaged,
                                                     const std::set<uint64_t>& keep,
                                                     const std::string& file);

}  // namespace ddb::engine
