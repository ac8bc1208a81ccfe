#include "api/streams/stream_json.h"

#include <cstdio>

#include "api/attribute_json.h"

namespace ddb::api {
namespace {

constexpr const char* kEventNames[] = {"INSERT", "MODIFY", "REMOVE"};

// 32 hex digits, unique per record of the database: the stream and the
// sequence number.
std::string EventId(uint64_t stream_id, uint64_t sequence) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(stream_id),
                static_cast<unsigned long long>(sequence));
  return buf;
}

}  // namespace

void WriteStreamRecord(JsonWriter& w, const engine::StreamRecord& record,
                       const engine::StreamInfo& stream, std::string_view region,
                       std::string_view stream_arn, RecordShape shape) {
  bool lambda = shape == RecordShape::kLambdaEvent;
  w.StartObject();
  w.Key("eventID");
  WriteString(w, EventId(stream.stream_id, record.sequence));
  w.Key("eventName");
  w.String(kEventNames[static_cast<int>(record.event)]);
  w.Key("eventVersion");
  w.String("1.1");
  w.Key("eventSource");
  w.String("aws:dynamodb");
  w.Key("awsRegion");
  WriteString(w, region);
  w.Key("dynamodb");
  w.StartObject();
  w.Key("ApproximateCreationDateTime");
  w.Int64(record.created_millis / 1000);
  WriteRecordImages(w, record);
  w.Key("SequenceNumber");
  WriteString(w, engine::SequenceNumberText(record.sequence));
  w.Key("SizeBytes");
  w.Uint64(engine::StreamRecordSize(record));
  w.Key("StreamViewType");
  WriteString(w, stream.view_type);
  w.EndObject();
  if (record.by_ttl) {
    w.Key("userIdentity");
    w.StartObject();
    w.Key(lambda ? "type" : "Type");
    w.String("Service");
    w.Key(lambda ? "principalId" : "PrincipalId");
    w.String("dynamodb.amazonaws.com");
    w.EndObject();
  }
  if (lambda) {
    w.Key("eventSourceARN");
    WriteString(w, stream_arn);
  }
  w.EndObject();
}

void WriteRecordImages(JsonWriter& w, const engine::StreamRecord& record) {
  w.Key("Keys");
  WriteItem(w, record.keys);
  if (record.new_image) {
    w.Key("NewImage");
    WriteItem(w, *record.new_image);
  }
  if (record.old_image) {
    w.Key("OldImage");
    WriteItem(w, *record.old_image);
  }
}

std::string StreamArn(std::string_view region, std::string_view account,
                      std::string_view table, std::string_view label) {
  std::string arn = "arn:aws:dynamodb:";
  arn.append(region).append(":").append(account).append(":table/");
  arn.append(table).append("/stream/").append(label);
  return arn;
}

std::optional<StreamArnParts> ParseStreamArn(std::string_view arn) {
  constexpr std::string_view kPrefix = "arn:aws:dynamodb:";
  if (!arn.starts_with(kPrefix)) return std::nullopt;
  std::string_view rest = arn.substr(kPrefix.size());
  // <region>:<account>:table/<table>/stream/<label>
  size_t region_end = rest.find(':');
  if (region_end == std::string_view::npos) return std::nullopt;
  size_t account_end = rest.find(':', region_end + 1);
  if (account_end == std::string_view::npos) return std::nullopt;
  rest = rest.substr(account_end + 1);
  if (!rest.starts_with("table/")) return std::nullopt;
  rest.remove_prefix(6);
  size_t stream = rest.find("/stream/");
  if (stream == std::string_view::npos || stream == 0) return std::nullopt;
  std::string_view label = rest.substr(stream + 8);
  if (label.empty()) return std::nullopt;
  return StreamArnParts{std::string(rest.substr(0, stream)), std::string(label)};
}

}  // namespace ddb::api
