// TableRegistry: the live tables of every namespace and their catalog
// entries — loading them, creating and deleting tables, finding a table by
// name or id, and where an item of it lives.
//
// A namespace is an opaque string chosen by the caller ("" for the shared
// database, "<access key>/<region>" for per-key databases); table names are
// unique within one. Every table gets a database-wide id, never reused,
// that prefixes its RocksDB keys (key_codec.h).
//
// Thread safety: safe for concurrent use. `mu_` guards the maps and the id
// counter; each table's own state is guarded by its write_mu. Lock order:
// `mu_`, then tables' write_mu in table-id order, then the stream log's.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/items/item_write.h"
#include "engine/mutex.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/streams/stream_log.h"
#include "engine/tables/table_state.h"
#include "engine/thread_annotations.h"

namespace ddb::engine {

// A new TableId: a random (version 4) UUID.
std::string NewTableUuid();

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

class TableRegistry {
 public:
  // Tables pass through CREATING / DELETING for `transient_status_millis`
  // (DynamoDB Local's -delayTransientStatuses); 0: at once.
  TableRegistry(Store& store, const Clock& clock, StreamLog& streams,
                int64_t transient_status_millis);

  // Reads every table and its statistics. REQUIRES: before any other call.
  Status Load() EXCLUDES(mu_);

  std::shared_ptr<TableState> Find(std::string_view ns, std::string_view name) const
      EXCLUDES(mu_);
  std::shared_ptr<TableState> FindById(uint64_t table_id) const EXCLUDES(mu_);
  // Every live table, in table-id order.
  std::vector<std::shared_ptr<TableState>> All() const EXCLUDES(mu_);

  // The live table `table` in `ns` and the storage key of `key` in it.
  // kNotFound for a missing table; kInvalidArgument when `key` does not
  // match the key schema.
  Result<ItemLocation> Locate(std::string_view ns, std::string_view table, const Item& key) const
      EXCLUDES(mu_);
  Result<std::vector<ItemLocation>> LocateAll(std::string_view ns,
                                              const std::vector<ItemRef>& refs) const
      EXCLUDES(mu_);

  // Database::CreateTable, DescribeTable, DeleteTable and ListTables.
  Result<TableDescription> Create(std::string_view ns, TableSchema schema) EXCLUDES(mu_);
  Result<TableDescription> Describe(std::string_view ns, std::string_view name) const
      EXCLUDES(mu_);
  TableDescription Describe(const TableState& state) const EXCLUDES(state.write_mu);
  Result<TableDescription> Delete(std::string_view ns, std::string_view name) EXCLUDES(mu_);
  TableList List(std::string_view ns, std::string_view exclusive_start, size_t limit) const
      EXCLUDES(mu_);

  // Drops every table: runs `wipe` (which deletes their data) holding the
  // registry's lock and every table's write_mu, so no write is half done
  // when everything goes; then forgets them. Ids keep counting up.
  Status DropAll(const std::function<Status()>& wipe) EXCLUDES(mu_);

  // Runs `read` holding the registry's lock (shared) and the write_mu of
  // every table of `ns` (of every namespace when nullopt), in id order: it
  // sees their items, entries and statistics as of one moment (a snapshot).
  Status WithTablesLocked(std::optional<std::string_view> ns,
                          const std::function<Status(const std::vector<TableState*>&)>& read)
      const EXCLUDES(mu_);

  // A table for Replace to install, with the statistics of the data that
  // `fill` writes for it.
  struct NewTable {
    std::string ns;
    TableSchema schema;  // its table_id is assigned by Replace
    TableStats stats;
    std::map<uint32_t, TableStats> index_stats;  // by index_id
  };
  // Replaces the tables of `ns` (of every namespace when nullopt) by
  // `tables` in one batch: the old ones go as DeleteTable drops them (their
  // streams disabled, readable for the retention period), the new ones get
  // fresh ids — `fill(i, table_id, batch)` adds the data of tables[i] under
  // its id — and fresh streams where their schema enables one. Holds the
  // registry's lock and the old tables' write_mu throughout.
  Status Replace(std::optional<std::string_view> ns, std::vector<NewTable> tables,
                 const std::function<void(size_t, uint64_t, Store::Batch&)>& fill) EXCLUDES(mu_);

  // Creates `table` (kAlreadyExists if its name is taken) with the data
  // `fill(table_id, batch, table)` adds, in one batch: a restore. `fill`
  // may set the table's statistics to the data's; its error aborts. Unlike
  // Create it keeps the schema's index ids, which the data's entries carry.
  using Filler = std::function<Status(uint64_t table_id, Store::Batch&, NewTable&)>;
  Result<TableDescription> CreateFilled(NewTable table, const Filler& fill) EXCLUDES(mu_);

  // Runs `read` holding the registry's lock (shared) and the write_mu of
  // the live table `name` of `ns`: kNotFound when there is none.
  Status WithTableLocked(std::string_view ns, std::string_view name,
                         const std::function<Status(TableState&)>& read) const EXCLUDES(mu_);

  // Stores `schema` as the table's entry in the catalog.
  Status PersistSchema(std::string_view ns, const TableSchema& schema);

 private:
  // Adds to `batch` what deleting `state`'s table writes; the stops of its
  // stream and Kinesis feed, to apply once the batch is written.
  std::vector<PendingStop> AddDrop(TableState& state, Store::Batch& batch)
      REQUIRES(state.write_mu);
  // A new table's stream, Kinesis feed and replication feed (any may be null).
  struct NewFeeds {
    std::shared_ptr<StreamState> stream;
    std::shared_ptr<StreamState> kinesis;
    std::shared_ptr<StreamState> replication;
  };
  // Starts, in `batch`, the stream and Kinesis feed `schema` asks for (its
  // stream label set); Attach them once the batch is written.
  NewFeeds StartFeeds(std::string_view ns, TableSchema& schema, Store::Batch& batch);
  void Attach(TableState& state, NewFeeds feeds) REQUIRES(state.write_mu);
  // Marks `state`'s table gone, once its drop is written.
  static void MarkDropped(TableState& state) REQUIRES(state.write_mu);

  Store& store_;
  const Clock& clock_;
  StreamLog& streams_;
  const int64_t transient_status_millis_;

  mutable SharedMutex mu_;
  // Live tables by catalog_keys::QualifiedName(namespace, name).
  std::map<std::string, std::shared_ptr<TableState>, std::less<>> tables_ GUARDED_BY(mu_);
  // Live tables by table id (the TTL sweeper's and the stream log's way in).
  std::map<uint64_t, std::shared_ptr<TableState>> tables_by_id_ GUARDED_BY(mu_);
  // Tables deleted while transient statuses are on, described as DELETING
  // until their deadline.
  std::map<std::string, std::pair<TableDescription, int64_t>, std::less<>> deleting_
      GUARDED_BY(mu_);
  uint64_t next_table_id_ GUARDED_BY(mu_) = 1;
};

}  // namespace ddb::engine
