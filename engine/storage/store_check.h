// ReadOnlyStore: a data directory's database opened read-only, for
// `localdynamo check` (integrity_check.h): it takes no lock and writes
// nothing — RocksDB replays the write-ahead log into memory only, and its
// log goes nowhere — so checking a damaged directory leaves it as it was.
// Also the check of every table file's block checksums.
//
// With store.cc, one of the few files that hold RocksDB handles; reads
// answer through Store's own Iterator interface, so the engine's readers of
// stored bytes see no RocksDB type.
//
// Thread safety: a ReadOnlyStore is safe for concurrent use; an Iterator
// belongs to one thread and must not outlive its store.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/storage/store.h"

namespace ddb::engine {

// A table file whose checksums do not match, and RocksDB's words for it.
struct DamagedFile {
  std::string file;    // its name in the data directory, e.g. "000012.sst"
  std::string family;  // the column family it belongs to; empty when unknown
  std::string message;
};

struct FileVerification {
  size_t files_checked = 0;
  std::vector<DamagedFile> damaged;
};

// Why a directory could not be opened read-only.
struct StoreOpenError {
  enum class Kind {
    kNoDatabase,  // no database there (no CURRENT file)
    kUnreadable,  // RocksDB could not read it: permissions, I/O errors
    kDamaged,     // its MANIFEST or a file open reads is damaged
  };
  Kind kind = Kind::kNoDatabase;
  std::string message;
};

class ReadOnlyStore {
 public:
  // The database at `path`, or nullptr with `*error` set.
  static std::unique_ptr<ReadOnlyStore> Open(const std::string& path, StoreOpenError* error);
  ~ReadOnlyStore();

  ReadOnlyStore(const ReadOnlyStore&) = delete;
  ReadOnlyStore& operator=(const ReadOnlyStore&) = delete;

  // As Store's. A family the directory lacks (a repair drops empty ones;
  // the store creates them again at its next open) reads as empty.
  std::unique_ptr<Store::Iterator> NewIterator(Family family, std::string lower,
                                               std::string upper) const;
  Result<std::optional<std::string>> Get(Family family, std::string_view key) const;

  // Reads every block of every live table file and compares its checksum,
  // file by file, so that each damaged file is named (RocksDB's
  // DB::VerifyChecksum stops at the first).
  FileVerification VerifyFiles() const;

  // What RocksDB warned of while opening, among it the records of a
  // damaged write-ahead log that the replay dropped ("dropping N bytes").
  const std::vector<std::string>& open_warnings() const;

 private:
  struct Rep;
  explicit ReadOnlyStore(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// The block checksums of every *.sst file in `path`, without opening the
// database: for a directory that ReadOnlyStore::Open cannot open.
FileVerification VerifyTableFilesIn(const std::string& path);

}  // namespace ddb::engine
