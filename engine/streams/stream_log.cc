#include "engine/streams/stream_log.h"

#include <algorithm>
#include <tuple>

#include "engine/catalog/catalog_codec.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/coding.h"
#include "engine/items/item_write.h"
#include "engine/key_codec.h"

namespace ddb::engine {
namespace {

void PutStreamInfo(const StreamInfo& info, Store::Batch& batch) {
  batch.Put(Family::kCatalog, catalog_keys::Stream(info.stream_id), EncodeStreamInfo(info));
}

// A stream label is the creation time as ISO 8601 with milliseconds.
std::string StreamLabel(int64_t millis) { return IsoMillis(millis); }

StreamShard NewShard(const StreamInfo& info, uint64_t first_sequence, int64_t now) {
  StreamShard shard;
  shard.shard_id = ShardId(now, info.stream_id, first_sequence);
  if (!info.shards.empty()) shard.parent_shard_id = info.shards.back().shard_id;
  shard.first_sequence = first_sequence;
  shard.created_millis = now;
  return shard;
}

// The sequence number in a streams-family key (stream_id:u64be sequence:u64be).
uint64_t SequenceOf(std::string_view record_key) {
  return coding::DecodeFixed64BE(record_key.substr(8));
}

}  // namespace

StreamLog::StreamLog(Store& store, const Clock& clock, int64_t shard_rollover_millis,
                     int64_t retention_millis)
    : store_(store),
      clock_(clock),
      shard_rollover_millis_(shard_rollover_millis),
      retention_millis_(retention_millis) {}

Status StreamLog::Load() {
  MutexLock lock(mu_);
  DDB_RETURN_IF_ERROR(
      catalog_keys::LoadCounter(store_, catalog_keys::kNextStreamId, &next_stream_id_));
  auto it = store_.NewIterator(Family::kCatalog, catalog_keys::KindBegin(catalog_keys::kStream),
                               catalog_keys::KindEnd(catalog_keys::kStream));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto info = DecodeStreamInfo(it->value());
    if (!info.ok()) return info.status();
    // The next number follows the last record written; with every record
    // trimmed, the trim horizon and the open shard's start say where.
    uint64_t next = std::max(info->trim_horizon, info->shards.back().first_sequence);
    std::string prefix = StreamPrefix(info->stream_id);
    auto records = store_.NewIterator(Family::kStreams, prefix, PrefixSuccessor(prefix));
    records->SeekToLast();
    if (records->Valid()) next = std::max(next, SequenceOf(records->key()) + 1);
    DDB_RETURN_IF_ERROR(records->status());
    auto stream = std::make_shared<StreamState>(std::move(info).value(), next);
    // The stored counter may trail a stream written by a concurrent
    // UpdateTable's batch; never hand out an id in use.
    next_stream_id_ = std::max(next_stream_id_, stream->id + 1);
    streams_[stream->id] = std::move(stream);
  }
  return it->status();
}

std::vector<std::shared_ptr<StreamState>> StreamLog::EnabledStreams() const {
  std::vector<std::shared_ptr<StreamState>> all;
  {
    MutexLock lock(mu_);
    for (const auto& [id, stream] : streams_) all.push_back(stream);
  }
  std::vector<std::shared_ptr<StreamState>> enabled;
  for (auto& stream : all) {
    MutexLock stream_lock(stream->mu);
    if (stream->info.enabled()) enabled.push_back(stream);
  }
  return enabled;
}

std::shared_ptr<StreamState> StreamLog::Start(std::string_view ns, TableSchema& schema,
                                              Store::Batch& batch) {
  auto stream = New(ns, schema, schema.stream.view_type, StreamKind::kDynamoDb, batch);
  schema.stream.label = stream->label;
  return stream;
}

std::shared_ptr<StreamState> StreamLog::StartFeed(std::string_view ns, const TableSchema& schema,
                                                  StreamKind kind, Store::Batch& batch) {
  return New(ns, schema, "NEW_AND_OLD_IMAGES", kind, batch);
}

std::vector<std::shared_ptr<StreamState>> StreamLog::EnabledOfKind(StreamKind kind) const {
  std::vector<std::shared_ptr<StreamState>> of_kind;
  {
    MutexLock lock(mu_);
    for (const auto& [id, stream] : streams_) {
      if (stream->kind == kind) of_kind.push_back(stream);
    }
  }
  // Each stream's lock alone: never inside mu_ (the lock order).
  std::vector<std::shared_ptr<StreamState>> enabled;
  for (auto& stream : of_kind) {
    MutexLock stream_lock(stream->mu);
    if (stream->info.enabled()) enabled.push_back(stream);
  }
  return enabled;
}

std::shared_ptr<StreamState> StreamLog::New(std::string_view ns, const TableSchema& schema,
                                            std::string_view view_type, StreamKind kind,
                                            Store::Batch& batch) {
  // Labels name streams within a table name, also across a deleted and
  // re-created table and a clock moved back: later than all before.
  int64_t now = clock_.NowMillis();
  StreamInfo info;
  {
    MutexLock lock(mu_);
    info.stream_id = next_stream_id_++;
    for (const auto& [id, stream] : streams_) {
      if (stream->ns == ns && stream->table_name == schema.name) {
        now = std::max(now, stream->created_millis + 1);
      }
    }
  }
  batch.Put(Family::kCatalog, catalog_keys::kNextStreamId,
            catalog_keys::EncodeCounter(info.stream_id + 1));
  info.ns = std::string(ns);
  info.table_name = schema.name;
  info.table_id = schema.table_id;
  info.label = StreamLabel(now);
  info.view_type = std::string(view_type);
  info.key = schema.key;
  info.created_millis = now;
  info.kind = kind;
  info.shards.push_back(NewShard(info, 1, now));
  PutStreamInfo(info, batch);
  return std::make_shared<StreamState>(std::move(info), 1);
}

void StreamLog::Register(std::shared_ptr<StreamState> stream) {
  MutexLock lock(mu_);
  uint64_t id = stream->id;
  streams_[id] = std::move(stream);
}

StreamStop StreamLog::Stop(StreamState& stream, Store::Batch& batch) {
  MutexLock lock(stream.mu);
  StreamInfo info = stream.info;
  StreamStop stop;
  stop.disabled_millis = std::max<int64_t>(clock_.NowMillis(), 1);
  info.disabled_millis = stop.disabled_millis;
  StreamShard& open = info.shards.back();
  if (!open.closed) {
    open.closed = true;
    open.last_sequence = stream.next_sequence - 1;
    stop.closed_shard_id = open.shard_id;
    stop.last_sequence = open.last_sequence;
  }
  PutStreamInfo(info, batch);
  return stop;
}

void StreamLog::ApplyStop(StreamState& stream, const StreamStop& stop) {
  MutexLock lock(stream.mu);
  StreamInfo& info = stream.info;
  info.disabled_millis = stop.disabled_millis;
  StreamShard& open = info.shards.back();
  if (!stop.closed_shard_id.empty() && open.shard_id == stop.closed_shard_id) {
    open.closed = true;
    open.last_sequence = stop.last_sequence;
  }
}

void StreamLog::ApplyStops(const std::vector<PendingStop>& stops) {
  for (const PendingStop& pending : stops) ApplyStop(*pending.stream, pending.stop);
}

void StreamLog::Append(const StreamState& stream, const TableSchema& schema,
                       const Item* old_item, const Item* new_item, bool by_ttl,
                       Store::Batch& batch, uint64_t* next_sequence, int64_t created_millis) {
  auto record = EncodeStreamRecord(schema, stream.view_type, old_item, new_item,
                                   created_millis != 0 ? created_millis : clock_.NowMillis(),
                                   by_ttl);
  if (!record) return;
  if (*next_sequence == 0) *next_sequence = stream.next_sequence;
  uint64_t sequence = (*next_sequence)++;
  batch.Put(Family::kStreams, StreamRecordKey(stream.id, sequence), *record);
}

void StreamLog::NoteWrites() {
  {
    MutexLock lock(writes_mu_);
    ++writes_;
  }
  writes_cv_.NotifyAll();
}

uint64_t StreamLog::Writes() const {
  MutexLock lock(writes_mu_);
  return writes_;
}

void StreamLog::WaitForWrites(uint64_t seen, int64_t timeout_millis) const {
  MutexLock lock(writes_mu_);
  writes_cv_.WaitFor(writes_mu_, timeout_millis, [&] {
    writes_mu_.AssertHeld();  // the wait hands the predicate the lock
    return writes_ != seen;
  });
}

Status StreamLog::Maintain(
    const std::function<std::shared_ptr<TableState>(uint64_t table_id)>& find_table) {
  MutexLock maintenance(maintenance_mu_);
  int64_t now = clock_.NowMillis();
  Status first_error = Status::Ok();
  // One stream's trouble (say, a corrupt record) must not stop the others'.
  auto note = [&](Status status) {
    if (!status.ok() && first_error.ok()) first_error = std::move(status);
  };
  std::vector<std::shared_ptr<StreamState>> streams;
  {
    MutexLock lock(mu_);
    for (const auto& [id, stream] : streams_) streams.push_back(stream);
  }
  for (const auto& stream : streams) {
    // Found without any lock but maintenance's: only trimming moves the horizon.
    auto horizon = TrimHorizon(*stream, now);
    if (!horizon.ok()) {
      note(horizon.status());
      continue;
    }
    // The description of a table's enabled stream changes only under the
    // table's lock, as disabling it does (Stop to ApplyStop); a stream that
    // is no longer its table's is finished with that.
    bool maintained = false;
    if (auto table = find_table(stream->table_id)) {
      MutexLock write_lock(table->write_mu);
      if (!table->dropped && (table->stream == stream || table->kinesis_feed == stream ||
                              table->replication_feed == stream)) {
        note(RollShard(*stream, now));
        note(Trim(*stream, *horizon));
        maintained = true;
      }
    }
    if (maintained) continue;
    note(Trim(*stream, *horizon));
    int64_t disabled = 0;
    {
      MutexLock lock(stream->mu);
      disabled = stream->info.disabled_millis;
    }
    if (disabled != 0 && disabled + retention_millis_ <= now) note(Forget(*stream));
  }
  return first_error;
}

Status StreamLog::Forget(StreamState& stream) {
  Store::Batch batch(store_);
  batch.Delete(Family::kCatalog, catalog_keys::Stream(stream.id));
  std::string prefix = StreamPrefix(stream.id);
  batch.DeleteRange(Family::kStreams, prefix, PrefixSuccessor(prefix));
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  MutexLock lock(mu_);
  streams_.erase(stream.id);
  return Status::Ok();
}

Status StreamLog::RollShard(StreamState& stream, int64_t now) {
  MutexLock lock(stream.mu);
  StreamInfo info = stream.info;
  StreamShard& open = info.shards.back();
  if (open.closed || now - open.created_millis < shard_rollover_millis_) return Status::Ok();
  uint64_t next = stream.next_sequence;
  if (next == open.first_sequence) {
    // Nothing was written to it: keep it open rather than leave an empty
    // closed shard behind, and count its age from now.
    open.created_millis = now;
  } else {
    open.closed = true;
    open.last_sequence = next - 1;
    info.shards.push_back(NewShard(info, next, now));
  }
  Store::Batch batch(store_);
  PutStreamInfo(info, batch);
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  stream.info = std::move(info);
  return Status::Ok();
}

Result<uint64_t> StreamLog::TrimHorizon(StreamState& stream, int64_t now) const {
  uint64_t horizon = 0;
  {
    MutexLock lock(stream.mu);
    horizon = stream.info.trim_horizon;
  }
  // No record past the horizon: nothing to read. (One being written now is
  // not old enough to trim.) An idle server so never walks its streams: the
  // first walk faulted in 2.5 MB of RocksDB's code.
  if (horizon >= stream.next_sequence.load()) return horizon;
  int64_t cutoff = now - retention_millis_;
  // A replication feed's records are stamped with write clocks, not
  // milliseconds (replication.h).
  if (stream.kind == StreamKind::kReplicationFeed) cutoff *= WriteClock::kStampsPerMilli;
  auto it = store_.NewIterator(Family::kStreams, StreamRecordKey(stream.id, horizon),
                               PrefixSuccessor(StreamPrefix(stream.id)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    uint64_t sequence = SequenceOf(it->key());
    auto record = DecodeStreamRecord(it->value(), sequence);
    if (!record.ok()) return record.status();
    if (record->created_millis >= cutoff) break;
    horizon = sequence + 1;
  }
  DDB_RETURN_IF_ERROR(it->status());
  return horizon;
}

Status StreamLog::Trim(StreamState& stream, uint64_t new_horizon) {
  MutexLock lock(stream.mu);
  if (new_horizon <= stream.info.trim_horizon) return Status::Ok();  // it only moves on
  StreamInfo info = stream.info;
  uint64_t horizon = info.trim_horizon;
  info.trim_horizon = new_horizon;
  // Closed shards whose every record is gone leave the stream's
  // description; the last shard stays, so a stream always has one.
  auto gone = std::remove_if(info.shards.begin(), info.shards.end() - 1, [&](const StreamShard& s) {
    return s.closed && s.last_sequence < new_horizon;
  });
  info.shards.erase(gone, info.shards.end() - 1);
  Store::Batch batch(store_);
  batch.DeleteRange(Family::kStreams, StreamRecordKey(stream.id, horizon),
                    StreamRecordKey(stream.id, new_horizon));
  PutStreamInfo(info, batch);
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  stream.info = std::move(info);
  return Status::Ok();
}

std::shared_ptr<StreamState> StreamLog::Find(std::string_view ns, std::string_view table,
                                             std::string_view label, StreamKind kind) const {
  MutexLock lock(mu_);
  for (const auto& [id, stream] : streams_) {
    if (stream->ns == ns && stream->table_name == table && stream->label == label &&
        stream->kind == kind) {
      return stream;
    }
  }
  return nullptr;
}

std::vector<StreamDescription> StreamLog::List(std::string_view ns,
                                               std::string_view table) const {
  std::vector<std::shared_ptr<StreamState>> streams;
  {
    MutexLock lock(mu_);
    for (const auto& [id, stream] : streams_) {
      if (stream->ns == ns && stream->kind == StreamKind::kDynamoDb &&
          (table.empty() || stream->table_name == table)) {
        streams.push_back(stream);
      }
    }
  }
  std::vector<StreamDescription> described;
  for (const auto& stream : streams) {
    MutexLock lock(stream->mu);
    described.push_back({stream->info, stream->next_sequence});
  }
  std::sort(described.begin(), described.end(), [](const auto& a, const auto& b) {
    return std::tie(a.info.table_name, a.info.created_millis, a.info.stream_id) <
           std::tie(b.info.table_name, b.info.created_millis, b.info.stream_id);
  });
  return described;
}

Result<StreamDescription> StreamLog::Describe(std::string_view ns, std::string_view table,
                                              std::string_view label, StreamKind kind) const {
  auto stream = Find(ns, table, label, kind);
  if (!stream) return Status::NotFound("stream");
  MutexLock lock(stream->mu);
  return StreamDescription{stream->info, stream->next_sequence};
}

Result<ShardRead> StreamLog::Read(std::string_view ns, std::string_view table,
                                  std::string_view label, std::string_view shard_id,
                                  uint64_t position, size_t limit, size_t max_bytes,
                                  StreamKind kind) const {
  auto stream = Find(ns, table, label, kind);
  if (!stream) return Status::NotFound("stream");
  StreamShard shard;
  uint64_t last_written = 0;
  {
    MutexLock lock(stream->mu);
    const auto& shards = stream->info.shards;
    if (shard_id.empty()) {
      // The whole stream, read as one shard; numbering starts at 1.
      shard = shards.back();
      shard.first_sequence = 1;
    } else {
      auto it = std::find_if(shards.begin(), shards.end(),
                             [&](const StreamShard& s) { return s.shard_id == shard_id; });
      if (it == shards.end()) return Status::NotFound("shard");
      shard = *it;
    }
    position = std::max(position, shard.first_sequence);
    if (position < stream->info.trim_horizon) return Status::TrimmedData("trimmed");
    // Every number below next_sequence is written; a rollover, which would
    // end this shard, waits for the lock held here.
    last_written = shard.closed ? shard.last_sequence : stream->next_sequence - 1;
  }
  ShardRead read;
  read.next_position = position;
  if (position <= last_written) {
    auto it = store_.NewIterator(Family::kStreams, StreamRecordKey(stream->id, position),
                                 StreamRecordKey(stream->id, last_written + 1));
    size_t bytes = 0;
    for (it->SeekToFirst(); it->Valid() && read.records.size() < limit; it->Next()) {
      uint64_t sequence = SequenceOf(it->key());
      auto record = DecodeStreamRecord(it->value(), sequence);
      if (!record.ok()) return record.status();
      bytes += StreamRecordSize(*record);
      if (bytes > max_bytes && !read.records.empty()) break;
      read.next_position = sequence + 1;
      read.records.push_back(std::move(record).value());
    }
    DDB_RETURN_IF_ERROR(it->status());
  }
  read.drained = shard.closed && read.next_position > shard.last_sequence;
  return read;
}

void StreamLog::Clear() {
  MutexLock lock(mu_);
  streams_.clear();
}

}  // namespace ddb::engine
