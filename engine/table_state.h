// TableState: the in-memory state of one live table, shared by the
// Database's source files (database.cc, query_scan.cc). Not part of the
// engine's interface.
//
// Thread safety: as annotated per member.
#pragma once

#include <climits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "engine/catalog.h"
#include "engine/status.h"
#include "engine/store.h"
#include "engine/stream.h"

namespace ddb::engine {

// The in-memory state of one live table.
struct TableState {
  TableState(std::string ns, std::shared_ptr<const TableSchema> schema, TableStats stats)
      : ns(std::move(ns)), schema_(std::move(schema)), stats(stats) {}

  std::shared_ptr<const TableSchema> schema() const {
    std::lock_guard lock(schema_mu_);
    return schema_;
  }
  void set_schema(std::shared_ptr<const TableSchema> schema) {
    std::lock_guard lock(schema_mu_);
    schema_ = std::move(schema);
  }

  // Constant after construction.
  const std::string ns;
  int64_t active_at_millis = 0;  // CREATING until then (transient statuses)

 private:
  mutable std::mutex schema_mu_;
  std::shared_ptr<const TableSchema> schema_;  // guarded by schema_mu_

 public:
  // Serializes every item write to this table: read, plan, write batch.
  std::mutex write_mu;
  TableStats stats;      // guarded by write_mu
  std::map<uint32_t, TableStats> index_stats;  // by index_id; guarded by write_mu
  bool dropped = false;  // guarded by write_mu
  // Item keys claimed by transactions that have decided but not yet
  // committed (DatabaseOptions::transaction_hold_millis); guarded by write_mu.
  std::set<std::string> claimed;
  // The table's enabled stream, or null; guarded by write_mu.
  std::shared_ptr<StreamState> stream;
};

// Where an item lives: its live table, that table's schema when looked up,
// and the item's storage key (Database::Locate).
struct ItemLocation {
  std::shared_ptr<TableState> state;
  std::shared_ptr<const TableSchema> schema;
  std::string item_key;
};

// DynamoDB's answer to an item operation on a missing table.
inline Status ItemTableNotFound() { return Status::NotFound("Requested resource not found"); }

// Statistics a write batch will leave a table with, applied to the
// TableState only once the batch is written.
struct PendingStats {
  explicit PendingStats(const TableState& state) : table(state.stats) {}

  // Stores the statistics in `batch` (catalog keys).
  void AddTo(uint64_t table_id, Store::Batch& batch) const;
  // REQUIRES: state.write_mu held; the batch has been written.
  void CommitTo(TableState& state) const;

  TableStats table;
  std::map<uint32_t, TableStats> indexes;  // only those the batch changes
  // The stream's next sequence number once the batch is written; 0 when
  // the batch appends no record.
  uint64_t next_sequence = 0;
  // The earliest TTL expiry the batch schedules (INT64_MAX: none).
  int64_t earliest_expiry = INT64_MAX;
};

}  // namespace ddb::engine
