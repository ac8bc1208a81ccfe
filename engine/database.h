// Database: the engine's one entry point — tables and their items, per
// namespace, with DynamoDB's semantics. A facade over the parts that own the
// state (docs/architecture.md has the picture):
//
//   TableRegistry  live tables, the catalog, table ids       table_registry.h
//   ItemWriter     item writes with index maintenance       item_writer.h
//   Transactions   multi-item writes and reads, claims       transactions.h
//   TtlSchedule    the expiry schedule; TtlSweeper deletes   ttl_schedule.h, ttl_sweeper.h
//   StreamLog      streams, shards and their records         stream_log.h
//   ClientTokens   ClientRequestToken idempotency            client_tokens.h
//   Backups        on-demand backups and their restores      backups.h
//   Settings       small values the emulator keeps           settings.h
//   KeyInsights    Contributor Insights' key counters        key_insights.h
//   (replication)  global tables' replicas and their feeds   replication.h
//
// A namespace is an opaque string chosen by the caller ("" for the shared
// database, "<access key>/<region>" for per-key ones); table names are unique
// within one. Single-item writes are linearizable: each table has one write
// mutex over the whole read-check-write cycle, and each write — item, index
// entries, statistics, TTL entry, stream record — is one RocksDB batch, so a
// crash never leaves half a write.
//
// Thread safety: safe for concurrent use by any number of threads. Reads
// take no lock beyond a short catalog lookup.
#pragma once

#include <climits>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/backups.h"
#include "engine/catalog.h"
#include "engine/client_tokens.h"
#include "engine/clock.h"
#include "engine/database_options.h"
#include "engine/history.h"
#include "engine/item_write.h"
#include "engine/item_writer.h"
#include "engine/key_insights.h"
#include "engine/object_store.h"
#include "engine/read_request.h"
#include "engine/replication.h"
#include "engine/settings.h"
#include "engine/snapshot.h"
#include "engine/status.h"
#include "engine/store.h"
#include "engine/stream_log.h"
#include "engine/table_items.h"
#include "engine/table_registry.h"
#include "engine/transactions.h"
#include "engine/ttl_schedule.h"
#include "engine/ttl_sweeper.h"
#include "engine/vector_search.h"
#include "engine/vector_store.h"

namespace ddb::engine {

class Database {
 public:
  // Opens or creates the database. kInternal if storage cannot be opened or
  // its catalog is corrupt. `clock` must outlive the Database.
  static Result<std::unique_ptr<Database>> Open(const DatabaseOptions& options,
                                                const Clock& clock);

  // --- Tables (table_registry.h; UpdateTable in table_changes.cc) ---------
  // CreateTable takes a validated schema and assigns its id, TableId,
  // creation time and index ids; kAlreadyExists if the name is taken.
  Result<TableDescription> CreateTable(std::string_view ns, TableSchema schema);
  Result<TableDescription> DescribeTable(std::string_view ns, std::string_view name) const;
  // Applies `change` to a copy of the schema (it may fail to abort) and
  // stores it. GSIs it adds (index_id 0) are backfilled before this
  // returns; indexes it removes lose their entries; a changed TTL attribute
  // reschedules the items; enabling or disabling the stream starts a new
  // stream or closes the old one.
  Result<TableDescription> UpdateTable(std::string_view ns, std::string_view name,
                                       const std::function<Status(TableSchema&)>& change);
  // kInUse if deletion protection is on. Returns the last description.
  Result<TableDescription> DeleteTable(std::string_view ns, std::string_view name);
  // Names after `exclusive_start` in UTF-8 byte order. REQUIRES: limit > 0.
  TableList ListTables(std::string_view ns, std::string_view exclusive_start,
                       size_t limit) const;
  // The table's current schema; kNotFound ("Requested resource not found").
  Result<std::shared_ptr<const TableSchema>> GetSchema(std::string_view ns,
                                                       std::string_view table) const;

  // --- Items (item_writer.h) ----------------------------------------------
  // kNotFound for a missing table; kInvalidArgument if a key does not match
  // the key schema or an item breaks a limit; otherwise the planner's or
  // `check`'s error, with nothing written. Writes return the item as it was.
  Result<std::optional<Item>> GetItem(std::string_view ns, std::string_view table,
                                      const Item& key) const;
  Result<std::optional<Item>> WriteItem(std::string_view ns, std::string_view table,
                                        const Item& key, const Planner& planner);
  // `item` is written as it is, not copied.
  Result<std::optional<Item>> PutItem(std::string_view ns, std::string_view table,
                                      const Item& item, const Precondition& check = nullptr);
  Result<std::optional<Item>> DeleteItem(std::string_view ns, std::string_view table,
                                         const Item& key, const Precondition& check = nullptr);

  // --- Transactions and batches (transactions.h, client_tokens.h) --------
  // All of the mutations in one batch, or none (committed = false, with
  // the reasons); readers see all of a transaction or none of it.
  Result<TransactWriteOutcome> TransactWrite(std::string_view ns,
                                             const std::vector<TransactWriteItem>& items);
  // Several items from one snapshot: a consistent view across tables.
  Result<std::vector<std::optional<Item>>> GetItems(std::string_view ns,
                                                    const std::vector<ItemRef>& refs) const;
  // GetItems, unless an item is claimed by a transaction that has not
  // committed yet; then nothing is read and `conflicts` says which.
  Result<std::vector<std::optional<Item>>> TransactGet(std::string_view ns,
                                                       const std::vector<ItemRef>& refs,
                                                       std::vector<bool>* conflicts) const;
  TokenCheck CheckToken(std::string_view ns, std::string_view token,
                        std::string_view fingerprint, int64_t lifetime_millis);
  void FinishToken(std::string_view ns, std::string_view token, bool committed,
                   int64_t lifetime_millis);

  // --- Query and Scan (query_scan.cc) ------------------------------------
  // One page of a partition / a segment of the table or of one of its
  // indexes. kInvalidArgument for a missing index ("The table does not have
  // the specified index: <name>").
  Result<Page> Query(std::string_view ns, std::string_view table,
                     const QueryRequest& request) const;
  Result<Page> Scan(std::string_view ns, std::string_view table,
                    const ScanRequest& request) const;

  // --- TTL and streams (ttl_sweeper.h, stream_log.h) ----------------------
  // Deletes at most `limit` items whose TTL expiry has passed by the clock.
  Result<std::vector<ExpiredItem>> SweepExpired(size_t limit = SIZE_MAX);
  // Rolls over, trims and forgets streams as their age says.
  Status MaintainStreams();
  // Forgets point-in-time history past each table's recovery period.
  Status TrimHistory();
  std::vector<StreamDescription> ListStreams(std::string_view ns, std::string_view table) const;
  // A DynamoDB stream, or (by `kind`) a Kinesis feed (stream.h).
  Result<StreamDescription> DescribeStream(std::string_view ns, std::string_view table,
                                           std::string_view label,
                                           StreamKind kind = StreamKind::kDynamoDb) const;
  // Records of one shard from `position` on, at most `limit` and about
  // `max_bytes`. kNotFound for an unknown stream or shard; kTrimmedData if
  // `position` was trimmed. An empty `shard_id` reads the whole stream.
  Result<ShardRead> ReadShard(std::string_view ns, std::string_view table,
                              std::string_view label, std::string_view shard_id,
                              uint64_t position, size_t limit, size_t max_bytes,
                              StreamKind kind = StreamKind::kDynamoDb) const;
  // The label of the table's current Kinesis feed, "" while it has none;
  // kNotFound for no such table.
  Result<std::string> KinesisFeedLabel(std::string_view ns, std::string_view table) const;
  // How many writes have appended stream records, and a wait until that
  // count passes `seen`: how consumers learn of new records without polling.
  uint64_t StreamWrites() const;
  void WaitForStreamWrites(uint64_t seen, int64_t timeout_millis) const;

  // Drops every table of every namespace — items, indexes, streams, the TTL
  // schedule, tokens, backups — in one batch, as if the database were new (ids keep
  // counting up; settings stay). Writes in flight finish first.
  Status Reset();

  // --- Snapshots (snapshot.cc) ---------------------------------------------
  // The tables of `ns` (of every namespace when nullopt) as of one moment:
  // writes to them wait while it is read.
  Result<std::shared_ptr<const DataSnapshot>> TakeSnapshot(std::optional<std::string_view> ns);
  // Replaces the tables of `into` by the snapshot's, in one batch: tables
  // made since go, the snapshot's come back with their items, index entries,
  // statistics and TTL schedule, under new ids. A whole-database snapshot
  // (ns nullopt) replaces every namespace and takes no `into`; a
  // namespace's may go into any namespace (nullopt: its own).
  // kInvalidArgument for a whole-database snapshot with an `into`.
  Result<RestoreSummary> RestoreSnapshot(const DataSnapshot& snapshot,
                                         std::optional<std::string_view> into);
  // Drops every table of one namespace, as if it were new.
  Status DropNamespace(std::string_view ns);

  // --- On-demand backups (backups.h) --------------------------------------
  // A copy of the table as it is now, kept until deleted; kNotFound for a
  // missing table.
  Result<BackupInfo> CreateBackup(std::string_view ns, std::string_view table,
                                  std::string_view name);
  std::vector<std::shared_ptr<const BackupInfo>> ListBackups(std::string_view ns) const;
  // kNotFound ("Backup not found") for an unknown id.
  Result<std::shared_ptr<const BackupInfo>> FindBackup(std::string_view ns,
                                                       std::string_view backup_id) const;
  Result<std::shared_ptr<const BackupInfo>> DeleteBackup(std::string_view ns,
                                                         std::string_view backup_id);
  // Creates `target` (derived by the caller from the backup's schema) with
  // the backup's items and the entries of the indexes it keeps.
  Result<TableDescription> RestoreBackup(std::string_view ns, std::string_view backup_id,
                                         TableSchema target);

  // --- Point-in-time recovery (history.h, point_in_time.cc) ------------------
  // Creates `target` (derived by the caller from the source's schema) with
  // the items the table `source` held at `millis` — after every write made
  // at or before it — and their index entries, in one batch. The caller
  // checks that `millis` is within the recovery window.
  Result<TableDescription> RestoreToPointInTime(std::string_view ns, std::string_view source,
                                                int64_t millis, TableSchema target);
  // The table's items at `millis`, in item-key order (a full export).
  Result<std::vector<Item>> ItemsAt(std::string_view ns, std::string_view table,
                                    int64_t millis);
  // Each item written after `from_millis` and at or before `to_millis`: its
  // value at both ends (an incremental export). Items absent at both ends
  // (made and deleted within the window) are left out.
  Result<std::vector<ItemChange>> ChangesBetween(std::string_view ns, std::string_view table,
                                                 int64_t from_millis, int64_t to_millis);

  // --- Global tables (replication.h, replication.cc) ----------------------
  // Makes `added` a new replica of the table `name` of `ns`: the group
  // (the table's, or `self` and `added` for a regional table) gains it on
  // every member, then `target` is created in the new member's namespace
  // with the table's items and their write clocks as they are then, in one
  // batch. The caller derives `target` from the table's schema.
  // kAlreadyExists when the region is a member or its namespace has the table.
  Result<TableDescription> AddReplica(std::string_view ns, std::string_view name,
                                      const Replica& self, const Replica& added,
                                      TableSchema target) EXCLUDES(replication_mu_);
  // Deletes the replica of `name` in `replica_ns` (DeleteTable's checks)
  // and takes it out of the other members' group.
  Result<TableDescription> RemoveReplica(std::string_view name, std::string_view replica_ns)
      EXCLUDES(replication_mu_);
  // Gives every member of the group `group` as its list: a replica's
  // overrides changed. Members that are gone are skipped.
  Status SetReplicaGroup(std::string_view name, const std::vector<Replica>& group)
      EXCLUDES(replication_mu_);
  // Applies the replication feeds' records to the other members of their
  // tables' groups, in order per feed: each once `delay_of(ns, table)`
  // milliseconds have passed since it was written, by the clock, and only
  // where it beats the item's write clock. Returns how many were applied.
  using ReplicationDelay = std::function<int64_t(std::string_view ns, std::string_view table)>;
  Result<size_t> Replicate(const ReplicationDelay& delay_of) EXCLUDES(replication_mu_);
  // Applies every pending record now, whatever its delay (a test's settle).
  Result<size_t> SettleReplication() EXCLUDES(replication_mu_);
  // Whether any table is a global table's member (has a replication feed).
  bool HasReplicationFeeds() const;
  // What each member has not yet replicated.
  Result<std::vector<ReplicationBacklog>> ReplicationBacklogs() const EXCLUDES(replication_mu_);

  // --- Vector search (vector_search.cc) -----------------------------------
  // The `query.top_k` items nearest `query.vector` in a vector index, best
  // first, among those whose search schema attributes equal `query.equals`.
  // kNotFound for a missing table; kInvalidArgument with DynamoDB's text
  // for an unknown or backfilling index, a vector of the wrong dimension, or
  // a condition the index's search schema does not allow.
  Result<VectorSearchResult> SearchVectors(std::string_view ns, std::string_view table,
                                           const VectorQuery& query);

  // --- Settings (settings.h) ----------------------------------------------
  Status PutSetting(std::string_view key, std::string_view value);
  Status DeleteSetting(std::string_view key);
  Result<std::optional<std::string>> GetSetting(std::string_view key) const;
  Result<std::vector<std::pair<std::string, std::string>>> ListSettings(
      std::string_view prefix) const;

  const Clock& clock() const { return clock_; }
  // Where exports go and imports come from (object_store.h).
  ObjectStore& object_store() const { return *object_store_; }
  // Contributor Insights' counters (key_insights.h).
  KeyInsights& key_insights() const { return key_insights_; }
  // How long tables and settings pass through their transient statuses
  // (CREATING, ENABLING, …): DynamoDB Local's -delayTransientStatuses.
  int64_t transient_status_millis() const { return transient_status_millis_; }

 private:
  Database(const DatabaseOptions& options, const Clock& clock, std::unique_ptr<Store> store);
  // Reset's work, under the backups' lock: every table's, stream's and
  // backup's keys deleted in one batch.
  Status DropEverything();
  // Attaches loaded streams to their tables, and gives one to tables whose
  // schema says "stream enabled" without one (written before streams were kept).
  Status AttachStreams();
  // Sets `group` on each of `members` still alive (by their namespaces).
  Status WriteGroup(std::string_view name, const std::vector<Replica>& members,
                    const std::vector<Replica>& group) REQUIRES(replication_mu_);
  // Applies one replicated record to the table `name` of `ns`: true when
  // applied, false when the item's version is newer or the table is gone.
  Result<bool> ApplyReplicated(std::string_view ns, std::string_view name,
                               const StreamRecord& record, const WriteClock& clock)
      REQUIRES(replication_mu_);
  // Where the replicator is in `feed`: the next sequence number to apply,
  // as last kept in memory or in the settings (1: from the start).
  uint64_t KnownPosition(const StreamState& feed) const REQUIRES(replication_mu_);
  // The same, kept in memory from now on.
  uint64_t ReplicatedThrough(const StreamState& feed) REQUIRES(replication_mu_);
  // Applies `feed`'s records written `delay` or more milliseconds before
  // `now` to the other members; adds how many to `*applied`.
  Status ReplicateFeed(const StreamState& feed, int64_t delay, int64_t now, size_t* applied)
      REQUIRES(replication_mu_);
  // A strongly consistent global table's write: decided, held (with
  // replication_hold_millis_: claimed in every member meanwhile), written,
  // and applied in every member before it is answered.
  Result<std::optional<Item>> WriteStrong(const std::shared_ptr<TableState>& state,
                                          const TableSchema& schema, const Item& key,
                                          const Planner& planner) EXCLUDES(replication_mu_);
  // WriteStrong's claim: the item's key in each live member of the group,
  // claimed for `state`'s region once `planner` decided to write; empty
  // when it writes nothing. A claim from another region is DynamoDB's
  // ReplicatedWriteConflictException; one from the same region is waited out.
  struct MemberItem {
    std::shared_ptr<TableState> state;
    std::string item_key;
  };
  Result<std::vector<MemberItem>> ClaimInEveryMember(const std::shared_ptr<TableState>& state,
                                                     const TableSchema& schema, const Item& key,
                                                     const Planner& planner);
  // Applies `state`'s replication feed to the other members now.
  Status ReplicateNow(TableState& state) REQUIRES(replication_mu_);
  // Writes `items` (stored item keys of another table → encoded items) as
  // the new table `made`'s, through the write path into a state no one else
  // sees, with their index entries, and sets its statistics: how restores
  // and new replicas fill a table (TableRegistry::CreateFilled).
  Status FillWithItems(const std::map<std::string, std::string>& items, uint64_t table_id,
                       Store::Batch& batch, TableRegistry::NewTable& made);
  // Creates a new index's entries (UpdateTable): `entry_of` gives each
  // item's entry, or none when the item stays out of the index; the index's
  // statistics are stored with the last batch.
  Status Backfill(TableState& state, uint32_t index_id, const BackfillEntryOf& entry_of)
      REQUIRES(state.write_mu);
  // The rows of a vector index, read from its entries.
  Result<std::shared_ptr<VectorStoreHandle>> LoadVectorStore(TableState& state,
                                                             const VectorIndexSchema& index)
      REQUIRES(state.write_mu);

  const Clock& clock_;
  const int64_t transient_status_millis_;
  const int64_t replication_hold_millis_;  // DatabaseOptions::replication_hold_millis
  // Serializes replication with changes to groups, so a member is never
  // replicated to while it is being made. Before the registry's lock.
  mutable Mutex replication_mu_;
  // Per replication feed (stream id): the next sequence number to apply.
  std::map<uint64_t, uint64_t> replicated_through_ GUARDED_BY(replication_mu_);
  const std::unique_ptr<Store> store_;
  const std::shared_ptr<ObjectStore> object_store_;
  mutable KeyInsights key_insights_;
  // The parts, each owning its state; constructed in this order (later
  // parts use earlier ones).
  StreamLog streams_;
  TtlSchedule ttl_;
  TableRegistry tables_;
  ItemWriter writer_;
  Transactions transactions_;
  TtlSweeper sweeper_;
  ClientTokens tokens_;
  Settings settings_;
  Backups backups_;
};

}  // namespace ddb::engine
