// Substituting a request's ExpressionAttributeNames (#n) and
// ExpressionAttributeValues (:v) into parsed expressions, with DynamoDB's
// placeholder hygiene: a placeholder that is not defined is an error naming
// it, and a defined one that no expression of the request uses is an error
// too ("Value provided in ExpressionAttributeValues unused in expressions:
// keys: {:v}"). Resolving also checks what needs the values: the operand
// types of functions and operators, and BETWEEN's bounds.
//
// Thread safety: a Placeholders object belongs to one request.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "engine/attribute_value.h"
#include "engine/expression/ast.h"
#include "engine/status.h"

namespace ddb::engine::expr {

// The start of the error for a value placeholder that is not defined.
inline constexpr std::string_view kUndefinedValue =
    "An expression attribute value used in expression is not defined; ";

using AttributeNames = std::map<std::string, std::string, std::less<>>;
using AttributeValues = std::map<std::string, AttributeValue, std::less<>>;

class Placeholders {
 public:
  // Either map may be empty (the member was absent).
  Placeholders(AttributeNames names, AttributeValues values)
      : names_(std::move(names)), values_(std::move(values)) {}

  // `parameter` names the expression in messages ("ConditionExpression").
  Status Resolve(Condition& condition, std::string_view parameter);
  Status Resolve(Update& update);
  Status Resolve(Projection& projection);

  // Call after resolving every expression of the request.
  Status CheckAllUsed() const;

 private:
  Status ResolvePath(Path& path, std::string_view parameter);
  Status ResolveOperand(Operand& operand, std::string_view parameter);

  AttributeNames names_;
  AttributeValues values_;
  std::set<std::string, std::less<>> used_names_;
  std::set<std::string, std::less<>> used_values_;
};

}  // namespace ddb::engine::expr
