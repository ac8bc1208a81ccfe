// Database: the engine's entry point — tables and their items, per namespace.
//
// A namespace is an opaque string chosen by the caller (the api layer uses ""
// for the shared database, or "<access key>/<region>" for per-key
// databases); table names are unique within one. Every table gets a
// database-wide id that prefixes its RocksDB keys (key_codec.h).
//
// Implements the semantics of DynamoDB's control plane (CreateTable,
// DescribeTable, UpdateTable, DeleteTable, ListTables) and of single-item
// writes, which are linearizable: each table has one write mutex that covers
// the whole read-check-write cycle, and each write — item, index entries,
// statistics — is one RocksDB write batch, so a crash never leaves half a
// write.
//
// Thread safety: a Database is safe for concurrent use by any number of
// threads. Reads take no lock beyond a short catalog lookup.
#pragma once

#include <atomic>
#include <climits>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog.h"
#include "engine/clock.h"
#include "engine/read_request.h"
#include "engine/status.h"
#include "engine/store.h"
#include "engine/stream.h"

namespace ddb::engine {

struct ItemLocation;
struct PendingStats;
struct TableState;

struct DatabaseOptions {
  bool in_memory = false;
  std::string data_dir;  // ignored when in_memory
  // false for bulk loads (`localdynamo import`): writes skip the write-ahead
  // log and are flushed when the database closes, so a crash mid-way loses
  // the writes not flushed yet (the import is run again).
  bool write_ahead_log = true;
  // Tables pass through CREATING / DELETING for this long (DynamoDB Local's
  // -delayTransientStatuses); 0: ACTIVE at once, gone at once.
  int64_t transient_status_millis = 0;
  // How long a transaction keeps its items claimed between deciding and
  // committing. 0: it decides and commits under the tables' locks at once,
  // so nothing ever conflicts. Above 0, requests that touch a claimed item
  // meet DynamoDB's transaction conflicts (TransactionConflictException for
  // single-item writes; cancellation reason TransactionConflict for other
  // transactions), which lets tests exercise their retry logic.
  int64_t transaction_hold_millis = 0;
  // The open shard of a stream closes, and a child shard opens, once it is
  // this old (DynamoDB rolls shards over about every four hours).
  int64_t shard_rollover_millis = 4LL * 3600 * 1000;
  // Stream records older than this are trimmed; a disabled stream stays
  // readable this long.
  int64_t stream_retention_millis = 24LL * 3600 * 1000;
};

// A table's schema with its live statistics: what DescribeTable shows.
struct TableDescription {
  TableSchema schema;
  TableStats stats;
  std::map<uint32_t, TableStats> index_stats;  // by index_id
};

struct TableList {
  std::vector<std::string> names;
  std::optional<std::string> last_evaluated;  // set when more names follow
};

// What a single-item write does, decided from the item as it was.
struct Mutation {
  enum class Kind { kNone, kPut, kDelete };
  Kind kind = Kind::kNone;
  Item new_item;  // kPut only: the whole new item, key attributes included
  // The item came from an UpdateExpression: index key type errors are
  // worded as DynamoDB words them for UpdateItem.
  bool by_update_expression = false;
  // A TTL delete: its stream record names the service as the deleter.
  bool by_ttl = false;
};

// Decides the mutation from the current item (nullptr when absent). A non-ok
// Status (e.g. kConditionFailed) aborts the write; nothing is changed.
using Planner = std::function<Result<Mutation>(const Item* old_item)>;

// Accepts or rejects a write given the current item (nullptr when absent).
using Precondition = std::function<Status(const Item* old_item)>;

// One action of TransactWriteItems: the item's key and what to do with it.
struct TransactWriteItem {
  std::string table;
  Item key;
  Planner planner;  // may return kConditionFailed to cancel the transaction
};

struct TransactWriteOutcome {
  bool committed = false;
  // When not committed: per item, Ok or the reason it cancels.
  std::vector<Status> reasons;
  // Per item: the item before the transaction (nullopt when absent).
  std::vector<std::optional<Item>> before;
  // When committed, per item: the item after it (nullopt when absent).
  std::vector<std::optional<Item>> after;
};

// What a ClientRequestToken says about a request.
enum class TokenCheck {
  kNew,         // first use: reserved for this request
  kRepeat,      // the same request already committed
  kInProgress,  // the same request is still running
  kMismatch,    // the token was used for another request
};

// An item the TTL sweeper deleted.
struct ExpiredItem {
  std::string ns;
  std::string table;
  Item key;
  int64_t expiry_seconds = 0;
};

// A stream with the number its next record will get (what LATEST means).
struct StreamDescription {
  StreamInfo info;
  uint64_t next_sequence = 0;
};

// One read of a shard: records in order, where the next read starts, and
// whether the shard is closed and has nothing more to give.
struct ShardRead {
  std::vector<StreamRecord> records;
  uint64_t next_position = 0;
  bool drained = false;
};

// An item to read: its table and key.
struct ItemRef {
  std::string table;
  Item key;
};

class Database {
 public:
  // Opens or creates the database. Returns kInternal if storage cannot be
  // opened or its catalog is corrupt. `clock` must outlive the Database.
  static Result<std::unique_ptr<Database>> Open(const DatabaseOptions& options,
                                                const Clock& clock);
  ~Database();

  // --- Tables -------------------------------------------------------------

  // Creates a table from `schema` (name, keys, indexes and settings filled in
  // by the caller, already validated); assigns its id, TableId, creation time
  // and index ids. kAlreadyExists if the name is taken in `ns`.
  Result<TableDescription> CreateTable(std::string_view ns, TableSchema schema);

  // kNotFound if there is no such table.
  Result<TableDescription> DescribeTable(std::string_view ns, std::string_view name) const;

  // Applies `change` to a copy of the schema and stores the result; `change`
  // may return an error to abort. kNotFound if there is no such table.
  // Global indexes that `change` adds (index_id 0) get an id and are
  // backfilled from the table's items before this returns; indexes it
  // removes lose their entries.
  Result<TableDescription> UpdateTable(std::string_view ns, std::string_view name,
                                       const std::function<Status(TableSchema&)>& change);

  // Deletes the table and all its items; returns its last description.
  // kNotFound if absent; kInUse if deletion protection is enabled.
  Result<TableDescription> DeleteTable(std::string_view ns, std::string_view name);

  // Names in `ns` after `exclusive_start`, in UTF-8 byte order, at most
  // `limit`. REQUIRES: limit > 0.
  TableList ListTables(std::string_view ns, std::string_view exclusive_start,
                       size_t limit) const;

  // --- Items --------------------------------------------------------------

  // The item with this key, or nullopt. kNotFound for a missing table;
  // kInvalidArgument if `key` does not match the key schema.
  Result<std::optional<Item>> GetItem(std::string_view ns, std::string_view table,
                                      const Item& key) const;

  // Reads the item with this key, asks `planner` what to do, and applies it,
  // all under the table's write mutex. Returns the item as it was (nullopt if
  // absent). kNotFound for a missing table; kInvalidArgument if `key` or the
  // planned item breaks the key schema or a limit; otherwise the planner's
  // error, with nothing written.
  Result<std::optional<Item>> WriteItem(std::string_view ns, std::string_view table,
                                        const Item& key, const Planner& planner);

  // Replaces (or creates) the item with `item`'s key, if `check` (when
  // given) accepts the current item. Returns the item as it was. kNotFound
  // for a missing table; kInvalidArgument if `item` breaks the key schema or
  // the size limit; otherwise `check`'s error, with nothing written.
  Result<std::optional<Item>> PutItem(std::string_view ns, std::string_view table, Item item,
                                      const Precondition& check = nullptr);

  // Deletes the item with this key (not an error if absent), if `check` (when
  // given) accepts the current item. Returns the item as it was.
  Result<std::optional<Item>> DeleteItem(std::string_view ns, std::string_view table,
                                         const Item& key, const Precondition& check = nullptr);

  // --- Transactions and batches (transaction.cc) --------------------------

  // Runs every planner against the current items, then applies all their
  // mutations — items, index entries, statistics — in one write batch, or
  // none of them if any planner or check fails (committed = false, with the
  // reasons). The tables' write locks are held throughout, taken in table-id
  // order, so transactions and single-item writes serialize and never
  // deadlock; readers see all of a transaction or none of it. kNotFound for
  // a missing table; kInvalidArgument for a key that does not match its
  // schema.
  Result<TransactWriteOutcome> TransactWrite(std::string_view ns,
                                             const std::vector<TransactWriteItem>& items);

  // Idempotency of TransactWriteItems. CheckToken reserves a new `token`
  // (in `ns`) for the request with this `fingerprint`; FinishToken keeps it
  // for `lifetime_millis` after a commit, or forgets it after a failure.
  TokenCheck CheckToken(std::string_view ns, std::string_view token,
                        std::string_view fingerprint, int64_t lifetime_millis);
  void FinishToken(std::string_view ns, std::string_view token, bool committed,
                   int64_t lifetime_millis);

  // Reads several items from one snapshot: a consistent view across tables.
  Result<std::vector<std::optional<Item>>> GetItems(std::string_view ns,
                                                    const std::vector<ItemRef>& refs) const;

  // TransactGetItems: GetItems, unless an item is claimed by a transaction
  // that has not committed yet (DatabaseOptions::transaction_hold_millis);
  // then nothing is read and `conflicts` (one flag per ref) says which.
  Result<std::vector<std::optional<Item>>> TransactGet(std::string_view ns,
                                                       const std::vector<ItemRef>& refs,
                                                       std::vector<bool>* conflicts) const;

  // --- Query and Scan (query_scan.cc) ------------------------------------

  // The table's current schema; kNotFound ("Requested resource not found").
  Result<std::shared_ptr<const TableSchema>> GetSchema(std::string_view ns,
                                                       std::string_view table) const;

  // Reads one page of a partition of the table or of one of its indexes.
  // kNotFound for a missing table; kInvalidArgument for a missing index
  // ("The table does not have the specified index: <name>").
  Result<Page> Query(std::string_view ns, std::string_view table,
                     const QueryRequest& request) const;

  // Reads one page of a segment of the table or of one of its indexes.
  Result<Page> Scan(std::string_view ns, std::string_view table,
                    const ScanRequest& request) const;

  // --- TTL and streams (ttl_sweep.cc, streams_db.cc) -----------------------
  // UpdateTable keeps the TTL schedule and the streams in step with the
  // schema: changing `ttl_attribute` reschedules the table's items, enabling
  // `stream` starts a new stream (with a new label), disabling it closes it.

  // Deletes every item whose TTL expiry has passed by the clock, as
  // DeleteItem would (indexes, statistics, a REMOVE record naming the
  // service), each re-checked under its table's lock; items whose expiry is
  // five or more years past are left alone. At most `limit` items.
  Result<std::vector<ExpiredItem>> SweepExpired(size_t limit = SIZE_MAX);

  // Rolls over open shards that reached their age, trims records past the
  // retention period, and forgets disabled streams once it has passed.
  Status MaintainStreams();

  // The streams in `ns` (of `table` only, unless empty) that are readable,
  // ordered by table name and creation.
  std::vector<StreamDescription> ListStreams(std::string_view ns, std::string_view table) const;

  // kNotFound if `ns` has no such stream.
  Result<StreamDescription> DescribeStream(std::string_view ns, std::string_view table,
                                           std::string_view label) const;

  // Reads records of one shard from `position` on, at most `limit` of them
  // and about `max_bytes` (SizeBytes; at least one record). kNotFound for an
  // unknown stream or shard; kTrimmedData if `position` was trimmed. An
  // empty `shard_id` reads the whole stream, shards in lineage order (they
  // are consecutive ranges of sequence numbers).
  Result<ShardRead> ReadShard(std::string_view ns, std::string_view table,
                              std::string_view label, std::string_view shard_id,
                              uint64_t position, size_t limit, size_t max_bytes) const;

  // How many writes have appended stream records so far, and a wait (up to
  // `timeout_millis`) until that count passes `seen`: how stream consumers
  // such as the local triggers learn of new records without polling.
  uint64_t StreamWrites() const;
  void WaitForStreamWrites(uint64_t seen, int64_t timeout_millis) const;

  // Drops every table of every namespace — items, indexes, streams, the TTL
  // schedule — in one batch, as if the database were new (table and stream
  // ids keep counting up, never reused; settings stay). Writes in flight
  // finish first; later requests on the old tables find them gone.
  Status Reset();

  // --- Settings: small values the server keeps in the catalog ------------
  // (trigger definitions and checkpoints). Keys are opaque.
  Status PutSetting(std::string_view key, std::string_view value);
  Status DeleteSetting(std::string_view key);
  Result<std::optional<std::string>> GetSetting(std::string_view key) const;
  Result<std::vector<std::pair<std::string, std::string>>> ListSettings(
      std::string_view prefix) const;

  const Clock& clock() const { return clock_; }

 private:
  Database(const DatabaseOptions& options, const Clock& clock, std::unique_ptr<Store> store);
  Status LoadCatalog();
  std::shared_ptr<TableState> FindTable(std::string_view ns, std::string_view name) const;
  TableDescription Describe(const TableState& state) const;
  Status PersistSchema(const TableSchema& schema, std::string_view ns);
  // WriteItem once the table is known; `key_schema` (any schema version of
  // the table: keys never change) places the item.
  Result<std::optional<Item>> WriteItemTo(TableState& state, const TableSchema& key_schema,
                                          const Item& key, const Planner& planner);
  // The live table `table` in `ns` and the storage key of `key` in it.
  // kNotFound for a missing table; kInvalidArgument when `key` does not
  // match the key schema.
  Result<ItemLocation> Locate(std::string_view ns, std::string_view table, const Item& key) const;
  // Locate for each of `refs`.
  Result<std::vector<ItemLocation>> LocateAll(std::string_view ns,
                                              const std::vector<ItemRef>& refs) const;
  // The items at `locations`, read from one snapshot.
  Result<std::vector<std::optional<Item>>> ReadAll(
      const std::vector<ItemLocation>& locations) const;
  // The item stored under `item_key`, or nullopt.
  Result<std::optional<Item>> ReadCurrent(const std::string& item_key,
                                          const Store::Snapshot* snapshot = nullptr) const;
  // Adds `mutation` of the item `key` (currently `old_item`) to `batch`:
  // checks, the item, its index entries, and the statistics in `pending`.
  // REQUIRES: state.write_mu held.
  Status AddMutation(TableState& state, const TableSchema& schema, const std::string& item_key,
                     const Item& key, const std::optional<Item>& old_item,
                     const Mutation& mutation, Store::Batch& batch, PendingStats& pending);
  // Index entries and index statistics for replacing `old_item` by
  // `new_item` (either may be null), added to `batch` and `pending`.
  Status WriteIndexEntries(TableState& state, const TableSchema& schema, const Item* old_item,
                           const Item* new_item, bool by_update_expression, Store::Batch& batch,
                           PendingStats& pending);
  // The TTL schedule entries of replacing `old_item` by `new_item`; the
  // earliest new expiry goes to `pending`.
  void WriteTtlEntries(const TableSchema& schema, const std::string& item_key,
                       const Item* old_item, const Item* new_item, Store::Batch& batch,
                       PendingStats& pending);
  // Wakes WaitForStreamWrites when the batch of `pending` appended records.
  void NoteStreamWrites(const PendingStats& pending);
  // Lets the next sweep start early enough for an entry due at `expiry`.
  // Called once the entry is written.
  void NoteScheduled(int64_t expiry);
  // The stream record of replacing `old_item` by `new_item`, when the table
  // has a stream and something changed. REQUIRES: state.write_mu held.
  void AppendStreamRecord(TableState& state, const TableSchema& schema, const Item* old_item,
                          const Item* new_item, bool by_ttl, Store::Batch& batch,
                          PendingStats& pending);
  // Re-schedules every item of the table for `schema`'s TTL attribute
  // (`old_schema`'s entries removed). REQUIRES: state.write_mu held.
  Status RescheduleTtl(const TableSchema& old_schema, const TableSchema& schema);
  // A new stream for `schema`, written to `batch`, with a label (set in
  // `schema.stream.label` too) later than every other stream of the same
  // table name has had; registered by RegisterStream once the batch is
  // written. REQUIRES: `schema`'s own entry is put to `batch` after this.
  std::shared_ptr<StreamState> StartStream(std::string_view ns, TableSchema& schema,
                                           Store::Batch& batch);
  void RegisterStream(std::shared_ptr<StreamState> stream);
  // Disables `stream`, closing its open shard, in `batch`.
  void StopStream(StreamState& stream, Store::Batch& batch);
  Status LoadStreams();
  std::shared_ptr<StreamState> FindStream(std::string_view ns, std::string_view table,
                                          std::string_view label) const;
  std::shared_ptr<TableState> FindTableById(uint64_t table_id) const;
  // Closes the open shard of `stream` and opens its child, if it is old
  // enough. REQUIRES: the table's write_mu held.
  Status RollShard(StreamState& stream, int64_t now);
  // Serializes sweeps and stream maintenance (the background thread and the
  // admin API may both ask): each assumes it is the only one moving the
  // sweep's start point and the trim horizons.
  std::mutex maintenance_mu_;
  Status TrimStream(StreamState& stream, int64_t now);
  // Deletes the expired item behind one schedule entry (`expired` says
  // which), drops the entry alone when it is stale, or defers it while a
  // transaction holds the item.
  enum class ExpireOutcome { kDeleted, kDropped, kDeferred };
  Result<ExpireOutcome> ExpireEntry(int64_t expiry, const std::string& item_key,
                                    int64_t now_seconds, ExpiredItem* expired);

  // Creates the entries of `index` for every item of the table.
  // REQUIRES: state.write_mu held.
  Status Backfill(TableState& state, const TableSchema& schema, const IndexSchema& index);
  // The range of one read, and the page it yields (query_scan.cc).
  Result<Page> ReadRange(const TableSchema& schema, const IndexSchema* index, std::string lower,
                         std::string upper, bool forward, size_t limit,
                         const std::optional<Item>& exclusive_start_key,
                         bool fetch_table_items) const;

  // Constant after construction.
  const DatabaseOptions options_;
  const Clock& clock_;
  const std::unique_ptr<Store> store_;

  mutable std::shared_mutex catalog_mu_;
  // Guarded by catalog_mu_: live tables by CatalogKey(namespace, name).
  std::map<std::string, std::shared_ptr<TableState>, std::less<>> tables_;
  uint64_t next_table_id_ = 1;  // guarded by catalog_mu_
  // Guarded by catalog_mu_: tables deleted while transient statuses are on,
  // described as DELETING until their deadline.
  std::map<std::string, std::pair<TableDescription, int64_t>, std::less<>> deleting_;
  // Guarded by catalog_mu_: live tables by table id (the TTL sweeper's way in).
  std::map<uint64_t, std::shared_ptr<TableState>> tables_by_id_;

  // The TTL sweep starts at `ttl_swept_through_` (every entry due before
  // that second is handled), lowered by `ttl_written_min_`: the earliest
  // expiry written since the last sweep began. So a sweep never walks the
  // deleted entries (RocksDB tombstones) of the sweeps before it.
  std::atomic<int64_t> ttl_swept_through_{0};
  std::atomic<int64_t> ttl_written_min_{INT64_MAX};

  mutable std::mutex stream_writes_mu_;
  mutable std::condition_variable stream_writes_cv_;
  uint64_t stream_writes_ = 0;  // guarded by stream_writes_mu_

  // Every readable stream, enabled or not, by stream id. Lock order:
  // catalog_mu_, then a table's write_mu, then streams_mu_ or a stream's mu.
  mutable std::mutex streams_mu_;
  std::map<uint64_t, std::shared_ptr<StreamState>> streams_;  // guarded by streams_mu_
  uint64_t next_stream_id_ = 1;                                // guarded by streams_mu_

  struct TokenEntry {
    std::string fingerprint;
    int64_t expires = 0;  // millis
    bool done = false;    // false while the request runs
  };
  std::mutex tokens_mu_;
  // Guarded by tokens_mu_: ns 0x00 token -> its request.
  std::map<std::string, TokenEntry, std::less<>> tokens_;
};

}  // namespace ddb::engine
