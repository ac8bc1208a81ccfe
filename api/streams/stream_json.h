// Stream records and stream ARNs in DynamoDB's wire form, shared by the
// Streams API (GetRecords) and the local triggers (Lambda's event shape).
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/json_reader.h"
#include "engine/streams/stream.h"

namespace ddb::api {

// The two spellings of a record: GetRecords' ("userIdentity": {"Type": …,
// "PrincipalId": …}) and a Lambda event's ({"type": …, "principalId": …},
// plus "eventSourceARN").
enum class RecordShape { kStreamsApi, kLambdaEvent };

void WriteStreamRecord(JsonWriter& w, const engine::StreamRecord& record,
                       const engine::StreamInfo& stream, std::string_view region,
                       std::string_view stream_arn, RecordShape shape);

// A record's "Keys", "NewImage" and "OldImage" members, as it keeps them.
void WriteRecordImages(JsonWriter& w, const engine::StreamRecord& record);

// arn:aws:dynamodb:<region>:<account>:table/<table>/stream/<label>
std::string StreamArn(std::string_view region, std::string_view account,
                      std::string_view table, std::string_view label);

struct StreamArnParts {
  std::string table;
  std::string label;
};
// nullopt when `arn` does not have the form above.
std::optional<StreamArnParts> ParseStreamArn(std::string_view arn);

}  // namespace ddb::api
