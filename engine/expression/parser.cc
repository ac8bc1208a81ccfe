#include "engine/expression/parser.h"

#include <cstdint>
#include <optional>
#include <string>

#include "engine/expression/functions.h"
#include "engine/expression/lexer.h"
#include "engine/expression/reserved_words.h"
#include "engine/expression/token_cursor.h"

namespace ddb::engine::expr {
namespace {

using Kind = Token::Kind;

constexpr int kMaxOperators = 300;
constexpr size_t kMaxInOperands = 100;
// Deeper nesting than operators allow needs redundant parentheses somewhere;
// the cap also bounds the parser's recursion.
constexpr int kMaxParenthesesDepth = kMaxOperators + 1;

// Parses one expression string. Each Parse* method returns nullopt after
// recording the first error, which the caller then returns.
class Parser : private TokenCursor<Token, Kind::kName> {
 public:
  // Tokenizes only text within the size limit, so an oversized expression
  // costs nothing but its rejection (Check).
  Parser(std::string_view text, std::string_view parameter)
      : TokenCursor(Tokenize(text.size() > kMaxExpressionBytes ? std::string_view() : text)),
        text_(text),
        parameter_(parameter) {}

  Status Check() const {
    if (text_.size() > kMaxExpressionBytes) {
      // An UpdateExpression's text ends without the size (captured 2026-08);
      // the other expressions' still give it.
      std::string text = "Expression size has exceeded the maximum allowed size";
      if (parameter_ != "UpdateExpression") {
        text += "; expression size: " + std::to_string(text_.size());
      }
      return Error(text);
    }
    if (tokens().front().kind == Kind::kEnd) return Error("The expression can not be empty;");
    if (HasDoubledParentheses()) return Error("The expression has redundant parentheses;");
    return Status::Ok();
  }

  const Status& error() const { return error_; }

  std::optional<Condition> WholeCondition() {
    auto condition = WholeConditionBody();
    if (condition && !ExpectEnd()) return std::nullopt;
    return condition;
  }

  std::optional<Update> WholeUpdate();

  std::optional<Projection> WholeProjection() {
    Projection projection;
    do {
      auto path = ParsePath();
      if (!path) return std::nullopt;
      projection.paths.push_back(std::move(*path));
    } while (Accept(Kind::kComma));
    if (!ExpectEnd()) return std::nullopt;
    return projection;
  }

 private:
  // --- Tokens (the rest is TokenCursor's) ------------------------------------

  bool Expect(Kind kind) {
    if (Accept(kind)) return true;
    SyntaxError();
    return false;
  }
  bool ExpectKeyword(std::string_view keyword) {
    if (AcceptKeyword(keyword)) return true;
    SyntaxError();
    return false;
  }
  bool ExpectEnd() { return Expect(Kind::kEnd); }

  // --- Errors ----------------------------------------------------------------

  Status Error(std::string detail) const {
    return Status::InvalidArgument("Invalid " + std::string(parameter_) + ": " + detail);
  }
  void Fail(std::string detail) {
    if (error_.ok()) error_ = Error(std::move(detail));
  }
  // DynamoDB quotes the unexpected token and the text from the token before
  // it to the token after it.
  void SyntaxError() {
    const Token& bad = Peek();
    const Token* before = Previous();
    size_t begin = before ? before->offset : bad.offset;
    const Token& after = Peek(1);
    size_t end = bad.kind == Kind::kEnd ? (before ? before->offset + before->text.size() : 0)
                                        : after.offset + after.text.size();
    std::string token = bad.kind == Kind::kEnd ? "<EOF>" : std::string(bad.text);
    Fail("Syntax error; token: \"" + token + "\", near: \"" +
         std::string(text_.substr(begin, end - begin)) + "\"");
  }

  // --- Paths and operands ----------------------------------------------------

  std::optional<std::string> ParseName() {
    const Token& token = Peek();
    if (token.kind == Kind::kNamePlaceholder) {
      Skip();
      return std::string(token.text);
    }
    if (token.kind != Kind::kName) {
      SyntaxError();
      return std::nullopt;
    }
    if (IsReservedWord(token.text)) {
      Fail("Attribute name is a reserved keyword; reserved keyword: " + std::string(token.text));
      return std::nullopt;
    }
    Skip();
    return std::string(token.text);
  }

  std::optional<Path> ParsePath() {
    Path path;
    auto first = ParseName();
    if (!first) return std::nullopt;
    path.elements.push_back(PathElement{std::move(*first)});
    while (true) {
      if (Accept(Kind::kDot)) {
        auto name = ParseName();
        if (!name) return std::nullopt;
        path.elements.push_back(PathElement{std::move(*name)});
      } else if (Peek().kind == Kind::kLeftBracket) {
        Skip();
        const Token& number = Peek();
        if (number.kind != Kind::kNumber) {
          SyntaxError();
          return std::nullopt;
        }
        // DynamoDB's list indexes are 32-bit signed integers.
        std::string_view digits = number.text;
        while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
        if (digits.size() > 10 || std::stoull(std::string(digits)) > INT32_MAX) {
          Fail("List index is not within the allowable range; index: [" +
               std::string(number.text) + "]");
          return std::nullopt;
        }
        Skip();
        path.elements.push_back(
            PathElement{"", static_cast<uint32_t>(std::stoull(std::string(digits))), true});
        if (!Expect(Kind::kRightBracket)) return std::nullopt;
      } else {
        break;
      }
    }
    if (path.elements.size() > static_cast<size_t>(kMaxNestingDepth)) {
      Fail("The document path has too many nesting levels; nesting levels: " +
           std::to_string(path.elements.size()));
      return std::nullopt;
    }
    return path;
  }

  bool AtFunctionCall() const {
    return Peek().kind == Kind::kName && Peek(1).kind == Kind::kLeftParen;
  }

  // name '(' operand {',' operand} ')'. `term` selects update terms
  // (if_not_exists, list_append) over condition operands as arguments.
  std::optional<Operand> ParseFunctionCall(bool term) {
    Operand call;
    call.kind = Operand::Kind::kFunction;
    std::string_view name = Peek().text;
    Skip(2);  // name and '('
    const FunctionInfo* info = FindFunction(name);
    if (info == nullptr) {
      Fail("Invalid function name; function: " + std::string(name));
      return std::nullopt;
    }
    call.function = std::string(info->name);
    if (!CountOperator()) return std::nullopt;
    do {
      auto arg = term ? ParseTerm() : ParseOperand();
      if (!arg) return std::nullopt;
      call.args.push_back(std::move(*arg));
    } while (Accept(Kind::kComma));
    if (!Expect(Kind::kRightParen)) return std::nullopt;
    // A call's result is no document: size(a).b is malformed.
    if (Peek().kind == Kind::kDot || Peek().kind == Kind::kLeftBracket) {
      SyntaxError();
      return std::nullopt;
    }
    if (call.args.size() != info->arity) {
      Fail("Incorrect number of operands for operator or function; operator or function: " +
           call.function + ", number of operands: " + std::to_string(call.args.size()));
      return std::nullopt;
    }
    if (info->path_first && call.args[0].kind != Operand::Kind::kPath) {
      Fail("Operator or function requires a document path; operator or function: " +
           call.function);
      return std::nullopt;
    }
    return call;
  }

  // A condition operand: path, :value or size(...), possibly in parentheses.
  std::optional<Operand> ParseOperand() {
    auto parsed = ParseConditionOrOperand();
    if (!parsed) return std::nullopt;
    if (parsed->condition) {
      // A whole condition where a value belongs: attribute_exists(a) > b.
      if (parsed->condition->kind == Condition::Kind::kFunction) {
        FunctionMisused(parsed->condition->function);
      } else {
        SyntaxError();
      }
      return std::nullopt;
    }
    return std::move(parsed->operand);
  }

  void FunctionMisused(std::string_view function) {
    Fail("The function is not allowed to be used this way in an expression; function: " +
         std::string(function));
  }

  // --- Conditions ------------------------------------------------------------

  // What a parenthesized group or a primary turned out to be: conditions and
  // operands can both be parenthesized, and only what follows tells them
  // apart, so the parser carries either without backtracking.
  struct ConditionOrOperand {
    std::optional<Condition> condition;
    std::optional<Operand> operand;
  };

  std::optional<Condition> WholeConditionBody() {
    auto parsed = ParseOrGroup();
    if (!parsed) return std::nullopt;
    if (!RequireCondition(*parsed)) return std::nullopt;
    return std::move(parsed->condition);
  }

  // A bare operand where a condition is required: `size(a)` alone is a
  // misused function, anything else a syntax error at the next token.
  bool RequireCondition(const ConditionOrOperand& parsed) {
    if (parsed.condition) return true;
    if (parsed.operand->kind == Operand::Kind::kFunction) {
      FunctionMisused(parsed.operand->function);
    } else {
      SyntaxError();
    }
    return false;
  }

  std::optional<ConditionOrOperand> ParseOrGroup() {
    auto left = ParseAndGroup();
    while (left && PeekKeyword("OR")) {
      if (!RequireCondition(*left)) return std::nullopt;
      Skip();
      if (!CountOperator()) return std::nullopt;
      auto right = ParseAndGroup();
      if (!right || !RequireCondition(*right)) return std::nullopt;
      left->condition = Combine(Condition::Kind::kOr, std::move(*left->condition),
                                std::move(*right->condition));
    }
    return left;
  }

  std::optional<ConditionOrOperand> ParseAndGroup() {
    auto left = ParseNotGroup();
    while (left && PeekKeyword("AND")) {
      if (!RequireCondition(*left)) return std::nullopt;
      Skip();
      if (!CountOperator()) return std::nullopt;
      auto right = ParseNotGroup();
      if (!right || !RequireCondition(*right)) return std::nullopt;
      left->condition = Combine(Condition::Kind::kAnd, std::move(*left->condition),
                                std::move(*right->condition));
    }
    return left;
  }

  static Condition Combine(Condition::Kind kind, Condition left, Condition right) {
    Condition combined;
    combined.kind = kind;
    combined.children.push_back(std::move(left));
    combined.children.push_back(std::move(right));
    return combined;
  }

  std::optional<ConditionOrOperand> ParseNotGroup() {
    if (!AcceptKeyword("NOT")) return ParsePrimary();
    if (!CountOperator()) return std::nullopt;
    auto operand = ParseNotGroup();
    if (!operand || !RequireCondition(*operand)) return std::nullopt;
    Condition negation;
    negation.kind = Condition::Kind::kNot;
    negation.children.push_back(std::move(*operand->condition));
    return ConditionOrOperand{std::move(negation), std::nullopt};
  }

  // A primary condition, or an operand when no comparator follows it.
  std::optional<ConditionOrOperand> ParsePrimary() {
    auto parsed = ParseConditionOrOperand();
    if (!parsed || parsed->condition || !AtComparison()) return parsed;
    auto comparison = ParseComparison(std::move(*parsed->operand));
    if (!comparison) return std::nullopt;
    return ConditionOrOperand{std::move(*comparison), std::nullopt};
  }

  bool AtComparison() const {
    switch (Peek().kind) {
      case Kind::kEq: case Kind::kNe: case Kind::kLt:
      case Kind::kLe: case Kind::kGt: case Kind::kGe:
        return true;
      case Kind::kName:
        return IsKeyword(Peek().text, "BETWEEN") || IsKeyword(Peek().text, "IN");
      default:
        return false;
    }
  }

  // '(' group ')', a function call, a path or a :value.
  std::optional<ConditionOrOperand> ParseConditionOrOperand() {
    if (Peek().kind == Kind::kLeftParen) {
      return ParseParenthesized([this] { return ParseOrGroup(); });
    }
    if (AtFunctionCall()) {
      auto call = ParseFunctionCall(false);
      if (!call) return std::nullopt;
      const FunctionInfo* info = FindFunction(call->function);
      if (info->use == FunctionUse::kConditionOperand) {
        return ConditionOrOperand{std::nullopt, std::move(*call)};
      }
      if (info->use != FunctionUse::kCondition || AtComparison()) {
        FunctionMisused(call->function);
        return std::nullopt;
      }
      Condition condition;
      condition.kind = Condition::Kind::kFunction;
      condition.function = call->function;
      condition.operands = std::move(call->args);
      return ConditionOrOperand{std::move(condition), std::nullopt};
    }
    Operand operand;
    if (Peek().kind == Kind::kValuePlaceholder) {
      operand.kind = Operand::Kind::kValue;
      operand.placeholder = std::string(Peek().text);
      Skip();
    } else {
      auto path = ParsePath();
      if (!path) return std::nullopt;
      operand.kind = Operand::Kind::kPath;
      operand.path = std::move(*path);
    }
    return ConditionOrOperand{std::nullopt, std::move(operand)};
  }

  // Whether some "((x))" wraps one group in two pairs of parentheses, which
  // DynamoDB reports before any other problem of the expression.
  bool HasDoubledParentheses() const {
    const std::vector<Token>& all = tokens();
    std::vector<size_t> open;
    std::vector<size_t> match(all.size(), 0);
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i].kind == Kind::kLeftParen) open.push_back(i);
      if (all[i].kind == Kind::kRightParen && !open.empty()) {
        match[open.back()] = i;
        open.pop_back();
      }
    }
    for (size_t i = 0; i + 1 < all.size(); ++i) {
      if (all[i].kind != Kind::kLeftParen || all[i + 1].kind != Kind::kLeftParen) continue;
      size_t inner_close = match[i + 1];
      if (inner_close != 0 && match[i] == inner_close + 1) return true;
    }
    return false;
  }

  // '(' inner ')'. Doubled parentheses never get here (Check rejects them
  // first); the depth cap bounds the recursion.
  template <class ParseInner>
  auto ParseParenthesized(ParseInner parse_inner) -> decltype(parse_inner()) {
    Skip();  // '('
    if (++depth_ > kMaxParenthesesDepth) {
      Fail("The expression has redundant parentheses;");
      return std::nullopt;
    }
    auto inner = parse_inner();
    --depth_;
    if (!inner || !Expect(Kind::kRightParen)) return std::nullopt;
    return inner;
  }

  // Counts one more operator or function; false (with the error recorded)
  // past DynamoDB's limit, which also bounds the parser's recursion.
  bool CountOperator() {
    if (++operators_ <= kMaxOperators) return true;
    Fail("The expression contains too many operators; operator count: " +
         std::to_string(operators_));
    return false;
  }

  std::optional<Condition> ParseComparison(Operand left) {
    Condition condition;
    condition.operands.push_back(std::move(left));
    if (!CountOperator()) return std::nullopt;
    if (AcceptKeyword("BETWEEN")) {
      condition.kind = Condition::Kind::kBetween;
      auto low = ParseOperand();
      if (!low || !ExpectKeyword("AND")) return std::nullopt;
      auto high = ParseOperand();
      if (!high) return std::nullopt;
      condition.operands.push_back(std::move(*low));
      condition.operands.push_back(std::move(*high));
      return condition;
    }
    if (AcceptKeyword("IN")) {
      condition.kind = Condition::Kind::kIn;
      if (!Expect(Kind::kLeftParen)) return std::nullopt;
      do {
        auto candidate = ParseOperand();
        if (!candidate) return std::nullopt;
        condition.operands.push_back(std::move(*candidate));
      } while (Accept(Kind::kComma));
      if (!Expect(Kind::kRightParen)) return std::nullopt;
      // DynamoDB counts the left-hand operand too.
      if (condition.operands.size() > kMaxInOperands) {
        Fail("The IN operator is provided with too many operands; number of operands: " +
             std::to_string(condition.operands.size()));
        return std::nullopt;
      }
      return condition;
    }
    static constexpr std::pair<Kind, Comparator> kComparators[] = {
        {Kind::kEq, Comparator::kEq}, {Kind::kNe, Comparator::kNe}, {Kind::kLt, Comparator::kLt},
        {Kind::kLe, Comparator::kLe}, {Kind::kGt, Comparator::kGt}, {Kind::kGe, Comparator::kGe}};
    for (auto [kind, op] : kComparators) {
      if (Accept(kind)) {
        auto right = ParseOperand();
        if (!right) return std::nullopt;
        condition.kind = Condition::Kind::kCompare;
        condition.op = op;
        condition.operands.push_back(std::move(*right));
        return condition;
      }
    }
    SyntaxError();
    return std::nullopt;
  }

  // --- Updates ---------------------------------------------------------------

  // An update term: path, :value, if_not_exists(...), list_append(...) or a
  // parenthesized SET value.
  std::optional<Operand> ParseTerm() {
    if (Peek().kind == Kind::kLeftParen) {
      return ParseParenthesized([this] { return ParseSetValue(); });
    }
    if (AtFunctionCall()) {
      auto call = ParseFunctionCall(true);
      if (!call) return std::nullopt;
      if (FindFunction(call->function)->use != FunctionUse::kUpdateTerm) {
        Fail("The function is not allowed in an update expression; function: " + call->function);
        return std::nullopt;
      }
      // DynamoDB refuses list_append(list_append(...), ...); if_not_exists
      // inside list_append stays legal.
      for (const Operand& arg : call->args) {
        if (call->function == "list_append" && arg.kind == Operand::Kind::kFunction &&
            arg.function == "list_append") {
          FunctionMisused("list_append");
          return std::nullopt;
        }
      }
      return call;
    }
    return ParseOperand();
  }

  // term [('+'|'-') term]
  std::optional<Operand> ParseSetValue() {
    auto left = ParseTerm();
    if (!left) return std::nullopt;
    Operand::Kind kind;
    if (Accept(Kind::kPlus)) {
      kind = Operand::Kind::kPlus;
    } else if (Accept(Kind::kMinus)) {
      kind = Operand::Kind::kMinus;
    } else {
      return left;
    }
    auto right = ParseTerm();
    if (!right) return std::nullopt;
    Operand sum;
    sum.kind = kind;
    sum.args.push_back(std::move(*left));
    sum.args.push_back(std::move(*right));
    return sum;
  }

  bool ParseClause(UpdateAction::Kind kind, Update& update) {
    do {
      UpdateAction action;
      action.kind = kind;
      auto path = ParsePath();
      if (!path) return false;
      action.path = std::move(*path);
      if (kind == UpdateAction::Kind::kSet) {
        if (!Expect(Kind::kEq)) return false;
        auto value = ParseSetValue();
        if (!value) return false;
        action.value = std::move(*value);
      } else if (kind != UpdateAction::Kind::kRemove) {
        if (Peek().kind != Kind::kValuePlaceholder) {
          SyntaxError();
          return false;
        }
        action.value.kind = Operand::Kind::kValue;
        action.value.placeholder = std::string(Peek().text);
        Skip();
      }
      update.actions.push_back(std::move(action));
    } while (Accept(Kind::kComma));
    return true;
  }

  std::string_view text_;
  std::string_view parameter_;
  int depth_ = 0;       // of open parentheses
  int operators_ = 0;   // operators and functions so far
  Status error_;
};

std::optional<Update> Parser::WholeUpdate() {
  static constexpr std::pair<std::string_view, UpdateAction::Kind> kClauses[] = {
      {"SET", UpdateAction::Kind::kSet},
      {"REMOVE", UpdateAction::Kind::kRemove},
      {"ADD", UpdateAction::Kind::kAdd},
      {"DELETE", UpdateAction::Kind::kDelete}};
  Update update;
  bool seen[4] = {};
  while (Peek().kind != Kind::kEnd) {
    int clause = -1;
    for (int i = 0; i < 4; ++i) {
      if (PeekKeyword(kClauses[i].first)) clause = i;
    }
    if (clause < 0) {
      SyntaxError();
      return std::nullopt;
    }
    if (seen[clause]) {
      Fail("The \"" + std::string(kClauses[clause].first) +
           "\" section can only be used once in an update expression;");
      return std::nullopt;
    }
    seen[clause] = true;
    Skip();
    if (!ParseClause(kClauses[clause].second, update)) return std::nullopt;
  }
  return update;
}

template <class T, class ParseFn>
Result<T> Run(std::string_view text, std::string_view parameter, ParseFn parse) {
  Parser parser(text, parameter);
  DDB_RETURN_IF_ERROR(parser.Check());
  std::optional<T> parsed = parse(parser);
  if (!parsed) return parser.error();
  return std::move(*parsed);
}

}  // namespace

Result<Condition> ParseCondition(std::string_view text, std::string_view parameter) {
  return Run<Condition>(text, parameter, [](Parser& p) { return p.WholeCondition(); });
}

Result<Update> ParseUpdate(std::string_view text) {
  return Run<Update>(text, "UpdateExpression", [](Parser& p) { return p.WholeUpdate(); });
}

Result<Projection> ParseProjection(std::string_view text) {
  return Run<Projection>(text, "ProjectionExpression",
                         [](Parser& p) { return p.WholeProjection(); });
}

}  // namespace ddb::engine::expr
