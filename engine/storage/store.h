// Store: the engine's only door to RocksDB.
//
// One RocksDB database with a column family per kind of data (Family). The
// persistent and in-memory modes differ only in the RocksDB Env underneath,
// so every other line of the engine is shared between them. RocksDB handles
// (DB, column families, iterators, snapshots) live behind RAII types here and
// nowhere else.
//
// A storage fault (a full disk, a read-only or failing one, a damaged file)
// never ends the process: every call answers it as a kInternal Status whose
// message names it (storage_health.h); after one that stops writes, writes
// are refused until the store has resumed the database by itself.
//
// Thread safety: a Store is safe for concurrent use. A Batch, Iterator or
// Snapshot belongs to one thread at a time; each must not outlive its Store.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/storage/storage_health.h"

namespace ddb::engine {

// Column families. Do not reorder: the names are persisted.
enum class Family { kCatalog, kItems, kIndexes, kStreams, kTtl, kHistory };
inline constexpr int kFamilyCount = 6;

class Store {
 public:
  struct Options {
    bool in_memory = false;
    std::string path;  // the data directory; ignored when in_memory
    // false: writes skip RocksDB's write-ahead log and the memtables are
    // flushed when the store closes. For bulk loads that are simply rerun
    // if the process dies: a crash loses what was not flushed yet.
    bool write_ahead_log = true;
    // Where the store reports what it did without being asked: writes
    // stopping and resuming, and what start-up recovered or dropped. Null:
    // nowhere.
    std::function<void(const std::string&)> log;
  };

  // Opens (creating if missing) the database. Returns kInternal with one line
  // naming the directory and the cause if it cannot be opened: another
  // process holds it, it is read-only, or its files are damaged beyond what
  // RocksDB's recovery repairs.
  static Result<std::unique_ptr<Store>> Open(const Options& options);
  ~Store();  // flushes and closes

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // A consistent point-in-time view for reads.
  class Snapshot {
   public:
    virtual ~Snapshot() = default;
  };

  // A set of writes applied atomically by Write().
  class Batch {
   public:
    explicit Batch(const Store& store);
    ~Batch();
    void Put(Family family, std::string_view key, std::string_view value);
    void Delete(Family family, std::string_view key);
    // Deletes every key in [begin, end).
    void DeleteRange(Family family, std::string_view begin, std::string_view end);
    // Deletes every key in [begin, end) as the store holds them now: one by
    // one when they are few, else as DeleteRange. For a range no one writes
    // to any more (a dropped table's), where a key written after this call
    // would be left behind.
    void Clear(Family family, std::string_view begin, std::string_view end);
    size_t count() const;
    // Whether what the batch writes is there after the process ends: false
    // for an in-memory store.
    bool outlives_process() const;

   private:
    friend class Store;
    struct Rep;
    std::unique_ptr<Rep> rep_;
  };

  // An iterator over the keys in [lower, upper) of one family.
  class Iterator {
   public:
    virtual ~Iterator() = default;
    virtual void Seek(std::string_view key) = 0;             // first key >= key
    virtual void SeekForPrev(std::string_view key) = 0;      // last key <= key
    virtual void SeekToFirst() = 0;
    virtual void SeekToLast() = 0;
    virtual bool Valid() const = 0;
    virtual void Next() = 0;
    virtual void Prev() = 0;
    // REQUIRES: Valid(). The views stay valid until the iterator moves.
    virtual std::string_view key() const = 0;
    virtual std::string_view value() const = 0;
    // kInternal if iteration stopped on an I/O error rather than the end.
    virtual Status status() const = 0;
  };

  // Returns nullopt if the key is absent; kInternal on an I/O error.
  Result<std::optional<std::string>> Get(Family family, std::string_view key,
                                         const Snapshot* snapshot = nullptr) const;

  // Applies the batch atomically (WAL first, so a crash keeps all or none).
  Status Write(Batch& batch);

  std::unique_ptr<Snapshot> GetSnapshot() const;

  // Whether writes are accepted, and why not.
  const StorageHealth& health() const;

  // `upper` empty means no upper bound. The iterator starts unpositioned.
  std::unique_ptr<Iterator> NewIterator(Family family, std::string lower, std::string upper,
                                        const Snapshot* snapshot = nullptr) const;

 private:
  struct Rep;
  explicit Store(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace ddb::engine
