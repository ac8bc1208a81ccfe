// TableState: the in-memory state of one live table, shared by the engine's
// parts (the registry owns it; writes, transactions, the TTL sweep and the
// stream log lock it). Not part of the engine's interface.
//
// Lock order: the registry's lock, then a table's write_mu (tables in
// table-id order), then a stream's mu (stream_log.h).
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/mutex.h"
#include "engine/status.h"
#include "engine/streams/stream.h"
#include "engine/thread_annotations.h"
#include "engine/vectors/vector_store.h"

namespace ddb::engine {

struct TableState {
  TableState(std::string ns, std::shared_ptr<const TableSchema> schema, TableStats stats,
             int64_t active_at_millis = 0)
      : ns(std::move(ns)),
        table_id(schema->table_id),
        active_at_millis(active_at_millis),
        schema_(std::move(schema)),
        stats(stats) {}

  // The schema as of now. Writers re-read it once they hold write_mu, so
  // none misses an index that an UpdateTable added while they waited.
  std::shared_ptr<const TableSchema> schema() const EXCLUDES(schema_mu_) {
    MutexLock lock(schema_mu_);
    return schema_;
  }
  void set_schema(std::shared_ptr<const TableSchema> schema) EXCLUDES(schema_mu_) {
    MutexLock lock(schema_mu_);
    schema_ = std::move(schema);
  }

  const std::string ns;
  const uint64_t table_id;
  const int64_t active_at_millis;  // CREATING until then (transient statuses)

 private:
  mutable Mutex schema_mu_;
  std::shared_ptr<const TableSchema> schema_ GUARDED_BY(schema_mu_);

 public:
  // Serializes every change to this table's items and schema: read, plan,
  // write batch, then the in-memory statistics below.
  mutable Mutex write_mu;
  TableStats stats GUARDED_BY(write_mu);
  std::map<uint32_t, TableStats> index_stats GUARDED_BY(write_mu);  // by index_id
  // Deleted (or reset): writes that waited for write_mu find the table gone.
  bool dropped GUARDED_BY(write_mu) = false;
  // Item keys claimed by transactions that have decided but not yet
  // committed (DatabaseOptions::transaction_hold_millis).
  std::set<std::string> claimed GUARDED_BY(write_mu);
  // Item keys claimed by strongly consistent global tables' writes that have
  // decided but not yet committed (DatabaseOptions::replication_hold_millis),
  // with the namespace (region) of the member that writes.
  std::map<std::string, std::string> replicated_claims GUARDED_BY(write_mu);
  // The next history record's sequence number (history.h), found in the
  // store at the table's first recorded write after a start.
  std::optional<uint64_t> next_history_sequence GUARDED_BY(write_mu);
  // The table's enabled stream, or null.
  std::shared_ptr<StreamState> stream GUARDED_BY(write_mu);
  // The feed of its enabled Kinesis destination (FeedsKinesis), or null.
  std::shared_ptr<StreamState> kinesis_feed GUARDED_BY(write_mu);
  // Its replication feed while it is a global table's member, or null.
  std::shared_ptr<StreamState> replication_feed GUARDED_BY(write_mu);
  // Vector indexes' rows in memory, by index_id: loaded when first searched
  // (VectorSearch::Search), then kept in step by every write.
  std::map<uint32_t, std::shared_ptr<VectorStoreHandle>> vector_stores GUARDED_BY(write_mu);
};

// Holds the write_mu of several tables, taken in table-id order so that two
// holders never deadlock. The analysis cannot follow locks taken through a
// run-time list: code that touches a table's guarded state under them says
// so with `write_mu.AssertHeld()`.
class TableLocks {
 public:
  // Locks `tables` (duplicates allowed).
  explicit TableLocks(std::vector<TableState*> tables) : tables_(std::move(tables)) {
    std::sort(tables_.begin(), tables_.end(),
              [](TableState* a, TableState* b) { return a->table_id < b->table_id; });
    tables_.erase(std::unique(tables_.begin(), tables_.end()), tables_.end());
    Acquire();
  }
  ~TableLocks() { Release(); }
  TableLocks(const TableLocks&) = delete;
  TableLocks& operator=(const TableLocks&) = delete;

  const std::vector<TableState*>& tables() const { return tables_; }

  void Acquire() NO_THREAD_SAFETY_ANALYSIS {
    if (held_) return;
    for (TableState* table : tables_) table->write_mu.Lock();
    held_ = true;
  }
  void Release() NO_THREAD_SAFETY_ANALYSIS {
    if (!held_) return;
    for (auto it = tables_.rbegin(); it != tables_.rend(); ++it) (*it)->write_mu.Unlock();
    held_ = false;
  }

 private:
  std::vector<TableState*> tables_;
  bool held_ = false;
};

// Where an item lives: its live table, that table's schema when looked up,
// and the item's storage key (TableRegistry::Locate).
struct ItemLocation {
  std::shared_ptr<TableState> state;
  std::shared_ptr<const TableSchema> schema;
  std::string item_key;
};

// DynamoDB's answer to an item operation on a missing table.
inline Status ItemTableNotFound() { return Status::NotFound("Requested resource not found"); }

// DynamoDB's answer to a table operation on a missing table.
inline Status TableNotFound(std::string_view name) {
  return Status::NotFound("Requested resource not found: Table: " + std::string(name) +
                          " not found");
}

}  // namespace ddb::engine
