#include "api/dispatch.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <array>
#include <utility>

#include "api/operations.h"

namespace ddb::api {
namespace {

constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";

// Sorted by name for binary search.
constexpr std::array<std::pair<std::string_view, Handler>, 23> kHandlers = {{
    {"BatchExecuteStatement", BatchExecuteStatement},
    {"BatchGetItem", BatchGetItem},
    {"BatchWriteItem", BatchWriteItem},
    {"CreateTable", CreateTable},
    {"DeleteItem", DeleteItem},
    {"DeleteTable", DeleteTable},
    {"DescribeEndpoints", DescribeEndpoints},
    {"DescribeLimits", DescribeLimits},
    {"DescribeTable", DescribeTable},
    {"ExecuteStatement", ExecuteStatement},
    {"ExecuteTransaction", ExecuteTransaction},
    {"GetItem", GetItem},
    {"ListTables", ListTables},
    {"ListTagsOfResource", ListTagsOfResource},
    {"PutItem", PutItem},
    {"Query", Query},
    {"Scan", Scan},
    {"TagResource", TagResource},
    {"TransactGetItems", TransactGetItems},
    {"TransactWriteItems", TransactWriteItems},
    {"UntagResource", UntagResource},
    {"UpdateItem", UpdateItem},
    {"UpdateTable", UpdateTable},
}};

Handler FindHandler(std::string_view target) {
  if (!target.starts_with(kTargetPrefix)) return nullptr;
  std::string_view op = target.substr(kTargetPrefix.size());
  auto it = std::lower_bound(kHandlers.begin(), kHandlers.end(), op,
                             [](const auto& entry, std::string_view name) { return entry.first < name; });
  return it != kHandlers.end() && it->first == op ? it->second : nullptr;
}

Response ErrorResponse(const ApiError& error) { return {error.http_status, RenderError(error)}; }

// Attribute values nest at most 32 levels of two JSON levels each ({"M":{…}});
// this leaves room for deeper ones to get DynamoDB's own nesting error.
constexpr int kMaxJsonNesting = 256;

// Whether the brackets of `json` (outside strings) nest deeper than `limit`.
bool JsonNestingExceeds(std::string_view json, int limit) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // skip the escaped character
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit) return true;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return false;
}

}  // namespace

Response UnknownOperationResponse() { return ErrorResponse(ApiError::UnknownOperation()); }
Response MissingAuthenticationTokenResponse() {
  return ErrorResponse(ApiError::MissingAuthenticationToken());
}

bool IsKnownTarget(std::string_view target) { return FindHandler(target) != nullptr; }

Response Dispatch(engine::Database& db, const Caller& caller, std::string_view target,
                  std::string_view body) {
  Handler handler = FindHandler(target);
  if (!handler) return ErrorResponse(ApiError::UnknownOperation());
  // A request nests far less than this; deeper input is refused before any
  // recursive code (ours or RapidJSON's writer) could see it.
  if (JsonNestingExceeds(body, kMaxJsonNesting)) return ErrorResponse(ApiError::Serialization(""));
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(
      body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    return ErrorResponse(ApiError::Serialization(""));
  }
  Context context{db, caller};
  auto result = handler(context, doc);
  if (!result.ok()) return ErrorResponse(result.error());
  return {200, std::move(result).value()};
}

}  // namespace ddb::api
