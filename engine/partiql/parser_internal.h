// The statement parser's internals, shared by the files that implement it:
// parser.cc (statements, sources, RETURNING), condition_parser.cc (WHERE
// conditions, operands, paths) and update_parser.cc (SET and REMOVE). Not
// for use outside engine/partiql.
//
// Errors follow DynamoDB's PartiQL parser: "Statement wasn't well formed,
// can't be processed: " with "Unexpected term" where an operand should start
// and nothing does, "Unexpected keyword" / "Unexpected operator" when a
// keyword or an operator stands there instead, "Missing right-hand side
// expression of infix operator" after a trailing AND, OR or comparator,
// "Expected identifier for simple path" for a missing table name, and
// "Unexpected token after expression" for text left after a statement.
//
// Thread safety: a Parser belongs to one parse.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expression/lexer.h"
#include "engine/partiql/lexer.h"
#include "engine/partiql/literal.h"
#include "engine/partiql/parser.h"

namespace ddb::engine::partiql::internal {

std::string Lower(std::string_view text);

// Words PartiQL reserves for its clauses: not attribute names unless quoted.
bool IsReservedWord(const Token& token);
// Keywords that are operators: AND, OR, IS, IN, BETWEEN, LIKE.
bool IsOperatorWord(const Token& token);

expr::Condition Combine(expr::Condition::Kind kind, expr::Condition left, expr::Condition right);
expr::Condition Negate(expr::Condition condition);

// Parses one statement. Each Parse* method returns nullopt (or false) after
// recording the first error in error_, which Parse() then returns.
class Parser : private TokenCursor {
 public:
  Parser(std::string_view text, const std::vector<AttributeValue>& parameters)
      : TokenCursor(Tokenize(text)), text_(text), literals_(text, parameters) {}

  Result<Statement> Parse();

 private:
  using Kind = Token::Kind;

  // --- Tokens and errors (parser.cc; the rest is TokenCursor's) -------------
  bool Expect(Kind kind) { return Accept(kind) || Unexpected(); }
  bool ExpectKeyword(std::string_view keyword) { return AcceptKeyword(keyword) || Unexpected(); }
  bool AtStatementEnd() const {
    return Peek().kind == Kind::kEnd || Peek().kind == Kind::kSemicolon;
  }

  // Each records an error at the current token and returns false.
  bool Fail(Status status) {
    if (error_.ok()) error_ = std::move(status);
    return false;
  }
  bool Unexpected() { return Fail(UnexpectedToken(text_, Peek())); }
  bool UnexpectedTerm();       // where an operand should start
  bool MissingRightOperand();  // after an infix operator, at the end
  // "<message> at <line>:<column>:<length>" of `token`.
  bool FailAt(const std::string& message, const Token& token) {
    return Fail(Status::InvalidArgument(message + " at " + Position(text_, token)));
  }
  std::optional<AttributeValue> ReadLiteral(int depth) {
    auto value = literals_.Read(*this, depth);
    if (!value) Fail(literals_.status());
    return value;
  }

  // --- Statements (parser.cc) -----------------------------------------------
  std::optional<Statement> ParseSelect();
  std::optional<Statement> ParseInsert();
  std::optional<Statement> ParseUpdate();
  std::optional<Statement> ParseFromFirstUpdate();
  std::optional<Statement> ParseDelete();
  std::optional<Statement> ParseExists();
  std::optional<Source> ParseSource(bool target_of_write);
  std::optional<std::string> ParseTableName(bool target_of_write);
  bool RejectAlias();
  bool RejectIndex(const Source& source);
  std::optional<Returning> ParseReturning(bool is_delete);
  bool ParseOrderBy(SelectStatement& select);

  // --- SET and REMOVE (update_parser.cc) ------------------------------------
  // SET and REMOVE clauses, in any order and number; false on error or when
  // there was none (`any` tells which).
  bool ParseUpdateClauses(expr::Update& update, bool* any);
  bool ParseSetClause(expr::Update& update);
  bool ParseSetFunction(expr::UpdateAction& action);
  bool ParseRemoveClause(expr::Update& update);
  std::optional<expr::Operand> ParseTerm(int depth);
  std::optional<expr::Operand> ParseValueTerm(int depth);

  // --- Conditions, operands, paths (condition_parser.cc) --------------------
  std::optional<expr::Condition> ParseOr(int depth);
  std::optional<expr::Condition> ParseAnd(int depth);
  std::optional<expr::Condition> ParseNot(int depth);
  std::optional<expr::Condition> ParsePredicate(int depth);
  std::optional<expr::Condition> ParseComparison(expr::Operand left, int depth);
  std::optional<expr::Condition> ParseFunctionCondition(int depth);
  std::optional<expr::Condition> ParseIs(expr::Operand operand);
  std::optional<expr::Condition> ParseIn(expr::Operand operand, int depth);
  std::optional<expr::Operand> ParseOperand(int depth);
  // A function's arguments after its '(' up to and with its ')'.
  std::optional<std::vector<expr::Operand>> ParseArguments(int depth,
                                                           std::vector<const Token*>* starts);
  std::optional<expr::Path> ParsePath();
  bool StartsPath() const;
  bool StartsFunction() const {
    return Peek().kind == Kind::kIdentifier && Peek(1).kind == Kind::kLeftParen;
  }

  std::string_view text_;
  LiteralReader literals_;
  Status error_;
};

}  // namespace ddb::engine::partiql::internal
