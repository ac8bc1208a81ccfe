#include "engine/storage/storage_health.h"

#include <chrono>
#include <cstdio>

namespace ddb::engine {
namespace {

// Wall-clock time, not the emulator's test clock: the log and the health
// view say when the disk failed, which a moved test clock would misstate.
int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string_view StorageFaultName(StorageFault fault) {
  switch (fault) {
    case StorageFault::kNone:
      return "NONE";
    case StorageFault::kDiskFull:
      return "DISK_FULL";
    case StorageFault::kReadOnly:
      return "READ_ONLY";
    case StorageFault::kIoError:
      return "IO_ERROR";
    case StorageFault::kCorruption:
      return "CORRUPTION";
  }
  return "IO_ERROR";
}

std::string DescribeStorageFault(StorageFault fault, std::string_view reason) {
  std::string text;
  switch (fault) {
    case StorageFault::kDiskFull:
      text = "Storage error: the disk holding the data directory is full; writes are refused "
             "until space is freed, and reads go on";
      break;
    case StorageFault::kReadOnly:
      text = "Storage error: the data directory is read-only; writes are refused until it is "
             "writable again, and reads go on";
      break;
    case StorageFault::kCorruption:
      text = "Storage error: a data file is damaged; run `localdynamo check` on the data "
             "directory";
      break;
    case StorageFault::kNone:
    case StorageFault::kIoError:
      text = "Storage error: the disk returned an I/O error; writes are refused until it "
             "answers again, and reads go on where they can";
      break;
  }
  if (!reason.empty()) text.append(" (").append(reason).append(")");
  return text;
}

StorageHealth::View StorageHealth::view() const {
  MutexLock lock(mu_);
  return view_;
}

Status StorageHealth::RefusedWrite() const {
  MutexLock lock(mu_);
  return Status::Internal(DescribeStorageFault(view_.fault, view_.reason));
}

void StorageHealth::Stop(StorageFault fault, std::string reason) {
  std::string line;
  {
    MutexLock lock(mu_);
    if (!view_.writable) return;  // the first cause is the one to fix
    view_.writable = false;
    view_.fault = fault;
    view_.reason = std::move(reason);
    view_.since_millis = NowMillis();
    ++view_.stops;
    stopped_.store(true, std::memory_order_release);
    line = "storage: writes stopped: " + DescribeStorageFault(view_.fault, view_.reason);
  }
  if (log_) log_(line);
}

void StorageHealth::Resume() {
  std::string line;
  {
    MutexLock lock(mu_);
    if (view_.writable) return;
    const int64_t now = NowMillis();
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", (now - view_.since_millis) / 1000.0);
    line = std::string("storage: writes accepted again, ") + seconds + " s after they stopped (" +
           std::string(StorageFaultName(view_.fault)) + ")";
    view_.writable = true;
    view_.fault = StorageFault::kNone;
    view_.reason.clear();
    view_.resumed_millis = now;
    stopped_.store(false, std::memory_order_release);
  }
  if (log_) log_(line);
}

}  // namespace ddb::engine
