// The statements of PartiQL for DynamoDB ("PartiQL - a SQL-compatible query
// language for Amazon DynamoDB" in the developer guide) that localdynamo
// runs: SELECT, INSERT, UPDATE, DELETE and EXISTS, parsed (parser.h) with their `?`
// parameters already bound.
//
// Conditions, update actions and projections reuse the trees of DynamoDB's
// expression language (engine/expression/ast.h), so a PartiQL WHERE is
// evaluated by exactly the code that evaluates a FilterExpression, and an
// UPDATE's SET/REMOVE by the code behind UpdateExpression.
//
// Thread safety: plain values.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/expression/ast.h"

namespace ddb::engine::partiql {

// `"table"` or `"table"."index"`.
struct Source {
  std::string table;
  std::string index;  // empty: the table itself
};

// RETURNING of UPDATE and DELETE: which image of the item comes back.
enum class Returning { kNone, kAllOld, kAllNew, kModifiedOld, kModifiedNew };

// One term of ORDER BY: a key attribute and its direction.
struct OrderTerm {
  std::string attribute;
  bool descending = false;
};

struct SelectStatement {
  Source source;
  std::optional<expr::Projection> projection;  // nullopt: SELECT *
  std::optional<expr::Condition> where;
  std::vector<OrderTerm> order_by;
};

struct InsertStatement {
  std::string table;
  Item item;
};

struct UpdateStatement {
  std::string table;
  expr::Update update;    // SET (with set_add/set_delete as ADD/DELETE) and REMOVE
  expr::Condition where;  // key equalities and any further conditions
  Returning returning = Returning::kNone;
};

struct DeleteStatement {
  std::string table;
  expr::Condition where;
  Returning returning = Returning::kNone;
};

// EXISTS(SELECT ...): a condition check inside ExecuteTransaction; holds
// when the item the SELECT's WHERE keys exists and meets the rest of it.
struct ExistsStatement {
  SelectStatement select;
};

using Statement = std::variant<SelectStatement, InsertStatement, UpdateStatement, DeleteStatement,
                               ExistsStatement>;

inline bool IsRead(const Statement& statement) {
  return std::holds_alternative<SelectStatement>(statement);
}

// The table a statement reads or writes.
const std::string& TableOf(const Statement& statement);

// The RETURNING of an UPDATE or DELETE; kNone for other statements.
Returning ReturningOf(const Statement& statement);

}  // namespace ddb::engine::partiql
