// A stream trigger's definition: what the --triggers file and the admin API
// give, parsed and validated.
//
// A definition is a JSON object; the --triggers file holds a list of them:
//   {"Name": "cleanup", "TableName": "lambda-layers",
//    "Url": "http://127.0.0.1:9000/2015-03-31/functions/function/invocations"
//      | "Command": "python3 handler.py",
//    "BatchSize": 100, "MaximumBatchingWindowInSeconds": 0,
//    "StartingPosition": "LATEST" | "TRIM_HORIZON",
//    "FilterCriteria": {"Filters": [{"Pattern": "<JSON text or object>"}]},
//    "MaximumRetryAttempts": -1, "OnFailure": "failed-batches.jsonl",
//    "TimeoutSeconds": 30, "Region": "us-east-1", "AccessKeyId": "…",
//    "KinesisStreamArn": "arn:aws:kinesis:us-east-1:000000000000:stream/orders"}
// Region (default us-east-1) names the database the table is in; with
// --per-key-databases, AccessKeyId and Region do, and without AccessKeyId
// the trigger reads namespace "" (api/database_scope.h). The manager sets
// `ns` from them.
// KinesisStreamArn makes it a consumer of the Kinesis data stream the
// table's Kinesis destination writes to, instead of the table's DynamoDB
// stream: it gets Lambda's Kinesis event, with DynamoDB's Kinesis records
// (api/streams/kinesis_record.h), while that destination is enabled.
//
// Thread safety: pure functions; a TriggerSpec is a plain value.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"
#include "emulator/event_filter.h"

namespace ddb::emulator {

struct TriggerSpec {
  std::string name;
  std::string table;
  std::string ns;  // engine namespace, set by TriggerManager::Add
  std::string region = "us-east-1";
  std::string access_key;  // AccessKeyId
  std::string url;
  std::string command;
  int batch_size = 100;
  int batching_window_seconds = 0;
  bool from_trim_horizon = false;  // StartingPosition
  std::vector<EventFilter> filters;
  int max_retry_attempts = -1;  // -1: until it succeeds
  std::string on_failure_file;
  int timeout_seconds = 30;
  std::string kinesis_stream_arn;  // empty: the table's DynamoDB stream
  std::string definition;  // the JSON as given, shown back by the admin API
};

// Parses and validates one definition; ValidationException naming the
// member at fault.
api::ApiResult<TriggerSpec> ParseTriggerSpec(std::string_view json);

// The definitions of a --triggers file: a JSON list of them (or
// {"Triggers": [...]}), each as compact JSON, all of them valid. The first
// bad one fails the whole file, naming its position.
api::ApiResult<std::vector<std::string>> ParseTriggerFile(std::string_view json);

}  // namespace ddb::emulator
