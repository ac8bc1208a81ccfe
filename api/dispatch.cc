#include "api/dispatch.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <array>
#include <utility>

#include "api/access_record.h"
#include "api/access_shape.h"
#include "api/items/item_capture.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/value_layers.h"

namespace ddb::api {
namespace {

constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";
constexpr std::string_view kStreamsTargetPrefix = "DynamoDBStreams_20120810.";

// Each sorted by name for binary search.
constexpr std::array<std::pair<std::string_view, Handler>, 62> kHandlers = {{
    {"BatchExecuteStatement", BatchExecuteStatement},
    {"BatchGetItem", BatchGetItem},
    {"BatchWriteItem", BatchWriteItem},
    {"CancelBulkOperation", CancelBulkOperation},
    {"CreateBackup", CreateBackup},
    {"CreateGlobalTable", CreateGlobalTable},
    {"CreateTable", CreateTable},
    {"DeleteBackup", DeleteBackup},
    {"DeleteItem", DeleteItem},
    {"DeleteResourcePolicy", DeleteResourcePolicy},
    {"DeleteTable", DeleteTable},
    {"DescribeBackup", DescribeBackup},
    {"DescribeBulkOperation", DescribeBulkOperation},
    {"DescribeContinuousBackups", DescribeContinuousBackups},
    {"DescribeContributorInsights", DescribeContributorInsights},
    {"DescribeEndpoints", DescribeEndpoints},
    {"DescribeExport", DescribeExport},
    {"DescribeGlobalTable", DescribeGlobalTable},
    {"DescribeGlobalTableSettings", DescribeGlobalTableSettings},
    {"DescribeImport", DescribeImport},
    {"DescribeKinesisStreamingDestination", DescribeKinesisStreamingDestination},
    {"DescribeLimits", DescribeLimits},
    {"DescribeTable", DescribeTable},
    {"DescribeTableReplicaAutoScaling", DescribeTableReplicaAutoScaling},
    {"DescribeTimeToLive", DescribeTimeToLive},
    {"DisableKinesisStreamingDestination", DisableKinesisStreamingDestination},
    {"EnableKinesisStreamingDestination", EnableKinesisStreamingDestination},
    {"ExecuteStatement", ExecuteStatement},
    {"ExecuteTransaction", ExecuteTransaction},
    {"ExportTableToPointInTime", ExportTableToPointInTime},
    {"GetItem", GetItem},
    {"GetResourcePolicy", GetResourcePolicy},
    {"ImportTable", ImportTable},
    {"ListBackups", ListBackups},
    {"ListBulkOperations", ListBulkOperations},
    {"ListContributorInsights", ListContributorInsights},
    {"ListExports", ListExports},
    {"ListGlobalTables", ListGlobalTables},
    {"ListImports", ListImports},
    {"ListTables", ListTables},
    {"ListTagsOfResource", ListTagsOfResource},
    {"PutItem", PutItem},
    {"PutResourcePolicy", PutResourcePolicy},
    {"Query", Query},
    {"RestoreTableFromBackup", RestoreTableFromBackup},
    {"RestoreTableToPointInTime", RestoreTableToPointInTime},
    {"Scan", Scan},
    {"SearchVectors", SearchVectors},
    {"StartBulkPutItems", StartBulkPutItems},
    {"TagResource", TagResource},
    {"TransactGetItems", TransactGetItems},
    {"TransactWriteItems", TransactWriteItems},
    {"UntagResource", UntagResource},
    {"UpdateContinuousBackups", UpdateContinuousBackups},
    {"UpdateContributorInsights", UpdateContributorInsights},
    {"UpdateGlobalTable", UpdateGlobalTable},
    {"UpdateGlobalTableSettings", UpdateGlobalTableSettings},
    {"UpdateItem", UpdateItem},
    {"UpdateKinesisStreamingDestination", UpdateKinesisStreamingDestination},
    {"UpdateTable", UpdateTable},
    {"UpdateTableReplicaAutoScaling", UpdateTableReplicaAutoScaling},
    {"UpdateTimeToLive", UpdateTimeToLive},
}};

constexpr std::array<std::pair<std::string_view, Handler>, 4> kStreamsHandlers = {{
    {"DescribeStream", DescribeStream},
    {"GetRecords", GetRecords},
    {"GetShardIterator", GetShardIterator},
    {"ListStreams", ListStreams},
}};

using HandlerEntry = std::pair<std::string_view, Handler>;

template <size_t N>
const HandlerEntry* FindIn(const std::array<HandlerEntry, N>& handlers, std::string_view op) {
  auto it = std::lower_bound(handlers.begin(), handlers.end(), op,
                             [](const auto& entry, std::string_view name) { return entry.first < name; });
  return it != handlers.end() && it->first == op ? &*it : nullptr;
}

// The operation's name and handler: the name a view of the table's, which
// lives as long as the program (AccessRecord::operation keeps it).
const HandlerEntry* FindHandler(std::string_view target) {
  if (target.starts_with(kTargetPrefix)) return FindIn(kHandlers, target.substr(kTargetPrefix.size()));
  if (target.starts_with(kStreamsTargetPrefix)) {
    return FindIn(kStreamsHandlers, target.substr(kStreamsTargetPrefix.size()));
  }
  return nullptr;
}

// A DynamoDB operation's name without the target's prefix; empty for the
// Streams operations, which have no items to capture.
std::string_view OperationName(std::string_view target) {
  return target.starts_with(kTargetPrefix) ? target.substr(kTargetPrefix.size()) : "";
}

Response ErrorResponse(const ApiError& error) { return {error.http_status, RenderError(error)}; }


}  // namespace

Response UnknownOperationResponse() { return ErrorResponse(ApiError::UnknownOperation()); }
Response MissingAuthenticationTokenResponse() {
  return ErrorResponse(ApiError::MissingAuthenticationToken());
}

bool IsKnownTarget(std::string_view target) { return FindHandler(target) != nullptr; }

Response Dispatch(engine::Engine& engine, const Caller& caller, std::string_view target,
                  std::string_view body, AccessRecord* record) {
  const HandlerEntry* entry = FindHandler(target);
  if (!entry) return ErrorResponse(ApiError::UnknownOperation());
  Handler handler = entry->second;
  // A request nests far less than this; deeper input is refused before any
  // recursive code (ours or RapidJSON's writer) could see it.
  rapidjson::Document doc;
  CapturedItems captured;
  if (!captured.Parse(body, ItemPathFor(OperationName(target)), &doc) &&
      (!ParseUntrustedJson(body, doc) || !doc.IsObject())) {
    return ErrorResponse(ApiError::Serialization(""));
  }
  Context context{engine, engine.database(), caller, &captured, body, record};
  auto result = handler(context, doc);
  if (!result.ok()) return ErrorResponse(InLayerOf(OperationName(target), result.error()));
  // The Streams operations read no table: nothing to record.
  if (record && target.starts_with(kTargetPrefix)) {
    record->operation = entry->first;
    DescribeShape(record->operation, doc, *record);
  }
  return {200, std::move(result).value()};
}

}  // namespace ddb::api
