// The syntax trees of DynamoDB's expression language, shared by every kind of
// expression: ConditionExpression (and FilterExpression, KeyCondition-
// Expression), UpdateExpression and ProjectionExpression.
//
// The parser (parser.h) builds these with placeholders as written ("#n",
// ":v"); Bind (bind.h) then replaces them with the names and values the
// request supplied, so the evaluator (evaluate.h) and the updater (update.h)
// only ever see concrete names and values. The legacy parameters (Expected,
// AttributeUpdates, AttributesToGet) are translated into the same trees.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/attribute_value.h"

namespace ddb::engine::expr {

// One step of a document path: an attribute or map key name, or a list index.
struct PathElement {
  std::string name;     // when !is_index; "#x" until bound if it was a placeholder
  uint32_t index = 0;   // when is_index
  bool is_index = false;

  bool operator==(const PathElement&) const = default;
};

// `a.b[3].c`: always starts with a name.
struct Path {
  std::vector<PathElement> elements;

  bool operator==(const Path&) const = default;
};

// "[a, b, [3]]", as DynamoDB prints paths in its messages.
std::string PathToString(const Path& path);

// A value-producing term: a path into the item, a constant, a function call
// (size, if_not_exists, list_append) or, in updates, a sum or difference.
struct Operand {
  enum class Kind { kPath, kValue, kFunction, kPlus, kMinus };
  Kind kind = Kind::kValue;
  Path path;                   // kPath
  std::string placeholder;     // kValue: ":v" as written; empty when built from legacy input
  AttributeValue value;        // kValue, once bound
  std::string function;        // kFunction: the name as written, lower case
  std::vector<Operand> args;   // kFunction arguments; kPlus/kMinus: the two terms
};

enum class Comparator { kEq, kNe, kLt, kLe, kGt, kGe };

// "=", "<>", "<", "<=", ">", ">=".
std::string_view ComparatorText(Comparator op);

// A boolean condition.
struct Condition {
  enum class Kind { kCompare, kBetween, kIn, kFunction, kAnd, kOr, kNot };
  Kind kind = Kind::kCompare;
  Comparator op = Comparator::kEq;  // kCompare
  // kCompare: two; kBetween: value, low, high; kIn: value then candidates;
  // kFunction: the arguments.
  std::vector<Operand> operands;
  std::string function;             // kFunction: attribute_exists, begins_with, ...
  std::vector<Condition> children;  // kAnd/kOr: two; kNot: one
};

// One action of an UpdateExpression.
struct UpdateAction {
  enum class Kind { kSet, kRemove, kAdd, kDelete };
  Kind kind = Kind::kSet;
  Path path;
  Operand value;  // not used by kRemove
};

struct Update {
  std::vector<UpdateAction> actions;
};

struct Projection {
  std::vector<Path> paths;
};

}  // namespace ddb::engine::expr
