// ItemWriter: the write path. Every change to an item — a single write, a
// transaction's action, a TTL deletion — becomes one set of entries in one
// write batch: the item, its index entries (secondary_index.h), the table's
// and indexes' statistics, its TTL schedule entry and its stream record.
// So a crash keeps all or none, and readers see all or none.
//
// Thread safety: safe for concurrent use; every change to a table's items
// happens under that table's write_mu (table_state.h).
#pragma once

#include <climits>
#include <map>
#include <optional>
#include <string>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/items/item_write.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/streams/stream_log.h"
#include "engine/tables/table_state.h"
#include "engine/thread_annotations.h"
#include "engine/ttl/ttl_schedule.h"
#include "engine/vectors/vector_index.h"

namespace ddb::engine {

// Statistics a write batch will leave a table with, applied to the
// TableState only once the batch is written.
struct PendingStats {
  explicit PendingStats(const TableState& state) REQUIRES(state.write_mu) : table(state.stats) {}

  // Stores the statistics in `batch` (catalog keys), for the next time the
  // store is opened: in memory there is none, so nothing is stored.
  void AddTo(uint64_t table_id, Store::Batch& batch) const;
  // Once the batch has been written.
  void CommitTo(TableState& state) const REQUIRES(state.write_mu);

  TableStats table;
  std::map<uint32_t, TableStats> indexes;  // only those the batch changes
  // The stream's next sequence number once the batch is written; 0 when
  // the batch appends no record.
  uint64_t next_sequence = 0;
  uint64_t next_feed_sequence = 0;         // the same for the Kinesis feed
  uint64_t next_replication_sequence = 0;  // and for the replication feed
  // The earliest TTL expiry the batch schedules (INT64_MAX: none).
  int64_t earliest_expiry = INT64_MAX;
  // Rows the batch adds to (row set) or removes from vector indexes.
  struct VectorChange {
    uint32_t index_id;
    std::string item_key;
    std::optional<VectorRow> row;
  };
  std::vector<VectorChange> vectors;
};

// What a put writes that depends only on the new item and the table's
// schema, computed before the write takes the table's lock: concurrent
// writers to one table then encode in parallel and hold the lock only to
// read the old item and write the batch. Used only when the schema is still
// the one it was computed for.
struct PreparedPut {
  const TableSchema* schema = nullptr;
  size_t size = 0;       // ItemSize
  std::string encoded;   // EncodeItem
  // VectorRowOf for each of schema->vector_indexes, in order.
  std::vector<Result<std::optional<VectorRow>>> vector_rows;
};
PreparedPut PreparePut(const TableSchema& schema, const Item& item);

class ItemWriter {
 public:
  ItemWriter(Store& store, const Clock& clock, TtlSchedule& ttl, StreamLog& streams);

  // Reads the item at `item_key`, asks `planner` what to do, and applies it,
  // all under the table's write mutex. Returns the item as it was.
  // `key_schema` is any schema version of the table (keys never change).
  Result<std::optional<Item>> Write(TableState& state, const TableSchema& key_schema,
                                    const Item& key, const Planner& planner)
      EXCLUDES(state.write_mu);

  // Adds `mutation` of the item `key` (currently `old_item`) to `batch`:
  // checks, the item, its index entries, TTL entry, stream record, and the
  // statistics in `pending`.
  Status AddMutation(TableState& state, const TableSchema& schema, const std::string& item_key,
                     const Item& key, const std::optional<Item>& old_item,
                     const Mutation& mutation, Store::Batch& batch, PendingStats& pending)
      REQUIRES(state.write_mu);

  // Writes `batch` with `pending`'s statistics and applies them.
  Status Commit(TableState& state, Store::Batch& batch, const PendingStats& pending)
      REQUIRES(state.write_mu);
  // What follows a written batch: wake the TTL sweeper's and the stream
  // readers' bookkeeping.
  void AfterCommit(const PendingStats& pending);

 private:
  // Index entries and index statistics for replacing `old_item` by
  // `new_item` (either may be null), added to `batch` and `pending`.
  Status WriteIndexEntries(TableState& state, const TableSchema& schema, const Item* old_item,
                           const Item* new_item, bool by_update_expression, Store::Batch& batch,
                           PendingStats& pending) REQUIRES(state.write_mu);
  // The same for the table's vector indexes.
  // `prepared`, when not null, holds the new item's rows.
  Status WriteVectorEntries(TableState& state, const TableSchema& schema,
                            const std::string& item_key, const Item* old_item,
                            const Item* new_item, PreparedPut* prepared, Store::Batch& batch,
                            PendingStats& pending) REQUIRES(state.write_mu);
  // The stream's and the feeds' records of the change. A global table's
  // own change goes to its replication feed stamped with `write_clock` (a
  // WriteClock's stamp, where other feeds have milliseconds); a
  // replicated one (`replicated`) to its stream and Kinesis feed only.
  void AppendStreamRecord(TableState& state, const TableSchema& schema, const Item* old_item,
                          const Item* new_item, bool by_ttl, bool replicated,
                          int64_t write_clock, Store::Batch& batch, PendingStats& pending)
      REQUIRES(state.write_mu);
  // The write clock of a global table's local change to `item_key`: now,
  // or just after the version it replaces when that one is stamped later
  // (a frozen clock, or a replicated write from a clock ahead), so a
  // change always wins over what it changed.
  Result<WriteClock> LocalWriteClock(const TableState& state, const std::string& item_key) const;

  Store& store_;
  const Clock& clock_;  // the time of history records (history.h)
  TtlSchedule& ttl_;
  StreamLog& streams_;
};

}  // namespace ddb::engine
