// The parser of PartiQL for DynamoDB statements ("PartiQL statements" in the
// developer guide), as ExecuteStatement, BatchExecuteStatement and
// ExecuteTransaction receive them:
//
//   SELECT (* | path {, path}) FROM source [WHERE condition]
//          [ORDER BY name [ASC | DESC] {, name [ASC | DESC]}]
//   INSERT INTO table VALUE {'attr': value, ...}
//   UPDATE table (SET path = term {, path = term} | REMOVE path {, path})...
//          WHERE condition [RETURNING (ALL | MODIFIED) (OLD | NEW) *]
//   FROM table WHERE condition (SET ... | REMOVE ...)... [RETURNING ...]
//   DELETE FROM table WHERE condition [RETURNING ALL OLD *]
//   EXISTS(SELECT * FROM table WHERE condition)   (in transactions only)
//
//   source    := name ['.' name]          (a table, or "table"."index")
//   name      := identifier | "quoted identifier"
//   condition := or-chain of AND, NOT, and: operand (= <> != < <= > >=) operand,
//                operand [NOT] BETWEEN operand AND operand, operand [NOT] IN
//                (operand, ...) or [...], path IS [NOT] (MISSING | NULL | type),
//                attribute_exists(path), attribute_not_exists(path),
//                attribute_type(path, 'S'), begins_with(a, b), contains(a, b)
//   operand   := path | value | size(path)
//   path      := name { '.' name | '[' index ']' | '[' 'key' ']' }
//   value     := 'string' | number | TRUE | FALSE | NULL | ? | [value, ...]
//                | {'key': value, ...} | <<value, ...>>   (a string or number set)
//   term      := value-term [(+ | -) value-term]; value-term := path | value
//                | list_append(a, b) | if_not_exists(path, v)
//                | set_add(path, set) | set_delete(path, set)
//
// `?` parameters are bound while parsing, in order of appearance, so the
// result holds concrete values only. Keywords and function names are
// case-insensitive; `--` and `/* */` comments are skipped.
//
// Errors are kInvalidArgument with DynamoDB's texts: syntax errors are
// "Statement wasn't well formed, can't be processed: <detail>" (see
// parser_internal.h for the details), "Number of parameters in request and
// statement don't match.", "Aliasing is not supported", and the texts of
// unsupported forms and misused functions, some pointing at a token as
// "at <line>:<column>:<length>". See docs/compatibility.md for the texts that
// are ours.
//
// Thread safety: pure functions. Recursion is bounded by kMaxNesting.
#pragma once

#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/partiql/statement.h"
#include "engine/status.h"

namespace ddb::engine::partiql {

// How deeply conditions, paths and literals may nest.
inline constexpr int kMaxNesting = 32;

Result<Statement> ParseStatement(std::string_view text,
                                 const std::vector<AttributeValue>& parameters);

}  // namespace ddb::engine::partiql
