#include "engine/storage/store_faults.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <string_view>

namespace ddb::engine {
namespace {

bool Mentions(const rocksdb::Status& s, std::string_view words) {
  return s.ToString().find(words) != std::string::npos;
}

// The LOG file is rotated at this size, keeping one older file (LOG.old).
constexpr long kLogRotateBytes = 4 << 20;

}  // namespace

StorageFault FaultOf(const rocksdb::Status& s) {
  if (s.ok()) return StorageFault::kNone;
  if (s.IsNoSpace() || s.subcode() == rocksdb::Status::kSpaceLimit) return StorageFault::kDiskFull;
  if (s.IsCorruption()) return StorageFault::kCorruption;
  if (Mentions(s, "Read-only file system") || Mentions(s, "Permission denied")) {
    return StorageFault::kReadOnly;
  }
  return StorageFault::kIoError;
}

Status FromRocks(const rocksdb::Status& s) {
  if (s.ok()) return Status::Ok();
  return Status::Internal(DescribeStorageFault(FaultOf(s), s.ToString()));
}

std::string OpenFailure(const std::string& path, const rocksdb::Status& s) {
  const std::string reason = " (" + s.ToString() + ")";
  if (Mentions(s, "lock hold by current process") || Mentions(s, "While lock file") ||
      Mentions(s, "Resource temporarily unavailable")) {
    return "cannot open the data directory " + path +
           ": another localdynamo (or another RocksDB program) has it open; stop it or give "
           "another --data-dir" + reason;
  }
  switch (FaultOf(s)) {
    case StorageFault::kReadOnly:
      return "cannot open the data directory " + path +
             ": it is read-only or not writable by this user; the server writes to it even "
             "when no request does (give a writable --data-dir, or --in-memory)" + reason;
    case StorageFault::kDiskFull:
      return "cannot open the data directory " + path + ": its disk is full" + reason;
    case StorageFault::kCorruption:
      return "cannot open the data directory " + path +
             ": its files are damaged beyond what start-up recovers; `localdynamo check "
             "--data-dir " + path + "` says what, `localdynamo repair --data-dir " + path +
             "` keeps what can be read" + reason;
    case StorageFault::kNone:
    case StorageFault::kIoError:
      break;
  }
  return "cannot open the data directory " + path + reason;
}

RocksInfoLog::RocksInfoLog(const std::string& dir) : rocksdb::Logger(rocksdb::INFO_LEVEL) {
  const std::string path = dir + "/LOG";
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && st.st_size > kLogRotateBytes) {
    ::rename(path.c_str(), (path + ".old").c_str());
  }
  MutexLock lock(mu_);
  file_ = std::fopen(path.c_str(), "a");  // null (read-only, full): lines are dropped
}

RocksInfoLog::~RocksInfoLog() {
  MutexLock lock(mu_);
  if (file_) std::fclose(file_);
}

void RocksInfoLog::Logv(const char* format, va_list ap) {
  Logv(rocksdb::INFO_LEVEL, format, ap);
}

void RocksInfoLog::Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) {
  if (level < GetInfoLogLevel()) return;
  // Its event lines are JSON of a few KB: sized to fit, not cut.
  va_list measure;
  va_copy(measure, ap);
  const int length = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  if (length < 0) return;
  std::string line(static_cast<size_t>(length), '\0');
  std::vsnprintf(line.data(), line.size() + 1, format, ap);
  MutexLock lock(mu_);
  // Recovery of a damaged write-ahead log reports each cut as "dropping N bytes".
  if (keeping_ && level >= rocksdb::WARN_LEVEL &&
      line.find("dropping") != std::string::npos) {
    dropped_.push_back(line);
  }
  if (!file_) return;
  const std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y/%m/%d-%H:%M:%S", &utc);
  // A failed write is dropped; the next line tries again.
  std::fprintf(file_, "%s %s\n", stamp, line.c_str());
  std::fflush(file_);
  clearerr(file_);
}

std::vector<std::string> RocksInfoLog::TakeDropped() {
  MutexLock lock(mu_);
  keeping_ = false;
  return std::move(dropped_);
}

StoreRecovery::StoreRecovery(std::string dir, StorageHealth& health)
    : dir_(std::move(dir)), health_(health) {}

StoreRecovery::~StoreRecovery() { Stop(); }

void StoreRecovery::Attach(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* catalog,
                           const rocksdb::WriteOptions& write_options) {
  MutexLock lock(mu_);
  db_ = db;
  catalog_ = catalog;
  write_options_ = write_options;
  if (errors_ != answered_ && !thread_.joinable()) thread_ = std::thread([this] { Run(); });
}

void StoreRecovery::Stop() {
  std::thread thread;
  {
    MutexLock lock(mu_);
    stopping_ = true;
    thread = std::move(thread_);
  }
  wake_.NotifyAll();
  if (thread.joinable()) thread.join();
}

// Called by RocksDB, holding its mutex: record, wake the thread, return.
void StoreRecovery::OnBackgroundError(rocksdb::BackgroundErrorReason, rocksdb::Status* error) {
  if (error->ok()) return;
  // RocksDB rates an I/O error other than a full disk (EROFS, EIO) as fatal:
  // no resumption until the process restarts. Resuming flushes every
  // memtable and starts a new log and MANIFEST, which is all a restart
  // would do with them, so it is rated hard, as a full disk is. Corruption
  // and lost data stay beyond resuming.
  if (error->severity() == rocksdb::Status::Severity::kFatalError && error->IsIOError()) {
    *error = rocksdb::Status(*error, rocksdb::Status::Severity::kHardError);
  }
  if (error->severity() >= rocksdb::Status::Severity::kHardError) {
    health_.Stop(FaultOf(*error), error->ToString());
  }
  MutexLock lock(mu_);
  Wake();
}

void StoreRecovery::OnWriteFailed(const rocksdb::Status& error) {
  health_.Stop(FaultOf(error), error.ToString());
  MutexLock lock(mu_);
  Wake();
}

void StoreRecovery::Wake() {
  if (stopping_) return;
  ++errors_;
  // Started at the first error: a store that never fails has no thread.
  if (db_ != nullptr && !thread_.joinable()) thread_ = std::thread([this] { Run(); });
  wake_.NotifyAll();
}

void StoreRecovery::OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason, rocksdb::Status,
                                         bool* auto_recovery) {
  *auto_recovery = false;  // Run() resumes, on its own schedule
}

void StoreRecovery::Run() {
  mu_.Lock();
  while (!stopping_) {
    wake_.WaitFor(mu_, health_.writable() ? kBackgroundRetryMillis : kProbeMillis);
    if (stopping_ || errors_ == answered_) continue;
    const uint64_t errors = errors_;
    // Not under mu_: RocksDB calls OnBackgroundError, which takes it,
    // from inside Resume() and the writes.
    mu_.Unlock();
    const bool resumed = DirectoryTakesWrites() && TryResume();
    mu_.Lock();
    if (resumed) answered_ = errors;
  }
  mu_.Unlock();
}

// A small file written, synced and removed: what a freed disk, a directory
// made writable again or a device answering again all allow.
bool StoreRecovery::DirectoryTakesWrites() const {
  const std::string probe = dir_ + "/.localdynamo-probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  static const std::string kBlock(64 << 10, '\0');
  const bool written = ::write(fd, kBlock.data(), kBlock.size()) ==
                           static_cast<ssize_t>(kBlock.size()) &&
                       ::fsync(fd) == 0;
  ::close(fd);
  ::unlink(probe.c_str());
  return written;
}

bool StoreRecovery::TryResume() {
  // Resume() flushes the memtables; when none held data it keeps the log
  // the failed write left, which refuses every append from then on. A key
  // put and deleted outside the log gives the catalog's memtable something,
  // so that flushing it starts a new log.
  static constexpr std::string_view kProbeKey = "\xff" "localdynamo/recovery-probe";
  const rocksdb::Slice key(kProbeKey.data(), kProbeKey.size());
  rocksdb::Status s = db_->Resume();
  // After an error that left writes on, resuming restarts background work:
  // that is all.
  if (s.ok() && health_.writable()) return true;
  if (s.ok()) {
    rocksdb::WriteBatch touch;
    s = touch.Put(catalog_, key, rocksdb::Slice());
    if (s.ok()) s = touch.Delete(catalog_, key);
    rocksdb::WriteOptions unlogged;
    unlogged.disableWAL = true;
    if (s.ok()) s = db_->Write(unlogged, &touch);
  }
  if (s.ok()) s = db_->Flush(rocksdb::FlushOptions(), catalog_);
  // Then one write the way client writes go (through the log) proves it.
  if (s.ok()) {
    rocksdb::WriteBatch proof;
    s = proof.Delete(catalog_, key);
    if (s.ok()) s = db_->Write(write_options_, &proof);
  }
  if (!s.ok()) return false;  // the listener has the new cause; try again later
  health_.Resume();
  return true;
}

}  // namespace ddb::engine
