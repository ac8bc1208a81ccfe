#include "engine/expression/functions.h"

namespace ddb::engine::expr {

const FunctionInfo* FindFunction(std::string_view name) {
  static constexpr FunctionInfo kFunctions[] = {
      {"attribute_exists", 1, true, FunctionUse::kCondition},
      {"attribute_not_exists", 1, true, FunctionUse::kCondition},
      {"attribute_type", 2, false, FunctionUse::kCondition},
      {"begins_with", 2, false, FunctionUse::kCondition},
      {"contains", 2, false, FunctionUse::kCondition},
      {"size", 1, false, FunctionUse::kConditionOperand},
      {"if_not_exists", 2, true, FunctionUse::kUpdateTerm},
      {"list_append", 2, false, FunctionUse::kUpdateTerm},
  };
  for (const FunctionInfo& info : kFunctions) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

}  // namespace ddb::engine::expr
