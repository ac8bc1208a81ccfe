// Database's side of DynamoDB Streams: starting and stopping a table's
// stream, appending records in the writer's batch, shard rollover,
// trimming, and the reads behind the Streams API. Also the settings store.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <chrono>
#include <tuple>

#include "engine/catalog_codec.h"
#include "engine/clock.h"
#include "engine/coding.h"
#include "engine/database.h"
#include "engine/key_codec.h"
#include "engine/table_state.h"

namespace ddb::engine {
namespace {

// Catalog keys (persisted — do not change):
//   "x" stream_id:u64be -> EncodeStreamInfo
//   "a" key             -> a setting's value
//   "m:next_stream_id"  -> varint
constexpr std::string_view kNextStreamIdKey = "m:next_stream_id";

std::string StreamInfoKey(uint64_t stream_id) { return "x" + StreamPrefix(stream_id); }
std::string SettingKey(std::string_view key) { return "a" + std::string(key); }

void PutStreamInfo(const StreamInfo& info, Store::Batch& batch) {
  batch.Put(Family::kCatalog, StreamInfoKey(info.stream_id), EncodeStreamInfo(info));
}

// A stream label is the creation time as ISO 8601 with milliseconds.
std::string StreamLabel(int64_t millis) { return IsoMillis(millis); }

StreamShard NewShard(const StreamInfo& info, uint64_t first_sequence, int64_t now) {
  StreamShard shard;
  shard.shard_id = ShardId(now, info.stream_id, info.shards.size());
  if (!info.shards.empty()) shard.parent_shard_id = info.shards.back().shard_id;
  shard.first_sequence = first_sequence;
  shard.created_millis = now;
  return shard;
}

}  // namespace

std::shared_ptr<StreamState> Database::StartStream(std::string_view ns, TableSchema& schema,
                                                   Store::Batch& batch) {
  // Labels name streams within a table name, also across a deleted and
  // re-created table and a clock moved back: later than all before.
  int64_t now = clock_.NowMillis();
  StreamInfo info;
  {
    std::lock_guard lock(streams_mu_);
    info.stream_id = next_stream_id_++;
    for (const auto& [id, stream] : streams_) {
      if (stream->info.ns == ns && stream->info.table_name == schema.name) {
        now = std::max(now, stream->info.created_millis + 1);
      }
    }
  }
  schema.stream.label = StreamLabel(now);
  std::string next_id;
  coding::PutVarint(&next_id, info.stream_id + 1);
  batch.Put(Family::kCatalog, kNextStreamIdKey, next_id);
  info.ns = std::string(ns);
  info.table_name = schema.name;
  info.table_id = schema.table_id;
  info.label = schema.stream.label;
  info.view_type = schema.stream.view_type;
  info.key = schema.key;
  info.created_millis = now;
  info.shards.push_back(NewShard(info, 1, now));
  PutStreamInfo(info, batch);
  return std::make_shared<StreamState>(std::move(info), 1);
}

void Database::RegisterStream(std::shared_ptr<StreamState> stream) {
  std::lock_guard lock(streams_mu_);
  uint64_t id = stream->info.stream_id;
  streams_[id] = std::move(stream);
}

void Database::StopStream(StreamState& stream, Store::Batch& batch) {
  std::lock_guard lock(stream.mu);
  StreamInfo& info = stream.info;
  info.disabled_millis = std::max<int64_t>(clock_.NowMillis(), 1);
  StreamShard& open = info.shards.back();
  if (!open.closed) {
    open.closed = true;
    open.last_sequence = stream.next_sequence - 1;
  }
  PutStreamInfo(info, batch);
}

Status Database::LoadStreams() {
  auto next_id = store_->Get(Family::kCatalog, kNextStreamIdKey);
  if (!next_id.ok()) return next_id.status();
  if (next_id->has_value()) {
    coding::Reader in(**next_id);
    if (!in.GetVarint(&next_stream_id_)) return Status::Internal("catalog is corrupt");
  }
  auto it = store_->NewIterator(Family::kCatalog, "x", "y");
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto info = DecodeStreamInfo(it->value());
    if (!info.ok()) return info.status();
    // The next number follows the last record written; with every record
    // trimmed, the trim horizon and the open shard's start say where.
    uint64_t next = std::max(info->trim_horizon, info->shards.back().first_sequence);
    std::string prefix = StreamPrefix(info->stream_id);
    auto records = store_->NewIterator(Family::kStreams, prefix, PrefixSuccessor(prefix));
    records->SeekToLast();
    if (records->Valid()) {
      next = std::max(next, coding::DecodeFixed64BE(records->key().substr(8)) + 1);
    }
    DDB_RETURN_IF_ERROR(records->status());
    auto stream = std::make_shared<StreamState>(std::move(info).value(), next);
    auto table = tables_by_id_.find(stream->info.table_id);
    if (stream->info.enabled() && table != tables_by_id_.end()) table->second->stream = stream;
    // The stored counter may trail a stream written by a concurrent
    // UpdateTable's batch; never hand out an id in use.
    next_stream_id_ = std::max(next_stream_id_, stream->info.stream_id + 1);
    streams_[stream->info.stream_id] = std::move(stream);
  }
  DDB_RETURN_IF_ERROR(it->status());
  // Tables whose schema says "stream enabled" without a stream behind it
  // (written before streams were kept): give them one now.
  for (auto& [id, state] : tables_by_id_) {
    if (!state->schema()->stream.enabled || state->stream) continue;
    TableSchema schema = *state->schema();
    Store::Batch batch(*store_);
    auto stream = StartStream(state->ns, schema, batch);
    batch.Put(Family::kCatalog, "t" + state->ns + std::string(1, '\0') + schema.name,
              EncodeTableSchema(schema));
    DDB_RETURN_IF_ERROR(store_->Write(batch));
    state->set_schema(std::make_shared<const TableSchema>(std::move(schema)));
    state->stream = stream;
    RegisterStream(std::move(stream));
  }
  return Status::Ok();
}

void Database::AppendStreamRecord(TableState& state, const TableSchema& schema,
                                  const Item* old_item, const Item* new_item, bool by_ttl,
                                  Store::Batch& batch, PendingStats& pending) {
  if (!state.stream) return;
  StreamState& stream = *state.stream;
  // The view type is fixed for a stream's life; no lock needed to read it.
  auto record = EncodeStreamRecord(schema, stream.info.view_type, old_item, new_item,
                                   clock_.NowMillis(), by_ttl);
  if (!record) return;
  if (pending.next_sequence == 0) pending.next_sequence = stream.next_sequence;
  uint64_t sequence = pending.next_sequence++;
  batch.Put(Family::kStreams, StreamRecordKey(stream.info.stream_id, sequence), *record);
}

void Database::NoteStreamWrites(const PendingStats& pending) {
  if (pending.next_sequence == 0) return;
  {
    std::lock_guard lock(stream_writes_mu_);
    ++stream_writes_;
  }
  stream_writes_cv_.notify_all();
}

uint64_t Database::StreamWrites() const {
  std::lock_guard lock(stream_writes_mu_);
  return stream_writes_;
}

void Database::WaitForStreamWrites(uint64_t seen, int64_t timeout_millis) const {
  std::unique_lock lock(stream_writes_mu_);
  stream_writes_cv_.wait_for(lock, std::chrono::milliseconds(timeout_millis),
                             [&] { return stream_writes_ != seen; });
}

std::shared_ptr<TableState> Database::FindTableById(uint64_t table_id) const {
  std::shared_lock lock(catalog_mu_);
  auto it = tables_by_id_.find(table_id);
  return it == tables_by_id_.end() ? nullptr : it->second;
}

std::shared_ptr<StreamState> Database::FindStream(std::string_view ns, std::string_view table,
                                                  std::string_view label) const {
  std::lock_guard lock(streams_mu_);
  for (const auto& [id, stream] : streams_) {
    // ns, table name and label are constant for a stream's life.
    const StreamInfo& info = stream->info;
    if (info.ns == ns && info.table_name == table && info.label == label) return stream;
  }
  return nullptr;
}

Status Database::MaintainStreams() {
  std::lock_guard maintenance(maintenance_mu_);
  int64_t now = clock_.NowMillis();
  Status first_error = Status::Ok();
  // One stream's trouble (say, a corrupt record) must not stop the others'.
  auto note = [&](Status status) {
    if (!status.ok() && first_error.ok()) first_error = std::move(status);
  };
  std::vector<std::shared_ptr<StreamState>> streams;
  {
    std::lock_guard lock(streams_mu_);
    for (const auto& [id, stream] : streams_) streams.push_back(stream);
  }
  for (const auto& stream : streams) {
    auto table = FindTableById(stream->info.table_id);
    if (table) {
      std::lock_guard write_lock(table->write_mu);
      if (!table->dropped && table->stream == stream) note(RollShard(*stream, now));
    }
    note(TrimStream(*stream, now));
    int64_t disabled = 0;
    {
      std::lock_guard lock(stream->mu);
      disabled = stream->info.disabled_millis;
    }
    if (disabled != 0 && disabled + options_.stream_retention_millis <= now) {
      uint64_t id = stream->info.stream_id;
      Store::Batch batch(*store_);
      batch.Delete(Family::kCatalog, StreamInfoKey(id));
      batch.DeleteRange(Family::kStreams, StreamPrefix(id), PrefixSuccessor(StreamPrefix(id)));
      Status written = store_->Write(batch);
      note(written);
      if (!written.ok()) continue;
      std::lock_guard lock(streams_mu_);
      streams_.erase(id);
    }
  }
  return first_error;
}

Status Database::RollShard(StreamState& stream, int64_t now) {
  std::lock_guard lock(stream.mu);
  StreamInfo& info = stream.info;
  StreamShard& open = info.shards.back();
  if (open.closed || now - open.created_millis < options_.shard_rollover_millis) return Status::Ok();
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
  Store::Batch batch(*store_);
  PutStreamInfo(info, batch);
  return store_->Write(batch);
}

Status Database::TrimStream(StreamState& stream, int64_t now) {
  uint64_t id = stream.info.stream_id;
  uint64_t horizon = 0;
  {
    std::lock_guard lock(stream.mu);
    horizon = stream.info.trim_horizon;
  }
  int64_t cutoff = now - options_.stream_retention_millis;
  uint64_t new_horizon = horizon;
  auto it = store_->NewIterator(Family::kStreams, StreamRecordKey(id, horizon),
                                PrefixSuccessor(StreamPrefix(id)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    uint64_t sequence = coding::DecodeFixed64BE(it->key().substr(8));
    auto record = DecodeStreamRecord(it->value(), sequence);
    if (!record.ok()) return record.status();
    if (record->created_millis >= cutoff) break;
    new_horizon = sequence + 1;
  }
  DDB_RETURN_IF_ERROR(it->status());
  if (new_horizon == horizon) return Status::Ok();
  std::lock_guard lock(stream.mu);
  StreamInfo& info = stream.info;
  if (new_horizon <= info.trim_horizon) return Status::Ok();  // the horizon only moves on
  horizon = info.trim_horizon;
  info.trim_horizon = new_horizon;
  // Closed shards whose every record is gone leave the stream's
  // description; the last shard stays, so a stream always has one.
  auto gone = std::remove_if(info.shards.begin(), info.shards.end() - 1, [&](const StreamShard& s) {
    return s.closed && s.last_sequence < new_horizon;
  });
  info.shards.erase(gone, info.shards.end() - 1);
  Store::Batch batch(*store_);
  batch.DeleteRange(Family::kStreams, StreamRecordKey(id, horizon), StreamRecordKey(id, new_horizon));
  PutStreamInfo(info, batch);
  return store_->Write(batch);
}

std::vector<StreamDescription> Database::ListStreams(std::string_view ns,
                                                     std::string_view table) const {
  std::vector<std::shared_ptr<StreamState>> streams;
  {
    std::lock_guard lock(streams_mu_);
    for (const auto& [id, stream] : streams_) {
      if (stream->info.ns == ns && (table.empty() || stream->info.table_name == table)) {
        streams.push_back(stream);
      }
    }
  }
  std::vector<StreamDescription> described;
  for (const auto& stream : streams) {
    std::lock_guard lock(stream->mu);
    described.push_back({stream->info, stream->next_sequence});
  }
  std::sort(described.begin(), described.end(), [](const auto& a, const auto& b) {
    return std::tie(a.info.table_name, a.info.created_millis, a.info.stream_id) <
           std::tie(b.info.table_name, b.info.created_millis, b.info.stream_id);
  });
  return described;
}

Result<StreamDescription> Database::DescribeStream(std::string_view ns, std::string_view table,
                                                   std::string_view label) const {
  auto stream = FindStream(ns, table, label);
  if (!stream) return Status::NotFound("stream");
  std::lock_guard lock(stream->mu);
  return StreamDescription{stream->info, stream->next_sequence};
}

Result<ShardRead> Database::ReadShard(std::string_view ns, std::string_view table,
                                      std::string_view label, std::string_view shard_id,
                                      uint64_t position, size_t limit, size_t max_bytes) const {
  auto stream = FindStream(ns, table, label);
  if (!stream) return Status::NotFound("stream");
  StreamShard shard;
  uint64_t last_written = 0;
  {
    std::lock_guard lock(stream->mu);
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
  uint64_t id = stream->info.stream_id;
  if (position <= last_written) {
    auto it = store_->NewIterator(Family::kStreams, StreamRecordKey(id, position),
                                  StreamRecordKey(id, last_written + 1));
    size_t bytes = 0;
    for (it->SeekToFirst(); it->Valid() && read.records.size() < limit; it->Next()) {
      uint64_t sequence = coding::DecodeFixed64BE(it->key().substr(8));
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

Status Database::PutSetting(std::string_view key, std::string_view value) {
  Store::Batch batch(*store_);
  batch.Put(Family::kCatalog, SettingKey(key), value);
  return store_->Write(batch);
}

Status Database::DeleteSetting(std::string_view key) {
  Store::Batch batch(*store_);
  batch.Delete(Family::kCatalog, SettingKey(key));
  return store_->Write(batch);
}

Result<std::optional<std::string>> Database::GetSetting(std::string_view key) const {
  return store_->Get(Family::kCatalog, SettingKey(key));
}

Result<std::vector<std::pair<std::string, std::string>>> Database::ListSettings(
    std::string_view prefix) const {
  std::string begin = SettingKey(prefix);
  auto it = store_->NewIterator(Family::kCatalog, begin, PrefixSuccessor(begin));
  std::vector<std::pair<std::string, std::string>> settings;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    settings.emplace_back(std::string(it->key().substr(1)), std::string(it->value()));
  }
  DDB_RETURN_IF_ERROR(it->status());
  return settings;
}

}  // namespace ddb::engine
