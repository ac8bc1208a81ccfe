// The RocksDB options a data directory's store was last opened with, for
// the offline work on the directory that runs without a Store
// (store_check.h, store_repair.h). RocksDB writes them to an OPTIONS file
// at every open; reading them back gives that work the store's own column
// family options (store.cc: table format, Bloom filters, compression)
// without a second copy of them that could drift.
//
// With store.cc and store_faults.cc, one of the few files that hold RocksDB
// types: the offline side of the engine's door to RocksDB.
//
// Thread safety: LoadStoredOptions is pure; a WarningLog may be called from
// any thread (RocksDB logs from its own).
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>

#include <array>
#include <cstdarg>
#include <string>
#include <string_view>
#include <vector>

#include "engine/mutex.h"
#include "engine/storage/store.h"
#include "engine/thread_annotations.h"

namespace ddb::engine {

// The column families' names on disk, in Family's order: the store's and
// the offline tools' one list. Persisted, so it never changes.
inline constexpr std::array<std::string_view, kFamilyCount> kStoredFamilyNames = {
    "default", "items", "indexes", "streams", "ttl", "history"};

struct StoredOptions {
  rocksdb::DBOptions db;
  // Every family the directory has, with its options.
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  // False: no OPTIONS file could be read, and these are RocksDB's defaults
  // for the families the MANIFEST names (or "default" alone). They read
  // every file the store writes; files written with them lack Bloom
  // filters until a compaction rewrites them, which costs speed only.
  bool from_options_file = false;
};

StoredOptions LoadStoredOptions(const std::string& path);

// The options of family `name` in `options`, or of the first family.
const rocksdb::ColumnFamilyOptions& FamilyOptions(const StoredOptions& options,
                                                  std::string_view name);

// RocksDB's informational log, keeping only its warnings and errors, in
// order: what a check or a repair reports of what RocksDB itself did (the
// records a damaged write-ahead log lost, the table files it set aside).
// Writes nothing to the data directory.
class WarningLog final : public rocksdb::Logger {
 public:
  WarningLog() : rocksdb::Logger(rocksdb::WARN_LEVEL) {}

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override;
  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override;

  std::vector<std::string> lines() const EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  std::vector<std::string> lines_ GUARDED_BY(mu_);
};

}  // namespace ddb::engine
