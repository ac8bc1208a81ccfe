// What ExportTableToPointInTime, ImportTable and StartBulkPutItems leave
// behind: each export's, import's and bulk operation's description, kept as
// a setting (engine/settings.h) so that their Describe and List operations
// answer after a restart and after the table is gone, as DynamoDB's do.
//
//   transfer/export/<namespace>\n<export id> -> the ExportDescription, finished
//   transfer/import/<namespace>\n<import id> -> the ImportTableDescription, finished
//   transfer/bulk-put/<namespace>\n<id>      -> the BulkOperationDescription, finished
//
// Ids start with the start time in 14 digits, so newest first is
// descending id order. A description is stored as it reads once the job has
// ended; the first answer, and every answer within the server's
// transient-status delay, show it in progress (InProgressView).
//
// Thread safety: as the Database.
#pragma once

#include <rapidjson/document.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/context.h"
#include "api/dispatch.h"
#include "api/errors.h"

namespace ddb::api {

enum class TransferKind { kExport, kImport, kBulkPut };

struct TransferRecord {
  std::string id;
  rapidjson::Document description;
};

engine::Status PutTransferRecord(Context& ctx, TransferKind kind, std::string_view id,
                                 std::string_view description_json);
// Every record of the caller's namespace, newest first.
ApiResult<std::vector<TransferRecord>> ListTransferRecords(Context& ctx, TransferKind kind);

// How a kind's description reads while its job runs: the status member
// says IN_PROGRESS, the members only an ended job has are left out, the
// counters read 0.
struct RunningView {
  const char* status_member;
  std::initializer_list<const char*> ended_only;
  std::initializer_list<const char*> zeroed;
};
extern const RunningView kExportRunning;
extern const RunningView kImportRunning;
extern const RunningView kBulkPutRunning;

// The description (JSON text or parsed) as it read while its job ran.
std::string InProgressView(const rapidjson::Value& description, const RunningView& running);
std::string InProgressView(std::string_view description_json, const RunningView& running);
// As the caller sees it now: running within the transient-status delay
// from its StartTime, as stored after.
std::string CurrentView(const Context& ctx, const rapidjson::Value& description,
                        const RunningView& running);

// {"<member>": <description>}: an operation's answer.
std::string Wrapped(std::string_view member, std::string_view description_json);

// ListExports', ListImports' and ListBulkOperations' request — TableArn
// (1 to 1024 characters; not ListBulkOperations'), the page's size
// (MaxResults / PageSize, 1 to 25, default 10) and NextToken — read and checked, with the caller's records and where the
// page begins among them.
struct ListPage {
  std::optional<std::string> table_arn;
  size_t limit = 10;
  std::vector<TransferRecord> records;  // newest first
  size_t start = 0;
};
ApiResult<ListPage> ReadListRequest(Context& ctx, const rapidjson::Value& request,
                                    TransferKind kind);
// The NextToken of a page that ends before the record of `arn`: the ARN
// itself for ListExports; for ListImports and ListBulkOperations its hex, padded with zero bytes to
// whole 16-digit groups and at least 112 digits, as DynamoDB's look.
std::string NextTokenFor(TransferKind kind, std::string_view arn);

// The parts of an export or import ARN,
// "arn:aws:dynamodb:<region>:<account>:table/<table>/<kind>/<id>".
// (A bulk operation's, "<kind>" = "bulk-operation", is inferred: DynamoDB's
// documents show none.)
struct TransferArn {
  std::string region, account, table, id;
};
// Nothing unless `arn` has that form with `kind` "export", "import" or
// "bulk-operation".
std::optional<TransferArn> ParseTransferArn(std::string_view arn, std::string_view kind);

// DynamoDB's S3Bucket pattern, ^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$
// (ExportTableToPointInTime's and StartBulkPutItems' buckets).
bool IsS3BucketName(std::string_view bucket);

// The FailureCode and FailureMessage of a transfer (export, import, bulk put)
// that S3 failed: S3NoSuchBucket with S3's own 404 text for a missing bucket,
// else S3Error with the store's message.
struct S3Failure {
  std::string code, message;
};
S3Failure S3FailureOf(const engine::Status& status);

// The error a request a transfer sent through Dispatch answered (an import's
// CreateTable, an item's PutItem), to pass on or report: its __type without
// the namespace, its status and its message.
ApiError ErrorOfResponse(const Response& response);

// A new id: the start time in 14 digits, "-", 8 hex digits.
std::string NewTransferId(int64_t start_millis);

// DescribeExport's, DescribeImport's, DescribeBulkOperation's and
// CancelBulkOperation's request: the ARN (ExportArn, ImportArn,
// BulkOperationArn) read and checked — not null, 37 to 1024 characters, of
// an export's or import's form ("Invalid Export ARN"; a bulk operation's
// ARN of another form just has no record) — and its record, when the
// caller's database has one of that ARN.
struct FoundTransfer {
  std::string arn;
  TransferArn parts;
  std::optional<TransferRecord> record;
};
ApiResult<FoundTransfer> FindTransfer(Context& ctx, const rapidjson::Value& request,
                                      TransferKind kind);

}  // namespace ddb::api
