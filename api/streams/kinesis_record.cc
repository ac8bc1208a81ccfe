#include "api/streams/kinesis_record.h"

#include <cstdio>

#include "api/base64.h"
#include "api/streams/stream_json.h"
#include "api/transfer/md5.h"
#include "engine/key_codec.h"

namespace ddb::api {
namespace {

constexpr const char* kChangeNames[] = {"INSERT", "MODIFY", "REMOVE"};
constexpr std::string_view kShardId = "shardId-000000000000";

// A UUID-shaped id, the same each time one record is delivered, so that a
// consumer can drop a repeated delivery by it.
std::string EventUuid(const KinesisRecordSource& source, const engine::StreamRecord& record) {
  std::string hex = Md5Hex(Md5Of(std::to_string(source.feed_id) + ":" +
                                 std::to_string(record.sequence)));
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

void WriteData(JsonWriter& w, const KinesisRecordSource& source,
               const engine::StreamRecord& record) {
  bool micro = source.precision == "MICROSECOND";
  w.StartObject();
  w.Key("awsRegion");
  WriteString(w, source.region);
  w.Key("eventID");
  WriteString(w, EventUuid(source, record));
  w.Key("eventName");
  w.String(kChangeNames[static_cast<int>(record.event)]);
  w.Key("userIdentity");
  if (record.by_ttl) {
    w.StartObject();
    w.Key("type");
    w.String("Service");
    w.Key("principalId");
    w.String("dynamodb.amazonaws.com");
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("recordFormat");
  w.String("application/json");
  w.Key("tableName");
  WriteString(w, source.table);
  w.Key("dynamodb");
  w.StartObject();
  w.Key("ApproximateCreationDateTime");
  w.Int64(micro ? record.created_millis * 1000 : record.created_millis);
  WriteRecordImages(w, record);
  w.Key("SizeBytes");
  w.Uint64(engine::StreamRecordSize(record));
  if (micro) {
    w.Key("ApproximateCreationDateTimePrecision");
    w.String("MICROSECOND");
  }
  w.EndObject();
  w.Key("eventSource");
  w.String("aws:dynamodb");
  w.EndObject();
}

// The "kinesis" member's fields but data, which the caller writes.
void WriteKinesisMetadata(JsonWriter& w, const KinesisRecordSource& source,
                          const engine::StreamRecord& record) {
  w.Key("kinesisSchemaVersion");
  w.String("1.0");
  w.Key("partitionKey");
  WriteString(w, KinesisPartitionKey(source, record));
  w.Key("sequenceNumber");
  WriteString(w, engine::SequenceNumberText(record.sequence));
  w.Key("approximateArrivalTimestamp");
  w.Double(static_cast<double>(record.created_millis) / 1000.0);
}

}  // namespace

std::string KinesisRecordData(const KinesisRecordSource& source,
                              const engine::StreamRecord& record) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteData(w, source, record);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string KinesisPartitionKey(const KinesisRecordSource& source,
                                const engine::StreamRecord& record) {
  std::string key;
  for (const auto* elements : {&source.key.hash, &source.key.range}) {
    for (const engine::KeyElement& element : *elements) {
      auto value = record.keys.find(element.name);
      if (value != record.keys.end()) engine::AppendKeyValue(value->second, &key);
    }
  }
  std::string hex = Md5Hex(Md5Of(key));
  for (char& c : hex) {
    if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
  }
  return hex;
}

void WriteKinesisLambdaRecord(JsonWriter& w, const KinesisRecordSource& source,
                              const engine::StreamRecord& record,
                              std::string_view kinesis_stream_arn) {
  std::string sequence = engine::SequenceNumberText(record.sequence);
  w.StartObject();
  w.Key("kinesis");
  w.StartObject();
  WriteKinesisMetadata(w, source, record);
  w.Key("data");
  WriteString(w, Base64Encode(KinesisRecordData(source, record)));
  w.EndObject();
  w.Key("eventSource");
  w.String("aws:kinesis");
  w.Key("eventVersion");
  w.String("1.0");
  w.Key("eventID");
  WriteString(w, std::string(kShardId) + ":" + sequence);
  w.Key("eventName");
  w.String("aws:kinesis:record");
  w.Key("invokeIdentityArn");
  w.String("arn:aws:iam::000000000000:role/localdynamo-trigger");
  w.Key("awsRegion");
  WriteString(w, source.region);
  w.Key("eventSourceARN");
  WriteString(w, kinesis_stream_arn);
  w.EndObject();
}

void WriteKinesisFilterView(JsonWriter& w, const KinesisRecordSource& source,
                            const engine::StreamRecord& record) {
  w.StartObject();
  WriteKinesisMetadata(w, source, record);
  w.Key("data");
  WriteData(w, source, record);
  w.EndObject();
}

}  // namespace ddb::api
