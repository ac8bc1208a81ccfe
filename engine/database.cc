#include "engine/database.h"

#include <cstdio>
#include <mutex>
#include <random>

#include "engine/catalog_codec.h"
#include "engine/coding.h"
#include "engine/item_codec.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"
#include "engine/store.h"
#include "engine/table_state.h"
#include "engine/ttl.h"

namespace ddb::engine {

namespace {

// Catalog column family keys (persisted — do not change):
//   "t" ns 0x00 name   -> EncodeTableSchema
//   "s" table_id:u64be -> EncodeTableStats
//   "s" table_id:u64be index_id:u32be -> EncodeTableStats (of the index)
//   "m:next_table_id"  -> varint
constexpr std::string_view kNextTableIdKey = "m:next_table_id";

std::string CatalogKey(std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(ns.size() + name.size() + 1);
  key.append(ns);
  key.push_back('\0');
  key.append(name);
  return key;
}

std::string SchemaKey(std::string_view ns, std::string_view name) {
  return "t" + CatalogKey(ns, name);
}

std::string StatsKey(uint64_t table_id) { return "s" + TablePrefix(table_id); }

std::string IndexStatsKey(uint64_t table_id, uint32_t index_id) {
  return "s" + IndexPrefix(table_id, index_id);
}

// The statistics stored under `key`, or zeros.
Result<TableStats> LoadStats(const Store& store, const std::string& key) {
  auto stored = store.Get(Family::kCatalog, key);
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return TableStats{};
  return DecodeTableStats(**stored);
}

std::string NewUuid() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t hi = rng(), lo = rng();
  hi = (hi & ~0xF000ull) | 0x4000ull;                     // version 4
  lo = (lo & ~(0xC000ull << 48)) | (0x8000ull << 48);     // RFC 4122 variant
  char buf[37];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xffffffffffffull));
  return buf;
}

Status TableNotFound(std::string_view name) {
  return Status::NotFound("Requested resource not found: Table: " + std::string(name) +
                          " not found");
}


}  // namespace

Database::Database(const DatabaseOptions& options, const Clock& clock,
                   std::unique_ptr<Store> store)
    : options_(options), clock_(clock), store_(std::move(store)) {}

Database::~Database() = default;

Result<std::unique_ptr<Database>> Database::Open(const DatabaseOptions& options,
                                                 const Clock& clock) {
  auto store = Store::Open({.in_memory = options.in_memory,
                             .path = options.data_dir,
                             .write_ahead_log = options.write_ahead_log});
  if (!store.ok()) return store.status();
  std::unique_ptr<Database> db(new Database(options, clock, std::move(store).value()));
  DDB_RETURN_IF_ERROR(db->LoadCatalog());
  return db;
}

Status Database::LoadCatalog() {
  auto next_id = store_->Get(Family::kCatalog, kNextTableIdKey);
  if (!next_id.ok()) return next_id.status();
  if (next_id->has_value()) {
    coding::Reader in(**next_id);
    if (!in.GetVarint(&next_table_id_)) return Status::Internal("catalog is corrupt");
  }
  auto it = store_->NewIterator(Family::kCatalog, "t", "u");
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string_view key = it->key().substr(1);
    size_t sep = key.find('\0');
    if (sep == std::string_view::npos) return Status::Internal("catalog is corrupt");
    auto schema = DecodeTableSchema(it->value());
    if (!schema.ok()) return schema.status();
    auto stats = LoadStats(*store_, StatsKey(schema->table_id));
    if (!stats.ok()) return stats.status();
    std::map<uint32_t, TableStats> index_stats;
    for (const IndexSchema* index : AllIndexes(*schema)) {
      auto loaded = LoadStats(*store_, IndexStatsKey(schema->table_id, index->index_id));
      if (!loaded.ok()) return loaded.status();
      index_stats[index->index_id] = *loaded;
    }
    auto state = std::make_shared<TableState>(
        std::string(key.substr(0, sep)), std::make_shared<const TableSchema>(std::move(*schema)),
        *stats);
    state->index_stats = std::move(index_stats);
    tables_by_id_[state->schema()->table_id] = state;
    tables_.emplace(std::string(key), std::move(state));
  }
  DDB_RETURN_IF_ERROR(it->status());
  return LoadStreams();
}

std::shared_ptr<TableState> Database::FindTable(std::string_view ns,
                                                std::string_view name) const {
  std::shared_lock lock(catalog_mu_);
  auto it = tables_.find(CatalogKey(ns, name));
  return it == tables_.end() ? nullptr : it->second;
}

TableDescription Database::Describe(const TableState& state) const {
  TableDescription description{*state.schema(), {}, {}};
  {
    std::lock_guard lock(const_cast<TableState&>(state).write_mu);
    description.stats = state.stats;
    description.index_stats = state.index_stats;
  }
  if (clock_.NowMillis() < state.active_at_millis) description.schema.status = "CREATING";
  return description;
}

Status Database::PersistSchema(const TableSchema& schema, std::string_view ns) {
  Store::Batch batch(*store_);
  batch.Put(Family::kCatalog, SchemaKey(ns, schema.name), EncodeTableSchema(schema));
  return store_->Write(batch);
}

Result<TableDescription> Database::CreateTable(std::string_view ns, TableSchema schema) {
  std::unique_lock lock(catalog_mu_);
  std::string key = CatalogKey(ns, schema.name);
  deleting_.erase(key);
  if (tables_.count(key)) {
    return Status::AlreadyExists("Table already exists: " + schema.name);
  }
  int64_t now = clock_.NowMillis();
  schema.table_id = next_table_id_;
  schema.table_uuid = NewUuid();
  schema.creation_millis = now;
  schema.status = "ACTIVE";
  for (auto* indexes : {&schema.local_indexes, &schema.global_indexes}) {
    for (auto& index : *indexes) index.index_id = schema.next_index_id++;
  }
  if (schema.billing_mode == "PAY_PER_REQUEST") schema.pay_per_request_since_millis = now;

  Store::Batch batch(*store_);
  std::string next_id;
  coding::PutVarint(&next_id, next_table_id_ + 1);
  batch.Put(Family::kCatalog, kNextTableIdKey, next_id);
  batch.Put(Family::kCatalog, StatsKey(schema.table_id), EncodeTableStats({}));
  std::shared_ptr<StreamState> stream;
  if (schema.stream.enabled) stream = StartStream(ns, schema, batch);
  batch.Put(Family::kCatalog, SchemaKey(ns, schema.name), EncodeTableSchema(schema));
  DDB_RETURN_IF_ERROR(store_->Write(batch));
  ++next_table_id_;

  auto state = std::make_shared<TableState>(std::string(ns),
                                            std::make_shared<const TableSchema>(schema),
                                            TableStats{});
  state->active_at_millis = now + options_.transient_status_millis;
  if (stream) {
    state->stream = stream;
    RegisterStream(std::move(stream));
  }
  tables_by_id_[schema.table_id] = state;
  tables_.emplace(std::move(key), state);
  TableDescription description{std::move(schema), {}, {}};
  if (options_.transient_status_millis > 0) description.schema.status = "CREATING";
  return description;
}

Result<TableDescription> Database::DescribeTable(std::string_view ns,
                                                 std::string_view name) const {
  auto state = FindTable(ns, name);
  if (state) return Describe(*state);
  std::shared_lock lock(catalog_mu_);
  auto it = deleting_.find(CatalogKey(ns, name));
  if (it != deleting_.end() && clock_.NowMillis() < it->second.second) return it->second.first;
  return TableNotFound(name);
}

Result<TableDescription> Database::UpdateTable(
    std::string_view ns, std::string_view name,
    const std::function<Status(TableSchema&)>& change) {
  // The table's write lock, not the catalog lock, serializes schema changes
  // with each other and with item writes: a long backfill then blocks only
  // writes to this table, not every request.
  auto found = FindTable(ns, name);
  if (!found) return TableNotFound(name);
  TableState& state = *found;
  std::lock_guard write_lock(state.write_mu);
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
  if (!created.empty()) {
    // Persist the advanced id counter first: entries a crash leaves behind
    // belong to an id that is never used again.
    TableSchema reserved = *old_schema;
    reserved.next_index_id = schema.next_index_id;
    DDB_RETURN_IF_ERROR(PersistSchema(reserved, ns));
    // Also in memory: a failed backfill must not let the ids be reused.
    state.set_schema(std::make_shared<const TableSchema>(reserved));
    for (IndexSchema* index : created) {
      DDB_RETURN_IF_ERROR(Backfill(state, schema, *index));
    }
  }
  if (schema.ttl_attribute != old_schema->ttl_attribute) {
    DDB_RETURN_IF_ERROR(RescheduleTtl(*old_schema, schema));
  }
  Store::Batch batch(*store_);
  std::shared_ptr<StreamState> new_stream;
  if (stream_stopped && state.stream) StopStream(*state.stream, batch);
  if (stream_started) new_stream = StartStream(ns, schema, batch);
  std::map<uint32_t, TableStats> index_stats = state.index_stats;
  for (const IndexSchema* old_index : AllIndexes(*old_schema)) {
    if (FindIndex(schema, old_index->name) != nullptr) continue;
    std::string prefix = IndexPrefix(old_schema->table_id, old_index->index_id);
    batch.DeleteRange(Family::kIndexes, prefix, PrefixSuccessor(prefix));
    batch.Delete(Family::kCatalog, IndexStatsKey(old_schema->table_id, old_index->index_id));
    index_stats.erase(old_index->index_id);
  }
  batch.Put(Family::kCatalog, SchemaKey(ns, schema.name), EncodeTableSchema(schema));
  DDB_RETURN_IF_ERROR(store_->Write(batch));
  state.index_stats = std::move(index_stats);
  if (stream_stopped) state.stream = nullptr;
  if (new_stream) {
    state.stream = new_stream;
    RegisterStream(std::move(new_stream));
  }
  state.set_schema(std::make_shared<const TableSchema>(std::move(schema)));
  TableDescription description{*state.schema(), state.stats, state.index_stats};
  if (clock_.NowMillis() < state.active_at_millis) description.schema.status = "CREATING";
  return description;
}

Status Database::Backfill(TableState& state, const TableSchema& schema,
                          const IndexSchema& index) {
  constexpr size_t kEntriesPerBatch = 1000;
  TableStats stats;
  std::string prefix = TablePrefix(schema.table_id);
  auto it = store_->NewIterator(Family::kItems, prefix, PrefixSuccessor(prefix));
  auto batch = std::make_unique<Store::Batch>(*store_);
  size_t pending = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto item = DecodeItem(it->value());
    if (!item.ok()) return item.status();
    // Items whose index key has another type than the new index declares
    // stay out of it, as DynamoDB's backfill leaves them (it reports them
    // as violations).
    if (!ValidateIndexKeys(schema, *item, false).ok()) continue;
    auto key = IndexEntryKey(schema, index, *item);
    if (!key) continue;
    Item projected = ProjectForIndex(schema, index, *item);
    stats.item_count += 1;
    stats.size_bytes += static_cast<int64_t>(ItemSize(projected));
    batch->Put(Family::kIndexes, *key, EncodeItem(projected));
    if (++pending == kEntriesPerBatch) {
      DDB_RETURN_IF_ERROR(store_->Write(*batch));
      batch = std::make_unique<Store::Batch>(*store_);
      pending = 0;
    }
  }
  DDB_RETURN_IF_ERROR(it->status());
  batch->Put(Family::kCatalog, IndexStatsKey(schema.table_id, index.index_id),
             EncodeTableStats(stats));
  DDB_RETURN_IF_ERROR(store_->Write(*batch));
  state.index_stats[index.index_id] = stats;
  return Status::Ok();
}

Result<TableDescription> Database::DeleteTable(std::string_view ns, std::string_view name) {
  std::unique_lock lock(catalog_mu_);
  auto it = tables_.find(CatalogKey(ns, name));
  if (it == tables_.end()) return TableNotFound(name);
  TableState& state = *it->second;
  auto schema = state.schema();
  if (schema->deletion_protection) {
    return Status::InUse(
        "Resource cannot be deleted as it is currently protected against deletion. Disable "
        "deletion protection first.");
  }
  TableDescription description = Describe(state);
  description.schema.status = "DELETING";
  {
    std::lock_guard write_lock(state.write_mu);
    Store::Batch batch(*store_);
    batch.Delete(Family::kCatalog, SchemaKey(ns, name));
    // The table's statistics and its indexes' share this prefix.
    std::string stats = StatsKey(schema->table_id);
    batch.DeleteRange(Family::kCatalog, stats, PrefixSuccessor(stats));
    std::string begin = TablePrefix(schema->table_id);
    std::string end = PrefixSuccessor(begin);
    for (Family family : {Family::kItems, Family::kIndexes}) {
      batch.DeleteRange(family, begin, end);
    }
    // The stream stays readable (DISABLED) for the retention period; the
    // table's TTL entries are dropped by the sweeper as they come due.
    if (state.stream) StopStream(*state.stream, batch);
    DDB_RETURN_IF_ERROR(store_->Write(batch));
    state.dropped = true;
    state.stream = nullptr;
  }
  tables_by_id_.erase(schema->table_id);
  if (options_.transient_status_millis > 0) {
    deleting_.insert_or_assign(it->first, std::pair(description, clock_.NowMillis() +
                                                                     options_.transient_status_millis));
  }
  tables_.erase(it);
  return description;
}

TableList Database::ListTables(std::string_view ns, std::string_view exclusive_start,
                               size_t limit) const {
  std::shared_lock lock(catalog_mu_);
  TableList list;
  std::string prefix = CatalogKey(ns, "");
  auto it = exclusive_start.empty() ? tables_.lower_bound(prefix)
                                    : tables_.upper_bound(CatalogKey(ns, exclusive_start));
  for (; it != tables_.end() && it->first.starts_with(prefix); ++it) {
    if (list.names.size() == limit) {
      list.last_evaluated = list.names.back();
      break;
    }
    list.names.push_back(it->first.substr(prefix.size()));
  }
  return list;
}

Result<ItemLocation> Database::Locate(std::string_view ns, std::string_view table,
                                     const Item& key) const {
  auto state = FindTable(ns, table);
  if (!state) return ItemTableNotFound();
  auto schema = state->schema();
  DDB_RETURN_IF_ERROR(ValidateKey(*schema, key));
  std::string item_key = ItemKey(schema->table_id, *schema, key);
  return ItemLocation{std::move(state), std::move(schema), std::move(item_key)};
}

Result<std::optional<Item>> Database::GetItem(std::string_view ns, std::string_view table,
                                              const Item& key) const {
  auto location = Locate(ns, table, key);
  if (!location.ok()) return location.status();
  return ReadCurrent(location->item_key);
}

Result<std::optional<Item>> Database::WriteItem(std::string_view ns, std::string_view table,
                                                const Item& key, const Planner& planner) {
  auto state = FindTable(ns, table);
  if (!state) return ItemTableNotFound();
  auto schema = state->schema();
  DDB_RETURN_IF_ERROR(ValidateKey(*schema, key));
  return WriteItemTo(*state, *schema, key, planner);
}

Result<std::optional<Item>> Database::PutItem(std::string_view ns, std::string_view table,
                                              Item item, const Precondition& check) {
  auto state = FindTable(ns, table);
  if (!state) return ItemTableNotFound();
  auto schema = state->schema();
  DDB_RETURN_IF_ERROR(ValidateItemKey(*schema, item));
  Item key = ExtractKey(*schema, item);
  return WriteItemTo(*state, *schema, key, [&](const Item* old_item) -> Result<Mutation> {
    if (check) DDB_RETURN_IF_ERROR(check(old_item));
    return Mutation{Mutation::Kind::kPut, std::move(item)};
  });
}

Result<std::optional<Item>> Database::DeleteItem(std::string_view ns, std::string_view table,
                                                 const Item& key, const Precondition& check) {
  return WriteItem(ns, table, key, [&](const Item* old_item) -> Result<Mutation> {
    if (check) DDB_RETURN_IF_ERROR(check(old_item));
    return Mutation{Mutation::Kind::kDelete, {}};
  });
}

Result<std::optional<Item>> Database::ReadCurrent(const std::string& item_key,
                                                  const Store::Snapshot* snapshot) const {
  auto stored = store_->Get(Family::kItems, item_key, snapshot);
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return std::optional<Item>();
  auto decoded = DecodeItem(**stored);
  if (!decoded.ok()) return decoded.status();
  return std::optional<Item>(std::move(decoded).value());
}

Result<std::optional<Item>> Database::WriteItemTo(TableState& state, const TableSchema& key_schema,
                                                  const Item& key, const Planner& planner) {
  std::string item_key = ItemKey(key_schema.table_id, key_schema, key);

  std::lock_guard lock(state.write_mu);
  if (state.dropped) return ItemTableNotFound();
  // The schema as of now: an UpdateTable that added an index while this
  // write waited for the lock must see its entry written. (Keys never change.)
  auto current_schema = state.schema();
  const TableSchema& schema = *current_schema;
  if (state.claimed.contains(item_key)) {
    return Status::TransactionConflict(std::string(kTransactionOngoing));
  }
  auto old_item = ReadCurrent(item_key);
  if (!old_item.ok()) return old_item.status();
  auto mutation = planner(*old_item ? &**old_item : nullptr);
  if (!mutation.ok()) return mutation.status();
  if (mutation->kind == Mutation::Kind::kNone ||
      (mutation->kind == Mutation::Kind::kDelete && !*old_item)) {
    return old_item;
  }
  Store::Batch batch(*store_);
  PendingStats pending(state);
  DDB_RETURN_IF_ERROR(
      AddMutation(state, schema, item_key, key, *old_item, *mutation, batch, pending));
  pending.AddTo(schema.table_id, batch);
  DDB_RETURN_IF_ERROR(store_->Write(batch));
  pending.CommitTo(state);
  NoteScheduled(pending.earliest_expiry);
  NoteStreamWrites(pending);
  return old_item;
}

Status Database::AddMutation(TableState& state, const TableSchema& schema,
                             const std::string& item_key, const Item& key,
                             const std::optional<Item>& old_item, const Mutation& mutation,
                             Store::Batch& batch, PendingStats& pending) {
  const Item* old_ptr = old_item ? &*old_item : nullptr;
  if (mutation.kind == Mutation::Kind::kNone) return Status::Ok();
  if (mutation.kind == Mutation::Kind::kDelete) {
    if (!old_item) return Status::Ok();
    DDB_RETURN_IF_ERROR(WriteIndexEntries(state, schema, old_ptr, nullptr, false, batch, pending));
    WriteTtlEntries(schema, item_key, old_ptr, nullptr, batch, pending);
    AppendStreamRecord(state, schema, old_ptr, nullptr, mutation.by_ttl, batch, pending);
    batch.Delete(Family::kItems, item_key);
    pending.table.item_count -= 1;
    pending.table.size_bytes -= static_cast<int64_t>(ItemSize(*old_item));
    return Status::Ok();
  }
  const Item& new_item = mutation.new_item;
  DDB_RETURN_IF_ERROR(ValidateItemKey(schema, new_item));
  if (ExtractKey(schema, new_item) != key) {
    return Status::InvalidArgument("A write may not change the key of the item it replaces");
  }
  size_t size = ItemSize(new_item);
  if (size > kMaxItemBytes) {
    return Status::InvalidArgument("Item size has exceeded the maximum allowed size");
  }
  DDB_RETURN_IF_ERROR(WriteIndexEntries(state, schema, old_ptr, &new_item,
                                        mutation.by_update_expression, batch, pending));
  WriteTtlEntries(schema, item_key, old_ptr, &new_item, batch, pending);
  AppendStreamRecord(state, schema, old_ptr, &new_item, false, batch, pending);
  batch.Put(Family::kItems, item_key, EncodeItem(new_item));
  if (old_item) {
    pending.table.item_count -= 1;
    pending.table.size_bytes -= static_cast<int64_t>(ItemSize(*old_item));
  }
  pending.table.item_count += 1;
  pending.table.size_bytes += static_cast<int64_t>(size);
  return Status::Ok();
}

void PendingStats::AddTo(uint64_t table_id, Store::Batch& batch) const {
  batch.Put(Family::kCatalog, StatsKey(table_id), EncodeTableStats(table));
  for (const auto& [id, stats] : indexes) {
    batch.Put(Family::kCatalog, IndexStatsKey(table_id, id), EncodeTableStats(stats));
  }
}

void PendingStats::CommitTo(TableState& state) const {
  state.stats = table;
  for (const auto& [id, stats] : indexes) state.index_stats[id] = stats;
  if (next_sequence != 0 && state.stream) state.stream->next_sequence = next_sequence;
}

Status Database::WriteIndexEntries(TableState& state, const TableSchema& schema,
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

Status Database::Reset() {
  std::unique_lock lock(catalog_mu_);
  // Every table's lock, in id order as transactions take them, so that no
  // write is half done when everything goes.
  std::vector<std::unique_lock<std::mutex>> table_locks;
  for (auto& [id, state] : tables_by_id_) table_locks.emplace_back(state->write_mu);
  Store::Batch batch(*store_);
  // Keys of these families start with an 8-byte id or time: 9 bytes of
  // 0xff are past all of them.
  const std::string end(9, '\xff');
  for (Family family : {Family::kItems, Family::kIndexes, Family::kStreams, Family::kTtl}) {
    batch.DeleteRange(family, std::string(), end);
  }
  for (std::string_view kind : {"t", "s", "x"}) {
    batch.DeleteRange(Family::kCatalog, kind, PrefixSuccessor(std::string(kind)));
  }
  DDB_RETURN_IF_ERROR(store_->Write(batch));
  for (auto& [id, state] : tables_by_id_) {
    state->dropped = true;
    state->stream = nullptr;
  }
  table_locks.clear();
  tables_.clear();
  tables_by_id_.clear();
  deleting_.clear();
  {
    std::lock_guard streams_lock(streams_mu_);
    streams_.clear();
  }
  {
    std::lock_guard tokens_lock(tokens_mu_);
    tokens_.clear();
  }
  ttl_swept_through_ = 0;
  ttl_written_min_ = INT64_MAX;
  return Status::Ok();
}

}  // namespace ddb::engine
