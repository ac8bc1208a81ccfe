// Parsers of DynamoDB's expression language ("Expressions" in the DynamoDB
// developer guide): condition (also filter and key condition), update and
// projection expressions.
//
// Grammar, with DynamoDB's precedence (comparators, BETWEEN and IN bind
// tightest, then NOT, then AND, then OR):
//   condition  := or
//   or         := and { OR and }
//   and        := not { AND not }
//   not        := NOT not | primary
//   primary    := '(' condition ')' | function '(' operand {',' operand} ')'
//              |  operand comparator operand
//              |  operand BETWEEN operand AND operand
//              |  operand IN '(' operand {',' operand} ')'
//   operand    := path | :value | size '(' path ')'
//   update     := clause { clause },  each of SET/REMOVE/ADD/DELETE at most once
//   SET        := path '=' term [('+'|'-') term] {',' ...}
//   term       := path | :value | if_not_exists(path, term) | list_append(term, term)
//   REMOVE     := path {',' path};  ADD, DELETE := path :value {',' path :value}
//   projection := path {',' path}
//   path       := name { '.' name | '[' index ']' },  name := identifier | #placeholder
//
// Errors are kInvalidArgument with DynamoDB's text, "Invalid <parameter>: "
// followed by e.g. `Syntax error; token: "<tok>", near: "<context>"`, a
// reserved keyword, an unknown function or a wrong number of operands. The
// parsers check the shape of an expression only; placeholders are checked
// and substituted by Resolve (resolve.h).
//
// Thread safety: pure functions. Recursion is bounded by the expression
// length limit, checked first.
#pragma once

#include <string_view>

#include "engine/expression/ast.h"
#include "engine/status.h"

namespace ddb::engine::expr {

// DynamoDB's limit on the length of one expression string.
inline constexpr size_t kMaxExpressionBytes = 4096;

// `parameter` names the request member in messages: "ConditionExpression",
// "FilterExpression", "KeyConditionExpression", ...
Result<Condition> ParseCondition(std::string_view text, std::string_view parameter);
Result<Update> ParseUpdate(std::string_view text);
Result<Projection> ParseProjection(std::string_view text);

}  // namespace ddb::engine::expr
