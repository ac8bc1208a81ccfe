#include "engine/catalog/catalog_codec.h"

#include "engine/coding.h"
#include "engine/streams/stream.h"

namespace ddb::engine {
namespace {

constexpr uint32_t kSchemaFormatVersion = 5;

// One visitor per direction keeps the field order defined once: Encode and
// Decode both call Fields(), so they cannot drift apart.
class Writer {
 public:
  void Field(const std::string& s) { coding::PutString(&out_, s); }
  void Field(int64_t v) { coding::PutVarint(&out_, static_cast<uint64_t>(v)); }
  void Field(uint64_t v) { coding::PutVarint(&out_, v); }
  void Field(uint32_t v) { coding::PutVarint(&out_, v); }
  void Field(bool v) { out_.push_back(v ? 1 : 0); }
  template <class E>
    requires std::is_enum_v<E>
  void Field(E v) {
    out_.push_back(static_cast<char>(v));
  }
  template <class T>
  void Field(const std::vector<T>& values) {
    coding::PutVarint(&out_, values.size());
    for (const auto& v : values) Fields(*this, const_cast<T&>(v));
  }
  void Field(const std::vector<std::string>& values) {
    coding::PutVarint(&out_, values.size());
    for (const auto& v : values) Field(v);
  }
  // A schema inside another value (a backup's): its own versioned bytes.
  void Field(const TableSchema& schema) { Field(EncodeTableSchema(schema)); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  void Field(std::string& s) { in_.GetString(&s); }
  void Field(int64_t& v) { in_.GetInt64(&v); }
  void Field(uint64_t& v) { in_.GetVarint(&v); }
  void Field(uint32_t& v) {
    uint64_t wide = 0;
    in_.GetVarint(&wide);
    v = static_cast<uint32_t>(wide);
  }
  void Field(bool& v) { in_.GetBool(&v); }
  template <class E>
    requires std::is_enum_v<E>
  void Field(E& v) {
    uint8_t b = 0;
    in_.GetByte(&b);
    v = static_cast<E>(b);
  }
  template <class T>
  void Field(std::vector<T>& values) {
    uint64_t count = 0;
    if (!GetCount(&count)) return;
    values.resize(count);
    for (auto& v : values) Fields(*this, v);
  }
  void Field(std::vector<std::string>& values) {
    uint64_t count = 0;
    if (!GetCount(&count)) return;
    values.resize(count);
    for (auto& v : values) Field(v);
  }
  void Field(TableSchema& schema) {
    std::string bytes;
    Field(bytes);
    auto decoded = DecodeTableSchema(bytes);
    if (decoded.ok()) {
      schema = std::move(*decoded);
    } else {
      corrupt_ = true;
    }
  }
  coding::Reader& in() { return in_; }
  // Whether a vector's count exceeded the bytes left (then decoding stops)
  // or a nested schema did not decode.
  bool corrupt() const { return corrupt_; }

 private:
  // Every element takes at least one byte, so a larger count is corrupt.
  bool GetCount(uint64_t* count) {
    if (!in_.GetVarint(count)) return false;
    if (*count > in_.remaining()) corrupt_ = true;
    return !corrupt_;
  }

  coding::Reader in_;
  bool corrupt_ = false;
};

template <class V>
void Fields(V& v, KeyElement& e) {
  v.Field(e.name);
  v.Field(e.type);
}

template <class V>
void Fields(V& v, std::pair<std::string, std::string>& tag) {
  v.Field(tag.first);
  v.Field(tag.second);
}

template <class V>
void Fields(V& v, ProvisionedThroughput& t) {
  v.Field(t.read_capacity_units);
  v.Field(t.write_capacity_units);
  v.Field(t.last_increase_millis);
  v.Field(t.last_decrease_millis);
  v.Field(t.decreases_today);
}

template <class V>
void Fields(V& v, IndexSchema& index) {
  v.Field(index.name);
  v.Field(index.index_id);
  v.Field(index.is_local);
  v.Field(index.key.hash);
  v.Field(index.key.range);
  v.Field(index.projection.type);
  v.Field(index.projection.non_key_attributes);
  Fields(v, index.throughput);
  v.Field(index.status);
  v.Field(index.backfilling);
}

template <class V>
void Fields(V& v, TableSchema& s) {
  v.Field(s.table_id);
  v.Field(s.table_uuid);
  v.Field(s.name);
  v.Field(s.creation_millis);
  v.Field(s.key.hash);
  v.Field(s.key.range);
  v.Field(s.attribute_definitions);
  v.Field(s.billing_mode);
  v.Field(s.pay_per_request_since_millis);
  Fields(v, s.throughput);
  v.Field(s.global_indexes);
  v.Field(s.local_indexes);
  v.Field(s.next_index_id);
  v.Field(s.stream.enabled);
  v.Field(s.stream.view_type);
  v.Field(s.stream.label);
  v.Field(s.sse.enabled);
  v.Field(s.sse.sse_type);
  v.Field(s.sse.kms_key_arn);
  v.Field(s.tags);
  v.Field(s.table_class);
  v.Field(s.deletion_protection);
  v.Field(s.status);
  v.Field(s.ttl_attribute);
}

template <class V>
void Fields(V& v, StreamShard& shard) {
  v.Field(shard.shard_id);
  v.Field(shard.parent_shard_id);
  v.Field(shard.first_sequence);
  v.Field(shard.last_sequence);
  v.Field(shard.closed);
  v.Field(shard.created_millis);
}

template <class V>
void Fields(V& v, StreamInfo& info) {
  v.Field(info.stream_id);
  v.Field(info.ns);
  v.Field(info.table_name);
  v.Field(info.table_id);
  v.Field(info.label);
  v.Field(info.view_type);
  v.Field(info.key.hash);
  v.Field(info.key.range);
  v.Field(info.created_millis);
  v.Field(info.disabled_millis);
  v.Field(info.trim_horizon);
  v.Field(info.shards);
}

constexpr uint32_t kStreamInfoFormatVersion = 2;

// Appended in version 2.
template <class V>
void FieldsSinceVersion2(V& v, TableSchema& s) {
  v.Field(s.point_in_time_recovery.enabled);
  v.Field(s.point_in_time_recovery.enabled_since_millis);
  v.Field(s.point_in_time_recovery.recovery_period_days);
}

template <class V>
void Fields(V& v, OnDemandThroughput& t) {
  v.Field(t.max_read_request_units);
  v.Field(t.max_write_request_units);
}

template <class V>
void Fields(V& v, WarmThroughput& t) {
  v.Field(t.read_units_per_second);
  v.Field(t.write_units_per_second);
}

template <class V>
void Fields(V& v, SearchSchemaElement& e) {
  v.Field(e.name);
  v.Field(e.type);
  v.Field(e.scalar_type);
}

template <class V>
void Fields(V& v, VectorIndexSchema& index) {
  v.Field(index.name);
  v.Field(index.index_id);
  v.Field(index.vector_attribute);
  v.Field(index.dimensions);
  v.Field(index.distance);
  v.Field(index.projection.type);
  v.Field(index.projection.non_key_attributes);
  v.Field(index.search_schema);
  v.Field(index.status);
  v.Field(index.backfilling);
}

// Appended in version 3: on-demand maximums and warm throughput, the table's
// and then each global index's, in the order version 1 stored the indexes;
// then the vector indexes.
template <class V>
void FieldsSinceVersion3(V& v, TableSchema& s) {
  Fields(v, s.on_demand);
  Fields(v, s.warm);
  for (IndexSchema& index : s.global_indexes) {
    Fields(v, index.on_demand);
    Fields(v, index.warm);
  }
  v.Field(s.vector_indexes);
}

template <class V>
void Fields(V& v, ResourcePolicy& policy) {
  v.Field(policy.stream_label);
  v.Field(policy.document);
  v.Field(policy.revision_id);
}

template <class V>
void Fields(V& v, ContributorInsights& insights) {
  v.Field(insights.index_name);
  v.Field(insights.enabled);
  v.Field(insights.mode);
  v.Field(insights.last_update_millis);
  v.Field(insights.rules_created_millis);
}

template <class V>
void Fields(V& v, KinesisDestination& destination) {
  v.Field(destination.stream_arn);
  v.Field(destination.enabled);
  v.Field(destination.precision);
  v.Field(destination.changed_millis);
  v.Field(destination.last_change);
}

// Appended in version 4: where a restored table came from, the
// resource-based policies, Contributor Insights and Kinesis destinations.
template <class V>
void FieldsSinceVersion4(V& v, TableSchema& s) {
  v.Field(s.restored_from.backup_arn);
  v.Field(s.restored_from.table_arn);
  v.Field(s.restored_from.restore_millis);
  v.Field(s.resource_policies);
  v.Field(s.contributor_insights);
  v.Field(s.kinesis_destinations);
}

template <class V>
void Fields(V& v, Replica& replica) {
  v.Field(replica.region);
  v.Field(replica.ns);
  v.Field(replica.created_millis);
  v.Field(replica.read_capacity_override);
  v.Field(replica.max_read_request_units_override);
  v.Field(replica.table_class_override);
}

// Appended in version 5: the global table's replicas, its consistency and
// its witnesses.
template <class V>
void FieldsSinceVersion5(V& v, TableSchema& s) {
  v.Field(s.replicas);
  v.Field(s.strong_consistency);
  v.Field(s.witnesses);
}

// The envelope every versioned catalog value shares: the format version,
// then the fields `fields(visitor, value, version)` visits for it.
template <class T, class FieldsOf>
std::string EncodeVersioned(uint32_t version, const T& value, FieldsOf fields) {
  Writer w;
  w.Field(version);
  fields(w, const_cast<T&>(value), version);
  return w.Take();
}

// kInternal ("stored <what> is corrupt") for an unknown version, bytes
// left over or a count past the end.
template <class T, class FieldsOf>
Result<T> DecodeVersioned(std::string_view bytes, uint32_t oldest, uint32_t newest,
                          std::string_view what, FieldsOf fields) {
  Reader r(bytes);
  uint32_t version = 0;
  r.Field(version);
  T value;
  bool known = version >= oldest && version <= newest;
  if (known) fields(r, value, version);
  if (!known || !r.in().done() || r.corrupt()) {
    return Status::Internal("stored " + std::string(what) + " is corrupt");
  }
  return value;
}

template <class V>
void SchemaFields(V& v, TableSchema& s, uint32_t version) {
  Fields(v, s);
  if (version >= 2) FieldsSinceVersion2(v, s);
  if (version >= 3) FieldsSinceVersion3(v, s);
  if (version >= 4) FieldsSinceVersion4(v, s);
  if (version >= 5) FieldsSinceVersion5(v, s);
}

constexpr uint32_t kBackupInfoFormatVersion = 1;

template <class V>
void Fields(V& v, TableStats& stats) {
  v.Field(stats.item_count);
  v.Field(stats.size_bytes);
}

template <class V>
void Fields(V& v, std::pair<uint32_t, TableStats>& index_stats) {
  v.Field(index_stats.first);
  Fields(v, index_stats.second);
}

template <class V>
void BackupInfoFields(V& v, BackupInfo& b) {
  v.Field(b.ns);
  v.Field(b.backup_id);
  v.Field(b.name);
  v.Field(b.created_millis);
  v.Field(b.data_id);
  v.Field(b.schema);
  Fields(v, b.stats);
  v.Field(b.index_stats);
}

template <class V>
void StreamInfoFields(V& v, StreamInfo& info, uint32_t version) {
  Fields(v, info);
  // Appended in version 2: which feed of its table the stream is.
  if (version >= 2) v.Field(info.kind);
}

}  // namespace

std::string EncodeTableSchema(const TableSchema& schema) {
  return EncodeVersioned(kSchemaFormatVersion, schema,
                         [](auto& v, TableSchema& s, uint32_t version) { SchemaFields(v, s, version); });
}

Result<TableSchema> DecodeTableSchema(std::string_view bytes) {
  return DecodeVersioned<TableSchema>(
      bytes, 1, kSchemaFormatVersion, "table schema",
      [](auto& v, TableSchema& s, uint32_t version) { SchemaFields(v, s, version); });
}

std::string EncodeBackupInfo(const BackupInfo& info) {
  return EncodeVersioned(kBackupInfoFormatVersion, info,
                         [](auto& v, BackupInfo& b, uint32_t) { BackupInfoFields(v, b); });
}

Result<BackupInfo> DecodeBackupInfo(std::string_view bytes) {
  return DecodeVersioned<BackupInfo>(
      bytes, kBackupInfoFormatVersion, kBackupInfoFormatVersion, "backup",
      [](auto& v, BackupInfo& b, uint32_t) { BackupInfoFields(v, b); });
}

std::string EncodeTableStats(const TableStats& stats) {
  std::string out;
  coding::PutVarint(&out, static_cast<uint64_t>(stats.item_count));
  coding::PutVarint(&out, static_cast<uint64_t>(stats.size_bytes));
  return out;
}

Result<TableStats> DecodeTableStats(std::string_view bytes) {
  coding::Reader in(bytes);
  TableStats stats;
  if (!in.GetInt64(&stats.item_count) || !in.GetInt64(&stats.size_bytes) || !in.done()) {
    return Status::Internal("stored table statistics are corrupt");
  }
  return stats;
}

std::string EncodeStreamInfo(const StreamInfo& info) {
  return EncodeVersioned(
      kStreamInfoFormatVersion, info,
      [](auto& v, StreamInfo& i, uint32_t version) { StreamInfoFields(v, i, version); });
}

Result<StreamInfo> DecodeStreamInfo(std::string_view bytes) {
  auto info = DecodeVersioned<StreamInfo>(
      bytes, 1, kStreamInfoFormatVersion, "stream description",
      [](auto& v, StreamInfo& i, uint32_t version) { StreamInfoFields(v, i, version); });
  if (info.ok() && info->shards.empty()) {
    return Status::Internal("stored stream description is corrupt");
  }
  return info;
}

}  // namespace ddb::engine
