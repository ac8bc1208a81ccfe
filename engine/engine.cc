#include "engine/engine.h"

#include "engine/catalog/catalog_codec.h"
#include "engine/catalog/catalog_keys.h"

namespace ddb::engine {

Engine::Engine(const DatabaseOptions& options, const Clock& clock, std::unique_ptr<Store> store)
    : clock_(clock),
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
      backups_(*store_, tables_, clock),
      changes_(*store_, clock, tables_, ttl_, streams_),
      write_path_{*store_, clock, tables_, writer_},
      replication_(write_path_, streams_, settings_, changes_, options.replication_hold_millis),
      database_(write_path_, transactions_, changes_, replication_,
                options.transient_status_millis),
      point_in_time_(*store_, tables_, writer_),
      snapshots_({*store_, clock, tables_, ttl_, streams_, tokens_, backups_}),
      stream_reader_(streams_, tables_),
      vectors_(*store_, tables_),
      housekeeping_(*store_, clock, tables_, streams_, sweeper_) {}

Result<std::unique_ptr<Engine>> Engine::Open(const DatabaseOptions& options, const Clock& clock) {
  auto store = Store::Open({.in_memory = options.in_memory,
                             .path = options.data_dir,
                             .write_ahead_log = options.write_ahead_log,
                             .log = options.log});
  if (!store.ok()) return store.status();
  std::unique_ptr<Engine> engine(new Engine(options, clock, std::move(store).value()));
  if (options.in_memory) engine->ttl_.NothingScheduled();
  Status loaded = engine->tables_.Load();
  if (loaded.ok()) loaded = engine->backups_.Load();
  if (loaded.ok()) loaded = engine->streams_.Load();
  if (loaded.ok()) loaded = engine->AttachStreams();
  // What start-up could not read is the data directory's fault: say which
  // one, as a store that cannot open does.
  if (!loaded.ok() && !options.in_memory) {
    return Status::Internal("cannot open the data directory " + options.data_dir + ": " +
                            loaded.message());
  }
  if (!loaded.ok()) return loaded;
  return engine;
}

Status Engine::AttachStreams() {
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

}  // namespace ddb::engine
