// Database::UpdateTable: a schema change and its side effects — backfilling
// a new GSI, dropping a removed index's entries, rescheduling TTL, starting
// or stopping the stream — under the table's write lock, which (not the
// registry's lock) serializes schema changes with each other and with item
// writes: a long backfill blocks only writes to its own table.
#include "engine/catalog_codec.h"
#include "engine/catalog_keys.h"
#include "engine/database.h"
#include "engine/item_codec.h"
#include "engine/key_codec.h"
#include "engine/secondary_index.h"
#include "engine/table_items.h"
#include "engine/vector_index.h"

namespace ddb::engine {

Result<TableDescription> Database::UpdateTable(
    std::string_view ns, std::string_view name,
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
      DDB_RETURN_IF_ERROR(Backfill(state, schema, *index));
    }
    for (VectorIndexSchema* index : created_vector) {
      DDB_RETURN_IF_ERROR(BackfillVectorIndex(state, *index));
    }
  }
  if (schema.ttl_attribute != old_schema->ttl_attribute) {
    DDB_RETURN_IF_ERROR(ttl_.Reschedule(*store_, *old_schema, schema));
  }
  Store::Batch batch(*store_);
  std::optional<StreamStop> stop;
  if (stream_stopped && state.stream) stop = streams_.Stop(*state.stream, batch);
  std::shared_ptr<StreamState> new_stream;
  if (stream_started) new_stream = streams_.Start(ns, schema, batch);
  std::map<uint32_t, TableStats> index_stats = state.index_stats;
  for (const IndexSchema* old_index : AllIndexes(*old_schema)) {
    if (FindIndex(schema, old_index->name) != nullptr) continue;
    std::string prefix = IndexPrefix(state.table_id, old_index->index_id);
    batch.DeleteRange(Family::kIndexes, prefix, PrefixSuccessor(prefix));
    batch.Delete(Family::kCatalog, catalog_keys::IndexStats(state.table_id, old_index->index_id));
    index_stats.erase(old_index->index_id);
  }
  for (const VectorIndexSchema& old_index : old_schema->vector_indexes) {
    if (FindVectorIndex(schema, old_index.name) != nullptr) continue;
    std::string prefix = IndexPrefix(state.table_id, old_index.index_id);
    batch.DeleteRange(Family::kIndexes, prefix, PrefixSuccessor(prefix));
    batch.Delete(Family::kCatalog, catalog_keys::IndexStats(state.table_id, old_index.index_id));
    index_stats.erase(old_index.index_id);
    state.vector_stores.erase(old_index.index_id);
  }
  batch.Put(Family::kCatalog, catalog_keys::Schema(ns, schema.name), EncodeTableSchema(schema));
  DDB_RETURN_IF_ERROR(store_->Write(batch));
  state.index_stats = std::move(index_stats);
  if (stop) streams_.ApplyStop(*state.stream, *stop);
  if (stream_stopped) state.stream = nullptr;
  if (new_stream) {
    state.stream = new_stream;
    streams_.Register(std::move(new_stream));
  }
  state.set_schema(std::make_shared<const TableSchema>(std::move(schema)));
  TableDescription description{*state.schema(), state.stats, state.index_stats};
  if (clock_.NowMillis() < state.active_at_millis) description.schema.status = "CREATING";
  return description;
}

Status Database::Backfill(TableState& state, const TableSchema& schema,
                          const IndexSchema& index) {
  TableStats stats;
  auto batch = std::make_unique<Store::Batch>(*store_);
  DDB_RETURN_IF_ERROR(ForEachTableItem(
      *store_, state.table_id, batch,
      [&](std::string_view, const Item& item, Store::Batch& batch) {
        // Items whose index key has another type than the new index
        // declares stay out of it, as DynamoDB's backfill leaves them (it
        // reports them as violations).
        if (!ValidateIndexKeys(schema, item, false).ok()) return Status::Ok();
        auto key = IndexEntryKey(schema, index, item);
        if (!key) return Status::Ok();
        Item projected = ProjectForIndex(schema, index, item);
        stats.item_count += 1;
        stats.size_bytes += static_cast<int64_t>(ItemSize(projected));
        batch.Put(Family::kIndexes, *key, EncodeItem(projected));
        return Status::Ok();
      }));
  batch->Put(Family::kCatalog, catalog_keys::IndexStats(state.table_id, index.index_id),
             EncodeTableStats(stats));
  DDB_RETURN_IF_ERROR(store_->Write(*batch));
  state.index_stats[index.index_id] = stats;
  return Status::Ok();
}

}  // namespace ddb::engine

namespace ddb::engine {

Status Database::BackfillVectorIndex(TableState& state, const VectorIndexSchema& index) {
  TableStats stats;
  auto batch = std::make_unique<Store::Batch>(*store_);
  DDB_RETURN_IF_ERROR(ForEachTableItem(
      *store_, state.table_id, batch,
      [&](std::string_view item_key, const Item& item, Store::Batch& batch) {
        // As for a GSI, items whose vector does not fit the new index stay
        // out of it.
        TableSchema only;
        only.vector_indexes = {index};
        if (!ValidateVectorAttributes(only, item).ok()) return Status::Ok();
        auto row = VectorRowOf(index, item);
        if (!row) return Status::Ok();
        stats.item_count += 1;
        stats.size_bytes += VectorEntrySize(index, item);
        batch.Put(Family::kIndexes, VectorEntryKey(state.table_id, index, item_key),
                  EncodeVectorRow(*row));
        return Status::Ok();
      }));
  batch->Put(Family::kCatalog, catalog_keys::IndexStats(state.table_id, index.index_id),
             EncodeTableStats(stats));
  DDB_RETURN_IF_ERROR(store_->Write(*batch));
  state.index_stats[index.index_id] = stats;
  return Status::Ok();
}

}  // namespace ddb::engine
