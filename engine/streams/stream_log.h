// StreamLog: every DynamoDB stream of the database — starting and stopping
// a table's stream, the records writers append in their own batches, shard
// rollover, trimming, and the reads behind the Streams API.
//
// Storage: the catalog's "x" entries (catalog_keys.h) and the streams family
// (stream.h). A stream is keyed by its own id, so a deleted table's stream
// stays readable (DISABLED) for the retention period.
//
// Thread safety: safe for concurrent use. `mu_` guards the set of streams
// and the id counter; each StreamState's own `mu` guards its description.
// Lock order: a table's write_mu, then `mu_` or a stream's `mu` (never
// both); `maintenance_mu_` before all of them.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/mutex.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/streams/stream.h"
#include "engine/tables/table_state.h"
#include "engine/thread_annotations.h"

namespace ddb::engine {

// A stream with the number its next record will get (what LATEST means).
struct StreamDescription {
  StreamInfo info;
  uint64_t next_sequence = 0;
};

// One read of a shard: records in order, where the next read starts, and
// whether the shard is closed and has nothing more to give.
struct ShardRead {
  std::vector<StreamRecord> records;
  uint64_t next_position = 0;
  bool drained = false;
};

// What disabling a stream changes, computed before its batch is written and
// applied to the in-memory stream only after (StreamLog::Stop).
struct StreamStop {
  int64_t disabled_millis = 0;
  std::string closed_shard_id;  // empty when the last shard was closed already
  uint64_t last_sequence = 0;
};

// A stream's stop written to a batch, to apply once the batch is.
struct PendingStop {
  std::shared_ptr<StreamState> stream;
  StreamStop stop;
};

class StreamLog {
 public:
  StreamLog(Store& store, const Clock& clock, int64_t shard_rollover_millis,
            int64_t retention_millis);

  // Reads every stream from the catalog. REQUIRES: before any other call.
  Status Load() EXCLUDES(mu_);
  // The enabled streams, for attaching to their tables after Load.
  std::vector<std::shared_ptr<StreamState>> EnabledStreams() const EXCLUDES(mu_);

  // A new stream for `schema` (its label also set in `schema.stream.label`,
  // later than every other stream of the same table name has had), written
  // to `batch`; Register it once the batch is written. REQUIRES: the
  // schema's own entry is put to `batch` after this.
  std::shared_ptr<StreamState> Start(std::string_view ns, TableSchema& schema,
                                     Store::Batch& batch) EXCLUDES(mu_);
  // A hidden feed of `schema`'s table (its Kinesis destination's or its
  // replication feed): a stream of NEW_AND_OLD_IMAGES records the Streams
  // API does not show, labelled like the table's streams; otherwise as Start.
  std::shared_ptr<StreamState> StartFeed(std::string_view ns, const TableSchema& schema,
                                         StreamKind kind, Store::Batch& batch) EXCLUDES(mu_);
  void Register(std::shared_ptr<StreamState> stream) EXCLUDES(mu_);

  // Writes `stream`'s description, disabled now with its open shard closed,
  // to `batch`; ApplyStop once the batch is written. REQUIRES: the table's
  // write_mu held from Stop to ApplyStop.
  StreamStop Stop(StreamState& stream, Store::Batch& batch) EXCLUDES(stream.mu);
  void ApplyStop(StreamState& stream, const StreamStop& stop) EXCLUDES(stream.mu);
  void ApplyStops(const std::vector<PendingStop>& stops);

  // Adds the record of replacing `old_item` by `new_item` to `batch` when
  // something changed, numbered from `*next_sequence` (0: the stream's next
  // number), which moves on, and stamped `created_millis` (0: now).
  // REQUIRES: the table's write_mu held.
  void Append(const StreamState& stream, const TableSchema& schema, const Item* old_item,
              const Item* new_item, bool by_ttl, Store::Batch& batch, uint64_t* next_sequence,
              int64_t created_millis = 0);

  // How many written batches have appended records, and a wait (up to
  // `timeout_millis`) until that count passes `seen`: how consumers such as
  // the local triggers learn of new records without polling.
  void NoteWrites() EXCLUDES(writes_mu_);
  uint64_t Writes() const EXCLUDES(writes_mu_);
  void WaitForWrites(uint64_t seen, int64_t timeout_millis) const EXCLUDES(writes_mu_);

  // Rolls over open shards that reached their age, trims records past the
  // retention period, and forgets disabled streams once it has passed.
  // `find_table` gives a stream's live table (or null): the table's
  // write_mu is taken for the changes to its enabled stream.
  Status Maintain(const std::function<std::shared_ptr<TableState>(uint64_t table_id)>& find_table)
      EXCLUDES(maintenance_mu_, mu_);

  // The DynamoDB streams in `ns` (of `table` only, unless empty), ordered
  // by table name and creation.
  std::vector<StreamDescription> List(std::string_view ns, std::string_view table) const
      EXCLUDES(mu_);
  // kNotFound if `ns` has no such stream of that kind.
  Result<StreamDescription> Describe(std::string_view ns, std::string_view table,
                                     std::string_view label,
                                     StreamKind kind = StreamKind::kDynamoDb) const EXCLUDES(mu_);
  // StreamReader::Read.
  Result<ShardRead> Read(std::string_view ns, std::string_view table, std::string_view label,
                         std::string_view shard_id, uint64_t position, size_t limit,
                         size_t max_bytes, StreamKind kind = StreamKind::kDynamoDb) const
      EXCLUDES(mu_);

  // The enabled streams of `kind`: the replicator's feeds.
  std::vector<std::shared_ptr<StreamState>> EnabledOfKind(StreamKind kind) const EXCLUDES(mu_);

  // Forgets every stream (DataSnapshots::Reset; the caller deletes the records).
  void Clear() EXCLUDES(mu_);

 private:
  std::shared_ptr<StreamState> Find(std::string_view ns, std::string_view table,
                                    std::string_view label, StreamKind kind) const EXCLUDES(mu_);
  // A new stream of `kind`, labelled later than every stream `schema`'s
  // table name has had, written to `batch`.
  std::shared_ptr<StreamState> New(std::string_view ns, const TableSchema& schema,
                                   std::string_view view_type, StreamKind kind,
                                   Store::Batch& batch) EXCLUDES(mu_);
  // Closes the open shard of `stream` and opens its child, if it is old enough.
  Status RollShard(StreamState& stream, int64_t now) EXCLUDES(stream.mu);
  // The first sequence number not past the retention period at `now`: a
  // read of records only (trimming is serialized by maintenance_mu_).
  Result<uint64_t> TrimHorizon(StreamState& stream, int64_t now) const EXCLUDES(stream.mu);
  // Deletes the records below `new_horizon` and the shards left empty.
  Status Trim(StreamState& stream, uint64_t new_horizon) EXCLUDES(stream.mu);
  // Deletes a disabled stream past its retention: description and records.
  Status Forget(StreamState& stream) EXCLUDES(mu_);

  Store& store_;
  const Clock& clock_;
  const int64_t shard_rollover_millis_;
  const int64_t retention_millis_;

  // Serializes maintenance (the background thread and the admin API may
  // both ask): it assumes it is the only one moving the trim horizons.
  Mutex maintenance_mu_ ACQUIRED_BEFORE(mu_);

  mutable Mutex mu_;
  // Every readable stream, enabled or not, by stream id.
  std::map<uint64_t, std::shared_ptr<StreamState>> streams_ GUARDED_BY(mu_);
  uint64_t next_stream_id_ GUARDED_BY(mu_) = 1;

  mutable Mutex writes_mu_;
  mutable CondVar writes_cv_;
  uint64_t writes_ GUARDED_BY(writes_mu_) = 0;
};

}  // namespace ddb::engine
