// Evaluation of conditions against an item: DynamoDB's ConditionExpression
// semantics ("Comparison operator and function reference" in the developer
// guide), also used for filters and the legacy Expected parameter.
//
// A comparison involving a missing attribute, or values of different types,
// is false, never an error; `<>` is its negation, so it is true then. `<`,
// `<=`, `>`, `>=` and BETWEEN order numbers numerically and strings and
// binaries by unsigned bytes (UTF-8 code units), and are false for other
// types.
//
// Thread safety: pure functions.
#pragma once

#include "engine/attribute_value.h"
#include "engine/expression/ast.h"

namespace ddb::engine::expr {

// Whether `condition` (bound: no placeholders left) holds for `item`;
// nullptr means the item does not exist, which behaves as an empty item.
bool EvaluateCondition(const Condition& condition, const Item* item);

// The order of two values of one scalar type (N, S or B): <0, 0 or >0.
// nullopt when they are not both N, both S or both B.
std::optional<int> CompareScalars(const AttributeValue& a, const AttributeValue& b);

}  // namespace ddb::engine::expr
