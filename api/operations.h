// The handlers of DynamoDB's operations, one family per file, all with the
// same shape: the request's JSON object in, the response body (JSON) or the
// error to answer with out. dispatch.cc maps target names onto them.
//
// Thread safety: handlers are reentrant; concurrency is the Engine's.
#pragma once

#include <rapidjson/document.h>

#include <string>

#include "api/context.h"
#include "api/errors.h"

namespace ddb::api {

using Handler = ApiResult<std::string> (*)(Context&, const rapidjson::Value&);

// tables/table_ops.cc
ApiResult<std::string> CreateTable(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeTable(Context&, const rapidjson::Value&);
ApiResult<std::string> UpdateTable(Context&, const rapidjson::Value&);
ApiResult<std::string> DeleteTable(Context&, const rapidjson::Value&);
ApiResult<std::string> ListTables(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeLimits(Context&, const rapidjson::Value&);
// Legacy global tables and replica auto scaling (global_tables/global_table_ops.cc).
ApiResult<std::string> CreateGlobalTable(Context&, const rapidjson::Value&);
ApiResult<std::string> UpdateGlobalTable(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeGlobalTable(Context&, const rapidjson::Value&);
ApiResult<std::string> ListGlobalTables(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeGlobalTableSettings(Context&, const rapidjson::Value&);
ApiResult<std::string> UpdateGlobalTableSettings(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeTableReplicaAutoScaling(Context&, const rapidjson::Value&);
ApiResult<std::string> UpdateTableReplicaAutoScaling(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeEndpoints(Context&, const rapidjson::Value&);

// backups/backup_ops.cc
ApiResult<std::string> DescribeContinuousBackups(Context&, const rapidjson::Value&);
ApiResult<std::string> UpdateContinuousBackups(Context&, const rapidjson::Value&);

// resources/contributor_insights_ops.cc
ApiResult<std::string> UpdateContributorInsights(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeContributorInsights(Context&, const rapidjson::Value&);
ApiResult<std::string> ListContributorInsights(Context&, const rapidjson::Value&);

// streams/kinesis_destination_ops.cc
ApiResult<std::string> EnableKinesisStreamingDestination(Context&, const rapidjson::Value&);
ApiResult<std::string> DisableKinesisStreamingDestination(Context&, const rapidjson::Value&);
ApiResult<std::string> UpdateKinesisStreamingDestination(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeKinesisStreamingDestination(Context&, const rapidjson::Value&);

// backups/backup_restore_ops.cc
ApiResult<std::string> CreateBackup(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeBackup(Context&, const rapidjson::Value&);
ApiResult<std::string> ListBackups(Context&, const rapidjson::Value&);
ApiResult<std::string> DeleteBackup(Context&, const rapidjson::Value&);
ApiResult<std::string> RestoreTableFromBackup(Context&, const rapidjson::Value&);
ApiResult<std::string> RestoreTableToPointInTime(Context&, const rapidjson::Value&);

// transfer/export_ops.cc
ApiResult<std::string> ExportTableToPointInTime(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeExport(Context&, const rapidjson::Value&);
ApiResult<std::string> ListExports(Context&, const rapidjson::Value&);

// transfer/import_ops.cc
ApiResult<std::string> ImportTable(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeImport(Context&, const rapidjson::Value&);
ApiResult<std::string> ListImports(Context&, const rapidjson::Value&);

// transfer/bulk_put_ops.cc
ApiResult<std::string> StartBulkPutItems(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeBulkOperation(Context&, const rapidjson::Value&);
ApiResult<std::string> ListBulkOperations(Context&, const rapidjson::Value&);
ApiResult<std::string> CancelBulkOperation(Context&, const rapidjson::Value&);

// resources/resource_policy_ops.cc
ApiResult<std::string> PutResourcePolicy(Context&, const rapidjson::Value&);
ApiResult<std::string> GetResourcePolicy(Context&, const rapidjson::Value&);
ApiResult<std::string> DeleteResourcePolicy(Context&, const rapidjson::Value&);

// resources/tag_ops.cc
ApiResult<std::string> TagResource(Context&, const rapidjson::Value&);
ApiResult<std::string> UntagResource(Context&, const rapidjson::Value&);
ApiResult<std::string> ListTagsOfResource(Context&, const rapidjson::Value&);

// items/item_ops.cc
ApiResult<std::string> PutItem(Context&, const rapidjson::Value&);
ApiResult<std::string> GetItem(Context&, const rapidjson::Value&);
ApiResult<std::string> UpdateItem(Context&, const rapidjson::Value&);
ApiResult<std::string> DeleteItem(Context&, const rapidjson::Value&);

// items/batch_ops.cc
ApiResult<std::string> BatchGetItem(Context&, const rapidjson::Value&);
ApiResult<std::string> BatchWriteItem(Context&, const rapidjson::Value&);

// items/transact_ops.cc
ApiResult<std::string> TransactWriteItems(Context&, const rapidjson::Value&);
ApiResult<std::string> TransactGetItems(Context&, const rapidjson::Value&);

// items/vector_search_ops.cc
ApiResult<std::string> SearchVectors(Context&, const rapidjson::Value&);

// tables/ttl_ops.cc
ApiResult<std::string> UpdateTimeToLive(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeTimeToLive(Context&, const rapidjson::Value&);

// streams/stream_ops.cc (DynamoDBStreams_20120810)
ApiResult<std::string> ListStreams(Context&, const rapidjson::Value&);
ApiResult<std::string> DescribeStream(Context&, const rapidjson::Value&);
ApiResult<std::string> GetShardIterator(Context&, const rapidjson::Value&);
ApiResult<std::string> GetRecords(Context&, const rapidjson::Value&);

// items/query_scan_ops.cc
ApiResult<std::string> Query(Context&, const rapidjson::Value&);
ApiResult<std::string> Scan(Context&, const rapidjson::Value&);

// partiql/partiql_ops.cc
ApiResult<std::string> ExecuteStatement(Context&, const rapidjson::Value&);
ApiResult<std::string> BatchExecuteStatement(Context&, const rapidjson::Value&);
ApiResult<std::string> ExecuteTransaction(Context&, const rapidjson::Value&);

}  // namespace ddb::api
