// RepairDataDir: `localdynamo repair` — what RocksDB's repair keeps of a
// damaged data directory, with the items it would lose put back, made
// consistent again, and an account of what was lost:
//   1. a check (integrity_check.h): what can be read before, table by table;
//   2. every readable item copied to a file under <dir>/lost/, read past
//      damaged blocks (item_salvage.h);
//   3. the store opened and closed, which writes the write-ahead log into
//      table files (RocksDB's repair keeps only what is in table files, or
//      in the log for families that have some);
//   4. RocksDB's repair (store_repair.h): a new MANIFEST naming the files
//      it can read whole; the others are moved to <dir>/lost/;
//   5. the items put back as step 2 read them: RocksDB sets a whole file
//      aside for one damaged block, and may bring back versions that file
//      had replaced or deleted;
//   6. a check again; each table or backup whose index entries or
//      statistics then disagree with its items gets them rebuilt from the
//      items (tables/index_rebuild.h);
//   7. a last check: what the directory holds now.
// What the damaged blocks held is gone, and the report says how much.
//
// Thread safety: the directory must be closed (no server on it); RocksDB's
// lock refuses a repair otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/integrity/integrity_check.h"
#include "engine/integrity/item_salvage.h"
#include "engine/status.h"
#include "engine/storage/store_repair.h"

namespace ddb::engine {

// One table's (or backup's) items before and after.
struct TableRepair {
  std::string ns;
  std::string name;
  std::string backup_name;  // set for a backup
  std::string backup_id;    // set for a backup
  // The statistics' count before the repair: from the check before it,
  // else from the check right after RocksDB's (the catalog as it was);
  // nullopt when neither could read it.
  std::optional<int64_t> recorded;
  // The items read before the repair: all of them when `whole_before`,
  // else those outside its damaged blocks; nullopt when the database could
  // not be opened then.
  std::optional<int64_t> read_before;
  bool whole_before = true;
  // After it; nullopt when the table (its catalog entry) is gone.
  std::optional<int64_t> items_after;
  // The items put back after RocksDB's repair (item_salvage.h).
  ItemRestore restore;
  bool rebuilt = false;  // its indexes and statistics were rebuilt

  // Items recorded and not there now (0 when none, or unknown).
  int64_t lost() const;
};

struct RepairReport {
  std::string path;
  IntegrityReport before;
  bool log_flushed = false;  // step 3 could open the store
  StoreRepair store;
  // Where the salvaged items are when putting them back failed (with
  // `salvage_error`): the file is kept; empty once they are back.
  std::string salvage_file;
  std::string salvage_error;
  std::vector<TableRepair> tables;
  // A rebuild that failed, with the table's name: the last check shows
  // what is left inconsistent.
  std::vector<std::string> rebuild_errors;
  IntegrityReport after;
};

// kNotFound when there is no database at `path`; kInternal when it cannot
// be read or RocksDB's repair fails (another process holds it).
Result<RepairReport> RepairDataDir(const std::string& path);

}  // namespace ddb::engine
