#include "engine/partiql/parser.h"

#include <algorithm>
#include <optional>
#include <string>

#include "engine/expression/lexer.h"
#include "engine/partiql/lexer.h"
#include "engine/partiql/literal.h"

namespace ddb::engine::partiql {
namespace {

using Kind = Token::Kind;
using expr::Comparator;
using expr::Condition;
using expr::Operand;
using expr::Path;

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

// Parses one statement. Each Parse* method returns nullopt after recording
// the first error in error_, which Parse() then returns.
class Parser {
 public:
  Parser(std::string_view text, const std::vector<AttributeValue>& parameters)
      : text_(text), tokens_(Tokenize(text)), literals_(text, parameters) {}

  Result<Statement> Parse();

 private:
  // --- Tokens ----------------------------------------------------------------
  const Token& Peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  bool Accept(Kind kind) {
    if (Peek().kind != kind) return false;
    ++pos_;
    return true;
  }
  bool PeekKeyword(std::string_view keyword, size_t ahead = 0) const {
    return Peek(ahead).kind == Kind::kIdentifier && expr::IsKeyword(Peek(ahead).text, keyword);
  }
  bool AcceptKeyword(std::string_view keyword) {
    if (!PeekKeyword(keyword)) return false;
    ++pos_;
    return true;
  }
  bool Expect(Kind kind) { return Accept(kind) || Unexpected(); }
  bool ExpectKeyword(std::string_view keyword) { return AcceptKeyword(keyword) || Unexpected(); }

  // Records a syntax error at the current token; always returns false.
  bool Unexpected();
  bool Fail(Status status) {
    if (error_.ok()) error_ = std::move(status);
    return false;
  }
  std::optional<AttributeValue> ReadLiteral(int depth) {
    auto value = literals_.Read(tokens_, pos_, depth);
    if (!value) Fail(literals_.status());
    return value;
  }

  // --- Statements ------------------------------------------------------------
  std::optional<Statement> ParseSelect();
  std::optional<Statement> ParseInsert();
  std::optional<Statement> ParseUpdate();
  std::optional<Statement> ParseDelete();
  std::optional<Statement> ParseExists();
  std::optional<Source> ParseSource();
  std::optional<std::string> ParseName();
  std::optional<Returning> ParseReturning(bool is_delete);
  bool ParseSetClause(expr::Update& update);
  bool ParseRemoveClause(expr::Update& update);

  // --- Conditions and operands ----------------------------------------------
  std::optional<Condition> ParseOr(int depth);
  std::optional<Condition> ParseAnd(int depth);
  std::optional<Condition> ParseNot(int depth);
  std::optional<Condition> ParsePredicate(int depth);
  std::optional<Condition> ParseFunctionCondition(int depth);
  std::optional<Condition> ParseIs(Operand operand);
  std::optional<Condition> ParseIn(Operand operand, int depth);
  std::optional<Operand> ParseOperand(int depth);
  std::optional<Operand> ParseTerm(int depth);
  std::optional<Operand> ParseValueTerm(int depth);
  std::optional<Path> ParsePath();
  bool StartsPath() const {
    return Peek().kind == Kind::kQuotedIdentifier ||
           (Peek().kind == Kind::kIdentifier && !PeekKeyword("TRUE") && !PeekKeyword("FALSE") &&
            !PeekKeyword("NULL") && !PeekKeyword("MISSING"));
  }
  bool StartsFunction() const {
    return Peek().kind == Kind::kIdentifier && Peek(1).kind == Kind::kLeftParen;
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  LiteralReader literals_;
  Status error_;
};

bool Parser::Unexpected() {
  if (!error_.ok()) return false;
  return Fail(UnexpectedToken(text_, Peek()));
}

Result<Statement> Parser::Parse() {
  size_t markers = std::count_if(tokens_.begin(), tokens_.end(),
                                 [](const Token& t) { return t.kind == Kind::kParameter; });
  if (markers != literals_.parameter_count()) {
    return Status::InvalidArgument("Number of parameters in request and statement don't match.");
  }
  std::optional<Statement> statement;
  if (AcceptKeyword("SELECT")) {
    statement = ParseSelect();
  } else if (AcceptKeyword("INSERT")) {
    statement = ParseInsert();
  } else if (AcceptKeyword("UPDATE")) {
    statement = ParseUpdate();
  } else if (AcceptKeyword("DELETE")) {
    statement = ParseDelete();
  } else if (AcceptKeyword("EXISTS")) {
    statement = ParseExists();
  } else {
    return Malformed("Expected data manipulation");
  }
  if (statement) {
    Accept(Kind::kSemicolon);
    if (Peek().kind != Kind::kEnd) return Malformed("Unexpected token after expression");
  }
  if (!error_.ok()) return error_;
  return std::move(*statement);
}

std::optional<std::string> Parser::ParseName() {
  const Token& token = Peek();
  if (token.kind != Kind::kIdentifier && token.kind != Kind::kQuotedIdentifier) {
    Unexpected();
    return std::nullopt;
  }
  ++pos_;
  return token.value;
}

std::optional<Source> Parser::ParseSource() {
  Source source;
  auto table = ParseName();
  if (!table) return std::nullopt;
  source.table = std::move(*table);
  if (Accept(Kind::kDot)) {
    auto index = ParseName();
    if (!index) return std::nullopt;
    source.index = std::move(*index);
    if (Peek().kind == Kind::kDot) {
      Fail(Status::InvalidArgument("A path may contain at most 2 components in the FROM clause"));
      return std::nullopt;
    }
  }
  return source;
}

std::optional<Statement> Parser::ParseSelect() {
  SelectStatement select;
  if (!Accept(Kind::kStar)) {
    expr::Projection projection;
    do {
      if (Peek().kind == Kind::kStar) {
        Fail(Status::InvalidArgument(
            "Other attributes should not be present in the projection when '*' is used."));
        return std::nullopt;
      }
      auto path = ParsePath();
      if (!path) return std::nullopt;
      projection.paths.push_back(std::move(*path));
    } while (Accept(Kind::kComma));
    select.projection = std::move(projection);
  } else if (Peek().kind == Kind::kComma) {
    Fail(Status::InvalidArgument(
        "Other attributes should not be present in the projection when '*' is used."));
    return std::nullopt;
  }
  if (!ExpectKeyword("FROM")) return std::nullopt;
  auto source = ParseSource();
  if (!source) return std::nullopt;
  select.source = std::move(*source);
  if (AcceptKeyword("WHERE")) {
    auto where = ParseOr(0);
    if (!where) return std::nullopt;
    select.where = std::move(*where);
  }
  if (AcceptKeyword("ORDER")) {
    if (!ExpectKeyword("BY")) return std::nullopt;
    do {
      auto name = ParseName();
      if (!name) return std::nullopt;
      bool descending = AcceptKeyword("DESC");
      if (!descending) AcceptKeyword("ASC");
      select.order_by.push_back({std::move(*name), descending});
    } while (Accept(Kind::kComma));
  }
  return select;
}

std::optional<Statement> Parser::ParseInsert() {
  if (!ExpectKeyword("INTO")) return std::nullopt;
  auto source = ParseSource();
  if (!source) return std::nullopt;
  if (!source->index.empty()) {
    Fail(Status::InvalidArgument("This operation is not supported on an index"));
    return std::nullopt;
  }
  if (AcceptKeyword("VALUES")) {
    Fail(Status::InvalidArgument(
        "Unsupported operation: Inserting multiple items in a single statement is not "
        "supported, use \"INSERT INTO tableName VALUE item\" instead"));
    return std::nullopt;
  }
  if (!ExpectKeyword("VALUE")) return std::nullopt;
  if (Peek().kind != Kind::kLeftBrace && Peek().kind != Kind::kParameter) {
    Fail(Status::InvalidArgument(
        "Unsupported format in item expression. Please use struct format {...} to express item "
        "values for insert statement."));
    return std::nullopt;
  }
  auto value = ReadLiteral(0);
  if (!value) return std::nullopt;
  if (!value->is<Map>()) {
    Fail(Status::InvalidArgument(
        "Unsupported format in item expression. Please use struct format {...} to express item "
        "values for insert statement."));
    return std::nullopt;
  }
  if (PeekKeyword("RETURNING")) {
    Fail(Status::InvalidArgument("RETURNING is not supported in INSERT"));
    return std::nullopt;
  }
  return InsertStatement{std::move(source->table), std::move(value->as<Map>())};
}

std::optional<Statement> Parser::ParseUpdate() {
  auto source = ParseSource();
  if (!source) return std::nullopt;
  if (!source->index.empty()) {
    Fail(Status::InvalidArgument("This operation is not supported on an index"));
    return std::nullopt;
  }
  UpdateStatement update;
  update.table = std::move(source->table);
  bool any = false;
  while (true) {
    if (AcceptKeyword("SET")) {
      if (!ParseSetClause(update.update)) return std::nullopt;
    } else if (AcceptKeyword("REMOVE")) {
      if (!ParseRemoveClause(update.update)) return std::nullopt;
    } else if (PeekKeyword("ADD") || PeekKeyword("DELETE")) {
      Fail(Status::InvalidArgument(
          "Only SET and REMOVE are supported in update expressions at this time"));
      return std::nullopt;
    } else {
      break;
    }
    any = true;
  }
  if (!any) {
    Unexpected();
    return std::nullopt;
  }
  if (!AcceptKeyword("WHERE")) {
    if (Peek().kind == Kind::kEnd) {
      Fail(Status::InvalidArgument(
          "Where clause does not contain a mandatory equality on all key attributes"));
    } else {
      Unexpected();
    }
    return std::nullopt;
  }
  auto where = ParseOr(0);
  if (!where) return std::nullopt;
  update.where = std::move(*where);
  auto returning = ParseReturning(false);
  if (!returning) return std::nullopt;
  update.returning = *returning;
  return update;
}

std::optional<Statement> Parser::ParseDelete() {
  if (!ExpectKeyword("FROM")) return std::nullopt;
  auto source = ParseSource();
  if (!source) return std::nullopt;
  if (!source->index.empty()) {
    Fail(Status::InvalidArgument("This operation is not supported on an index"));
    return std::nullopt;
  }
  if (!AcceptKeyword("WHERE")) {
    if (Peek().kind == Kind::kEnd) {
      Fail(Status::InvalidArgument(
          "Where clause does not contain a mandatory equality on all key attributes"));
    } else {
      Unexpected();
    }
    return std::nullopt;
  }
  DeleteStatement remove;
  remove.table = std::move(source->table);
  auto where = ParseOr(0);
  if (!where) return std::nullopt;
  remove.where = std::move(*where);
  auto returning = ParseReturning(true);
  if (!returning) return std::nullopt;
  remove.returning = *returning;
  return remove;
}

std::optional<Statement> Parser::ParseExists() {
  if (!Expect(Kind::kLeftParen) || !ExpectKeyword("SELECT")) return std::nullopt;
  auto select = ParseSelect();
  if (!select || !Expect(Kind::kRightParen)) return std::nullopt;
  return ExistsStatement{std::move(std::get<SelectStatement>(*select))};
}

std::optional<Returning> Parser::ParseReturning(bool is_delete) {
  if (!AcceptKeyword("RETURNING")) return Returning::kNone;
  bool all = AcceptKeyword("ALL");
  if (!all && !ExpectKeyword("MODIFIED")) return std::nullopt;
  bool old_image = AcceptKeyword("OLD");
  if (!old_image && !ExpectKeyword("NEW")) return std::nullopt;
  if (!Accept(Kind::kStar)) {
    Fail(Status::InvalidArgument(
        "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause"));
    return std::nullopt;
  }
  if (is_delete && !(all && old_image)) {
    Fail(Status::InvalidArgument(std::string("Invalid returning clause: RETURNING ") +
                                 (all ? "ALL" : "MODIFIED") + (old_image ? " OLD" : " NEW") +
                                 " *. Only RETURNING ALL OLD * is allowed in DELETE statements."));
    return std::nullopt;
  }
  if (all) return old_image ? Returning::kAllOld : Returning::kAllNew;
  return old_image ? Returning::kModifiedOld : Returning::kModifiedNew;
}

// --- Conditions ---------------------------------------------------------------

std::optional<Condition> Combine(Condition::Kind kind, Condition left, Condition right) {
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

std::optional<Condition> Parser::ParseOr(int depth) {
  if (depth > kMaxNesting) {
    Fail(Malformed("Expression nesting exceeds the supported depth"));
    return std::nullopt;
  }
  auto left = ParseAnd(depth);
  while (left && AcceptKeyword("OR")) {
    auto right = ParseAnd(depth);
    if (!right) return std::nullopt;
    left = Combine(Condition::Kind::kOr, std::move(*left), std::move(*right));
  }
  return left;
}

std::optional<Condition> Parser::ParseAnd(int depth) {
  auto left = ParseNot(depth);
  while (left && AcceptKeyword("AND")) {
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
  if (StartsFunction()) {
    std::string name = Lower(Peek().text);
    if (name != "size") return ParseFunctionCondition(depth);
  }
  auto left = ParseOperand(depth);
  if (!left) return std::nullopt;
  static constexpr std::pair<Kind, Comparator> kComparators[] = {
      {Kind::kEq, Comparator::kEq}, {Kind::kNe, Comparator::kNe}, {Kind::kLt, Comparator::kLt},
      {Kind::kLe, Comparator::kLe}, {Kind::kGt, Comparator::kGt}, {Kind::kGe, Comparator::kGe}};
  for (auto [kind, op] : kComparators) {
    if (!Accept(kind)) continue;
    if (PeekKeyword("MISSING")) {
      Fail(Status::InvalidArgument("MISSING must be compared using IS operator"));
      return std::nullopt;
    }
    auto right = ParseOperand(depth);
    if (!right) return std::nullopt;
    Condition compare;
    compare.kind = Condition::Kind::kCompare;
    compare.op = op;
    compare.operands = {std::move(*left), std::move(*right)};
    return compare;
  }
  if (PeekKeyword("IS")) return ParseIs(std::move(*left));
  bool negated = AcceptKeyword("NOT");
  std::optional<Condition> condition;
  if (AcceptKeyword("BETWEEN")) {
    auto low = ParseOperand(depth);
    if (!low || !ExpectKeyword("AND")) return std::nullopt;
    auto high = ParseOperand(depth);
    if (!high) return std::nullopt;
    condition.emplace();
    condition->kind = Condition::Kind::kBetween;
    condition->operands = {std::move(*left), std::move(*low), std::move(*high)};
  } else if (AcceptKeyword("IN")) {
    condition = ParseIn(std::move(*left), depth);
  } else {
    Unexpected();
  }
  if (!condition) return std::nullopt;
  return negated ? Negate(std::move(*condition)) : std::move(*condition);
}

// begins_with(a, b), contains(a, b), attribute_type(path, 'T').
std::optional<Condition> Parser::ParseFunctionCondition(int depth) {
  const Token& name_token = Peek();
  std::string name = Lower(name_token.text);
  if (name != "begins_with" && name != "contains" && name != "attribute_type") {
    Fail(Status::InvalidArgument("Unrecognized function: " + std::string(name_token.text)));
    return std::nullopt;
  }
  pos_ += 2;  // name (
  Condition call;
  call.kind = Condition::Kind::kFunction;
  call.function = name;
  do {
    auto arg = ParseOperand(depth);
    if (!arg) return std::nullopt;
    call.operands.push_back(std::move(*arg));
  } while (Accept(Kind::kComma));
  if (!Expect(Kind::kRightParen)) return std::nullopt;
  if (call.operands.size() != 2) {
    Fail(Status::InvalidArgument("Incorrect number of arguments for function: " + name));
    return std::nullopt;
  }
  if (name == "attribute_type" && call.operands[0].kind != Operand::Kind::kPath) {
    Fail(Status::InvalidArgument("The first argument of attribute_type must be a path"));
    return std::nullopt;
  }
  return call;
}

// path IS [NOT] MISSING | NULL: MISSING is attribute_not_exists; NULL is the
// NULL type.
std::optional<Condition> Parser::ParseIs(Operand operand) {
  ++pos_;  // IS
  bool negated = AcceptKeyword("NOT");
  if (operand.kind != Operand::Kind::kPath) {
    Fail(Status::InvalidArgument(
        "The left hand side argument to IS must be a Variable Reference, Literal, or Path"));
    return std::nullopt;
  }
  Condition condition;
  condition.kind = Condition::Kind::kFunction;
  if (AcceptKeyword("MISSING")) {
    condition.function = negated ? "attribute_exists" : "attribute_not_exists";
    condition.operands.push_back(std::move(operand));
    return condition;
  }
  if (!AcceptKeyword("NULL")) {
    if (Peek().kind == Kind::kIdentifier) {
      Fail(Status::InvalidArgument(
          "Unsupported data type for IS operator: " + std::string(Peek().text) +
          ". Supported data types are [MISSING, NULL]"));
    } else {
      Unexpected();
    }
    return std::nullopt;
  }
  Operand type;
  type.value = AttributeValue(std::string("NULL"));
  condition.function = "attribute_type";
  condition.operands = {std::move(operand), std::move(type)};
  return negated ? Negate(std::move(condition)) : std::move(condition);
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

// --- Operands -------------------------------------------------------------------

std::optional<Operand> Parser::ParseOperand(int depth) {
  Operand operand;
  if (StartsFunction()) {
    if (Lower(Peek().text) != "size") {
      Fail(Status::InvalidArgument("Unrecognized function: " + std::string(Peek().text)));
      return std::nullopt;
    }
    pos_ += 2;  // size (
    auto path = ParsePath();
    if (!path || !Expect(Kind::kRightParen)) return std::nullopt;
    Operand argument;
    argument.kind = Operand::Kind::kPath;
    argument.path = std::move(*path);
    operand.kind = Operand::Kind::kFunction;
    operand.function = "size";
    operand.args.push_back(std::move(argument));
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
    Unexpected();
    return std::nullopt;
  }
  auto value = ReadLiteral(depth);
  if (!value) return std::nullopt;
  operand.kind = Operand::Kind::kValue;
  operand.value = std::move(*value);
  return operand;
}

std::optional<Path> Parser::ParsePath() {
  auto name = ParseName();
  if (!name) return std::nullopt;
  Path path;
  path.elements.push_back({std::move(*name), 0, false});
  while (true) {
    if (Accept(Kind::kDot)) {
      auto member = ParseName();
      if (!member) return std::nullopt;
      path.elements.push_back({std::move(*member), 0, false});
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
      ++pos_;
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

// --- SET --------------------------------------------------------------------------

// path = term {, path = term}; set_add/set_delete become ADD/DELETE actions.
bool Parser::ParseSetClause(expr::Update& update) {
  do {
    auto path = ParsePath();
    if (!path || !Expect(Kind::kEq)) return false;
    expr::UpdateAction action;
    action.path = std::move(*path);
    if (StartsFunction() &&
        (Lower(Peek().text) == "set_add" || Lower(Peek().text) == "set_delete")) {
      std::string function = Lower(Peek().text);
      std::string upper = function == "set_add" ? "ADD" : "DELETE";
      pos_ += 2;  // name (
      auto target = ParsePath();
      if (!target || !Expect(Kind::kComma)) return false;
      if (!(*target == action.path)) {
        return Fail(Status::InvalidArgument("The first argument to SET_" + upper +
                                            " must equal the assignment value"));
      }
      auto value = ParseOperand(0);
      if (!value || !Expect(Kind::kRightParen)) return false;
      AttributeType type = value->value.type();
      if (value->kind != Operand::Kind::kValue ||
          (type != AttributeType::kSS && type != AttributeType::kNS &&
           type != AttributeType::kBS)) {
        return Fail(Status::InvalidArgument("The second argument to SET_" + upper +
                                            " must be a value with type SET"));
      }
      action.kind =
          upper == "ADD" ? expr::UpdateAction::Kind::kAdd : expr::UpdateAction::Kind::kDelete;
      action.value = std::move(*value);
    } else {
      auto term = ParseTerm(0);
      if (!term) return false;
      action.kind = expr::UpdateAction::Kind::kSet;
      action.value = std::move(*term);
    }
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
  ++pos_;
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
  if (!StartsFunction()) {
    if (!StartsPath() && !StartsLiteral(Peek())) {
      Unexpected();
      return std::nullopt;
    }
    return ParseOperand(depth);
  }
  std::string name = Lower(Peek().text);
  if (name != "list_append" && name != "if_not_exists") {
    Fail(Status::InvalidArgument("Unrecognized function: " + std::string(Peek().text)));
    return std::nullopt;
  }
  if (depth > kMaxNesting) {
    Fail(Malformed("Expression nesting exceeds the supported depth"));
    return std::nullopt;
  }
  pos_ += 2;  // name (
  Operand call;
  call.kind = Operand::Kind::kFunction;
  call.function = name;
  do {
    auto arg = ParseValueTerm(depth + 1);
    if (!arg) return std::nullopt;
    call.args.push_back(std::move(*arg));
  } while (Accept(Kind::kComma));
  if (!Expect(Kind::kRightParen)) return std::nullopt;
  if (call.args.size() != 2) {
    Fail(Status::InvalidArgument("Incorrect number of arguments for function: " + name));
    return std::nullopt;
  }
  if (name == "if_not_exists" && call.args[0].kind != Operand::Kind::kPath) {
    Fail(Status::InvalidArgument("The first argument of if_not_exists must be a path"));
    return std::nullopt;
  }
  return call;
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

}  // namespace

Result<Statement> ParseStatement(std::string_view text,
                                 const std::vector<AttributeValue>& parameters) {
  return Parser(text, parameters).Parse();
}

const std::string& TableOf(const Statement& statement) {
  return std::visit(
      [](const auto& s) -> const std::string& {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, SelectStatement>) {
          return s.source.table;
        } else if constexpr (std::is_same_v<T, ExistsStatement>) {
          return s.select.source.table;
        } else {
          return s.table;
        }
      },
      statement);
}

Returning ReturningOf(const Statement& statement) {
  if (const auto* update = std::get_if<UpdateStatement>(&statement)) return update->returning;
  if (const auto* remove = std::get_if<DeleteStatement>(&statement)) return remove->returning;
  return Returning::kNone;
}

}  // namespace ddb::engine::partiql
