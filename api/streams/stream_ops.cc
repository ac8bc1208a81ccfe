// The DynamoDB Streams API (X-Amz-Target: DynamoDBStreams_20120810.<Op>):
// ListStreams, DescribeStream, GetShardIterator, GetRecords.
//
// A shard iterator is "<stream arn>|1|<base64 of shard id, position and
// creation time>": the position is the sequence number the next GetRecords
// starts at, and the creation time (by the emulator's clock) makes it expire
// after 15 minutes, as DynamoDB's do.
#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

#include "api/base64.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/streams/stream_json.h"
#include "api/tables/table_json.h"

namespace ddb::api {
namespace {

constexpr int64_t kIteratorLifetimeMillis = 15 * 60 * 1000;
constexpr size_t kMaxRecordBytes = 1024 * 1024;

std::string ArnOf(const Context& ctx, const engine::StreamInfo& info) {
  return StreamArn(ctx.caller.region, ctx.caller.account_id, info.table_name, info.label);
}

ApiError StreamNotFound(std::string_view arn) {
  return ApiError::ResourceNotFound("Requested resource not found: Stream: " + std::string(arn) +
                                    " not found");
}

ApiError ShardNotFound(std::string_view shard, std::string_view arn) {
  return ApiError::ResourceNotFound("Requested resource not found: Shard: " + std::string(shard) +
                                    " in Stream: " + std::string(arn) + " not found");
}

// Reads StreamArn (required) and the stream it names.
ApiResult<engine::StreamDescription> FindStream(Context& ctx, std::optional<std::string_view> arn) {
  Constraints constraints;
  constraints.NotNull(arn.has_value(), "streamArn");
  if (arn) constraints.Length(*arn, "streamArn", 37, 1024);
  if (!constraints.empty()) return constraints.ToError();
  auto parts = ParseStreamArn(*arn);
  if (!parts) return ApiError::Validation("Invalid StreamArn");
  auto stream = ctx.engine.streams().Describe(ctx.caller.ns, parts->table, parts->label);
  if (!stream.ok()) return StreamNotFound(*arn);
  return std::move(stream).value();
}

const engine::StreamShard* FindShard(const engine::StreamInfo& info, std::string_view shard_id) {
  for (const auto& shard : info.shards) {
    if (shard.shard_id == shard_id) return &shard;
  }
  return nullptr;
}

std::string StreamStatus(const engine::StreamInfo& info) {
  return info.enabled() ? "ENABLED" : "DISABLED";
}

struct ShardIterator {
  std::string arn;
  std::string shard_id;
  uint64_t position = 0;
  int64_t created_millis = 0;
};

std::string EncodeIterator(const ShardIterator& it) {
  std::string payload = it.shard_id + ":" + std::to_string(it.position) + ":" +
                        std::to_string(it.created_millis);
  return it.arn + "|1|" + Base64Encode(payload);
}

std::optional<ShardIterator> DecodeIterator(std::string_view text) {
  size_t bar = text.find('|');
  if (bar == std::string_view::npos || text.substr(bar, 3) != "|1|") return std::nullopt;
  auto payload = Base64Decode(text.substr(bar + 3));
  if (!payload) return std::nullopt;
  ShardIterator it;
  it.arn = std::string(text.substr(0, bar));
  size_t a = payload->find(':');
  size_t b = a == std::string::npos ? a : payload->find(':', a + 1);
  if (b == std::string::npos) return std::nullopt;
  it.shard_id = payload->substr(0, a);
  const char* end = payload->data() + payload->size();
  auto p = std::from_chars(payload->data() + a + 1, payload->data() + b, it.position);
  auto c = std::from_chars(payload->data() + b + 1, end, it.created_millis);
  if (p.ec != std::errc() || p.ptr != payload->data() + b || c.ec != std::errc() ||
      c.ptr != end || it.shard_id.empty()) {
    return std::nullopt;
  }
  return it;
}

void WriteShard(JsonWriter& w, const engine::StreamShard& shard) {
  w.StartObject();
  w.Key("ShardId");
  WriteString(w, shard.shard_id);
  w.Key("SequenceNumberRange");
  w.StartObject();
  w.Key("StartingSequenceNumber");
  WriteString(w, engine::SequenceNumberText(shard.first_sequence));
  if (shard.closed) {
    w.Key("EndingSequenceNumber");
    WriteString(w, engine::SequenceNumberText(std::max(shard.last_sequence, shard.first_sequence)));
  }
  w.EndObject();
  if (!shard.parent_shard_id.empty()) {
    w.Key("ParentShardId");
    WriteString(w, shard.parent_shard_id);
  }
  w.EndObject();
}

// One page of a list that ListStreams or DescribeStream answers: the
// entries [first, end) of it.
struct Page {
  size_t first = 0;
  size_t end = 0;
};

// The page after the entry whose key is `exclusive_start` (the last such;
// from the start when it is absent or names none), of at most `limit`
// entries (100 when absent). Entries follow it when end < items.size(), and
// the page's last key is then the LastEvaluated... one.
template <class T, class KeyOf>
Page PageAfter(const std::vector<T>& items, std::optional<std::string_view> exclusive_start,
               std::optional<int64_t> limit, KeyOf key_of) {
  Page page;
  if (exclusive_start) {
    for (size_t i = 0; i < items.size(); ++i) {
      if (key_of(items[i]) == *exclusive_start) page.first = i + 1;
    }
  }
  page.end = std::min(items.size(), page.first + static_cast<size_t>(limit.value_or(100)));
  return page;
}

// DescribeStream's ShardFilter: {Type, ShardId}, both optional in the model.
struct ShardFilter {
  std::optional<std::string_view> type;
  std::optional<std::string_view> shard_id;
};

ApiResult<ShardFilter> ReadShardFilter(const rapidjson::Value* json) {
  ShardFilter filter;
  if (!json) return filter;
  RequestReader r(*json);
  filter.type = r.String("Type");
  filter.shard_id = r.String("ShardId");
  if (r.failed()) return r.error();
  return filter;
}

}  // namespace

ApiResult<std::string> ListStreams(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = r.String("TableName");
  auto limit = r.Integer("Limit");
  auto start = r.String("ExclusiveStartStreamArn");
  if (r.failed()) return r.error();
  Constraints constraints;
  if (table) constraints.TableName(table);
  constraints.Range(limit, "limit", 1, 100);
  if (start) constraints.Length(*start, "exclusiveStartStreamArn", 37, 1024);
  if (!constraints.empty()) return constraints.ToError();
  // Inferred text, by analogy with DescribeStream's "Invalid StreamArn".
  if (start && !ParseStreamArn(*start)) {
    return ApiError::Validation("Invalid ExclusiveStartStreamArn");
  }
  auto streams = ctx.engine.streams().List(ctx.caller.ns, table.value_or(""));
  Page page = PageAfter(streams, start, limit,
                        [&](const auto& stream) { return ArnOf(ctx, stream.info); });
  return RenderObject([&](JsonWriter& w) {
    w.Key("Streams");
    w.StartArray();
    for (size_t i = page.first; i < page.end; ++i) {
      const engine::StreamInfo& info = streams[i].info;
      w.StartObject();
      w.Key("StreamArn");
      WriteString(w, ArnOf(ctx, info));
      w.Key("TableName");
      WriteString(w, info.table_name);
      w.Key("StreamLabel");
      WriteString(w, info.label);
      w.EndObject();
    }
    w.EndArray();
    if (page.end < streams.size()) {
      w.Key("LastEvaluatedStreamArn");
      WriteString(w, ArnOf(ctx, streams[page.end - 1].info));
    }
  });
}

ApiResult<std::string> DescribeStream(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = r.String("StreamArn");
  auto limit = r.Integer("Limit");
  auto start = r.String("ExclusiveStartShardId");
  const rapidjson::Value* filter_json = r.Object("ShardFilter");
  if (r.failed()) return r.error();
  auto filter = ReadShardFilter(filter_json);
  if (!filter.ok()) return filter.take_error();
  Constraints constraints;
  constraints.Range(limit, "limit", 1, 100);
  if (start) constraints.Length(*start, "exclusiveStartShardId", 28, 65);
  if (filter->type) {
    constraints.Enum(filter->type, "shardFilter.type", {"CHILD_SHARDS"});
  }
  if (filter->shard_id) constraints.Length(*filter->shard_id, "shardFilter.shardId", 28, 65);
  if (!constraints.empty()) return constraints.ToError();
  if (filter_json && (!filter->type || !filter->shard_id)) {
    // Inferred text: both members are optional in the model, but a filter
    // needs its type and the parent it filters by.
    return ApiError::Validation("ShardFilter must specify both Type and ShardId");
  }
  auto stream = FindStream(ctx, arn);
  if (!stream.ok()) return stream.take_error();
  const engine::StreamInfo& info = stream->info;
  // CHILD_SHARDS: the shards whose parent is the filter's shard (none when
  // it has no children yet, or names no shard of this stream).
  std::vector<engine::StreamShard> filtered;
  if (filter_json) {
    for (const auto& shard : info.shards) {
      if (shard.parent_shard_id == *filter->shard_id) filtered.push_back(shard);
    }
  }
  const std::vector<engine::StreamShard>& shards = filter_json ? filtered : info.shards;
  // The shards after ExclusiveStartShardId in id order, which is the list's
  // (an id begins with its shard's creation time): a listed id starts after
  // itself, an unlisted one where it would sort, none past the last shard.
  Page page;
  if (start) {
    while (page.first < shards.size() && shards[page.first].shard_id <= *start) ++page.first;
  }
  page.end = std::min(shards.size(), page.first + static_cast<size_t>(limit.value_or(100)));
  return RenderObject([&](JsonWriter& w) {
    w.Key("StreamDescription");
    w.StartObject();
    w.Key("StreamArn");
    WriteString(w, ArnOf(ctx, info));
    w.Key("StreamLabel");
    WriteString(w, info.label);
    w.Key("StreamStatus");
    WriteString(w, StreamStatus(info));
    w.Key("StreamViewType");
    WriteString(w, info.view_type);
    w.Key("CreationRequestDateTime");
    w.Double(static_cast<double>(info.created_millis) / 1000.0);
    w.Key("TableName");
    WriteString(w, info.table_name);
    w.Key("KeySchema");
    WriteKeySchema(w, info.key);
    w.Key("Shards");
    w.StartArray();
    for (size_t i = page.first; i < page.end; ++i) WriteShard(w, shards[i]);
    w.EndArray();
    if (page.end < shards.size()) {
      w.Key("LastEvaluatedShardId");
      WriteString(w, shards[page.end - 1].shard_id);
    }
    w.EndObject();
  });
}

ApiResult<std::string> GetShardIterator(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = r.String("StreamArn");
  auto shard_id = r.String("ShardId");
  auto type = r.String("ShardIteratorType");
  auto sequence_text = r.String("SequenceNumber");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(shard_id.has_value(), "shardId");
  if (shard_id) constraints.Length(*shard_id, "shardId", 28, 65);
  constraints.NotNull(type.has_value(), "shardIteratorType");
  constraints.Enum(type, "shardIteratorType",
                   {"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"});
  if (sequence_text) constraints.Length(*sequence_text, "sequenceNumber", 21, 40);
  if (!constraints.empty()) return constraints.ToError();
  bool by_sequence = *type == "AT_SEQUENCE_NUMBER" || *type == "AFTER_SEQUENCE_NUMBER";
  if (by_sequence && !sequence_text) {
    return ApiError::Validation("Must provide a SequenceNumber for ShardIteratorType " +
                                std::string(*type));
  }
  if (!by_sequence && sequence_text) {
    return ApiError::Validation("SequenceNumber must not be provided for ShardIteratorType " +
                                std::string(*type));
  }
  auto stream = FindStream(ctx, arn);
  if (!stream.ok()) return stream.take_error();
  const engine::StreamShard* shard = FindShard(stream->info, *shard_id);
  if (!shard) return ShardNotFound(*shard_id, *arn);

  uint64_t shard_end = shard->closed ? shard->last_sequence + 1 : stream->next_sequence;
  uint64_t position = 0;
  if (*type == "TRIM_HORIZON") {
    position = std::max(shard->first_sequence, stream->info.trim_horizon);
  } else if (*type == "LATEST") {
    position = shard_end;
  } else {
    auto sequence = engine::ParseSequenceNumber(*sequence_text);
    // A shard's StartingSequenceNumber is a valid position even while the
    // shard is still empty (shard_end == first_sequence): reading from it
    // waits for the shard's first record, as on DynamoDB.
    bool in_shard = sequence && *sequence >= shard->first_sequence &&
                    (*sequence < shard_end || *sequence == shard->first_sequence);
    if (!in_shard) {
      return ApiError::Validation("Invalid SequenceNumber: " + std::string(*sequence_text) +
                                  " is not in the range of shard " + std::string(*shard_id));
    }
    if (*sequence < stream->info.trim_horizon) {
      return ApiError::TrimmedDataAccess("The data you are trying to access has been trimmed");
    }
    position = *type == "AT_SEQUENCE_NUMBER" ? *sequence : *sequence + 1;
  }
  ShardIterator it{std::string(*arn), std::string(*shard_id), position,
                   ctx.db.clock().NowMillis()};
  return RenderObject([&](JsonWriter& w) {
    w.Key("ShardIterator");
    WriteString(w, EncodeIterator(it));
  });
}

ApiResult<std::string> GetRecords(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto iterator_text = r.String("ShardIterator");
  auto limit = r.Integer("Limit");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(iterator_text.has_value(), "shardIterator");
  if (iterator_text) constraints.Length(*iterator_text, "shardIterator", 1, 2048);
  constraints.Range(limit, "limit", 1, 1000);
  if (!constraints.empty()) return constraints.ToError();
  auto it = DecodeIterator(*iterator_text);
  auto parts = it ? ParseStreamArn(it->arn) : std::nullopt;
  if (!parts) return ApiError::Validation("Invalid ShardIterator");
  int64_t now = ctx.db.clock().NowMillis();
  if (now - it->created_millis > kIteratorLifetimeMillis) {
    return ApiError::ExpiredIterator("Shard iterator has expired");
  }
  auto read = ctx.engine.streams().Read(ctx.caller.ns, parts->table, parts->label, it->shard_id,
                                        it->position, static_cast<size_t>(limit.value_or(1000)),
                                        kMaxRecordBytes);
  if (!read.ok()) {
    switch (read.status().code()) {
      case engine::Status::Code::kTrimmedData:
        return ApiError::TrimmedDataAccess("The data you are trying to access has been trimmed");
      case engine::Status::Code::kNotFound:
        return read.status().message() == "shard" ? ShardNotFound(it->shard_id, it->arn)
                                                  : StreamNotFound(it->arn);
      default:
        return read.status();
    }
  }
  auto stream = ctx.engine.streams().Describe(ctx.caller.ns, parts->table, parts->label);
  if (!stream.ok()) return StreamNotFound(it->arn);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Records");
    w.StartArray();
    for (const auto& record : read->records) {
      WriteStreamRecord(w, record, stream->info, ctx.caller.region, it->arn,
                        RecordShape::kStreamsApi);
    }
    w.EndArray();
    if (!read->drained) {
      ShardIterator next{it->arn, it->shard_id, read->next_position, now};
      w.Key("NextShardIterator");
      WriteString(w, EncodeIterator(next));
    }
  });
}

}  // namespace ddb::api
