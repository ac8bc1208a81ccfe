// DynamoDB Streams in the engine: what a stream is, its shards, and the
// records a table's writes append to it.
//
// A table with a stream enabled appends one StreamRecord per changed item,
// in the same write batch as the change (ItemWriter::AddMutation). Records of
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
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/mutex.h"
#include "engine/status.h"
#include "engine/thread_annotations.h"

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

// Which of a table's change feeds a stream is: its DynamoDB stream, the
// hidden feed its Kinesis Data Streams destination is fed from, or the one
// a global table's other replicas are brought up to date from (the table's
// own writes only, not those replicated into it). All are kept, numbered
// and trimmed alike; the Streams API sees only the first.
// Do not reorder: persisted.
enum class StreamKind { kDynamoDb, kKinesisFeed, kReplicationFeed };

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
  StreamKind kind = StreamKind::kDynamoDb;

  bool enabled() const { return disabled_millis == 0; }
};

// The in-memory state of one stream (StreamLog owns them). `info` changes
// under `mu` (rollover, disabling, trimming — each also holding the table's
// write lock while the stream is its table's enabled one); `next_sequence`
// is advanced by writers under the table's write lock once their batch is
// written, so every number below it is readable.
struct StreamState {
  explicit StreamState(StreamInfo stream_info, uint64_t next)
      : id(stream_info.stream_id),
        ns(stream_info.ns),
        table_name(stream_info.table_name),
        table_id(stream_info.table_id),
        label(stream_info.label),
        view_type(stream_info.view_type),
        created_millis(stream_info.created_millis),
        kind(stream_info.kind),
        info(std::move(stream_info)),
        next_sequence(next) {}

  // Fixed for the stream's life: readable without the lock.
  const uint64_t id;
  const std::string ns;
  const std::string table_name;
  const uint64_t table_id;
  const std::string label;
  const std::string view_type;
  const int64_t created_millis;
  const StreamKind kind;

  Mutex mu;
  StreamInfo info GUARDED_BY(mu);
  std::atomic<uint64_t> next_sequence;
};

// Whether `schema`'s writes feed a Kinesis destination: one is enabled
// (enabling, active or updating), so its records have somewhere to go.
bool FeedsKinesis(const TableSchema& schema);
// Whether `schema`'s table is a member of a global table, whose writes
// other replicas apply (replication.h).
inline bool FeedsReplication(const TableSchema& schema) { return !schema.replicas.empty(); }

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

// A shard id in DynamoDB's form, unique per (stream, first sequence number
// of the shard): shards of a stream are consecutive, non-empty ranges, so no
// two of them start at the same number.
std::string ShardId(int64_t created_millis, uint64_t stream_id, uint64_t first_sequence);

}  // namespace ddb::engine
