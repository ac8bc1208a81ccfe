#include "engine/items/item_writer.h"

#include <algorithm>

#include "engine/backups/history.h"
#include "engine/catalog/catalog_codec.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/items/item_codec.h"
#include "engine/items/item_reads.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/replication/write_clock.h"
#include "engine/secondary_index.h"

namespace ddb::engine {

void PendingStats::AddTo(uint64_t table_id, Store::Batch& batch) const {
  // Only a reopened store reads them (TableRegistry::Load). A memtable keeps
  // every version of a key until it is flushed, and in memory that is seldom:
  // a table's statistics stored with each write were a quarter of a loaded
  // server's memory for small items (52 of 272 bytes per item).
  if (!batch.outlives_process()) return;
  batch.Put(Family::kCatalog, catalog_keys::Stats(table_id), EncodeTableStats(table));
  for (const auto& [id, stats] : indexes) {
    batch.Put(Family::kCatalog, catalog_keys::IndexStats(table_id, id), EncodeTableStats(stats));
  }
}

void PendingStats::CommitTo(TableState& state) const {
  state.stats = table;
  for (const auto& [id, stats] : indexes) state.index_stats[id] = stats;
  if (next_sequence != 0 && state.stream) state.stream->next_sequence = next_sequence;
  if (next_feed_sequence != 0 && state.kinesis_feed) {
    state.kinesis_feed->next_sequence = next_feed_sequence;
  }
  if (next_replication_sequence != 0 && state.replication_feed) {
    state.replication_feed->next_sequence = next_replication_sequence;
  }
  for (const VectorChange& change : vectors) {
    auto loaded = state.vector_stores.find(change.index_id);
    if (loaded == state.vector_stores.end()) continue;  // built from the entries when searched
    VectorStoreHandle& handle = *loaded->second;
    WriterLock lock(handle.mu);
    if (change.row) {
      handle.store.Upsert(change.item_key, *change.row);
    } else {
      handle.store.Remove(change.item_key);
    }
  }
}

ItemWriter::ItemWriter(Store& store, const Clock& clock, TtlSchedule& ttl, StreamLog& streams)
    : store_(store), clock_(clock), ttl_(ttl), streams_(streams) {}

Result<std::optional<Item>> ItemWriter::Write(TableState& state, const TableSchema& key_schema,
                                              const Item& key, const Planner& planner) {
  std::string item_key = ItemKey(key_schema.table_id, key_schema, key);

  MutexLock lock(state.write_mu);
  if (state.dropped) return ItemTableNotFound();
  // The schema as of now: an UpdateTable that added an index while this
  // write waited for the lock must see its entry written. (Keys never change.)
  auto current_schema = state.schema();
  const TableSchema& schema = *current_schema;
  if (state.claimed.contains(item_key)) {
    return Status::TransactionConflict(std::string(kTransactionOngoing));
  }
  auto old_item = ReadItem(store_, item_key);
  if (!old_item.ok()) return old_item.status();
  auto mutation = planner(*old_item ? &**old_item : nullptr);
  if (!mutation.ok()) return mutation.status();
  if (mutation->kind == Mutation::Kind::kNone ||
      (mutation->kind == Mutation::Kind::kDelete && !*old_item)) {
    return old_item;
  }
  Store::Batch batch(store_);
  PendingStats pending(state);
  DDB_RETURN_IF_ERROR(
      AddMutation(state, schema, item_key, key, *old_item, *mutation, batch, pending));
  DDB_RETURN_IF_ERROR(Commit(state, batch, pending));
  return old_item;
}

Status ItemWriter::Commit(TableState& state, Store::Batch& batch, const PendingStats& pending) {
  pending.AddTo(state.table_id, batch);
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  pending.CommitTo(state);
  AfterCommit(pending);
  return Status::Ok();
}

void ItemWriter::AfterCommit(const PendingStats& pending) {
  if (pending.earliest_expiry != INT64_MAX) ttl_.NoteScheduled(pending.earliest_expiry);
  if (pending.next_sequence != 0 || pending.next_feed_sequence != 0 ||
      pending.next_replication_sequence != 0) {
    streams_.NoteWrites();
  }
}

PreparedPut PreparePut(const TableSchema& schema, const Item& item) {
  PreparedPut prepared;
  prepared.schema = &schema;
  prepared.size = ItemSize(item);
  prepared.encoded = EncodeItem(item);
  prepared.vector_rows.reserve(schema.vector_indexes.size());
  for (const VectorIndexSchema& index : schema.vector_indexes) {
    prepared.vector_rows.push_back(VectorRowOf(index, item));
  }
  return prepared;
}

Status ItemWriter::AddMutation(TableState& state, const TableSchema& schema,
                               const std::string& item_key, const Item& key,
                               const std::optional<Item>& old_item, const Mutation& mutation,
                               Store::Batch& batch, PendingStats& pending) {
  const Item* old_ptr = old_item ? &*old_item : nullptr;
  if (mutation.kind == Mutation::Kind::kNone) return Status::Ok();
  const Item* new_ptr = nullptr;
  size_t new_size = 0;
  PreparedPut* prepared =
      mutation.prepared && mutation.prepared->schema == &schema ? mutation.prepared : nullptr;
  if (mutation.kind == Mutation::Kind::kDelete) {
    if (!old_item) return Status::Ok();
  } else {
    new_ptr = &mutation.put_item();
    DDB_RETURN_IF_ERROR(ValidateItemKey(schema, *new_ptr));
    if (ExtractKey(schema, *new_ptr) != key) {
      return Status::InvalidArgument("A write may not change the key of the item it replaces");
    }
    new_size = prepared ? prepared->size : ItemSize(*new_ptr);
    if (new_size > kMaxItemBytes) {
      return Status::InvalidArgument("Item size has exceeded the maximum allowed size");
    }
  }
  DDB_RETURN_IF_ERROR(WriteIndexEntries(state, schema, old_ptr, new_ptr,
                                        new_ptr && mutation.by_update_expression, batch,
                                        pending));
  DDB_RETURN_IF_ERROR(
      WriteVectorEntries(state, schema, item_key, old_ptr, new_ptr, prepared, batch, pending));
  pending.earliest_expiry = std::min(
      pending.earliest_expiry, TtlSchedule::WriteEntries(schema, item_key, old_ptr, new_ptr, batch));
  // Every version of a global table's item, a deletion's too, keeps its
  // write clock, so a replicated write older than it is not applied.
  std::optional<WriteClock> write_clock;
  if (FeedsReplication(schema)) {
    if (mutation.replicated) {
      write_clock = *mutation.replicated;
    } else {
      auto local = LocalWriteClock(state, item_key);
      if (!local.ok()) return local.status();
      write_clock = std::move(local).value();
    }
    batch.Put(Family::kIndexes, WriteClockKey(item_key), EncodeWriteClock(*write_clock));
  }
  AppendStreamRecord(state, schema, old_ptr, new_ptr, !new_ptr && mutation.by_ttl,
                     mutation.replicated != nullptr, write_clock ? write_clock->stamp : 0, batch,
                     pending);
  if (schema.point_in_time_recovery.enabled) {
    DDB_RETURN_IF_ERROR(
        AppendHistory(store_, state, item_key, old_ptr, clock_.NowMillis(), batch));
  }
  if (new_ptr) {
    batch.Put(Family::kItems, item_key, prepared ? prepared->encoded : EncodeItem(*new_ptr));
  } else {
    batch.Delete(Family::kItems, item_key);
  }
  size_t old_size = old_item ? ItemSize(*old_item) : 0;
  if (old_item) {
    pending.table.item_count -= 1;
    pending.table.size_bytes -= static_cast<int64_t>(old_size);
  }
  if (new_ptr) {
    pending.table.item_count += 1;
    pending.table.size_bytes += static_cast<int64_t>(new_size);
  }
  if (mutation.sizes) *mutation.sizes = {old_size, new_size, true};
  return Status::Ok();
}

Status ItemWriter::WriteIndexEntries(TableState& state, const TableSchema& schema,
                                     const Item* old_item, const Item* new_item,
                                     bool by_update_expression, Store::Batch& batch,
                                     PendingStats& pending) {
  if (new_item) DDB_RETURN_IF_ERROR(ValidateIndexKeys(schema, *new_item, by_update_expression));
  for (const IndexSchema* index : AllIndexes(schema)) {
    auto old_key = old_item ? IndexEntryKey(schema, *index, *old_item) : std::nullopt;
    auto new_key = new_item ? IndexEntryKey(schema, *index, *new_item) : std::nullopt;
    if (!old_key && !new_key) continue;
    auto [it, fresh] = pending.indexes.try_emplace(index->index_id);
    if (fresh) it->second = state.index_stats[index->index_id];
    TableStats& stats = it->second;
    if (old_key) {
      if (!new_key || *new_key != *old_key) batch.Delete(Family::kIndexes, *old_key);
      stats.item_count -= 1;
      stats.size_bytes -=
          static_cast<int64_t>(ItemSize(ProjectForIndex(schema, *index, *old_item)));
    }
    if (new_key) {
      Item projected = ProjectForIndex(schema, *index, *new_item);
      stats.item_count += 1;
      stats.size_bytes += static_cast<int64_t>(ItemSize(projected));
      batch.Put(Family::kIndexes, *new_key, EncodeItem(projected));
    }
  }
  return Status::Ok();
}

Status ItemWriter::WriteVectorEntries(TableState& state, const TableSchema& schema,
                                      const std::string& item_key, const Item* old_item,
                                      const Item* new_item, PreparedPut* prepared,
                                      Store::Batch& batch, PendingStats& pending) {
  for (size_t i = 0; i < schema.vector_indexes.size(); ++i) {
    const VectorIndexSchema& index = schema.vector_indexes[i];
    bool old_row = old_item && InVectorIndex(index, *old_item);
    std::optional<VectorRow> new_row;
    if (new_item) {
      auto row = prepared ? std::move(prepared->vector_rows[i]) : VectorRowOf(index, *new_item);
      if (!row.ok()) return row.status();
      new_row = std::move(row).value();
    }
    if (!old_row && !new_row) continue;
    auto [it, fresh] = pending.indexes.try_emplace(index.index_id);
    if (fresh) it->second = state.index_stats[index.index_id];
    TableStats& stats = it->second;
    std::string entry_key = VectorEntryKey(state.table_id, index, item_key);
    if (old_row) {
      stats.item_count -= 1;
      stats.size_bytes -= VectorEntrySize(index, *old_item);
      if (!new_row) batch.Delete(Family::kIndexes, entry_key);
    }
    if (new_row) {
      stats.item_count += 1;
      stats.size_bytes += VectorEntrySize(index, *new_item);
      batch.Put(Family::kIndexes, entry_key, EncodeVectorRow(*new_row));
    }
    pending.vectors.push_back({index.index_id, item_key, std::move(new_row)});
  }
  return Status::Ok();
}

Result<WriteClock> ItemWriter::LocalWriteClock(const TableState& state,
                                               const std::string& item_key) const {
  WriteClock clock{clock_.NowMillis() * WriteClock::kStampsPerMilli, state.ns};
  auto replaced = ReadWriteClock(store_, item_key);
  if (!replaced.ok()) return replaced.status();
  if (*replaced && (*replaced)->stamp >= clock.stamp) clock.stamp = (*replaced)->stamp + 1;
  return clock;
}

void ItemWriter::AppendStreamRecord(TableState& state, const TableSchema& schema,
                                    const Item* old_item, const Item* new_item, bool by_ttl,
                                    bool replicated, int64_t write_clock, Store::Batch& batch,
                                    PendingStats& pending) {
  if (state.stream) {
    streams_.Append(*state.stream, schema, old_item, new_item, by_ttl, batch,
                    &pending.next_sequence);
  }
  if (state.kinesis_feed) {
    streams_.Append(*state.kinesis_feed, schema, old_item, new_item, by_ttl, batch,
                    &pending.next_feed_sequence);
  }
  if (state.replication_feed && !replicated) {
    streams_.Append(*state.replication_feed, schema, old_item, new_item, by_ttl, batch,
                    &pending.next_replication_sequence, write_clock);
  }
}

}  // namespace ddb::engine
