// DataSnapshot: a copy of a database's tables — every namespace's, or one
// namespace's — as they were at one moment, held in memory, which
// DataSnapshots::Restore puts back (emulator/snapshots.h names them).
//
// What it holds is the tables' stored bytes, not items to re-write:
// restoring one is a single RocksDB batch of the same keys under fresh
// table ids, with no parsing, re-indexing or encoding — restore time grows
// with the bytes, not with the work of writing items (bench/snapshots.py).
// Streams are not copied: a restored table with a stream gets a new one.
//
// Thread safety: immutable once taken; share it freely.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/catalog/catalog.h"

namespace ddb::engine {

struct DataSnapshot {
  struct Table {
    std::string ns;
    TableSchema schema;  // its table_id is the one it had when taken
    TableStats stats;
    std::map<uint32_t, TableStats> index_stats;  // by index_id
    // Key/value pairs of the items and index entries, each key without its
    // leading table id (key_codec.h, secondary_index.h, vector_index.h).
    std::vector<std::pair<std::string, std::string>> items;
    std::vector<std::pair<std::string, std::string>> index_entries;
    // TTL schedule entries (ttl.h): expiry and item key without table id.
    std::vector<std::pair<int64_t, std::string>> ttl_entries;
  };

  // The namespace it was taken of; nullopt: every namespace.
  std::optional<std::string> ns;
  std::vector<Table> tables;
  int64_t item_count = 0;
  int64_t bytes = 0;  // of the keys and values held
};

// What a restore put back.
struct RestoreSummary {
  int64_t tables = 0;
  int64_t items = 0;
};

}  // namespace ddb::engine
