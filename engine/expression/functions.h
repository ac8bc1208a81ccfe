// The functions of DynamoDB's expression language and where each may be
// used ("Condition expressions" and "Update expressions" in the developer
// guide). Names are case-sensitive, as in DynamoDB.
//
// Thread safety: constant data.
#pragma once

#include <cstddef>
#include <string_view>

namespace ddb::engine::expr {

enum class FunctionUse {
  kCondition,         // a condition on its own: attribute_exists(a)
  kConditionOperand,  // a value inside a comparison: size(a) > :n
  kUpdateTerm,        // a value in SET: if_not_exists(a, :v), list_append(a, :l)
};

struct FunctionInfo {
  std::string_view name;
  size_t arity;
  bool path_first;  // the first argument must be a document path
  FunctionUse use;
};

// nullptr for an unknown name.
const FunctionInfo* FindFunction(std::string_view name);

}  // namespace ddb::engine::expr
