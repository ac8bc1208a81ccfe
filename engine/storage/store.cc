#include "engine/storage/store.h"

#include "engine/storage/rocks_iterator.h"
#include "engine/storage/store_faults.h"
#include "engine/storage/stored_options.h"

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/memory_util.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <cstdarg>
#include <memory>
#include <utility>
#include <vector>

namespace ddb::engine {
namespace {

// The families' persisted names, one list for the store and the offline tools.
constexpr const auto& kFamilyNames = kStoredFamilyNames;

class RocksSnapshot final : public Store::Snapshot {
 public:
  RocksSnapshot(rocksdb::DB* db) : db_(db), snapshot_(db->GetSnapshot()) {}
  ~RocksSnapshot() override { db_->ReleaseSnapshot(snapshot_); }
  const rocksdb::Snapshot* get() const { return snapshot_; }

 private:
  rocksdb::DB* db_;
  const rocksdb::Snapshot* snapshot_;
};

const rocksdb::Snapshot* Unwrap(const Store::Snapshot* snapshot) {
  return snapshot ? static_cast<const RocksSnapshot*>(snapshot)->get() : nullptr;
}


// In memory, RocksDB's informational log would be a file in RAM that no one
// can read and that only grows; formatting it (every option of every column
// family at open) was also a visible part of starting.
class DiscardingLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

}  // namespace

struct Store::Rep {
  explicit Rep(std::function<void(const std::string&)> log) : health(std::move(log)) {}

  StorageHealth health;
  std::unique_ptr<rocksdb::Env> mem_env;  // in-memory mode only; outlives db
  std::shared_ptr<StoreRecovery> recovery;  // on disk only; stopped before db closes
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> families;  // owned; destroyed before db
  rocksdb::WriteOptions write_options;

  rocksdb::ColumnFamilyHandle* cf(Family f) const { return families[static_cast<int>(f)]; }

  ~Rep() {
    if (recovery) recovery->Stop();
    if (db) {
      // Without the write-ahead log the memtables hold the only copy (in
      // memory, nothing outlives the process anyway).
      if (write_options.disableWAL && !mem_env) {
        db->Flush(rocksdb::FlushOptions(), families).PermitUncheckedError();
      }
      for (auto* handle : families) db->DestroyColumnFamilyHandle(handle);
      db->Close();
      db.reset();
    }
  }
};

struct Store::Batch::Rep {
  const Store::Rep* store;
  rocksdb::WriteBatch batch;
};

Store::Batch::Batch(const Store& store) : rep_(std::make_unique<Rep>()) {
  rep_->store = store.rep_.get();
}
Store::Batch::~Batch() = default;

// WriteBatch's own calls fail only on a corrupt batch, which cannot happen to
// one built here; Write() reports any storage error.
void Store::Batch::Put(Family family, std::string_view key, std::string_view value) {
  (void)rep_->batch.Put(rep_->store->cf(family), ToSlice(key), ToSlice(value));
}
void Store::Batch::Delete(Family family, std::string_view key) {
  (void)rep_->batch.Delete(rep_->store->cf(family), ToSlice(key));
}
void Store::Batch::DeleteRange(Family family, std::string_view begin, std::string_view end) {
  (void)rep_->batch.DeleteRange(rep_->store->cf(family), ToSlice(begin), ToSlice(end));
}

// A range tombstone costs every later read of its family until the memtable
// holding it is flushed: after each new one, the next read fragments all of
// the memtable's range tombstones again. In memory the memtables hold 256 MB
// and are seldom flushed, so a suite that creates and drops a table per test
// made every read slower with each drop (28% of the CPU of a table cycle
// after a few thousand). A point tombstone costs only reads of its own key.
void Store::Batch::Clear(Family family, std::string_view begin, std::string_view end) {
  constexpr size_t kMostDeletedOneByOne = 1000;
  rocksdb::ReadOptions options;
  rocksdb::Slice upper = ToSlice(end);
  options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(
      rep_->store->db->NewIterator(options, rep_->store->cf(family)));
  std::vector<std::string> keys;
  for (it->Seek(ToSlice(begin)); it->Valid(); it->Next()) {
    if (keys.size() == kMostDeletedOneByOne) break;
    keys.emplace_back(it->key().data(), it->key().size());
  }
  if (it->Valid() || !it->status().ok()) {  // many keys, or unknown: one range
    DeleteRange(family, begin, end);
    return;
  }
  for (const std::string& key : keys) Delete(family, key);
}

size_t Store::Batch::count() const { return rep_->batch.Count(); }
bool Store::Batch::outlives_process() const { return rep_->store->mem_env == nullptr; }

Store::Store(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Store::~Store() = default;

Result<std::unique_ptr<Store>> Store::Open(const Options& options) {
  auto rep = std::make_unique<Rep>(options.log);
  rocksdb::Options db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = 2;
  db_options.keep_log_file_num = 2;
  db_options.max_manifest_file_size = 16 << 20;
  // Small write buffers keep an idle server small; RocksDB grows them on load
  // only up to this size.
  db_options.write_buffer_size = 8 << 20;
  db_options.db_write_buffer_size = 64 << 20;
  // Without the log, the column families must flush together, or a crash
  // could keep an item but not its index entries or statistics.
  // In memory there is nothing to recover after a crash: a log would only
  // copy every write once more, into RAM, and flushing together would only
  // flush sooner (an atomic flush ignores min_write_buffer_number_to_merge).
  const bool write_ahead_log = options.write_ahead_log && !options.in_memory;
  db_options.atomic_flush = !write_ahead_log && !options.in_memory;
  std::string path = options.path;
  if (options.in_memory) {
    rep->mem_env.reset(rocksdb::NewMemEnv(rocksdb::Env::Default()));
    db_options.env = rep->mem_env.get();
    db_options.info_log = std::make_shared<DiscardingLogger>();
    // No table files exist at open: skip starting 16 threads to load none.
    db_options.max_file_opening_threads = 1;
    // No total: each family's memtables are bounded below.
    db_options.db_write_buffer_size = 0;
    // Without a log RocksDB flushes every memtable when it closes, so that
    // no write is lost; in memory nothing outlives the process, and that
    // flush (into files a moment before they are freed) only delays the exit.
    db_options.avoid_flush_during_shutdown = true;
    path = "/localdynamo-in-memory";
  } else {
    // A memory file system fails no write: only a disk needs these.
    db_options.info_log = std::make_shared<RocksInfoLog>(path);
    rep->recovery = std::make_shared<StoreRecovery>(path, rep->health);
    db_options.listeners.push_back(rep->recovery);
  }
  rocksdb::ColumnFamilyOptions cf_options(db_options);
  rocksdb::BlockBasedTableOptions table_options;
  // Every write reads the item it replaces, and most of those reads (a new
  // item, a bulk import) find nothing: a Bloom filter answers them without
  // reading blocks from the SST files, for ~1.25 bytes per key.
  table_options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options));
  // In memory, compressing flushed and compacted files saves RAM but costs
  // the CPU the requests need: a bulk load's compactions compressing beside
  // the searches were a quarter of a loaded server's time (bench/README.md).
  if (options.in_memory) {
    cf_options.compression = rocksdb::kNoCompression;
    // Flushing a memtable to a file in RAM and compacting it with the others
    // copies the same bytes again and again: larger memtables flush less
    // (their arena still grows in small blocks, so an idle server stays
    // small), and universal compaction rewrites each byte fewer times than
    // levels do. Loading 100,000 items of 768 dimensions: 1.4x the items/s,
    // and searches right after it no longer share the cores with a long
    // compaction (p50 19 ms against 38 ms). Memtables of 256 MB rather
    // than 64 MB took a further tenth off the CPU per item of that load.
    cf_options.write_buffer_size = 256 << 20;
    cf_options.arena_block_size = 1 << 20;
    // Flushing a memtable copies it into an in-memory file that grows by
    // doubling, then compaction copies it again: a seventh of a bulk load's
    // CPU. Full memtables stay as they are instead (readers check each one,
    // the items' behind their Bloom filter) until six of them, 1.5 GB,
    // wait; only then are they flushed together, which also bounds what
    // overwritten and deleted items keep of the memory. Loading 100,000 items of 768
    // dimensions (1.3 GB of items): 0.8x the CPU per item, 1.10 GB of RSS
    // after it rather than 1.28.
    cf_options.max_write_buffer_number = 8;
    cf_options.min_write_buffer_number_to_merge = 6;
    cf_options.compaction_style = rocksdb::kCompactionStyleUniversal;
  }
  // In memory, the read before every write mostly misses (a new item): a
  // Bloom filter over each memtable's keys answers it without walking the
  // skip lists, of which there are several: some 100 bits per key for items
  // of a few KB. Loading embeddings without it: 1.15x the CPU per item. It
  // is made, zeroed, with every memtable (256 KB), and only the items are
  // read that way: on the other families it was 1.25 MB of an idle server's
  // memory (docs/measured.md).
  rocksdb::ColumnFamilyOptions items_options = cf_options;
  if (options.in_memory) {
    items_options.memtable_prefix_bloom_size_ratio = 0.001;
    items_options.memtable_whole_key_filtering = true;
  }
  auto descriptor = [&](const std::string& name) {
    return rocksdb::ColumnFamilyDescriptor(
        name, name == kFamilyNames[static_cast<size_t>(Family::kItems)] ? items_options
                                                                          : cf_options);
  };
  // Open the families the database has (only "default" on a new one), then
  // create the missing ones in one call: RocksDB rewrites and re-reads its
  // OPTIONS file for every family it creates on its own, which was most of a
  // new database's start-up.
  std::vector<std::string> existing;
  if (!options.in_memory) {
    // Fails on a database that does not exist yet; it then has none.
    rocksdb::DB::ListColumnFamilies(db_options, path, &existing).PermitUncheckedError();
  }
  if (existing.empty()) existing.push_back(rocksdb::kDefaultColumnFamilyName);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : existing) descriptors.push_back(descriptor(name));
  std::vector<rocksdb::ColumnFamilyHandle*> opened;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, path, descriptors, &opened, &raw);
  if (!s.ok()) return Status::Internal(OpenFailure(path, s));
  rep->db.reset(raw);
  if (auto* info_log = dynamic_cast<RocksInfoLog*>(db_options.info_log.get())) {
    for (std::string dropped : info_log->TakeDropped()) {
      // "[db/db_impl/db_impl_open.cc:982] <file>: dropping N bytes; <why>": the source line goes.
      if (dropped.starts_with('[')) dropped.erase(0, dropped.find("] ") + 2);
      if (options.log) {
        options.log("storage: start-up recovery of " + path +
                    " dropped a damaged part of the write-ahead log, and the writes in it (" +
                    dropped + ")");
      }
    }
  }
  std::vector<rocksdb::ColumnFamilyDescriptor> missing;
  for (std::string_view name : kFamilyNames) {
    if (std::find(existing.begin(), existing.end(), name) == existing.end()) {
      missing.push_back(descriptor(std::string(name)));
    }
  }
  std::vector<rocksdb::ColumnFamilyHandle*> created;
  if (!missing.empty()) s = rep->db->CreateColumnFamilies(missing, &created);
  opened.insert(opened.end(), created.begin(), created.end());
  // In kFamilyNames' order; a family this version does not know stays closed.
  for (std::string_view name : kFamilyNames) {
    for (auto*& handle : opened) {
      if (handle && handle->GetName() == name) rep->families.push_back(std::exchange(handle, nullptr));
    }
  }
  for (auto* handle : opened) {
    if (handle) rep->db->DestroyColumnFamilyHandle(handle);
  }
  if (!s.ok()) return Status::Internal(OpenFailure(path, s));
  rep->write_options.disableWAL = !write_ahead_log;
  if (rep->recovery) {
    rep->recovery->Attach(rep->db.get(), rep->cf(Family::kCatalog), rep->write_options);
  }
  return std::unique_ptr<Store>(new Store(std::move(rep)));
}

Result<std::optional<std::string>> Store::Get(Family family, std::string_view key,
                                              const Snapshot* snapshot) const {
  rocksdb::ReadOptions options;
  options.snapshot = Unwrap(snapshot);
  std::string value;
  rocksdb::Status s = rep_->db->Get(options, rep_->cf(family), ToSlice(key), &value);
  if (s.IsNotFound()) return std::optional<std::string>();
  if (!s.ok()) return FromRocks(s);
  return std::optional<std::string>(std::move(value));
}

Status Store::Write(Batch& batch) {
  // Refused here while stopped: the recovery alone writes until it has
  // proved the database takes writes again.
  if (!rep_->health.writable()) return rep_->health.RefusedWrite();
  rocksdb::Status s = rep_->db->Write(rep_->write_options, &batch.rep_->batch);
  if (!s.ok() && rep_->recovery && (s.IsIOError() || s.IsCorruption())) {
    rep_->recovery->OnWriteFailed(s);
  }
  return FromRocks(s);
}

const StorageHealth& Store::health() const { return rep_->health; }

std::unique_ptr<Store::Snapshot> Store::GetSnapshot() const {
  return std::make_unique<RocksSnapshot>(rep_->db.get());
}

std::unique_ptr<Store::Iterator> Store::NewIterator(Family family, std::string lower,
                                                   std::string upper,
                                                   const Snapshot* snapshot) const {
  rocksdb::ReadOptions options;
  options.snapshot = Unwrap(snapshot);
  return std::make_unique<RocksIterator>(rep_->db.get(), rep_->cf(family), std::move(lower),
                                         std::move(upper), options, FromRocks);
}

}  // namespace ddb::engine
