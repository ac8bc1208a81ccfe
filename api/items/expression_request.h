// The expression members of a request — ConditionExpression, UpdateExpression,
// ProjectionExpression, ExpressionAttributeNames/Values — and their legacy
// counterparts (Expected, AttributeUpdates, AttributesToGet), read, parsed
// and resolved into the engine's expression trees in one place, with
// DynamoDB's checks in DynamoDB's order:
//   1. legacy and expression parameters mixed ("Can not use both ...");
//   2. names or values given without an expression;
//   3. empty name or value maps; malformed keys; invalid values;
//   4. each expression parsed and resolved (UpdateExpression,
//      ConditionExpression, KeyConditionExpression, FilterExpression,
//      SearchConditionExpression, ProjectionExpression);
//   5. unused names, then unused values.
//
// Thread safety: pure functions over a caller-owned document.
#pragma once

#include <rapidjson/document.h>

#include <optional>

#include "api/errors.h"
#include "engine/expression/ast.h"

namespace ddb::api {

// Which expressions an operation takes.
struct ExpressionSpec {
  bool update = false;         // UpdateExpression / AttributeUpdates
  bool condition = false;      // ConditionExpression / Expected
  bool projection = false;     // ProjectionExpression / AttributesToGet
  bool key_condition = false;  // KeyConditionExpression / KeyConditions
  const char* filter = nullptr;  // FilterExpression / this legacy member (QueryFilter, ScanFilter)
  bool search_condition = false;  // SearchConditionExpression (SearchVectors)
};

struct RequestExpressions {
  std::optional<engine::expr::Update> update;
  std::optional<engine::expr::Condition> condition;
  std::optional<engine::expr::Projection> projection;
  std::optional<engine::expr::Condition> key_condition;
  std::optional<engine::expr::Condition> filter;
  std::optional<engine::expr::Condition> search_condition;
  // The legacy KeyConditions object, translated by key_condition.h.
  const rapidjson::Value* key_conditions = nullptr;
  // The update came from AttributeUpdates, whose runtime type errors
  // DynamoDB words differently.
  bool legacy_update = false;
  bool legacy_filter = false;  // the filter came from QueryFilter / ScanFilter
};

ApiResult<RequestExpressions> ReadExpressions(const rapidjson::Value& request,
                                              const ExpressionSpec& spec);

}  // namespace ddb::api
