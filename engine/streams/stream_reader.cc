#include "engine/streams/stream_reader.h"

namespace ddb::engine {

std::vector<StreamDescription> StreamReader::List(std::string_view ns,
                                                  std::string_view table) const {
  return streams_.List(ns, table);
}

Result<StreamDescription> StreamReader::Describe(std::string_view ns, std::string_view table,
                                                 std::string_view label, StreamKind kind) const {
  return streams_.Describe(ns, table, label, kind);
}

Result<ShardRead> StreamReader::Read(std::string_view ns, std::string_view table,
                                     std::string_view label, std::string_view shard_id,
                                     uint64_t position, size_t limit, size_t max_bytes,
                                     StreamKind kind) const {
  return streams_.Read(ns, table, label, shard_id, position, limit, max_bytes, kind);
}

Result<std::string> StreamReader::KinesisFeedLabel(std::string_view ns,
                                                   std::string_view table) const {
  std::string label;
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, table, [&](TableState& state) {
    state.write_mu.AssertHeld();  // by WithTableLocked
    if (state.kinesis_feed) label = state.kinesis_feed->label;
    return Status::Ok();
  }));
  return label;
}

uint64_t StreamReader::Writes() const { return streams_.Writes(); }

void StreamReader::WaitForWrites(uint64_t seen, int64_t timeout_millis) const {
  streams_.WaitForWrites(seen, timeout_millis);
}

}  // namespace ddb::engine
