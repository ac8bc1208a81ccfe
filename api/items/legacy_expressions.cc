#include "api/items/legacy_expressions.h"

#include <set>
#include <string>
#include <vector>

#include "api/attribute_json.h"
#include "api/json_reader.h"
#include "engine/expression/evaluate.h"

namespace ddb::api {
namespace {

namespace expr = engine::expr;
using engine::AttributeType;
using engine::AttributeValue;

// A malformed legacy condition entry; PutItem and DeleteItem envelope it.
ApiError InvalidLegacy(const std::string& detail) {
  return ApiError::InvalidParameters(detail).EnvelopedIn(ApiError::Envelope::kPutAndDelete);
}

expr::Path TopLevel(std::string_view name) {
  return expr::Path{{expr::PathElement{std::string(name)}}};
}

expr::Operand PathOperand(std::string_view name) {
  expr::Operand operand;
  operand.kind = expr::Operand::Kind::kPath;
  operand.path = TopLevel(name);
  return operand;
}

expr::Operand ValueOperand(AttributeValue value) {
  expr::Operand operand;
  operand.kind = expr::Operand::Kind::kValue;
  operand.value = std::move(value);
  return operand;
}

bool IsScalar(AttributeType t) {
  return t == AttributeType::kS || t == AttributeType::kN || t == AttributeType::kB;
}

// A legacy ComparisonOperator: how many values it takes and which types.
struct LegacyOperator {
  std::string_view name;
  size_t min_values;
  size_t max_values;
  bool (*accepts)(AttributeType);
};

const LegacyOperator* FindOperator(std::string_view name) {
  static constexpr auto kAny = [](AttributeType) { return true; };
  static constexpr auto kScalar = [](AttributeType t) { return IsScalar(t); };
  static constexpr auto kStringOrBinary = [](AttributeType t) {
    return t == AttributeType::kS || t == AttributeType::kB;
  };
  static constexpr auto kElement = [](AttributeType t) {
    return IsScalar(t) || t == AttributeType::kBool || t == AttributeType::kNull;
  };
  static constexpr LegacyOperator kOperators[] = {
      {"EQ", 1, 1, kAny},          {"NE", 1, 1, kAny},
      {"LE", 1, 1, kScalar},       {"LT", 1, 1, kScalar},
      {"GE", 1, 1, kScalar},       {"GT", 1, 1, kScalar},
      {"NOT_NULL", 0, 0, kAny},    {"NULL", 0, 0, kAny},
      {"CONTAINS", 1, 1, kElement}, {"NOT_CONTAINS", 1, 1, kElement},
      {"BEGINS_WITH", 1, 1, kStringOrBinary},
      {"IN", 1, SIZE_MAX, kScalar}, {"BETWEEN", 2, 2, kScalar},
  };
  for (const LegacyOperator& op : kOperators) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

expr::Condition Compare(expr::Comparator op, std::string_view name, AttributeValue value) {
  expr::Condition condition;
  condition.kind = expr::Condition::Kind::kCompare;
  condition.op = op;
  condition.operands.push_back(PathOperand(name));
  condition.operands.push_back(ValueOperand(std::move(value)));
  return condition;
}

expr::Condition Function(std::string_view function, std::string_view name,
                         std::vector<AttributeValue> values) {
  expr::Condition condition;
  condition.kind = expr::Condition::Kind::kFunction;
  condition.function = std::string(function);
  condition.operands.push_back(PathOperand(name));
  for (auto& value : values) condition.operands.push_back(ValueOperand(std::move(value)));
  return condition;
}

// The condition of one ComparisonOperator over `name`, values already checked.
expr::Condition OperatorCondition(std::string_view op, std::string_view name,
                                  std::vector<AttributeValue> values) {
  using C = expr::Comparator;
  static constexpr std::pair<std::string_view, C> kComparators[] = {
      {"EQ", C::kEq}, {"NE", C::kNe}, {"LE", C::kLe}, {"LT", C::kLt}, {"GE", C::kGe}, {"GT", C::kGt}};
  for (auto [text, comparator] : kComparators) {
    if (op == text) return Compare(comparator, name, std::move(values[0]));
  }
  if (op == "NOT_NULL") return Function("attribute_exists", name, {});
  if (op == "NULL") return Function("attribute_not_exists", name, {});
  if (op == "CONTAINS") return Function("contains", name, std::move(values));
  if (op == "BEGINS_WITH") return Function("begins_with", name, std::move(values));
  expr::Condition condition;
  if (op == "NOT_CONTAINS") {
    // Like CONTAINS, NOT_CONTAINS is false on an absent attribute.
    expr::Condition negated;
    negated.kind = expr::Condition::Kind::kNot;
    negated.children.push_back(Function("contains", name, std::move(values)));
    condition.kind = expr::Condition::Kind::kAnd;
    condition.children.push_back(Function("attribute_exists", name, {}));
    condition.children.push_back(std::move(negated));
    return condition;
  }
  condition.kind = op == "IN" ? expr::Condition::Kind::kIn : expr::Condition::Kind::kBetween;
  condition.operands.push_back(PathOperand(name));
  for (auto& value : values) condition.operands.push_back(ValueOperand(std::move(value)));
  return condition;
}

ApiResult<expr::Condition> ComparisonCondition(std::string_view name, std::string_view op_name,
                                               const rapidjson::Value* value_json,
                                               const rapidjson::Value* list_json) {
  const LegacyOperator* op = FindOperator(op_name);
  if (op == nullptr) {
    return ApiError::Validation(
        "1 validation error detected: Value '" + std::string(op_name) +
        "' at 'expected." + std::string(name) +
        ".member.comparisonOperator' failed to satisfy constraint: Member must satisfy enum "
        "value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, "
        "BEGINS_WITH, GE, CONTAINS]");
  }
  std::vector<AttributeValue> values;
  if (list_json || value_json) {
    std::vector<AttributeValue> read;
    if (list_json) {
      auto list = ReadValueList(*list_json);
      if (!list.ok()) return list.take_error();
      read = std::move(list).value();
    } else {
      auto value = ParseAttributeValue(*value_json);
      if (!value.ok()) return value.take_error();
      read.push_back(std::move(value).value());
    }
    values = std::move(read);
  } else if (op->min_values > 0) {
    return InvalidLegacy("Value or AttributeValueList must be used with ComparisonOperator: " +
                   std::string(op_name) + " for Attribute: " + std::string(name));
  }
  if (values.size() < op->min_values || values.size() > op->max_values) {
    return InvalidLegacy("Invalid number of argument(s) for the " + std::string(op_name) +
                   " ComparisonOperator");
  }
  for (const AttributeValue& value : values) {
    if (!op->accepts(value.type())) {
      return InvalidLegacy("ComparisonOperator " + std::string(op_name) + " is not valid for " +
                     std::string(engine::TypeName(value.type())) + " AttributeValue type");
    }
    if (value.type() != values[0].type()) {
      return InvalidLegacy("AttributeValues inside AttributeValueList must be of same type");
    }
  }
  if (op_name == "BETWEEN") {
    auto ordered = CheckLegacyBetween(values[0], values[1]);
    if (!ordered.ok()) return ordered.take_error();
  }
  return OperatorCondition(op_name, name, std::move(values));
}

// One attribute's entry of Expected.
ApiResult<expr::Condition> ExpectedEntry(std::string_view name, const rapidjson::Value& entry) {
  if (!entry.IsObject()) return WrongType(entry, "ExpectedAttributeValue");
  RequestReader r(entry);
  const rapidjson::Value* value_json = r.Object("Value");
  auto exists = r.Bool("Exists");
  auto op = r.String("ComparisonOperator");
  const rapidjson::Value* list_json = r.Array("AttributeValueList");
  if (r.failed()) return r.error();
  std::string attribute(name);
  if (exists && op) {
    return InvalidLegacy("Exists and ComparisonOperator cannot be used together for Attribute: " +
                   attribute);
  }
  if (value_json && list_json) {
    return InvalidLegacy("Value and AttributeValueList cannot be used together for Attribute: " +
                   attribute);
  }
  if (list_json && !op) {
    return InvalidLegacy("AttributeValueList can only be used with a ComparisonOperator for Attribute: " +
                   attribute);
  }
  if (op) return ComparisonCondition(name, *op, value_json, list_json);
  if (exists && !*exists) {
    if (value_json) {
      return InvalidLegacy("Value cannot be used when Exists is false for Attribute: " + attribute);
    }
    return Function("attribute_not_exists", name, {});
  }
  if (!value_json) {
    return InvalidLegacy("Value must be provided when Exists is " +
                   std::string(exists ? "true" : "null") + " for Attribute: " + attribute);
  }
  auto value = ParseAttributeValue(*value_json);
  if (!value.ok()) return value.take_error();
  return Compare(expr::Comparator::kEq, name, std::move(value).value());
}

bool IsSet(AttributeType t) {
  return t == AttributeType::kSS || t == AttributeType::kNS || t == AttributeType::kBS;
}

ApiResult<expr::UpdateAction> AttributeUpdate(std::string_view name,
                                              const rapidjson::Value& entry) {
  if (!entry.IsObject()) return WrongType(entry, "AttributeValueUpdate");
  if (auto problem = CheckAttributeName(name)) return InvalidLegacy(*problem);
  RequestReader r(entry);
  const rapidjson::Value* value_json = r.Object("Value");
  auto action = r.String("Action");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.Enum(action, "attributeUpdates." + std::string(name) + ".member.action",
                   {"ADD", "PUT", "DELETE"});
  if (!constraints.empty()) return constraints.ToError();
  std::string_view kind = action.value_or("PUT");
  expr::UpdateAction update;
  update.path = TopLevel(name);
  if (!value_json) {
    if (kind != "DELETE") {
      return InvalidLegacy("Only DELETE action is allowed when no attribute value is specified");
    }
    update.kind = expr::UpdateAction::Kind::kRemove;
    return update;
  }
  auto value = ParseAttributeValue(*value_json);
  if (!value.ok()) return value.take_error();
  AttributeType type = value->type();
  std::string type_name(engine::TypeName(type));
  if (kind == "DELETE") {
    if (!IsSet(type)) {
      return InvalidLegacy("DELETE action with value is not supported for the type " + type_name);
    }
    update.kind = expr::UpdateAction::Kind::kDelete;
  } else if (kind == "ADD") {
    if (!IsSet(type) && type != AttributeType::kN && type != AttributeType::kL) {
      return InvalidLegacy("ADD action is not supported for the type " + type_name);
    }
    update.kind = expr::UpdateAction::Kind::kAdd;
  } else {
    update.kind = expr::UpdateAction::Kind::kSet;
  }
  update.value = ValueOperand(std::move(value).value());
  return update;
}

}  // namespace

ApiResult<std::vector<AttributeValue>> ReadValueList(const rapidjson::Value& list) {
  std::vector<AttributeValue> values;
  for (const auto& json : list.GetArray()) {
    auto value = ParseAttributeValue(json);
    if (!value.ok()) return value.take_error();
    values.push_back(std::move(value).value());
  }
  return values;
}

ApiResult<bool> CheckLegacyBetween(const AttributeValue& low, const AttributeValue& high) {
  std::optional<int> order = expr::CompareScalars(low, high);
  if (order && *order > 0) {
    return ApiError::Validation(
        "The BETWEEN condition was provided a range where the lower bound is greater than the "
        "upper bound");
  }
  return true;
}

namespace {

// Joins conditions [begin, end) with `kind` as a balanced tree, so that a
// request with many entries cannot build a tree deep enough to exhaust the
// stack when it is evaluated or destroyed.
expr::Condition Join(std::vector<expr::Condition>& parts, size_t begin, size_t end,
                     expr::Condition::Kind kind) {
  if (end - begin == 1) return std::move(parts[begin]);
  size_t middle = begin + (end - begin) / 2;
  expr::Condition joined;
  joined.kind = kind;
  joined.children.push_back(Join(parts, begin, middle, kind));
  joined.children.push_back(Join(parts, middle, end, kind));
  return joined;
}

}  // namespace

ApiResult<std::optional<expr::Condition>> ExpectedToCondition(
    const rapidjson::Value& expected, std::string_view conditional_operator) {
  std::vector<expr::Condition> parts;
  for (const auto& member : expected.GetObject()) {
    auto condition = ExpectedEntry(View(member.name), member.value);
    if (!condition.ok()) return condition.take_error();
    parts.push_back(std::move(condition).value());
  }
  if (parts.empty()) return std::optional<expr::Condition>();
  auto kind = conditional_operator == "OR" ? expr::Condition::Kind::kOr
                                           : expr::Condition::Kind::kAnd;
  return std::optional<expr::Condition>(Join(parts, 0, parts.size(), kind));
}

ApiResult<expr::Update> AttributeUpdatesToUpdate(const rapidjson::Value& updates) {
  expr::Update update;
  for (const auto& member : updates.GetObject()) {
    auto action = AttributeUpdate(View(member.name), member.value);
    if (!action.ok()) return action.take_error();
    update.actions.push_back(std::move(action).value());
  }
  return update;
}

ApiResult<expr::Projection> AttributesToGetToProjection(const rapidjson::Value& names) {
  expr::Projection projection;
  std::set<std::string_view> seen;
  for (const auto& name : names.GetArray()) {
    if (!name.IsString()) return WrongType(name, "String");
    if (auto problem = CheckAttributeName(View(name))) return InvalidLegacy(*problem);
    if (!seen.insert(View(name)).second) {
      return InvalidLegacy("Duplicate value in attribute name: " + std::string(View(name)));
    }
    projection.paths.push_back(TopLevel(View(name)));
  }
  return projection;
}

}  // namespace ddb::api
