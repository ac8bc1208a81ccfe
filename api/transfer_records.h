// What ExportTableToPointInTime and ImportTable leave behind: each export's
// and import's description, kept as a setting (engine/settings.h) so that
// DescribeExport, ListExports, DescribeImport and ListImports answer after a
// restart and after the table is gone, as DynamoDB's do.
//
//   transfer/export/<namespace>\n<export id> -> the ExportDescription, finished
//   transfer/import/<namespace>\n<import id> -> the ImportTableDescription, finished
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
#include "api/errors.h"

namespace ddb::api {

enum class TransferKind { kExport, kImport };

struct TransferRecord {
  std::string id;
  rapidjson::Document description;
};

engine::Status PutTransferRecord(Context& ctx, TransferKind kind, std::string_view id,
                                 std::string_view description_json);
// Every record of the caller's namespace, newest first.
ApiResult<std::vector<TransferRecord>> ListTransferRecords(Context& ctx, TransferKind kind);

// The description as it read while its job ran: status IN_PROGRESS and
// without the members only an ended job has (`ended_only`); counters in
// `zeroed` read 0.
std::string InProgressView(const rapidjson::Value& description, const char* status_member,
                           std::initializer_list<const char*> ended_only,
                           std::initializer_list<const char*> zeroed);

// The parts of an export or import ARN,
// "arn:aws:dynamodb:<region>:<account>:table/<table>/<kind>/<id>".
struct TransferArn {
  std::string region, account, table, id;
};
// Nothing unless `arn` has that form with `kind` "export" or "import".
std::optional<TransferArn> ParseTransferArn(std::string_view arn, std::string_view kind);

// A new id: the start time in 14 digits, "-", 8 hex digits.
std::string NewTransferId(int64_t start_millis);

}  // namespace ddb::api
