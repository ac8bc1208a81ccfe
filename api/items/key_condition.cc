#include "api/items/key_condition.h"

#include <algorithm>

#include "api/items/legacy_expressions.h"
#include "api/json_reader.h"
#include "engine/expression/evaluate.h"
#include "engine/key_validation.h"

namespace ddb::api {
namespace {

namespace expr = engine::expr;
using Op = engine::SortKeyCondition::Op;

ApiError InvalidCondition(const std::string& detail) {
  return ApiError::Validation("Invalid condition in KeyConditionExpression: " + detail);
}

// The operator DynamoDB names when a key condition uses one it cannot index;
// empty when `condition` is acceptable at its level.
std::string ForbiddenOperator(const expr::Condition& condition) {
  switch (condition.kind) {
    case expr::Condition::Kind::kOr: return "OR";
    case expr::Condition::Kind::kNot: return "NOT";
    case expr::Condition::Kind::kIn: return "IN";
    case expr::Condition::Kind::kCompare:
      return condition.op == expr::Comparator::kNe ? "<>" : "";
    case expr::Condition::Kind::kFunction:
      return condition.function == "begins_with" ? "" : condition.function;
    default: return "";
  }
}

// The conditions joined by AND, in order; the first forbidden operator found.
void Flatten(const expr::Condition& condition, std::vector<const expr::Condition*>* out,
             std::string* forbidden) {
  if (!forbidden->empty()) return;
  *forbidden = ForbiddenOperator(condition);
  if (!forbidden->empty()) return;
  if (condition.kind == expr::Condition::Kind::kAnd) {
    for (const auto& child : condition.children) Flatten(child, out, forbidden);
  } else {
    out->push_back(&condition);
  }
}

Op ComparatorOp(expr::Comparator op, bool flipped) {
  switch (op) {
    case expr::Comparator::kLt: return flipped ? Op::kGt : Op::kLt;
    case expr::Comparator::kLe: return flipped ? Op::kGe : Op::kLe;
    case expr::Comparator::kGt: return flipped ? Op::kLt : Op::kGt;
    case expr::Comparator::kGe: return flipped ? Op::kLe : Op::kGe;
    default: return Op::kEq;
  }
}

ApiResult<KeyTerm> TermFromCondition(const expr::Condition& condition) {
  const auto& operands = condition.operands;
  auto is_path = [](const expr::Operand& o) { return o.kind == expr::Operand::Kind::kPath; };
  if (is_path(operands[0]) && operands[0].path.elements.size() > 1) {
    return ApiError::Validation("KeyConditionExpressions cannot have conditions on nested attributes");
  }
  if (std::count_if(operands.begin(), operands.end(), is_path) > 1) {
    return InvalidCondition("Multiple attribute names used in one condition");
  }
  for (const auto& operand : operands) {
    if (operand.kind == expr::Operand::Kind::kFunction) {
      return ApiError::Validation("KeyConditionExpressions cannot contain nested operations");
    }
  }
  auto path = std::find_if(operands.begin(), operands.end(), is_path);
  if (path == operands.end()) return InvalidCondition("No key attribute specified");
  if (path->path.elements.size() > 1) {
    return ApiError::Validation("KeyConditionExpressions cannot have conditions on nested attributes");
  }
  bool path_first = path == operands.begin();
  KeyTerm term;
  term.attribute = path->path.elements[0].name;
  for (const auto& operand : operands) {
    if (!is_path(operand)) term.values.push_back(operand.value);
  }
  if (condition.kind == expr::Condition::Kind::kBetween) {
    if (!path_first) {
      return InvalidCondition("BETWEEN operator must have the key attribute as its first operand");
    }
    term.op = Op::kBetween;
  } else if (condition.kind == expr::Condition::Kind::kFunction) {
    if (!path_first) {
      return InvalidCondition(
          "begins_with operator must have the key attribute as its first operand");
    }
    term.op = Op::kBeginsWith;
  } else {
    term.op = ComparatorOp(condition.op, !path_first);
  }
  return term;
}

ApiResult<bool> CheckOneConditionPerKey(const std::vector<KeyTerm>& terms) {
  for (size_t i = 0; i < terms.size(); ++i) {
    for (size_t j = i + 1; j < terms.size(); ++j) {
      if (terms[i].attribute == terms[j].attribute) {
        return ApiError::Validation(
            "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one "
            "condition per key");
      }
    }
  }
  return true;
}

struct LegacyKeyOperator {
  std::string_view name;
  Op op;
  size_t values;
};

constexpr LegacyKeyOperator kLegacyKeyOperators[] = {
    {"EQ", Op::kEq, 1}, {"LE", Op::kLe, 1}, {"LT", Op::kLt, 1}, {"GE", Op::kGe, 1},
    {"GT", Op::kGt, 1}, {"BEGINS_WITH", Op::kBeginsWith, 1}, {"BETWEEN", Op::kBetween, 2}};

constexpr std::string_view kOtherLegacyOperators[] = {"NE", "IN", "NULL", "NOT_NULL", "CONTAINS",
                                                      "NOT_CONTAINS"};

ApiResult<KeyTerm> TermFromLegacy(std::string_view attribute, const rapidjson::Value& entry) {
  if (!entry.IsObject()) return WrongType(entry, "Condition");
  RequestReader r(entry);
  auto op_name = r.String("ComparisonOperator");
  const rapidjson::Value* list = r.Array("AttributeValueList");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(op_name.has_value(),
                      "keyConditions." + std::string(attribute) + ".member.comparisonOperator");
  if (!constraints.empty()) return constraints.ToError();
  const LegacyKeyOperator* op = nullptr;
  for (const auto& candidate : kLegacyKeyOperators) {
    if (candidate.name == *op_name) op = &candidate;
  }
  if (op == nullptr) {
    bool known = std::find(std::begin(kOtherLegacyOperators), std::end(kOtherLegacyOperators),
                           *op_name) != std::end(kOtherLegacyOperators);
    if (known) {
      return ApiError::Validation("Attempted conditional constraint is not an indexable operation");
    }
    constraints.Enum(op_name, "keyConditions." + std::string(attribute) + ".member.comparisonOperator",
                     {"IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL", "NE",
                      "LE", "BEGINS_WITH", "GE", "CONTAINS"});
    return constraints.ToError();
  }
  KeyTerm term;
  term.attribute = std::string(attribute);
  term.op = op->op;
  if (list) {
    auto values = ReadValueList(*list);
    if (!values.ok()) return values.take_error();
    term.values = std::move(values).value();
  }
  if (term.values.size() != op->values) {
    return ApiError::Validation(
        "One or more parameter values were invalid: Invalid number of argument(s) for the " +
        std::string(op->name) + " ComparisonOperator");
  }
  for (const auto& value : term.values) {
    auto type = value.type();
    bool ordered = type == engine::AttributeType::kS || type == engine::AttributeType::kN ||
                   type == engine::AttributeType::kB;
    bool ok = op->op == Op::kBeginsWith ? type != engine::AttributeType::kN && ordered : ordered;
    if (!ok) {
      return ApiError::Validation("One or more parameter values were invalid: ComparisonOperator " +
                                  std::string(op->name) + " is not valid for " +
                                  std::string(engine::TypeName(type)) + " AttributeValue type");
    }
  }
  if (op->op == Op::kBetween) {
    auto ordered = CheckLegacyBetween(term.values[0], term.values[1]);
    if (!ordered.ok()) return ordered.take_error();
  }
  return term;
}

const KeyTerm* TermFor(const std::vector<KeyTerm>& terms, const std::string& attribute) {
  for (const auto& term : terms) {
    if (term.attribute == attribute) return &term;
  }
  return nullptr;
}

ApiError MissedElement(const std::string& name) {
  return ApiError::Validation("Query condition missed key schema element: " + name);
}

ApiError HashNeedsEquality(const std::string& name) {
  return ApiError::Validation("HASH key attributes " + name +
                              " must have equality conditions specified in the query");
}

// `name` lacks the equality that a condition on the later `later` requires.
ApiError RangeNeedsEquality(const std::string& name, const std::string& later) {
  return ApiError::Validation("RANGE key attributes " + name +
                              " must have equality conditions specified in the query because a "
                              "condition is present on key attribute " + later);
}

ApiError NotSupported() { return ApiError::Validation("Query key condition not supported"); }

ApiResult<bool> CheckTypes(const KeyTerm& term, const engine::KeyElement& element) {
  for (const auto& value : term.values) {
    if (!engine::HasScalarType(value, element.type)) {
      return ApiError::Validation(
          "One or more parameter values were invalid: Condition parameter type does not match "
          "schema type");
    }
  }
  if (term.op == Op::kBeginsWith && element.type == engine::ScalarType::kN) {
    return ApiError::Validation(
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
        "operator or function: begins_with, operand type: N");
  }
  return true;
}

}  // namespace

ApiResult<std::vector<KeyTerm>> KeyTermsFromExpression(const expr::Condition& condition) {
  std::vector<const expr::Condition*> conditions;
  std::string forbidden;
  Flatten(condition, &conditions, &forbidden);
  if (!forbidden.empty()) {
    return ApiError::Validation("Invalid operator used in KeyConditionExpression: " + forbidden);
  }
  std::vector<KeyTerm> terms;
  for (const expr::Condition* c : conditions) {
    auto term = TermFromCondition(*c);
    if (!term.ok()) return term.take_error();
    terms.push_back(std::move(term).value());
  }
  auto unique = CheckOneConditionPerKey(terms);
  if (!unique.ok()) return unique.take_error();
  return terms;
}

ApiResult<std::vector<KeyTerm>> KeyTermsFromLegacy(const rapidjson::Value& key_conditions) {
  std::vector<KeyTerm> terms;
  for (const auto& member : key_conditions.GetObject()) {
    auto term = TermFromLegacy(View(member.name), member.value);
    if (!term.ok()) return term.take_error();
    terms.push_back(std::move(term).value());
  }
  if (terms.empty()) return ApiError::Validation("Conditions can be of length 1 or 2 only");
  return terms;
}

ApiResult<bool> ApplyKeyTerms(const std::vector<KeyTerm>& terms, const engine::KeySchema& key,
                              bool legacy, engine::QueryRequest* request) {
  size_t key_size = key.hash.size() + key.range.size();
  if (terms.size() > std::max<size_t>(2, key_size)) {
    if (legacy) return ApiError::Validation("Conditions can be of length 1 or 2 only");
    return ApiError::Validation("The number of query conditions (" + std::to_string(terms.size()) +
                                ") exceeds the number of key attributes defined in the schema (" +
                                std::to_string(key_size) + ")");
  }
  if (terms.size() > key_size) return NotSupported();
  // A multi-attribute key's KeyConditionExpression answers in DynamoDB's
  // "equality" family of texts; single-attribute keys, and the legacy
  // KeyConditions on any key (accepted on multi-attribute GSIs too, 2026-08),
  // keep the long-standing ones.
  bool equality_texts = !legacy && (key.hash.size() > 1 || key.range.size() > 1);
  for (const auto& element : key.hash) {
    const KeyTerm* term = TermFor(terms, element.name);
    if (equality_texts && (term == nullptr || term->op != Op::kEq)) {
      return HashNeedsEquality(element.name);
    }
    if (term == nullptr) return MissedElement(element.name);
    if (term->op != Op::kEq) return NotSupported();
    auto typed = CheckTypes(*term, element);
    if (!typed.ok()) return typed.take_error();
    request->partition.push_back(term->values[0]);
  }
  // The partition key size limit holds for reads too.
  std::vector<const engine::AttributeValue*> partition;
  for (const auto& value : request->partition) partition.push_back(&value);
  if (auto sized = engine::CheckKeySizes(partition, {}); !sized.ok()) return sized;
  // Sort attributes left to right: equality on each before the last given.
  std::optional<size_t> last;
  for (size_t i = 0; i < key.range.size(); ++i) {
    if (TermFor(terms, key.range[i].name)) last = i;
  }
  size_t used = key.hash.size() + (last ? *last + 1 : 0);
  for (size_t i = 0; last && i <= *last; ++i) {
    const KeyTerm* term = TermFor(terms, key.range[i].name);
    if (i < *last && (term == nullptr || term->op != Op::kEq)) {
      if (!legacy) return RangeNeedsEquality(key.range[i].name, key.range[*last].name);
      if (term == nullptr) return MissedElement(key.range[i].name);
      return NotSupported();
    }
    auto typed = CheckTypes(*term, key.range[i]);
    if (!typed.ok()) return typed.take_error();
    if (i < *last) {
      request->sort.equal.push_back(term->values[0]);
      continue;
    }
    request->sort.op = term->op;
    request->sort.low = term->values[0];
    if (term->values.size() > 1) request->sort.high = term->values[1];
  }
  if (used < terms.size()) {  // a condition on an attribute outside the key
    for (const auto& element : key.range) {
      if (!TermFor(terms, element.name)) return MissedElement(element.name);
    }
    return NotSupported();
  }
  return true;
}

ApiResult<bool> CheckStartKeyInRange(const engine::Item& start, const engine::KeySchema& key,
                                     const engine::QueryRequest& request, bool table_key) {
  for (size_t i = 0; i < key.hash.size(); ++i) {
    auto it = start.find(key.hash[i].name);
    if (it == start.end() || !(it->second == request.partition[i])) {
      return ApiError::Validation(
          "The provided starting key is outside query boundaries based on provided conditions");
    }
  }
  const engine::SortKeyCondition& sort = request.sort;
  if (table_key && sort.op == Op::kEq) {
    return ApiError::Validation("The query can return at most one row and cannot be restarted");
  }
  auto mismatch = [] {
    return ApiError::Validation("The provided starting key does not match the range key predicate");
  };
  for (size_t i = 0; i < sort.equal.size(); ++i) {
    auto it = start.find(key.range[i].name);
    if (it == start.end() || !(it->second == sort.equal[i])) return mismatch();
  }
  if (sort.op == Op::kNone) return true;
  auto it = start.find(key.range[sort.equal.size()].name);
  if (it == start.end()) return mismatch();
  const engine::AttributeValue& value = it->second;
  auto order = [&](const engine::AttributeValue& bound) {
    return engine::expr::CompareScalars(value, bound).value_or(0);
  };
  bool inside = true;
  switch (sort.op) {
    case Op::kEq: inside = order(sort.low) == 0; break;
    case Op::kLt: inside = order(sort.low) < 0; break;
    case Op::kLe: inside = order(sort.low) <= 0; break;
    case Op::kGt: inside = order(sort.low) > 0; break;
    case Op::kGe: inside = order(sort.low) >= 0; break;
    case Op::kBetween: inside = order(sort.low) >= 0 && order(sort.high) <= 0; break;
    case Op::kBeginsWith: {
      const auto& text = value.is<std::string>() ? value.as<std::string>()
                                                 : value.as<engine::Binary>().bytes;
      const auto& prefix = sort.low.is<std::string>() ? sort.low.as<std::string>()
                                                      : sort.low.as<engine::Binary>().bytes;
      inside = text.starts_with(prefix);
      break;
    }
    case Op::kNone: break;
  }
  if (!inside) return mismatch();
  return true;
}

}  // namespace ddb::api
