// DynamoDB Streams in the engine: what a stream is, its shards, and the
// records a table's writes append to it.
//
// A table with a stream enabled appends one StreamRecord per changed item,
// in the same write batch as the change (Database::AddMutation). Records of
// one stream are numbered by one counter — the sequence number — so a shard
// is a contiguous range of sequence numbers: the open shard runs from its
// first number on, a closed one ends at `last_sequence`, and its child
// starts right after. That keeps "in order per shard, shards in lineage
// order" the same as "in sequence order".
//
// Storage (persisted — do not change; docs/storage.md):
//   streams family: stream_id:u64be sequence:u64be -> EncodeStreamRecord's bytes
//   catalog:        "x" stream_id:u64be            -> EncodeStreamInfo
//                   (catalog_codec.cc)
//
// Thread safety: StreamRecord, StreamShard and StreamInfo are plain values;
// StreamState is shared between threads as annotated.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog.h"
#include "engine/status.h"

namespace ddb::engine {

// Do not reorder: persisted.
enum class StreamEventName : uint8_t { kInsert, kModify, kRemove };

struct StreamRecord {
  uint64_t sequence = 0;
  StreamEventName event = StreamEventName::kInsert;
  int64_t created_millis = 0;
  bool by_ttl = false;  // deleted by TTL: the record names the service
  Item keys;
  std::optional<Item> old_image;  // as the stream's view type keeps them
  std::optional<Item> new_image;
};

struct StreamShard {
  std::string shard_id;         // "shardId-<20 digits>-<8 hex>"
  std::string parent_shard_id;  // empty for a stream's first shard
  uint64_t first_sequence = 0;
  uint64_t last_sequence = 0;  // when closed: the last record's sequence number
  bool closed = false;
  int64_t created_millis = 0;
};

// A stream as the catalog keeps it: what DescribeStream and ListStreams
// show, and where its records start.
struct StreamInfo {
  uint64_t stream_id = 0;  // prefixes its records; never reused
  std::string ns;
  std::string table_name;
  uint64_t table_id = 0;
  std::string label;      // StreamLabel; the ARN ends in "/stream/<label>"
  std::string view_type;  // StreamViewType
  KeySchema key;          // the table's key
  int64_t created_millis = 0;
  int64_t disabled_millis = 0;  // 0 while enabled
  uint64_t trim_horizon = 1;    // the first sequence number not yet trimmed
  std::vector<StreamShard> shards;  // oldest first; the last is open while enabled

  bool enabled() const { return disabled_millis == 0; }
};

// The in-memory state of one stream. `info` changes under `mu` (rollover,
// disabling, trimming — each also holding the table's write lock when the
// table is live); `next_sequence` is advanced by writers under the table's
// write lock once their batch is written, so every number below it is
// readable.
struct StreamState {
  explicit StreamState(StreamInfo info, uint64_t next)
      : info(std::move(info)), next_sequence(next) {}

  std::mutex mu;
  StreamInfo info;  // guarded by mu
  std::atomic<uint64_t> next_sequence;
};

// The storage key of a record, and the prefix of all a stream's records.
std::string StreamRecordKey(uint64_t stream_id, uint64_t sequence);
std::string StreamPrefix(uint64_t stream_id);

// The stored record of replacing `old_item` by `new_item` (either may be
// null, not both), with the images `view_type` keeps; nullopt when nothing
// changed, as DynamoDB writes no record then. Encodes straight from the
// items the write holds, without copying them.
std::optional<std::string> EncodeStreamRecord(const TableSchema& schema,
                                              std::string_view view_type, const Item* old_item,
                                              const Item* new_item, int64_t created_millis,
                                              bool by_ttl);
// `sequence` comes from the key. kInternal if not written by the encoder.
Result<StreamRecord> DecodeStreamRecord(std::string_view bytes, uint64_t sequence);

// DynamoDB's SizeBytes of a record: its keys and images.
size_t StreamRecordSize(const StreamRecord& record);

// Sequence numbers as the API shows them: 21 decimal digits, "1" and the
// number zero-padded to 20, so that they sort as numbers and as strings.
std::string SequenceNumberText(uint64_t sequence);
// nullopt when `text` is not one of ours.
std::optional<uint64_t> ParseSequenceNumber(std::string_view text);

// A shard id in DynamoDB's form, unique per (stream, shard number).
std::string ShardId(int64_t created_millis, uint64_t stream_id, size_t shard_number);

}  // namespace ddb::engine
