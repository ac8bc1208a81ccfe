#include "engine/expression/resolve.h"

#include <algorithm>
#include <optional>

#include "engine/expression/document_path.h"
#include "engine/expression/evaluate.h"
#include "engine/expression/update.h"

namespace ddb::engine::expr {
namespace {

Status Invalid(std::string_view parameter, const std::string& detail) {
  return Status::InvalidArgument("Invalid " + std::string(parameter) + ": " + detail);
}

std::string UnusedKeys(std::string_view member, const std::set<std::string, std::less<>>& unused) {
  std::string keys;
  for (const auto& key : unused) keys += (keys.empty() ? "" : ", ") + key;
  return "Value provided in " + std::string(member) + " unused in expressions: keys: {" + keys +
         "}";
}

std::string OperandTypeError(std::string_view parameter, std::string_view function,
                             std::string_view type) {
  return "Invalid " + std::string(parameter) +
         ": Incorrect operand type for operator or function; operator or function: " +
         std::string(function) + ", operand type: " + std::string(type);
}

// The type of an operand known before evaluation: a constant's, or N for
// size(); nullopt for a path.
std::optional<AttributeType> StaticType(const Operand& operand) {
  if (operand.kind == Operand::Kind::kValue) return operand.value.type();
  if (operand.kind == Operand::Kind::kFunction && operand.function == "size") {
    return AttributeType::kN;
  }
  return std::nullopt;
}

bool HasSize(AttributeType type) {
  return type != AttributeType::kN && type != AttributeType::kBool &&
         type != AttributeType::kNull;
}

bool IsSetType(AttributeType type) {
  return type == AttributeType::kSS || type == AttributeType::kNS || type == AttributeType::kBS;
}

// DynamoDB's long type names, used by ADD and DELETE messages.
std::string_view LongTypeName(AttributeType type) {
  static constexpr std::string_view kNames[] = {"STRING", "NUMBER", "BINARY", "BOOLEAN", "NULL",
                                                "MAP",    "LIST",   "STRING_SET", "NUMBER_SET",
                                                "BINARY_SET"};
  return kNames[static_cast<int>(type)];
}

// "{N:5}", as BETWEEN's messages print bounds.
std::string RenderConstant(const AttributeValue& value) {
  std::string text;
  switch (value.type()) {
    case AttributeType::kS: text = value.as<std::string>(); break;
    case AttributeType::kN: text = value.as<Number>().ToString(); break;
    default: text = DebugString(value); break;
  }
  return "{" + std::string(TypeName(value.type())) + ":" + text + "}";
}

// size() arguments, wherever they appear in an operand.
Status CheckSizeArguments(const Operand& operand, std::string_view parameter) {
  for (const Operand& arg : operand.args) DDB_RETURN_IF_ERROR(CheckSizeArguments(arg, parameter));
  if (operand.kind != Operand::Kind::kFunction || operand.function != "size") {
    return Status::Ok();
  }
  std::optional<AttributeType> type = StaticType(operand.args[0]);
  if (type && !HasSize(*type)) {
    return Status::InvalidArgument(OperandTypeError(parameter, "size", TypeName(*type)));
  }
  return Status::Ok();
}

std::string OperatorName(const Condition& condition) {
  switch (condition.kind) {
    case Condition::Kind::kCompare: return std::string(ComparatorText(condition.op));
    case Condition::Kind::kBetween: return "BETWEEN";
    case Condition::Kind::kIn: return "IN";
    default: return condition.function;
  }
}

Status CheckDistinctOperands(const Condition& condition, std::string_view parameter) {
  const auto& ops = condition.operands;
  if (ops.size() < 2 || ops[0].kind != Operand::Kind::kPath) return Status::Ok();
  for (size_t i = 1; i < ops.size(); ++i) {
    if (ops[i].kind == Operand::Kind::kPath && ops[i].path == ops[0].path) {
      return Invalid(parameter,
                     "The first operand must be distinct from the remaining operands for this "
                     "operator or function; operator: " + OperatorName(condition) +
                     ", first operand: " + PathToString(ops[0].path));
    }
  }
  return Status::Ok();
}

// <, <=, >, >= and BETWEEN order only numbers, strings and binaries: a
// constant of another type can never compare, and DynamoDB rejects it.
Status CheckOrderedOperands(const Condition& condition, std::string_view parameter) {
  bool ordered = condition.kind == Condition::Kind::kBetween ||
                 (condition.kind == Condition::Kind::kCompare && condition.op != Comparator::kEq &&
                  condition.op != Comparator::kNe);
  if (!ordered) return Status::Ok();
  for (const Operand& operand : condition.operands) {
    std::optional<AttributeType> type = StaticType(operand);
    if (type && *type != AttributeType::kN && *type != AttributeType::kS &&
        *type != AttributeType::kB) {
      return Status::InvalidArgument(
          OperandTypeError(parameter, OperatorName(condition), TypeName(*type)));
    }
  }
  return Status::Ok();
}

Status CheckBetweenBounds(const Condition& condition, std::string_view parameter) {
  const Operand& low = condition.operands[1];
  const Operand& high = condition.operands[2];
  if (low.kind != Operand::Kind::kValue || high.kind != Operand::Kind::kValue) {
    return Status::Ok();
  }
  std::string bounds = "lower bound operand: AttributeValue: " + RenderConstant(low.value) +
                       ", upper bound operand: AttributeValue: " + RenderConstant(high.value);
  if (low.value.type() != high.value.type()) {
    return Invalid(parameter,
                   "The BETWEEN operator requires same data type for lower and upper bounds; " +
                       bounds);
  }
  std::optional<int> order = CompareScalars(low.value, high.value);
  if (order && *order > 0) {
    return Invalid(parameter,
                   "The BETWEEN operator requires upper bound to be greater than or equal to "
                   "lower bound; " + bounds);
  }
  return Status::Ok();
}

// Checks of one condition node that need its operands bound.
Status CheckOperands(const Condition& condition, std::string_view parameter) {
  for (const Operand& operand : condition.operands) {
    DDB_RETURN_IF_ERROR(CheckSizeArguments(operand, parameter));
  }
  DDB_RETURN_IF_ERROR(CheckDistinctOperands(condition, parameter));
  DDB_RETURN_IF_ERROR(CheckOrderedOperands(condition, parameter));
  if (condition.kind == Condition::Kind::kBetween) {
    return CheckBetweenBounds(condition, parameter);
  }
  if (condition.kind != Condition::Kind::kFunction) return Status::Ok();
  if (condition.function == "begins_with") {
    for (const Operand& operand : condition.operands) {
      std::optional<AttributeType> type = StaticType(operand);
      if (type && *type != AttributeType::kS && *type != AttributeType::kB) {
        return Status::InvalidArgument(OperandTypeError(parameter, "begins_with", TypeName(*type)));
      }
    }
  }
  if (condition.function == "attribute_type") {
    // The type name must be a :value, whatever the item holds.
    if (condition.operands[1].kind == Operand::Kind::kPath) {
      return Status::InvalidArgument(OperandTypeError(parameter, "attribute_type", "PATH"));
    }
    std::optional<AttributeType> type = StaticType(condition.operands[1]);
    if (type && *type != AttributeType::kS) {
      return Status::InvalidArgument(
          OperandTypeError(parameter, "attribute_type", TypeName(*type)));
    }
    if (type) {
      const std::string& name = condition.operands[1].value.as<std::string>();
      static constexpr std::string_view kTypes[] = {"S", "N", "B", "BOOL", "NULL",
                                                    "M", "L", "SS", "NS", "BS"};
      if (std::find(std::begin(kTypes), std::end(kTypes), name) == std::end(kTypes)) {
        return Invalid(parameter, "Invalid attribute type name found; type: " + name +
                                      ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
      }
    }
  }
  return Status::Ok();
}

// Constant operands of +, - (numbers) and list_append (lists) in SET values.
Status CheckSetValue(const Operand& operand) {
  for (const Operand& arg : operand.args) DDB_RETURN_IF_ERROR(CheckSetValue(arg));
  std::string_view name;
  AttributeType wanted;
  if (operand.kind == Operand::Kind::kPlus || operand.kind == Operand::Kind::kMinus) {
    name = operand.kind == Operand::Kind::kPlus ? "+" : "-";
    wanted = AttributeType::kN;
  } else if (operand.kind == Operand::Kind::kFunction && operand.function == "list_append") {
    name = "list_append";
    wanted = AttributeType::kL;
  } else {
    return Status::Ok();
  }
  for (const Operand& arg : operand.args) {
    if (arg.kind == Operand::Kind::kValue && arg.value.type() != wanted) {
      return Status::InvalidArgument(
          OperandTypeError("UpdateExpression", name, TypeName(arg.value.type())));
    }
  }
  return Status::Ok();
}

Status CheckOperands(const Update& update) {
  DDB_RETURN_IF_ERROR(CheckPathsDisjoint(UpdatedPaths(update), "UpdateExpression"));
  for (const UpdateAction& action : update.actions) {
    AttributeType type = action.value.value.type();
    bool add = action.kind == UpdateAction::Kind::kAdd;
    if ((add && type != AttributeType::kN && !IsSetType(type)) ||
        (action.kind == UpdateAction::Kind::kDelete && !IsSetType(type))) {
      return Status::InvalidArgument(
          "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: " +
          std::string(add ? "ADD" : "DELETE") + ", operand type: " +
          std::string(LongTypeName(type)));
    }
    if (action.kind == UpdateAction::Kind::kSet) DDB_RETURN_IF_ERROR(CheckSetValue(action.value));
  }
  return Status::Ok();
}

}  // namespace

Status Placeholders::ResolvePath(Path& path, std::string_view parameter) {
  for (PathElement& step : path.elements) {
    if (step.is_index || !step.name.starts_with('#')) continue;
    auto it = names_.find(step.name);
    if (it == names_.end()) {
      return Invalid(parameter,
                     "An expression attribute name used in the document path is not defined; "
                     "attribute name: " + step.name);
    }
    used_names_.insert(step.name);
    step.name = it->second;
  }
  return Status::Ok();
}

Status Placeholders::ResolveOperand(Operand& operand, std::string_view parameter) {
  switch (operand.kind) {
    case Operand::Kind::kPath:
      return ResolvePath(operand.path, parameter);
    case Operand::Kind::kValue: {
      if (operand.placeholder.empty()) return Status::Ok();  // legacy: value given directly
      auto it = values_.find(operand.placeholder);
      if (it == values_.end()) {
        return Invalid(parameter, std::string(kUndefinedValue) + "attribute value: " +
                                      operand.placeholder);
      }
      used_values_.insert(operand.placeholder);
      operand.value = it->second;
      return Status::Ok();
    }
    default:
      for (Operand& arg : operand.args) DDB_RETURN_IF_ERROR(ResolveOperand(arg, parameter));
      return Status::Ok();
  }
}

Status Placeholders::Resolve(Condition& condition, std::string_view parameter) {
  for (Condition& child : condition.children) DDB_RETURN_IF_ERROR(Resolve(child, parameter));
  for (Operand& operand : condition.operands) {
    DDB_RETURN_IF_ERROR(ResolveOperand(operand, parameter));
  }
  return CheckOperands(condition, parameter);
}

Status Placeholders::Resolve(Update& update) {
  for (UpdateAction& action : update.actions) {
    DDB_RETURN_IF_ERROR(ResolvePath(action.path, "UpdateExpression"));
    if (action.kind != UpdateAction::Kind::kRemove) {
      DDB_RETURN_IF_ERROR(ResolveOperand(action.value, "UpdateExpression"));
    }
  }
  return CheckOperands(update);
}

Status Placeholders::Resolve(Projection& projection) {
  for (Path& path : projection.paths) {
    DDB_RETURN_IF_ERROR(ResolvePath(path, "ProjectionExpression"));
  }
  std::vector<const Path*> paths;
  for (const Path& path : projection.paths) paths.push_back(&path);
  return CheckPathsDisjoint(paths, "ProjectionExpression");
}

Status Placeholders::CheckAllUsed() const {
  std::set<std::string, std::less<>> unused;
  for (const auto& [name, _] : names_) {
    if (!used_names_.contains(name)) unused.insert(name);
  }
  if (!unused.empty()) {
    return Status::InvalidArgument(UnusedKeys("ExpressionAttributeNames", unused));
  }
  for (const auto& [value, _] : values_) {
    if (!used_values_.contains(value)) unused.insert(value);
  }
  if (!unused.empty()) {
    return Status::InvalidArgument(UnusedKeys("ExpressionAttributeValues", unused));
  }
  return Status::Ok();
}

}  // namespace ddb::engine::expr
