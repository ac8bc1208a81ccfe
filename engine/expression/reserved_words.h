// DynamoDB's reserved words: names an expression may not use as attribute
// names unless written through an ExpressionAttributeNames placeholder
// ("Reserved words in DynamoDB" in the developer guide).
//
// Thread safety: pure function.
#pragma once

#include <string_view>

namespace ddb::engine::expr {

// Whether `name` is a reserved word, ignoring ASCII case.
bool IsReservedWord(std::string_view name);

}  // namespace ddb::engine::expr
