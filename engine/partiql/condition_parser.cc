// WHERE conditions of PartiQL statements, their operands and document paths,
// parsed into DynamoDB's condition trees: comparisons, BETWEEN, IN, AND, OR,
// NOT, IS [NOT] MISSING / NULL / <type>, and the functions attribute_exists,
// attribute_not_exists, attribute_type, begins_with, contains and size.
#include <array>
#include <utility>

#include "engine/partiql/parser_internal.h"

namespace ddb::engine::partiql::internal {
namespace {

using expr::Comparator;
using expr::Condition;
using expr::Operand;

// The DynamoDB types a PartiQL type name stands for in `x IS <type>`.
struct TypeName {
  std::string_view name;
  std::string_view second_word;  // DOUBLE PRECISION, CHARACTER VARYING
  std::vector<std::string_view> types;  // none: a name DynamoDB refuses in IS
};

const std::vector<TypeName>& TypeNames() {
  static const std::vector<TypeName> kTypes = {
      {"BOOL", "", {"BOOL"}},
      {"BOOLEAN", "", {"BOOL"}},
      {"STRING", "", {"S"}},
      {"VARCHAR", "", {"S"}},
      {"CHAR", "", {"S"}},
      {"CHARACTER", "VARYING", {}},
      {"SYMBOL", "", {"S"}},
      {"INT", "", {"N"}},
      {"INT2", "", {"N"}},
      {"INT4", "", {}},
      {"INT8", "", {}},
      {"INTEGER", "", {"N"}},
      {"SMALLINT", "", {"N"}},
      {"BIGINT", "", {"N"}},
      {"DECIMAL", "", {"N"}},
      {"DEC", "", {"N"}},
      {"NUMERIC", "", {"N"}},
      {"REAL", "", {"N"}},
      {"FLOAT", "", {"N"}},
      {"DOUBLE", "PRECISION", {}},
      {"BLOB", "", {"B"}},
      {"LIST", "", {"L"}},
      {"STRUCT", "", {"M"}},
      {"TUPLE", "", {"M"}},
      {"BAG", "", {"SS", "NS", "BS"}},
  };
  return kTypes;
}

Condition TypeTest(const Operand& path, std::string_view type) {
  Condition test;
  test.kind = Condition::Kind::kFunction;
  test.function = "attribute_type";
  Operand name;
  name.value = AttributeValue(std::string(type));
  test.operands = {path, std::move(name)};
  return test;
}

// <, <=, >, >= and BETWEEN order numbers, strings and binaries only; a
// constant of another type is refused before anything is read, as DynamoDB
// does.
Status CheckOrderable(const Condition& condition) {
  bool ordered = condition.kind == Condition::Kind::kBetween ||
                 (condition.kind == Condition::Kind::kCompare && condition.op != Comparator::kEq &&
                  condition.op != Comparator::kNe);
  if (!ordered) return Status::Ok();
  for (const Operand& operand : condition.operands) {
    if (operand.kind != Operand::Kind::kValue) continue;
    AttributeType type = operand.value.type();
    if (type == AttributeType::kN || type == AttributeType::kS || type == AttributeType::kB) {
      continue;
    }
    std::string op = condition.kind == Condition::Kind::kBetween
                         ? "BETWEEN"
                         : std::string(expr::ComparatorText(condition.op));
    return Status::InvalidArgument(
        "Incorrect operand type for operator or function; operator or function: " + op +
        ", operand type: " + std::string(engine::TypeName(type)));
  }
  return Status::Ok();
}

}  // namespace

Condition Combine(Condition::Kind kind, Condition left, Condition right) {
  Condition combined;
  combined.kind = kind;
  combined.children.push_back(std::move(left));
  combined.children.push_back(std::move(right));
  return combined;
}

Condition Negate(Condition condition) {
  Condition negated;
  negated.kind = Condition::Kind::kNot;
  negated.children.push_back(std::move(condition));
  return negated;
}

bool Parser::StartsPath() const {
  const Token& token = Peek();
  if (token.kind == Kind::kQuotedIdentifier) return true;
  return token.kind == Kind::kIdentifier && !IsReservedWord(token) && !IsOperatorWord(token) &&
         !PeekKeyword("TRUE") && !PeekKeyword("FALSE") && !PeekKeyword("NULL") &&
         !PeekKeyword("MISSING") && !PeekKeyword("NOT");
}

std::optional<Condition> Parser::ParseOr(int depth) {
  if (depth > kMaxNesting) {
    Fail(Malformed("Expression nesting exceeds the supported depth"));
    return std::nullopt;
  }
  auto left = ParseAnd(depth);
  while (left && AcceptKeyword("OR")) {
    if (Peek().kind == Kind::kEnd) {
      MissingRightOperand();
      return std::nullopt;
    }
    auto right = ParseAnd(depth);
    if (!right) return std::nullopt;
    left = Combine(Condition::Kind::kOr, std::move(*left), std::move(*right));
  }
  return left;
}

std::optional<Condition> Parser::ParseAnd(int depth) {
  auto left = ParseNot(depth);
  while (left && AcceptKeyword("AND")) {
    if (Peek().kind == Kind::kEnd) {
      MissingRightOperand();
      return std::nullopt;
    }
    auto right = ParseNot(depth);
    if (!right) return std::nullopt;
    left = Combine(Condition::Kind::kAnd, std::move(*left), std::move(*right));
  }
  return left;
}

std::optional<Condition> Parser::ParseNot(int depth) {
  if (!AcceptKeyword("NOT")) return ParsePredicate(depth);
  if (depth > kMaxNesting) {
    Fail(Malformed("Expression nesting exceeds the supported depth"));
    return std::nullopt;
  }
  auto inner = ParseNot(depth + 1);
  if (!inner) return std::nullopt;
  return Negate(std::move(*inner));
}

std::optional<Condition> Parser::ParsePredicate(int depth) {
  if (Accept(Kind::kLeftParen)) {
    auto inner = ParseOr(depth + 1);
    if (!inner || !Expect(Kind::kRightParen)) return std::nullopt;
    return inner;
  }
  if (StartsFunction() && Lower(Peek().text) != "size") {
    auto call = ParseFunctionCondition(depth);
    if (!call) return std::nullopt;
    // `attribute_exists(a) = true`: the condition's truth compared with a
    // boolean literal, which DynamoDB parses.
    bool equal = Peek().kind == Kind::kEq;
    if ((equal || Peek().kind == Kind::kNe) && Peek(1).kind == Kind::kIdentifier) {
      std::string word = Lower(Peek(1).text);
      if (word == "true" || word == "false") {
        Skip(2);
        return equal == (word == "true") ? std::move(*call) : Negate(std::move(*call));
      }
    }
    return call;
  }
  auto left = ParseOperand(depth);
  if (!left) return std::nullopt;
  return ParseComparison(std::move(*left), depth);
}

// What follows an operand: a comparator and an operand, IS, [NOT] BETWEEN,
// [NOT] IN.
std::optional<Condition> Parser::ParseComparison(Operand left, int depth) {
  static constexpr std::pair<Kind, Comparator> kComparators[] = {
      {Kind::kEq, Comparator::kEq}, {Kind::kNe, Comparator::kNe}, {Kind::kLt, Comparator::kLt},
      {Kind::kLe, Comparator::kLe}, {Kind::kGt, Comparator::kGt}, {Kind::kGe, Comparator::kGe}};
  for (auto [kind, op] : kComparators) {
    if (!Accept(kind)) continue;
    if (PeekKeyword("MISSING")) {
      Fail(Status::InvalidArgument("MISSING must be compared using IS operator"));
      return std::nullopt;
    }
    if (Peek().kind == Kind::kEnd) {
      MissingRightOperand();
      return std::nullopt;
    }
    auto right = ParseOperand(depth);
    if (!right) return std::nullopt;
    Condition compare;
    compare.kind = Condition::Kind::kCompare;
    compare.op = op;
    compare.operands = {std::move(left), std::move(*right)};
    if (Status orderable = CheckOrderable(compare); !orderable.ok()) {
      Fail(orderable);
      return std::nullopt;
    }
    return compare;
  }
  if (PeekKeyword("IS")) return ParseIs(std::move(left));
  bool negated = AcceptKeyword("NOT");
  std::optional<Condition> condition;
  if (AcceptKeyword("BETWEEN")) {
    auto low = ParseOperand(depth);
    if (!low || !ExpectKeyword("AND")) return std::nullopt;
    auto high = ParseOperand(depth);
    if (!high) return std::nullopt;
    condition.emplace();
    condition->kind = Condition::Kind::kBetween;
    condition->operands = {std::move(left), std::move(*low), std::move(*high)};
    if (Status orderable = CheckOrderable(*condition); !orderable.ok()) {
      Fail(orderable);
      return std::nullopt;
    }
  } else if (AcceptKeyword("IN")) {
    condition = ParseIn(std::move(left), depth);
  } else {
    Fail(Malformed("Unexpected token after expression"));
  }
  if (!condition) return std::nullopt;
  return negated ? Negate(std::move(*condition)) : std::move(*condition);
}

// attribute_exists(path), attribute_not_exists(path), attribute_type(path,
// 'T'), begins_with(a, b), contains(a, b); names in any case.
std::optional<Condition> Parser::ParseFunctionCondition(int depth) {
  static constexpr std::pair<std::string_view, size_t> kFunctions[] = {{"attribute_exists", 1},
                                                                       {"attribute_not_exists", 1},
                                                                       {"attribute_type", 2},
                                                                       {"begins_with", 2},
                                                                       {"contains", 2}};
  const Token& name_token = Peek();
  std::string name = Lower(name_token.text);
  const auto* function = std::find_if(std::begin(kFunctions), std::end(kFunctions),
                                      [&](const auto& f) { return f.first == name; });
  if (function == std::end(kFunctions)) {
    FailAt("Unrecognized function: " + name, name_token);
    return std::nullopt;
  }
  Skip(2);  // name (
  auto args = ParseArguments(depth, nullptr);
  if (!args) return std::nullopt;
  if (args->size() != function->second) {
    Fail(Status::InvalidArgument(
        "Incorrect number of operands for operator or function; operator or function: " + name +
        ", number of operands: " + std::to_string(args->size())));
    return std::nullopt;
  }
  bool path_first = name.starts_with("attribute_");
  if (path_first && (*args)[0].kind != Operand::Kind::kPath) {
    Fail(Status::InvalidArgument(
        "Operator or function requires a document path; operator or function: " + name));
    return std::nullopt;
  }
  Condition call;
  call.kind = Condition::Kind::kFunction;
  call.function = name;
  call.operands = std::move(*args);
  return call;
}

std::optional<std::vector<Operand>> Parser::ParseArguments(int depth,
                                                           std::vector<const Token*>* starts) {
  std::vector<Operand> args;
  if (!Accept(Kind::kRightParen)) {
    do {
      if (starts) starts->push_back(&Peek());
      auto arg = ParseOperand(depth);
      if (!arg) return std::nullopt;
      args.push_back(std::move(*arg));
    } while (Accept(Kind::kComma));
    if (!Expect(Kind::kRightParen)) return std::nullopt;
  }
  return args;
}

// path IS [NOT] MISSING | NULL | <type name>: MISSING is attribute_not_exists;
// NULL and the type names test the attribute's type.
std::optional<Condition> Parser::ParseIs(Operand operand) {
  Skip();  // IS
  bool negated = AcceptKeyword("NOT");
  if (operand.kind != Operand::Kind::kPath) {
    Fail(Status::InvalidArgument(
        "The left hand side argument to IS must be a Variable Reference, Literal, or Path"));
    return std::nullopt;
  }
  if (AcceptKeyword("MISSING")) {
    Condition exists;
    exists.kind = Condition::Kind::kFunction;
    exists.function = negated ? "attribute_exists" : "attribute_not_exists";
    exists.operands.push_back(std::move(operand));
    return exists;
  }
  std::optional<Condition> test;
  if (AcceptKeyword("NULL")) {
    test = TypeTest(operand, "NULL");
  } else {
    for (const TypeName& type : TypeNames()) {
      if (!PeekKeyword(type.name)) continue;
      if (!type.second_word.empty() && !PeekKeyword(type.second_word, 1)) continue;
      Skip(type.second_word.empty() ? 1 : 2);
      if (type.types.empty()) {
        // PartiQL names these types; DynamoDB does not test for them (2026-08).
        Fail(Status::InvalidArgument("Unsupported operation: IsType"));
        return std::nullopt;
      }
      for (std::string_view dynamo_type : type.types) {
        Condition one = TypeTest(operand, dynamo_type);
        test =
            test ? Combine(Condition::Kind::kOr, std::move(*test), std::move(one)) : std::move(one);
      }
      break;
    }
  }
  if (!test) {
    Fail(Malformed("Expected type name"));
    return std::nullopt;
  }
  return negated ? Negate(std::move(*test)) : std::move(*test);
}

// operand IN (a, b, ...) or IN [a, b, ...].
std::optional<Condition> Parser::ParseIn(Operand operand, int depth) {
  Kind close = Kind::kRightParen;
  if (Accept(Kind::kLeftBracket)) {
    close = Kind::kRightBracket;
  } else if (!Expect(Kind::kLeftParen)) {
    return std::nullopt;
  }
  Condition in;
  in.kind = Condition::Kind::kIn;
  in.operands.push_back(std::move(operand));
  do {
    auto candidate = ParseOperand(depth);
    if (!candidate) return std::nullopt;
    in.operands.push_back(std::move(*candidate));
  } while (Accept(Kind::kComma));
  if (!Expect(close)) return std::nullopt;
  return in;
}

std::optional<Operand> Parser::ParseOperand(int depth) {
  Operand operand;
  if (StartsFunction()) {
    const Token& function = Peek();
    if (Lower(function.text) != "size") {
      FailAt("Unrecognized function: " + Lower(function.text), function);
      return std::nullopt;
    }
    // size(size(...)) nests too: a level each, or text could recurse deep
    // enough to overflow the stack.
    if (depth > kMaxNesting) {
      Fail(Malformed("Expression nesting exceeds the supported depth"));
      return std::nullopt;
    }
    Skip(2);  // size (
    auto args = ParseArguments(depth + 1, nullptr);
    if (!args) return std::nullopt;
    if (args->size() != 1) {
      Fail(Status::InvalidArgument(
          "Incorrect number of operands for operator or function; operator or function: size, "
          "number of operands: " +
          std::to_string(args->size())));
      return std::nullopt;
    }
    operand.kind = Operand::Kind::kFunction;
    operand.function = "size";
    operand.args = std::move(*args);
    return operand;
  }
  if (StartsPath()) {
    auto path = ParsePath();
    if (!path) return std::nullopt;
    operand.kind = Operand::Kind::kPath;
    operand.path = std::move(*path);
    return operand;
  }
  if (PeekKeyword("MISSING")) {
    Fail(Status::InvalidArgument("MISSING must be compared using IS operator"));
    return std::nullopt;
  }
  if (!StartsLiteral(Peek())) {
    UnexpectedTerm();
    return std::nullopt;
  }
  auto value = ReadLiteral(depth);
  if (!value) return std::nullopt;
  operand.kind = Operand::Kind::kValue;
  operand.value = std::move(*value);
  return operand;
}

std::optional<expr::Path> Parser::ParsePath() {
  if (!StartsPath()) {
    UnexpectedTerm();
    return std::nullopt;
  }
  expr::Path path;
  path.elements.push_back({Peek().value, 0, false});
  Skip();
  while (true) {
    if (Accept(Kind::kDot)) {
      const Token& member = Peek();
      bool name =
          member.kind == Kind::kQuotedIdentifier ||
          (member.kind == Kind::kIdentifier && !IsReservedWord(member) && !IsOperatorWord(member));
      if (!name) {
        Fail(Malformed("Invalid path dot component"));
        return std::nullopt;
      }
      path.elements.push_back({member.value, 0, false});
      Skip();
    } else if (Accept(Kind::kLeftBracket)) {
      const Token& inside = Peek();
      if (inside.kind == Kind::kString) {
        path.elements.push_back({inside.value, 0, false});
      } else if (inside.kind == Kind::kNumber &&
                 inside.value.find_first_not_of("0123456789") == std::string::npos &&
                 inside.value.size() < 10) {
        path.elements.push_back({"", static_cast<uint32_t>(std::stoul(inside.value)), true});
      } else {
        Unexpected();
        return std::nullopt;
      }
      Skip();
      if (!Expect(Kind::kRightBracket)) return std::nullopt;
    } else {
      break;
    }
    if (path.elements.size() > static_cast<size_t>(kMaxNesting)) {
      Fail(Status::InvalidArgument(
          "The document path has too many nesting levels; nesting levels: " +
          std::to_string(path.elements.size())));
      return std::nullopt;
    }
  }
  return path;
}

}  // namespace ddb::engine::partiql::internal
