// StorageHealth: whether the store takes writes and, when it does not, why
// and since when.
//
// RocksDB stops every write after an I/O error it cannot mask: a full disk,
// a file system remounted read-only, a failing device, a damaged file. The
// store (store.cc) then records the fault here, refuses writes with a
// message that names it, keeps serving reads, and resumes the database by
// itself once the cause is gone (a corrupt file needs `localdynamo check`
// and `repair`, and a restart). Each stop and each resumption is logged once.
//
// Thread safety: every member may be called concurrently. writable() is one
// atomic load: the check every write pays.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "engine/mutex.h"
#include "engine/status.h"

namespace ddb::engine {

enum class StorageFault { kNone, kDiskFull, kReadOnly, kIoError, kCorruption };

// "NONE", "DISK_FULL", "READ_ONLY", "IO_ERROR", "CORRUPTION": the admin API's names.
std::string_view StorageFaultName(StorageFault fault);

// What a storage error says to a client: the fault in plain words, what
// happens next, then RocksDB's own reason.
std::string DescribeStorageFault(StorageFault fault, std::string_view reason);

class StorageHealth {
 public:
  using Log = std::function<void(const std::string&)>;
  explicit StorageHealth(Log log = nullptr) : log_(std::move(log)) {}

  struct View {
    bool writable = true;
    StorageFault fault = StorageFault::kNone;  // the current one, or kNone
    std::string reason;                         // RocksDB's words for it
    int64_t since_millis = 0;                   // Unix millis the writes stopped
    uint64_t stops = 0;                         // since the store opened
    int64_t resumed_millis = 0;                 // the last resumption, or 0
  };
  View view() const;

  bool writable() const { return !stopped_.load(std::memory_order_acquire); }
  // What a write gets while writes are stopped (kInternal, the fault's text).
  Status RefusedWrite() const;

  // Writes stop; the first report of a stop is kept and logged.
  void Stop(StorageFault fault, std::string reason);
  // Writes are accepted again.
  void Resume();

 private:
  const Log log_;
  std::atomic<bool> stopped_{false};
  mutable Mutex mu_;
  View view_ GUARDED_BY(mu_);
};

}  // namespace ddb::engine
