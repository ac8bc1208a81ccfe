// SET and REMOVE of PartiQL's UPDATE (both forms), parsed into the actions
// of DynamoDB's UpdateExpression: SET with `+`, `-`, list_append and
// if_not_exists; set_add / set_delete as ADD / DELETE; REMOVE.
#include "engine/partiql/parser_internal.h"

namespace ddb::engine::partiql::internal {

using expr::Operand;

bool Parser::ParseUpdateClauses(expr::Update& update, bool* any) {
  *any = false;
  while (true) {
    if (AcceptKeyword("SET")) {
      if (!ParseSetClause(update)) return false;
    } else if (AcceptKeyword("REMOVE")) {
      if (!ParseRemoveClause(update)) return false;
    } else if (PeekKeyword("ADD") || PeekKeyword("DELETE")) {
      return Fail(Status::InvalidArgument(
          "Only SET and REMOVE are supported in update expressions at this time"));
    } else {
      return *any;
    }
    *any = true;
  }
}

// path = term {, path = term}.
bool Parser::ParseSetClause(expr::Update& update) {
  do {
    auto path = ParsePath();
    if (!path || !Expect(Kind::kEq)) return false;
    expr::UpdateAction action;
    action.path = std::move(*path);
    if (StartsFunction() &&
        (Lower(Peek().text) == "set_add" || Lower(Peek().text) == "set_delete")) {
      if (!ParseSetFunction(action)) return false;
    } else {
      if (AtStatementEnd()) return MissingRightOperand();
      auto term = ParseTerm(0);
      if (!term) return false;
      action.kind = expr::UpdateAction::Kind::kSet;
      action.value = std::move(*term);
    }
    update.actions.push_back(std::move(action));
  } while (Accept(Kind::kComma));
  return true;
}

// `path = set_add(path, <<set>>)` (ADD) or set_delete (DELETE), with
// DynamoDB's checks and messages, which point at the function or its first
// argument.
bool Parser::ParseSetFunction(expr::UpdateAction& action) {
  const Token& function = Peek();
  std::string upper = Lower(function.text) == "set_add" ? "ADD" : "DELETE";
  Skip(2);  // name (
  std::vector<const Token*> starts;
  auto args = ParseArguments(0, &starts);
  if (!args) return false;
  if (args->size() != 2) {
    return FailAt("SET_" + upper + " must have exactly two arguments", function);
  }
  const Operand& target = (*args)[0];
  if (target.kind != Operand::Kind::kPath || !(target.path == action.path)) {
    return FailAt("The first argument to SET_" + upper + " must equal the assignment value",
                  function);
  }
  const Operand& value = (*args)[1];
  AttributeType type = value.value.type();
  if (value.kind != Operand::Kind::kValue ||
      (type != AttributeType::kSS && type != AttributeType::kNS && type != AttributeType::kBS)) {
    return FailAt("The second argument to SET_" + upper + " must be a value with type SET",
                  *starts[0]);
  }
  action.kind = upper == "ADD" ? expr::UpdateAction::Kind::kAdd : expr::UpdateAction::Kind::kDelete;
  action.value = value;
  return true;
}

bool Parser::ParseRemoveClause(expr::Update& update) {
  do {
    auto path = ParsePath();
    if (!path) return false;
    expr::UpdateAction action;
    action.kind = expr::UpdateAction::Kind::kRemove;
    action.path = std::move(*path);
    update.actions.push_back(std::move(action));
  } while (Accept(Kind::kComma));
  return true;
}

// value-term [(+|-) value-term].
std::optional<Operand> Parser::ParseTerm(int depth) {
  auto left = ParseValueTerm(depth);
  if (!left) return std::nullopt;
  bool plus = Peek().kind == Kind::kPlus;
  if (!plus && Peek().kind != Kind::kMinus) return left;
  Skip();
  if (Peek().kind == Kind::kEnd) {
    MissingRightOperand();
    return std::nullopt;
  }
  auto right = ParseValueTerm(depth);
  if (!right) return std::nullopt;
  Operand sum;
  sum.kind = plus ? Operand::Kind::kPlus : Operand::Kind::kMinus;
  sum.args.push_back(std::move(*left));
  sum.args.push_back(std::move(*right));
  return sum;
}

// path | value | list_append(term, term) | if_not_exists(path, term).
std::optional<Operand> Parser::ParseValueTerm(int depth) {
  if (!StartsFunction()) return ParseOperand(depth);
  const Token& function = Peek();
  std::string name = Lower(function.text);
  if (name != "list_append" && name != "if_not_exists") {
    FailAt("Unrecognized function: " + name, function);
    return std::nullopt;
  }
  if (depth > kMaxNesting) {
    Fail(Malformed("Expression nesting exceeds the supported depth"));
    return std::nullopt;
  }
  Skip(2);  // name (
  Operand call;
  call.kind = Operand::Kind::kFunction;
  call.function = name;
  if (Peek().kind != Kind::kRightParen) {
    do {
      auto arg = ParseValueTerm(depth + 1);
      if (!arg) return std::nullopt;
      call.args.push_back(std::move(*arg));
    } while (Accept(Kind::kComma));
  }
  if (!Expect(Kind::kRightParen)) return std::nullopt;
  if (call.args.size() != 2) {
    Fail(Status::InvalidArgument(
        "Incorrect number of operands for operator or function; operator or function: " + name +
        ", number of operands: " + std::to_string(call.args.size())));
    return std::nullopt;
  }
  if (name == "if_not_exists" && call.args[0].kind != Operand::Kind::kPath) {
    Fail(Status::InvalidArgument(
        "Operator or function requires a document path; operator or function: if_not_exists"));
    return std::nullopt;
  }
  return call;
}

}  // namespace ddb::engine::partiql::internal
