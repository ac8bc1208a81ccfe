// The JSON shapes of the offline data commands (`localdynamo export`,
// `import`, `dump-models`): the request bodies they send through Dispatch,
// the answers they read back, the lines of DynamoDB's export to S3
// (DYNAMODB_JSON: one {"Item": {...}} per line) and its two manifests,
// manifest-summary.json and manifest-files.json, as the DynamoDB Developer
// Guide's "Table export output format" describes them.
//
// The commands around them (files, gzip, progress) are the rest of cli/;
// this module only knows JSON, so every item still passes the validation
// that client traffic gets when the command sends it through Dispatch.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"

namespace ddb::cli {

// One line of an import file: an export line ({"Item": {...}}) or a bare
// DynamoDB-JSON item, as fixtures' items/<T>.jsonl hold. Returns the item's
// JSON, or nothing for a line to skip (blank, or starting with //). The
// error's message says what is wrong with the line ("not valid JSON", ...);
// the item's attributes are validated later, by the write itself.
// A bare item whose only attribute is named "Item" reads as an export line.
api::ApiResult<std::optional<std::string>> ItemFromImportLine(std::string_view line);

// Request bodies. `items` hold item JSON objects as ItemFromImportLine gives them.
std::string BatchWriteItemBody(std::string_view table, const std::vector<std::string>& items);
std::string PutItemBody(std::string_view table, std::string_view item);
std::string TableNameBody(std::string_view table);  // DescribeTable, DescribeTimeToLive
// A Scan of the whole table; `start_key` is the previous page's
// LastEvaluatedKey JSON, empty for the first page.
std::string ScanBody(std::string_view table, std::string_view start_key);
std::string ListTablesBody(std::string_view start_table);
std::string ListTagsBody(std::string_view table_arn);

// "<ErrorType>: <message>" of an error response's body.
std::string DescribeErrorBody(std::string_view body);
// Its "<ErrorType>" alone (the part of __type after '#'); empty if none.
std::string ErrorTypeOfBody(std::string_view body);

struct ScanPage {
  std::vector<std::string> items;  // each item's JSON
  std::string last_evaluated_key;  // JSON; empty on the last page
};
api::ApiResult<ScanPage> ParseScanPage(std::string_view body);

struct TableNamesPage {
  std::vector<std::string> names;
  std::string last_evaluated_table_name;  // empty on the last page
};
api::ApiResult<TableNamesPage> ParseListTables(std::string_view body);

// Whether a BatchWriteItem answer left items unprocessed.
bool HasUnprocessedItems(std::string_view body);

// The facts of a DescribeTable answer an export's manifest needs.
struct TableFacts {
  std::string name;
  std::string arn;
  std::string id;
  uint64_t item_count = 0;
  uint64_t size_bytes = 0;
};
api::ApiResult<TableFacts> ParseTableFacts(std::string_view describe_table_body);

// A CreateTable request (a fixture's tables/<T>.json): its TableName, and the
// same request with the name replaced.
api::ApiResult<std::string> TableNameOfCreateRequest(std::string_view body);
api::ApiResult<std::string> WithTableName(std::string_view body, std::string_view table);

// manifest-files.json: one JSON object per line and data file.
struct ExportDataFile {
  std::string data_file_key;  // "<prefix>/AWSDynamoDB/<export id>/data/<name>.json.gz"
  uint64_t item_count = 0;
  std::string md5_base64;  // md5Checksum
  std::string etag;        // S3's ETag of a single-part upload: the hex MD5
};
std::string RenderManifestFileLine(const ExportDataFile& file);
// A line of a real export's manifest-files.json; md5 and etag may be absent.
api::ApiResult<ExportDataFile> ParseManifestFileLine(std::string_view line);

// manifest-summary.json of a full export.
struct ExportSummary {
  std::string export_arn;
  std::string start_time, end_time, export_time;  // ISO 8601, milliseconds, "Z"
  std::string table_arn, table_id;
  std::string s3_bucket, s3_prefix;
  std::string manifest_files_key;
  uint64_t billed_size_bytes = 0;
  uint64_t item_count = 0;
  std::string output_format = "DYNAMODB_JSON";
  std::string export_type = "FULL_EXPORT";
};
std::string RenderManifestSummary(const ExportSummary& summary);
// Reads the members an import needs; absent ones stay empty or zero.
api::ApiResult<ExportSummary> ParseManifestSummary(std::string_view text);

}  // namespace ddb::cli
