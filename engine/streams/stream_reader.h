// StreamReader: what the layers above read of streams — DynamoDB streams
// and the Kinesis feeds of tables with a streaming destination: their
// descriptions, a shard's records, and a wait for new ones. The writing
// side (records appended in each write's batch, rollover and trimming) is
// the stream log's and Housekeeping's.
//
// State: none of its own (stream_log.h keeps the streams).
// Lock: the stream log's; KinesisFeedLabel takes the table's write_mu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/streams/stream.h"
#include "engine/streams/stream_log.h"
#include "engine/tables/table_registry.h"

namespace ddb::engine {

class StreamReader {
 public:
  StreamReader(const StreamLog& streams, const TableRegistry& tables)
      : streams_(streams), tables_(tables) {}

  // The DynamoDB streams in `ns` (of `table` only, unless empty), ordered
  // by table name and creation.
  std::vector<StreamDescription> List(std::string_view ns, std::string_view table) const;
  // A DynamoDB stream, or (by `kind`) a Kinesis feed (stream.h).
  Result<StreamDescription> Describe(std::string_view ns, std::string_view table,
                                     std::string_view label,
                                     StreamKind kind = StreamKind::kDynamoDb) const;
  // Records of one shard from `position` on, at most `limit` and about
  // `max_bytes`. kNotFound for an unknown stream or shard; kTrimmedData if
  // `position` was trimmed. An empty `shard_id` reads the whole stream.
  Result<ShardRead> Read(std::string_view ns, std::string_view table, std::string_view label,
                         std::string_view shard_id, uint64_t position, size_t limit,
                         size_t max_bytes, StreamKind kind = StreamKind::kDynamoDb) const;
  // The label of the table's current Kinesis feed, "" while it has none;
  // kNotFound for no such table.
  Result<std::string> KinesisFeedLabel(std::string_view ns, std::string_view table) const;
  // How many writes have appended stream records, and a wait until that
  // count passes `seen`: how consumers learn of new records without polling.
  uint64_t Writes() const;
  void WaitForWrites(uint64_t seen, int64_t timeout_millis) const;

 private:
  const StreamLog& streams_;
  const TableRegistry& tables_;
};

}  // namespace ddb::engine
