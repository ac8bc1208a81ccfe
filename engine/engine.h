// Engine: the storage opened, with the data plane (Database) and every
// other capability built over the same parts. The layers above hold an
// Engine and reach each capability through it:
//
//   database()       tables, items, Query, Scan, transactions   database.h
//   backups()        on-demand backups and their restores       backups/backups.h
//   point_in_time()  point-in-time restores, history reads      backups/point_in_time.h
//   snapshots()      named snapshots, namespace drops, reset    backups/snapshots.h
//   streams()        reading streams and Kinesis feeds          streams/stream_reader.h
//   replication()    global tables' groups and replication      replication/replication.h
//   vectors()        vector search                              vectors/vector_search.h
//   settings()       small values the emulator keeps            settings.h
//   housekeeping()   TTL sweeps, stream and history trimming    housekeeping.h
//   tokens()         ClientRequestToken idempotency             client_tokens.h
//   key_insights()   Contributor Insights' counters             key_insights.h
//   object_store()   where exports go and imports come from     object_store.h
//   storage()        whether the disk takes writes, and why not storage_health.h
//
// State: owns the store and every part; each part owns its state.
// Lock order, across parts: the replicator's, the backups', the registry's,
// tables' write_mu in table-id order, then a vector store's or the stream
// log's (engine/README.md has the table).
#pragma once

#include <memory>

#include "engine/backups/backups.h"
#include "engine/backups/point_in_time.h"
#include "engine/backups/snapshots.h"
#include "engine/client_tokens.h"
#include "engine/clock.h"
#include "engine/database.h"
#include "engine/database_options.h"
#include "engine/housekeeping.h"
#include "engine/items/item_writer.h"
#include "engine/key_insights.h"
#include "engine/object_store.h"
#include "engine/replication/replication.h"
#include "engine/settings.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/streams/stream_log.h"
#include "engine/streams/stream_reader.h"
#include "engine/tables/table_changes.h"
#include "engine/tables/table_registry.h"
#include "engine/transactions.h"
#include "engine/ttl/ttl_schedule.h"
#include "engine/ttl/ttl_sweeper.h"
#include "engine/vectors/vector_search.h"
#include "engine/write_path.h"

namespace ddb::engine {

class Engine {
 public:
  // Opens or creates the storage and loads the tables, backups and streams.
  // kInternal if storage cannot be opened or its catalog is corrupt.
  // `clock` must outlive the Engine.
  static Result<std::unique_ptr<Engine>> Open(const DatabaseOptions& options,
                                              const Clock& clock);

  Database& database() { return database_; }
  Backups& backups() { return backups_; }
  PointInTime& point_in_time() { return point_in_time_; }
  DataSnapshots& snapshots() { return snapshots_; }
  const StreamReader& streams() const { return stream_reader_; }
  Replication& replication() { return replication_; }
  const VectorSearch& vectors() const { return vectors_; }
  Settings& settings() { return settings_; }
  Housekeeping& housekeeping() { return housekeeping_; }
  ClientTokens& tokens() { return tokens_; }
  KeyInsights& key_insights() { return key_insights_; }
  ObjectStore& object_store() const { return *object_store_; }
  const Clock& clock() const { return clock_; }
  const StorageHealth& storage() const { return store_->health(); }

 private:
  Engine(const DatabaseOptions& options, const Clock& clock, std::unique_ptr<Store> store);
  // Attaches loaded streams to their tables, and gives one to tables whose
  // schema says "stream enabled" without one (written before streams were kept).
  Status AttachStreams();

  const Clock& clock_;
  const std::unique_ptr<Store> store_;
  const std::shared_ptr<ObjectStore> object_store_;
  KeyInsights key_insights_;
  // The parts, constructed in this order (later parts use earlier ones).
  StreamLog streams_;
  TtlSchedule ttl_;
  TableRegistry tables_;
  ItemWriter writer_;
  Transactions transactions_;
  TtlSweeper sweeper_;
  ClientTokens tokens_;
  Settings settings_;
  Backups backups_;
  TableChanges changes_;
  const WritePath write_path_;  // what Replication and Database write through
  Replication replication_;
  // The capabilities over them.
  Database database_;
  PointInTime point_in_time_;
  DataSnapshots snapshots_;
  StreamReader stream_reader_;
  VectorSearch vectors_;
  Housekeeping housekeeping_;
};

}  // namespace ddb::engine
