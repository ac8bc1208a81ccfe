// The pre-2014 parameters of the item operations, translated into the same
// expression trees the expression parser builds, so one evaluator serves
// both: Expected (with ConditionalOperator) becomes a Condition,
// AttributeUpdates an Update, AttributesToGet a Projection. Validation and
// its messages are DynamoDB's ("Legacy conditional parameters" in the
// developer guide).
//
// Thread safety: pure functions over a caller-owned document.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string_view>
#include <vector>

#include "api/errors.h"
#include "engine/expression/ast.h"

namespace ddb::api {

// `expected` is the Expected object; `conditional_operator` is "AND" (the
// default) or "OR". An empty Expected is no condition (nullopt).
ApiResult<std::optional<engine::expr::Condition>> ExpectedToCondition(
    const rapidjson::Value& expected, std::string_view conditional_operator);

ApiResult<engine::expr::Update> AttributeUpdatesToUpdate(const rapidjson::Value& updates);

// `names` is the AttributesToGet array; duplicates are rejected.
ApiResult<engine::expr::Projection> AttributesToGetToProjection(const rapidjson::Value& names);

// The values of an AttributeValueList (Expected, KeyConditions, filters).
ApiResult<std::vector<engine::AttributeValue>> ReadValueList(const rapidjson::Value& list);

// The legacy BETWEEN's order check ("The BETWEEN condition was provided a
// range where the lower bound is greater than the upper bound").
ApiResult<bool> CheckLegacyBetween(const engine::AttributeValue& low,
                                   const engine::AttributeValue& high);

}  // namespace ddb::api
