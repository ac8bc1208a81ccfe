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
constexpr std::array<std::pair<std::string_view, Handler>, 20> kHandlers = {{
    {"BatchGetItem", BatchGetItem},
    {"BatchWriteItem", BatchWriteItem},
    {"CreateTable", CreateTable},
    {"DeleteItem", DeleteItem},
    {"DeleteTable", DeleteTable},
    {"DescribeEndpoints", DescribeEndpoints},
    {"DescribeLimits", DescribeLimits},
    {"DescribeTable", DescribeTable},
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
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(
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
