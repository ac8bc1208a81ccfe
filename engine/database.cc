#include "engine/database.h"

#include "engine/catalog_codec.h"
#include "engine/catalog_keys.h"
#include "engine/history.h"
#include "engine/item_reads.h"
#include "engine/key_validation.h"

namespace ddb::engine {

Database::Database(const DatabaseOptions& options, const Clock& clock,
                   std::unique_ptr<Store> store)
    : clock_(clock),
      transient_status_millis_(options.transient_status_millis),
      replication_hold_millis_(options.replication_hold_millis),
      store_(std::move(store)),
      object_store_(options.object_store ? options.object_store
                    : options.in_memory
                        ? std::shared_ptr<ObjectStore>(std::make_shared<MemoryObjectStore>())
                        : std::make_shared<FolderObjectStore>(options.data_dir + "/s3")),
      streams_(*store_, clock, options.shard_rollover_millis, options.stream_retention_millis),
      tables_(*store_, clock, streams_, options.transient_status_millis),
      writer_(*store_, clock, ttl_, streams_),
      transactions_(*store_, tables_, writer_, options.transaction_hold_millis),
      sweeper_(*store_, clock, tables_, writer_, ttl_),
      tokens_(clock),
      settings_(*store_),
      backups_(*store_, tables_, clock) {}

Result<std::unique_ptr<Database>> Database::Open(const DatabaseOptions& options,
                                                 const Clock& clock) {
  auto store = Store::Open({.in_memory = options.in_memory,
                             .path = options.data_dir,
                             .write_ahead_log = options.write_ahead_log});
  if (!store.ok()) return store.status();
  std::unique_ptr<Database> db(new Database(options, clock, std::move(store).value()));
  DDB_RETURN_IF_ERROR(db->tables_.Load());
  DDB_RETURN_IF_ERROR(db->backups_.Load());
  DDB_RETURN_IF_ERROR(db->streams_.Load());
  DDB_RETURN_IF_ERROR(db->AttachStreams());
  return db;
}

Status Database::AttachStreams() {
  for (auto& stream : streams_.EnabledStreams()) {
    auto table = tables_.FindById(stream->table_id);
    if (!table) continue;
    MutexLock lock(table->write_mu);
    switch (stream->kind) {
      case StreamKind::kDynamoDb: table->stream = std::move(stream); break;
      case StreamKind::kKinesisFeed: table->kinesis_feed = std::move(stream); break;
      case StreamKind::kReplicationFeed: table->replication_feed = std::move(stream); break;
    }
  }
  // A schema that asks for a stream or feed it lacks (a destination enabled
  // before Kinesis feeds were kept) gets one now.
  for (auto& state : tables_.All()) {
    MutexLock lock(state->write_mu);
    bool wants_stream = state->schema()->stream.enabled && !state->stream;
    bool wants_feed = FeedsKinesis(*state->schema()) && !state->kinesis_feed;
    if (!wants_stream && !wants_feed) continue;
    TableSchema schema = *state->schema();
    Store::Batch batch(*store_);
    std::shared_ptr<StreamState> stream, feed;
    if (wants_stream) stream = streams_.Start(state->ns, schema, batch);
    if (wants_feed) feed = streams_.StartFeed(state->ns, schema, StreamKind::kKinesisFeed, batch);
    batch.Put(Family::kCatalog, catalog_keys::Schema(state->ns, schema.name),
              EncodeTableSchema(schema));
    DDB_RETURN_IF_ERROR(store_->Write(batch));
    state->set_schema(std::make_shared<const TableSchema>(std::move(schema)));
    if (stream) {
      state->stream = stream;
      streams_.Register(std::move(stream));
    }
    if (feed) {
      state->kinesis_feed = feed;
      streams_.Register(std::move(feed));
    }
  }
  return Status::Ok();
}

// --- Tables -----------------------------------------------------------------

Result<TableDescription> Database::CreateTable(std::string_view ns, TableSchema schema) {
  return tables_.Create(ns, std::move(schema));
}

Result<TableDescription> Database::DescribeTable(std::string_view ns,
                                                 std::string_view name) const {
  return tables_.Describe(ns, name);
}

Result<TableDescription> Database::DeleteTable(std::string_view ns, std::string_view name) {
  auto state = tables_.Find(ns, name);
  if (state && !state->schema()->replicas.empty()) return RemoveReplica(name, ns);
  return tables_.Delete(ns, name);
}

TableList Database::ListTables(std::string_view ns, std::string_view exclusive_start,
                               size_t limit) const {
  return tables_.List(ns, exclusive_start, limit);
}

Result<std::shared_ptr<const TableSchema>> Database::GetSchema(std::string_view ns,
                                                                std::string_view table) const {
  auto state = tables_.Find(ns, table);
  if (!state) return ItemTableNotFound();
  return state->schema();
}

// --- Items ------------------------------------------------------------------

Result<std::optional<Item>> Database::GetItem(std::string_view ns, std::string_view table,
                                              const Item& key) const {
  auto location = tables_.Locate(ns, table, key);
  if (!location.ok()) return location.status();
  return ReadItem(*store_, location->item_key);
}

Result<std::optional<Item>> Database::WriteItem(std::string_view ns, std::string_view table,
                                                const Item& key, const Planner& planner) {
  auto state = tables_.Find(ns, table);
  if (!state) return ItemTableNotFound();
  auto schema = state->schema();
  DDB_RETURN_IF_ERROR(ValidateKey(*schema, key));
  if (schema->strong_consistency) return WriteStrong(state, *schema, key, planner);
  return writer_.Write(*state, *schema, key, planner);
}

Result<std::optional<Item>> Database::PutItem(std::string_view ns, std::string_view table,
                                              const Item& item, const Precondition& check) {
  auto state = tables_.Find(ns, table);
  if (!state) return ItemTableNotFound();
  auto schema = state->schema();
  DDB_RETURN_IF_ERROR(ValidateItemKey(*schema, item));
  Item key = ExtractKey(*schema, item);
  // Encoded outside the table's lock; `schema` stays alive, so the writer
  // can tell whether it is still the table's.
  PreparedPut prepared = PreparePut(*schema, item);
  Planner planner = [&](const Item* old_item) -> Result<Mutation> {
    if (check) DDB_RETURN_IF_ERROR(check(old_item));
    Mutation put{Mutation::Kind::kPut, {}};
    put.borrowed_item = &item;  // alive until this call returns
    put.prepared = &prepared;
    return put;
  };
  if (schema->strong_consistency) return WriteStrong(state, *schema, key, planner);
  return writer_.Write(*state, *schema, key, planner);
}

Result<std::optional<Item>> Database::DeleteItem(std::string_view ns, std::string_view table,
                                                 const Item& key, const Precondition& check) {
  return WriteItem(ns, table, key, [&](const Item* old_item) -> Result<Mutation> {
    if (check) DDB_RETURN_IF_ERROR(check(old_item));
    return Mutation{Mutation::Kind::kDelete, {}};
  });
}

// --- Transactions and batches -------------------------------------------------

namespace {

// DynamoDB's transactions do not run on strongly consistent global tables.
// (The text is localdynamo's: DynamoDB's is not published.)
Status RefuseStrongTables(const TableRegistry& tables, std::string_view ns,
                          const std::vector<std::string_view>& names) {
  for (std::string_view name : names) {
    auto state = tables.Find(ns, name);
    if (state && state->schema()->strong_consistency) {
      return Status::InvalidArgument(
          "Transactions are not supported for global tables with MultiRegionConsistency set to "
          "STRONG: " + std::string(name));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<TransactWriteOutcome> Database::TransactWrite(
    std::string_view ns, const std::vector<TransactWriteItem>& items) {
  std::vector<std::string_view> names;
  for (const TransactWriteItem& item : items) names.push_back(item.table);
  DDB_RETURN_IF_ERROR(RefuseStrongTables(tables_, ns, names));
  return transactions_.Write(ns, items);
}

Result<std::vector<std::optional<Item>>> Database::GetItems(
    std::string_view ns, const std::vector<ItemRef>& refs) const {
  auto locations = tables_.LocateAll(ns, refs);
  if (!locations.ok()) return locations.status();
  return ReadItems(*store_, *locations);
}

Result<std::vector<std::optional<Item>>> Database::TransactGet(std::string_view ns,
                                                               const std::vector<ItemRef>& refs,
                                                               std::vector<bool>* conflicts) const {
  std::vector<std::string_view> names;
  for (const ItemRef& ref : refs) names.push_back(ref.table);
  DDB_RETURN_IF_ERROR(RefuseStrongTables(tables_, ns, names));
  return transactions_.Get(ns, refs, conflicts);
}

TokenCheck Database::CheckToken(std::string_view ns, std::string_view token,
                                std::string_view fingerprint, int64_t lifetime_millis) {
  return tokens_.Check(ns, token, fingerprint, lifetime_millis);
}

void Database::FinishToken(std::string_view ns, std::string_view token, bool committed,
                           int64_t lifetime_millis) {
  tokens_.Finish(ns, token, committed, lifetime_millis);
}

// --- TTL and streams ------------------------------------------------------------

Result<std::vector<ExpiredItem>> Database::SweepExpired(size_t limit) {
  return sweeper_.Sweep(limit);
}

Status Database::TrimHistory() {
  int64_t now = clock_.NowMillis();
  for (const auto& state : tables_.All()) {
    const PointInTimeRecovery& pitr = state->schema()->point_in_time_recovery;
    if (!pitr.enabled) continue;
    DDB_RETURN_IF_ERROR(engine::TrimHistory(*store_, state->table_id,
                                            now - pitr.recovery_period_days * 86'400'000));
  }
  return Status::Ok();
}

Status Database::MaintainStreams() {
  return streams_.Maintain([this](uint64_t table_id) { return tables_.FindById(table_id); });
}

std::vector<StreamDescription> Database::ListStreams(std::string_view ns,
                                                     std::string_view table) const {
  return streams_.List(ns, table);
}

Result<StreamDescription> Database::DescribeStream(std::string_view ns, std::string_view table,
                                                   std::string_view label,
                                                   StreamKind kind) const {
  return streams_.Describe(ns, table, label, kind);
}

Result<ShardRead> Database::ReadShard(std::string_view ns, std::string_view table,
                                      std::string_view label, std::string_view shard_id,
                                      uint64_t position, size_t limit, size_t max_bytes,
                                      StreamKind kind) const {
  return streams_.Read(ns, table, label, shard_id, position, limit, max_bytes, kind);
}

Result<std::string> Database::KinesisFeedLabel(std::string_view ns,
                                               std::string_view table) const {
  std::string label;
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, table, [&](TableState& state) {
    state.write_mu.AssertHeld();  // by WithTableLocked
    if (state.kinesis_feed) label = state.kinesis_feed->label;
    return Status::Ok();
  }));
  return label;
}

uint64_t Database::StreamWrites() const { return streams_.Writes(); }

void Database::WaitForStreamWrites(uint64_t seen, int64_t timeout_millis) const {
  streams_.WaitForWrites(seen, timeout_millis);
}

Status Database::Reset() {
  return backups_.DropAll([this] { return DropEverything(); });
}

Status Database::DropEverything() {
  return tables_.DropAll([this] {
    Store::Batch batch(*store_);
    // Keys of these families start with an 8-byte id or time: 9 bytes of
    // 0xff are past all of them.
    const std::string end(9, '\xff');
    for (Family family : {Family::kItems, Family::kIndexes, Family::kStreams, Family::kTtl,
                          Family::kHistory}) {
      batch.DeleteRange(family, std::string(), end);
    }
    for (char kind : catalog_keys::kTableKinds) {
      batch.DeleteRange(Family::kCatalog, catalog_keys::KindBegin(kind),
                        catalog_keys::KindEnd(kind));
    }
    DDB_RETURN_IF_ERROR(store_->Write(batch));
    streams_.Clear();
    tokens_.Clear();
    ttl_.Clear();
    return Status::Ok();
  });
}

// --- On-demand backups -----------------------------------------------------------

Result<BackupInfo> Database::CreateBackup(std::string_view ns, std::string_view table,
                                          std::string_view name) {
  return backups_.Create(ns, table, name);
}

std::vector<std::shared_ptr<const BackupInfo>> Database::ListBackups(std::string_view ns) const {
  return backups_.List(ns);
}

Result<std::shared_ptr<const BackupInfo>> Database::FindBackup(std::string_view ns,
                                                               std::string_view backup_id) const {
  return backups_.Find(ns, backup_id);
}

Result<std::shared_ptr<const BackupInfo>> Database::DeleteBackup(std::string_view ns,
                                                                 std::string_view backup_id) {
  return backups_.Delete(ns, backup_id);
}

Result<TableDescription> Database::RestoreBackup(std::string_view ns, std::string_view backup_id,
                                                 TableSchema target) {
  return backups_.Restore(ns, backup_id, std::move(target));
}

// --- Settings -------------------------------------------------------------------

Status Database::PutSetting(std::string_view key, std::string_view value) {
  return settings_.Put(key, value);
}

Status Database::DeleteSetting(std::string_view key) { return settings_.Delete(key); }

Result<std::optional<std::string>> Database::GetSetting(std::string_view key) const {
  return settings_.Get(key);
}

Result<std::vector<std::pair<std::string, std::string>>> Database::ListSettings(
    std::string_view prefix) const {
  return settings_.List(prefix);
}

}  // namespace ddb::engine
