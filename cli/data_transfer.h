// The JSON shapes of the offline data commands (`localdynamo export`,
// `import`, `dump-models`): the request bodies they send through Dispatch
// and the answers they read back. The export's own files are
// api/transfer/export_format.h, shared with ExportTableToPointInTime and ImportTable.
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

}  // namespace ddb::cli
