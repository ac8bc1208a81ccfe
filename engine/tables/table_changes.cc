// TableChanges (table_changes.h): UpdateTable's schema change and its side
// effects, under the table's write lock.
#include "engine/tables/table_changes.h"

#include "engine/backups/history.h"
#include "engine/catalog/catalog_codec.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/items/item_codec.h"
#include "engine/key_codec.h"
#include "engine/secondary_index.h"
#include "engine/tables/table_items.h"
#include "engine/vectors/vector_index.h"

namespace ddb::engine {
namespace {

// A new vector index's entry for an item; as for a GSI, items whose vector
// does not fit the index stay out of it.
BackfillEntryOf VectorEntryOf(uint64_t table_id, const VectorIndexSchema& index) {
  return [&index, table_id](std::string_view item_key,
                            const Item& item) -> std::optional<BackfillEntry> {
    auto row = VectorRowOf(index, item);
    if (!row.ok() || !*row) return std::nullopt;
    return BackfillEntry{VectorEntryKey(table_id, index, item_key), EncodeVectorRow(**row),
                         VectorEntrySize(index, item)};
  };
}

}  // namespace

Result<TableDescription> TableChanges::Update(std::string_view ns, std::string_view name,
                                              const std::function<Status(TableSchema&)>& change) {
  auto found = tables_.Find(ns, name);
  if (!found) return TableNotFound(name);
  TableState& state = *found;
  MutexLock write_lock(state.write_mu);
  if (state.dropped) return TableNotFound(name);
  auto old_schema = state.schema();
  TableSchema schema = *old_schema;
  DDB_RETURN_IF_ERROR(change(schema));
  bool stream_started = schema.stream.enabled && !old_schema->stream.enabled;
  bool stream_stopped = !schema.stream.enabled && old_schema->stream.enabled;
  bool feed_started = FeedsKinesis(schema) && !state.kinesis_feed;
  bool feed_stopped = !FeedsKinesis(schema) && state.kinesis_feed;
  bool replication_started = FeedsReplication(schema) && !state.replication_feed;
  bool replication_stopped = !FeedsReplication(schema) && state.replication_feed;

  std::vector<IndexSchema*> created;
  for (auto& index : schema.global_indexes) {
    if (index.index_id == 0) {
      index.index_id = schema.next_index_id++;
      created.push_back(&index);
    }
  }
  std::vector<VectorIndexSchema*> created_vector;
  for (auto& index : schema.vector_indexes) {
    if (index.index_id == 0) {
      index.index_id = schema.next_index_id++;
      created_vector.push_back(&index);
    }
  }
  if (!created.empty() || !created_vector.empty()) {
    // Persist the advanced id counter first: entries a crash leaves behind
    // belong to an id that is never used again.
    TableSchema reserved = *old_schema;
    reserved.next_index_id = schema.next_index_id;
    DDB_RETURN_IF_ERROR(tables_.PersistSchema(ns, reserved));
    // Also in memory: a failed backfill must not let the ids be reused.
    state.set_schema(std::make_shared<const TableSchema>(reserved));
    for (IndexSchema* index : created) {
      DDB_RETURN_IF_ERROR(Backfill(state, index->index_id, SecondaryIndexEntryOf(schema, *index)));
    }
    for (VectorIndexSchema* index : created_vector) {
      DDB_RETURN_IF_ERROR(
          Backfill(state, index->index_id, VectorEntryOf(state.table_id, *index)));
    }
  }
  if (schema.ttl_attribute != old_schema->ttl_attribute) {
    DDB_RETURN_IF_ERROR(ttl_.Reschedule(store_, *old_schema, schema));
  }
  Store::Batch batch(store_);
  std::optional<StreamStop> stop;
  if (stream_stopped && state.stream) stop = streams_.Stop(*state.stream, batch);
  std::shared_ptr<StreamState> new_stream;
  if (stream_started) new_stream = streams_.Start(ns, schema, batch);
  std::optional<StreamStop> feed_stop;
  if (feed_stopped) feed_stop = streams_.Stop(*state.kinesis_feed, batch);
  std::shared_ptr<StreamState> new_feed;
  if (feed_started) new_feed = streams_.StartFeed(ns, schema, StreamKind::kKinesisFeed, batch);
  std::optional<StreamStop> replication_stop;
  if (replication_stopped) replication_stop = streams_.Stop(*state.replication_feed, batch);
  std::shared_ptr<StreamState> new_replication;
  if (replication_started) {
    new_replication = streams_.StartFeed(ns, schema, StreamKind::kReplicationFeed, batch);
  }
  // Recovery turned off forgets the history it kept; turned on, it starts
  // from now (the schema says since when).
  if (old_schema->point_in_time_recovery.enabled && !schema.point_in_time_recovery.enabled) {
    DropHistory(state.table_id, batch);
  }
  std::map<uint32_t, TableStats> index_stats = state.index_stats;
  // Every kind of index keeps its entries under its own prefix.
  std::vector<uint32_t> dropped;
  for (const IndexSchema* old_index : AllIndexes(*old_schema)) {
    if (FindIndex(schema, old_index->name) == nullptr) dropped.push_back(old_index->index_id);
  }
  for (const VectorIndexSchema& old_index : old_schema->vector_indexes) {
    if (FindVectorIndex(schema, old_index.name) == nullptr) dropped.push_back(old_index.index_id);
  }
  for (uint32_t index_id : dropped) {
    std::string prefix = IndexPrefix(state.table_id, index_id);
    batch.DeleteRange(Family::kIndexes, prefix, PrefixSuccessor(prefix));
    batch.Delete(Family::kCatalog, catalog_keys::IndexStats(state.table_id, index_id));
    index_stats.erase(index_id);
  }
  batch.Put(Family::kCatalog, catalog_keys::Schema(ns, schema.name), EncodeTableSchema(schema));
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  state.index_stats = std::move(index_stats);
  for (uint32_t index_id : dropped) state.vector_stores.erase(index_id);
  if (stop) streams_.ApplyStop(*state.stream, *stop);
  if (stream_stopped) state.stream = nullptr;
  if (new_stream) {
    state.stream = new_stream;
    streams_.Register(std::move(new_stream));
  }
  if (feed_stop) {
    streams_.ApplyStop(*state.kinesis_feed, *feed_stop);
    state.kinesis_feed = nullptr;
  }
  if (new_feed) {
    state.kinesis_feed = new_feed;
    streams_.Register(std::move(new_feed));
  }
  if (replication_stop) {
    streams_.ApplyStop(*state.replication_feed, *replication_stop);
    state.replication_feed = nullptr;
  }
  if (new_replication) {
    state.replication_feed = new_replication;
    streams_.Register(std::move(new_replication));
  }
  state.set_schema(std::make_shared<const TableSchema>(std::move(schema)));
  TableDescription description{*state.schema(), state.stats, state.index_stats};
  if (clock_.NowMillis() < state.active_at_millis) description.schema.status = "CREATING";
  return description;
}

Status TableChanges::Backfill(TableState& state, uint32_t index_id,
                              const BackfillEntryOf& entry_of) {
  auto batch = std::make_unique<Store::Batch>(store_);
  auto stats = BackfillEntries(store_, state.table_id, batch, entry_of);
  if (!stats.ok()) return stats.status();
  batch->Put(Family::kCatalog, catalog_keys::IndexStats(state.table_id, index_id),
             EncodeTableStats(*stats));
  DDB_RETURN_IF_ERROR(store_.Write(*batch));
  state.index_stats[index_id] = *stats;
  return Status::Ok();
}

}  // namespace ddb::engine
