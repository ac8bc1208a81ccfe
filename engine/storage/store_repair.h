// RepairStore: RocksDB's own repair of a data directory (RocksDB's
// RepairDB), for `localdynamo repair` (data_repair.h). It reads every file
// the directory holds, turns the write-ahead logs into table files, sets
// aside under <dir>/lost/ every table file it cannot read whole, and writes
// a new MANIFEST naming the rest: what survives is consistent key by key,
// and what was in the files set aside is gone.
//
// With store.cc, one of the few files that hold RocksDB handles.
//
// Thread safety: one repair of a directory at a time (RocksDB takes its
// lock, so a running server's directory is refused).
#pragma once

#include <string>
#include <vector>

#include "engine/status.h"

namespace ddb::engine {

struct StoreRepair {
  // What this repair moved to <dir>/lost/, by name: table files it could
  // not read (their keys are lost), and the logs and MANIFESTs it replaced
  // (their contents are kept, in new files).
  std::vector<std::string> moved_aside;
  // What RocksDB's repair warned of: each file it ignored and why, the
  // records of a damaged log it dropped, what it recovered in all.
  struct Warning {
    std::string text;
    int times = 1;  // in a row
  };
  std::vector<Warning> warnings;
};

// kInternal with RocksDB's message when the repair fails (another process
// holds the directory, it cannot be written).
Result<StoreRepair> RepairStore(const std::string& path);

// Whether `name`, a file repair moved aside, held table data (an .sst file)
// rather than a log or MANIFEST it rewrote.
bool IsLostTableFile(const std::string& name);

}  // namespace ddb::engine
