// What a table's Kinesis Data Streams destination carries for one change:
// the record DynamoDB puts on the Kinesis stream — its partition key and
// its data, a JSON document shaped unlike a DynamoDB Streams record — and
// that record as a Lambda function consuming the Kinesis stream receives it.
//
//   data: {"awsRegion", "eventID" (a UUID), "eventName", "userIdentity",
//          "recordFormat": "application/json", "tableName",
//          "dynamodb": {"ApproximateCreationDateTime" (epoch milliseconds,
//          or microseconds with MICROSECOND precision), "Keys", "NewImage",
//          "OldImage", "SizeBytes"}, "eventSource": "aws:dynamodb"}
// Both images are kept whatever the table's own stream keeps: INSERT has
// NewImage, MODIFY both, REMOVE OldImage.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "api/json_reader.h"
#include "engine/streams/stream.h"

namespace ddb::api {

// The Kinesis stream's name for one record of a table's Kinesis feed.
struct KinesisRecordSource {
  std::string region;
  std::string table;
  uint64_t feed_id = 0;  // the feed's stream id: with the sequence, names the record
  engine::KeySchema key;
  std::string precision;  // ApproximateCreationDateTimePrecision; "" is MILLISECOND
};

// The record's data: the JSON document above, compact.
std::string KinesisRecordData(const KinesisRecordSource& source,
                              const engine::StreamRecord& record);

// Its partition key: 32 uppercase hex digits, the same for every change of
// one item (an MD5 of the item's key; DynamoDB's own hash is not published).
std::string KinesisPartitionKey(const KinesisRecordSource& source,
                                const engine::StreamRecord& record);

// One entry of a Lambda Kinesis event's Records:
//   {"kinesis": {"kinesisSchemaVersion", "partitionKey", "sequenceNumber",
//    "data" (base64), "approximateArrivalTimestamp" (epoch seconds)},
//    "eventSource": "aws:kinesis", "eventVersion", "eventID",
//    "eventName": "aws:kinesis:record", "invokeIdentityArn", "awsRegion",
//    "eventSourceARN"}
void WriteKinesisLambdaRecord(JsonWriter& w, const KinesisRecordSource& source,
                              const engine::StreamRecord& record,
                              std::string_view kinesis_stream_arn);

// The object Lambda's event filters see for that record: the "kinesis"
// member with "data" decoded as JSON, as Lambda filters Kinesis records.
void WriteKinesisFilterView(JsonWriter& w, const KinesisRecordSource& source,
                            const engine::StreamRecord& record);

}  // namespace ddb::api
