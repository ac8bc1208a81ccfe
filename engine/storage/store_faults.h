// The store's side of storage faults (part of the Store, store.cc: the only
// code that holds RocksDB handles):
// - what a RocksDB error says to a client, and to someone starting the server;
// - RocksDB's informational log, written so that a full or read-only disk
//   costs lines of it and never the process, and read back for what
//   start-up's recovery dropped;
// - StoreRecovery: hears RocksDB stop writes and resumes the database once
//   the data directory takes writes again.
//
// Thread safety: FaultOf, FromRocks and OpenFailure are pure. RocksInfoLog
// and StoreRecovery may be called from any thread (RocksDB calls them from
// its own).
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/listener.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/mutex.h"
#include "engine/status.h"
#include "engine/storage/storage_health.h"

namespace ddb::engine {

StorageFault FaultOf(const rocksdb::Status& s);

// kInternal with the fault's text and RocksDB's reason; Ok for ok.
Status FromRocks(const rocksdb::Status& s);

// The one line a server that cannot open `path` prints.
std::string OpenFailure(const std::string& path, const rocksdb::Status& s);

// RocksDB's info log in <dir>/LOG. RocksDB's own file logger aborts the
// process (a debug assertion) on the line after a failed write, which a full
// disk makes the very next line: this one drops lines it cannot write.
// Warnings during Open that say data was dropped are kept for the report.
class RocksInfoLog final : public rocksdb::Logger {
 public:
  explicit RocksInfoLog(const std::string& dir);
  ~RocksInfoLog() override;

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override;
  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override;

  // What recovery said it dropped, in order; then stop keeping it.
  std::vector<std::string> TakeDropped();

 private:
  Mutex mu_;
  std::FILE* file_ GUARDED_BY(mu_) = nullptr;
  bool keeping_ GUARDED_BY(mu_) = true;
  std::vector<std::string> dropped_ GUARDED_BY(mu_);
};

// Resumes the database after RocksDB stopped its writes. RocksDB's own
// recovery waits for free space only, polls every 5 s, takes any other I/O
// error as fatal until a restart, and can come back with a write-ahead log
// that refuses every append (the one a failed write left, when no memtable
// held data to flush); this one probes the data directory every
// kProbeMillis, resumes, makes sure the log is a fresh one, and proves a
// logged write before writes are accepted again.
class StoreRecovery final : public rocksdb::EventListener {
 public:
  static constexpr int64_t kProbeMillis = 250;
  // After an error that leaves writes on (a compaction short of space),
  // resuming sooner would only rerun the compaction into the same wall.
  static constexpr int64_t kBackgroundRetryMillis = 5000;

  StoreRecovery(std::string dir, StorageHealth& health);
  ~StoreRecovery() override;  // REQUIRES: Stop() called

  // Starts watching `db`. `catalog` is the family the proof writes to.
  void Attach(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* catalog,
              const rocksdb::WriteOptions& write_options);
  // Ends the recovery thread; call before the database closes.
  void Stop();

  // A client's write failed: writes stop here whatever RocksDB made of it,
  // until Run() has proved a write goes through again.
  void OnWriteFailed(const rocksdb::Status& error);

  void OnBackgroundError(rocksdb::BackgroundErrorReason reason, rocksdb::Status* error) override;
  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason reason, rocksdb::Status error,
                            bool* auto_recovery) override;

 private:
  void Wake() REQUIRES(mu_);
  void Run();
  bool DirectoryTakesWrites() const;
  bool TryResume();

  const std::string dir_;
  StorageHealth& health_;
  Mutex mu_;
  // Set once by Attach, before the thread starts; read by it unlocked.
  rocksdb::DB* db_ = nullptr;
  rocksdb::ColumnFamilyHandle* catalog_ = nullptr;
  rocksdb::WriteOptions write_options_;
  CondVar wake_;
  bool stopping_ GUARDED_BY(mu_) = false;
  // Errors heard, and how many of them a resumption has answered: a new one
  // during a resumption keeps the next one coming.
  uint64_t errors_ GUARDED_BY(mu_) = 0;
  uint64_t answered_ GUARDED_BY(mu_) = 0;
  std::thread thread_ GUARDED_BY(mu_);    // started at the first error
};

}  // namespace ddb::engine
