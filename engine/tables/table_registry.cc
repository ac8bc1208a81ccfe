#include "engine/tables/table_registry.h"

#include <cstdio>
#include <random>

#include "engine/backups/history.h"
#include "engine/catalog/catalog_codec.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"

namespace ddb::engine {
namespace {

// The statistics stored under `key`, or zeros.
Result<TableStats> LoadStats(const Store& store, const std::string& key) {
  auto stored = store.Get(Family::kCatalog, key);
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return TableStats{};
  return DecodeTableStats(**stored);
}

}  // namespace

std::string NewTableUuid() {
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


TableRegistry::TableRegistry(Store& store, const Clock& clock, StreamLog& streams,
                             int64_t transient_status_millis)
    : store_(store),
      clock_(clock),
      streams_(streams),
      transient_status_millis_(transient_status_millis) {}

Status TableRegistry::Load() {
  WriterLock lock(mu_);
  DDB_RETURN_IF_ERROR(
      catalog_keys::LoadCounter(store_, catalog_keys::kNextTableId, &next_table_id_));
  auto it = store_.NewIterator(Family::kCatalog, catalog_keys::KindBegin(catalog_keys::kSchema),
                               catalog_keys::KindEnd(catalog_keys::kSchema));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string_view qualified = it->key().substr(1);
    size_t sep = qualified.find('\0');
    if (sep == std::string_view::npos) return Status::Internal("catalog is corrupt");
    auto schema = DecodeTableSchema(it->value());
    if (!schema.ok()) return schema.status();
    auto stats = LoadStats(store_, catalog_keys::Stats(schema->table_id));
    if (!stats.ok()) return stats.status();
    std::map<uint32_t, TableStats> index_stats;
    for (const IndexSchema* index : AllIndexes(*schema)) {
      auto loaded = LoadStats(store_, catalog_keys::IndexStats(schema->table_id, index->index_id));
      if (!loaded.ok()) return loaded.status();
      index_stats[index->index_id] = *loaded;
    }
    for (const VectorIndexSchema& index : schema->vector_indexes) {
      auto loaded = LoadStats(store_, catalog_keys::IndexStats(schema->table_id, index.index_id));
      if (!loaded.ok()) return loaded.status();
      index_stats[index.index_id] = *loaded;
    }
    auto state = std::make_shared<TableState>(
        std::string(qualified.substr(0, sep)),
        std::make_shared<const TableSchema>(std::move(*schema)), *stats);
    {
      MutexLock table_lock(state->write_mu);
      state->index_stats = std::move(index_stats);
    }
    tables_by_id_[state->table_id] = state;
    tables_.emplace(std::string(qualified), std::move(state));
  }
  return it->status();
}

std::shared_ptr<TableState> TableRegistry::Find(std::string_view ns,
                                                std::string_view name) const {
  ReaderLock lock(mu_);
  auto it = tables_.find(catalog_keys::QualifiedName(ns, name));
  return it == tables_.end() ? nullptr : it->second;
}

std::shared_ptr<TableState> TableRegistry::FindById(uint64_t table_id) const {
  ReaderLock lock(mu_);
  auto it = tables_by_id_.find(table_id);
  return it == tables_by_id_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<TableState>> TableRegistry::All() const {
  ReaderLock lock(mu_);
  std::vector<std::shared_ptr<TableState>> all;
  for (const auto& [id, state] : tables_by_id_) all.push_back(state);
  return all;
}

Result<ItemLocation> TableRegistry::Locate(std::string_view ns, std::string_view table,
                                           const Item& key) const {
  auto state = Find(ns, table);
  if (!state) return ItemTableNotFound();
  auto schema = state->schema();
  DDB_RETURN_IF_ERROR(ValidateKey(*schema, key));
  std::string item_key = ItemKey(schema->table_id, *schema, key);
  return ItemLocation{std::move(state), std::move(schema), std::move(item_key)};
}

Result<std::vector<ItemLocation>> TableRegistry::LocateAll(
    std::string_view ns, const std::vector<ItemRef>& refs) const {
  std::vector<ItemLocation> locations;
  for (const ItemRef& ref : refs) {
    auto location = Locate(ns, ref.table, ref.key);
    if (!location.ok()) return location.status();
    locations.push_back(std::move(location).value());
  }
  return locations;
}

TableDescription TableRegistry::Describe(const TableState& state) const {
  TableDescription description{*state.schema(), {}, {}};
  {
    MutexLock lock(state.write_mu);
    description.stats = state.stats;
    description.index_stats = state.index_stats;
  }
  if (clock_.NowMillis() < state.active_at_millis) description.schema.status = "CREATING";
  return description;
}

Result<TableDescription> TableRegistry::Describe(std::string_view ns,
                                                 std::string_view name) const {
  if (auto state = Find(ns, name)) return Describe(*state);
  ReaderLock lock(mu_);
  auto it = deleting_.find(catalog_keys::QualifiedName(ns, name));
  if (it != deleting_.end() && clock_.NowMillis() < it->second.second) return it->second.first;
  return TableNotFound(name);
}

Status TableRegistry::PersistSchema(std::string_view ns, const TableSchema& schema) {
  Store::Batch batch(store_);
  batch.Put(Family::kCatalog, catalog_keys::Schema(ns, schema.name), EncodeTableSchema(schema));
  return store_.Write(batch);
}

Result<TableDescription> TableRegistry::Create(std::string_view ns, TableSchema schema) {
  for (auto* indexes : {&schema.local_indexes, &schema.global_indexes}) {
    for (auto& index : *indexes) index.index_id = schema.next_index_id++;
  }
  for (auto& index : schema.vector_indexes) index.index_id = schema.next_index_id++;
  return CreateFilled({std::string(ns), std::move(schema), {}, {}}, nullptr);
}

Result<TableDescription> TableRegistry::CreateFilled(NewTable table, const Filler& fill) {
  WriterLock lock(mu_);
  const std::string& ns = table.ns;
  TableSchema& schema = table.schema;
  std::string name = catalog_keys::QualifiedName(ns, schema.name);
  deleting_.erase(name);
  if (tables_.count(name)) {
    return Status::AlreadyExists("Table already exists: " + schema.name);
  }
  int64_t now = clock_.NowMillis();
  schema.table_id = next_table_id_;
  schema.table_uuid = NewTableUuid();
  schema.creation_millis = now;
  schema.status = "ACTIVE";
  if (schema.billing_mode == "PAY_PER_REQUEST") schema.pay_per_request_since_millis = now;
  // A resource policy given with the table takes its creation as revision.
  for (ResourcePolicy& policy : schema.resource_policies) {
    if (policy.revision_id.empty()) policy.revision_id = std::to_string(now);
  }

  Store::Batch batch(store_);
  batch.Put(Family::kCatalog, catalog_keys::kNextTableId,
            catalog_keys::EncodeCounter(next_table_id_ + 1));
  if (fill) DDB_RETURN_IF_ERROR(fill(schema.table_id, batch, table));
  batch.Put(Family::kCatalog, catalog_keys::Stats(schema.table_id), EncodeTableStats(table.stats));
  for (const auto& [index_id, stats] : table.index_stats) {
    batch.Put(Family::kCatalog, catalog_keys::IndexStats(schema.table_id, index_id),
              EncodeTableStats(stats));
  }
  NewFeeds feeds = StartFeeds(ns, schema, batch);
  batch.Put(Family::kCatalog, catalog_keys::Schema(ns, schema.name), EncodeTableSchema(schema));
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  ++next_table_id_;

  auto state = std::make_shared<TableState>(ns, std::make_shared<const TableSchema>(schema),
                                            table.stats, now + transient_status_millis_);
  {
    MutexLock table_lock(state->write_mu);
    state->index_stats = table.index_stats;
    Attach(*state, std::move(feeds));
  }
  tables_by_id_[schema.table_id] = state;
  tables_.emplace(std::move(name), state);
  TableDescription description{std::move(schema), table.stats, std::move(table.index_stats)};
  if (transient_status_millis_ > 0) description.schema.status = "CREATING";
  return description;
}

TableRegistry::NewFeeds TableRegistry::StartFeeds(std::string_view ns, TableSchema& schema,
                                                  Store::Batch& batch) {
  NewFeeds feeds;
  if (schema.stream.enabled) feeds.stream = streams_.Start(ns, schema, batch);
  if (FeedsKinesis(schema)) {
    feeds.kinesis = streams_.StartFeed(ns, schema, StreamKind::kKinesisFeed, batch);
  }
  if (FeedsReplication(schema)) {
    feeds.replication = streams_.StartFeed(ns, schema, StreamKind::kReplicationFeed, batch);
  }
  return feeds;
}

void TableRegistry::Attach(TableState& state, NewFeeds feeds) {
  state.stream = feeds.stream;
  state.kinesis_feed = feeds.kinesis;
  state.replication_feed = feeds.replication;
  if (feeds.stream) streams_.Register(std::move(feeds.stream));
  if (feeds.kinesis) streams_.Register(std::move(feeds.kinesis));
  if (feeds.replication) streams_.Register(std::move(feeds.replication));
}

void TableRegistry::MarkDropped(TableState& state) {
  state.dropped = true;
  state.stream = nullptr;
  state.kinesis_feed = nullptr;
  state.replication_feed = nullptr;
}

std::vector<PendingStop> TableRegistry::AddDrop(TableState& state, Store::Batch& batch) {
  batch.Delete(Family::kCatalog, catalog_keys::Schema(state.ns, state.schema()->name));
  // The table's statistics and its indexes' share this prefix.
  std::string stats = catalog_keys::Stats(state.table_id);
  batch.Clear(Family::kCatalog, stats, PrefixSuccessor(stats));
  std::string begin = TablePrefix(state.table_id);
  std::string end = PrefixSuccessor(begin);
  for (Family family : {Family::kItems, Family::kIndexes}) batch.Clear(family, begin, end);
  DropHistory(state.table_id, batch);
  // The stream stays readable (DISABLED) for the retention period, as does
  // the Kinesis feed for a trigger still delivering it; the table's TTL
  // entries are dropped by the sweeper as they come due.
  std::vector<PendingStop> stops;
  for (const auto& feed : {state.stream, state.kinesis_feed, state.replication_feed}) {
    if (feed) stops.push_back({feed, streams_.Stop(*feed, batch)});
  }
  return stops;
}

Result<TableDescription> TableRegistry::Delete(std::string_view ns, std::string_view name) {
  WriterLock lock(mu_);
  auto it = tables_.find(catalog_keys::QualifiedName(ns, name));
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
    MutexLock write_lock(state.write_mu);
    Store::Batch batch(store_);
    std::vector<PendingStop> stops = AddDrop(state, batch);
    DDB_RETURN_IF_ERROR(store_.Write(batch));
    streams_.ApplyStops(stops);
    MarkDropped(state);
  }
  tables_by_id_.erase(state.table_id);
  if (transient_status_millis_ > 0) {
    deleting_.insert_or_assign(it->first,
                               std::pair(description, clock_.NowMillis() + transient_status_millis_));
  }
  tables_.erase(it);
  return description;
}

TableList TableRegistry::List(std::string_view ns, std::string_view exclusive_start,
                              size_t limit) const {
  ReaderLock lock(mu_);
  TableList list;
  std::string prefix = catalog_keys::QualifiedName(ns, "");
  auto it = exclusive_start.empty()
                ? tables_.lower_bound(prefix)
                : tables_.upper_bound(catalog_keys::QualifiedName(ns, exclusive_start));
  for (; it != tables_.end() && it->first.starts_with(prefix); ++it) {
    if (list.names.size() == limit) {
      list.last_evaluated = list.names.back();
      break;
    }
    list.names.push_back(it->first.substr(prefix.size()));
  }
  return list;
}

Status TableRegistry::DropAll(const std::function<Status()>& wipe) {
  WriterLock lock(mu_);
  // Every table's lock, in id order as transactions take them.
  std::vector<TableState*> tables;
  for (auto& [id, state] : tables_by_id_) tables.push_back(state.get());
  TableLocks table_locks(tables);
  DDB_RETURN_IF_ERROR(wipe());
  for (TableState* state : tables) {
    state->write_mu.AssertHeld();  // by table_locks
    MarkDropped(*state);
  }
  table_locks.Release();
  tables_.clear();
  tables_by_id_.clear();
  deleting_.clear();
  return Status::Ok();
}

Status TableRegistry::WithTableLocked(std::string_view ns, std::string_view name,
                                      const std::function<Status(TableState&)>& read) const {
  ReaderLock lock(mu_);
  auto it = tables_.find(catalog_keys::QualifiedName(ns, name));
  if (it == tables_.end()) return TableNotFound(name);
  MutexLock table_lock(it->second->write_mu);
  return read(*it->second);
}

Status TableRegistry::WithTablesLocked(
    std::optional<std::string_view> ns,
    const std::function<Status(const std::vector<TableState*>&)>& read) const {
  ReaderLock lock(mu_);
  std::vector<TableState*> tables;
  for (const auto& [id, state] : tables_by_id_) {
    if (!ns || state->ns == *ns) tables.push_back(state.get());
  }
  TableLocks table_locks(tables);
  return read(table_locks.tables());
}

Status TableRegistry::Replace(std::optional<std::string_view> ns, std::vector<NewTable> tables,
                              const std::function<void(size_t, uint64_t, Store::Batch&)>& fill) {
  WriterLock lock(mu_);
  // Owned here: the maps let go of them before their locks are released.
  std::vector<std::shared_ptr<TableState>> owned;
  std::vector<TableState*> old_tables;
  for (auto& [id, state] : tables_by_id_) {
    if (ns && state->ns != *ns) continue;
    owned.push_back(state);
    old_tables.push_back(state.get());
  }
  TableLocks table_locks(old_tables);
  Store::Batch batch(store_);
  std::vector<PendingStop> stops;
  for (TableState* state : table_locks.tables()) {
    state->write_mu.AssertHeld();  // by table_locks
    std::vector<PendingStop> table_stops = AddDrop(*state, batch);
    stops.insert(stops.end(), table_stops.begin(), table_stops.end());
  }
  std::vector<NewFeeds> feeds(tables.size());
  uint64_t next_id = next_table_id_;
  for (size_t i = 0; i < tables.size(); ++i) {
    NewTable& table = tables[i];
    table.schema.table_id = next_id++;
    table.schema.status = "ACTIVE";
    batch.Put(Family::kCatalog, catalog_keys::Stats(table.schema.table_id),
              EncodeTableStats(table.stats));
    for (const auto& [index_id, stats] : table.index_stats) {
      batch.Put(Family::kCatalog, catalog_keys::IndexStats(table.schema.table_id, index_id),
                EncodeTableStats(stats));
    }
    fill(i, table.schema.table_id, batch);
    feeds[i] = StartFeeds(table.ns, table.schema, batch);
    batch.Put(Family::kCatalog, catalog_keys::Schema(table.ns, table.schema.name),
              EncodeTableSchema(table.schema));
  }
  batch.Put(Family::kCatalog, catalog_keys::kNextTableId, catalog_keys::EncodeCounter(next_id));
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  next_table_id_ = next_id;

  // Each stop is applied under its table's lock, held by table_locks.
  streams_.ApplyStops(stops);
  for (TableState* state : table_locks.tables()) {
    state->write_mu.AssertHeld();  // by table_locks
    MarkDropped(*state);
    tables_.erase(catalog_keys::QualifiedName(state->ns, state->schema()->name));
    tables_by_id_.erase(state->table_id);
  }
  table_locks.Release();
  std::erase_if(deleting_, [&](const auto& entry) {
    return !ns || entry.first.starts_with(catalog_keys::QualifiedName(*ns, ""));
  });
  for (size_t i = 0; i < tables.size(); ++i) {
    NewTable& table = tables[i];
    auto state = std::make_shared<TableState>(
        table.ns, std::make_shared<const TableSchema>(std::move(table.schema)), table.stats);
    {
      MutexLock table_lock(state->write_mu);
      state->index_stats = std::move(table.index_stats);
      Attach(*state, std::move(feeds[i]));
    }
    tables_by_id_[state->table_id] = state;
    tables_.emplace(catalog_keys::QualifiedName(state->ns, state->schema()->name),
                    std::move(state));
  }
  return Status::Ok();
}

}  // namespace ddb::engine
