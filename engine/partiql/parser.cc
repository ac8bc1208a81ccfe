#include "engine/partiql/parser.h"

#include <array>

#include "engine/partiql/parser_internal.h"

namespace ddb::engine::partiql {
namespace internal {
namespace {

constexpr std::string_view kNoKeyEquality =
    "Where clause does not contain a mandatory equality on all key attributes";
constexpr std::string_view kLeftover = "Unexpected token after expression";

bool IsOneOf(const Token& token, std::initializer_list<std::string_view> words) {
  if (token.kind != Token::Kind::kIdentifier) return false;
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view word) { return expr::IsKeyword(token.text, word); });
}

}  // namespace

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

bool IsReservedWord(const Token& token) {
  return IsOneOf(token, {"SELECT", "FROM",   "WHERE", "ORDER",  "BY",     "INSERT",    "INTO",
                         "VALUES", "UPDATE", "SET",   "REMOVE", "DELETE", "RETURNING", "AS",
                         "INNER",  "JOIN",   "GROUP", "HAVING", "LIMIT",  "UNION",     "ON",
                         "CASE",   "WHEN",   "THEN",  "ELSE",   "END",    "DISTINCT"});
}

bool IsOperatorWord(const Token& token) {
  return IsOneOf(token, {"AND", "OR", "IS", "IN", "BETWEEN", "LIKE"});
}

bool Parser::UnexpectedTerm() {
  const Token& token = Peek();
  switch (token.kind) {
    case Kind::kInvalid:
      return Unexpected();
    case Kind::kEq:
    case Kind::kNe:
    case Kind::kLt:
    case Kind::kLe:
    case Kind::kGt:
    case Kind::kGe:
    case Kind::kStar:
      return Fail(Malformed("Unexpected operator"));
    case Kind::kIdentifier:
      if (IsOperatorWord(token)) return Fail(Malformed("Unexpected operator"));
      if (IsReservedWord(token)) return Fail(Malformed("Unexpected keyword"));
      return Unexpected();
    default:
      return Fail(Malformed("Unexpected term"));
  }
}

bool Parser::MissingRightOperand() {
  if (Peek().kind != Kind::kEnd) return UnexpectedTerm();
  return Fail(Malformed("Missing right-hand side expression of infix operator"));
}

Result<Statement> Parser::Parse() {
  size_t markers = std::count_if(tokens().begin(), tokens().end(),
                                 [](const Token& t) { return t.kind == Kind::kParameter; });
  // Too few values fail; more than the statement uses are ignored.
  if (markers > literals_.parameter_count()) {
    return Status::InvalidArgument("Number of parameters in request and statement don't match.");
  }
  std::optional<Statement> statement;
  if (AcceptKeyword("SELECT")) {
    statement = ParseSelect();
  } else if (AcceptKeyword("INSERT")) {
    statement = ParseInsert();
  } else if (AcceptKeyword("UPDATE")) {
    statement = ParseUpdate();
  } else if (AcceptKeyword("FROM")) {
    statement = ParseFromFirstUpdate();
  } else if (AcceptKeyword("DELETE")) {
    statement = ParseDelete();
  } else if (AcceptKeyword("EXISTS")) {
    statement = ParseExists();
  } else {
    return Malformed("Expected data manipulation");
  }
  if (statement) {
    Accept(Kind::kSemicolon);
    if (Peek().kind == Kind::kInvalid) return UnexpectedToken(text_, Peek());
    if (Peek().kind != Kind::kEnd) return Malformed(kLeftover);
  }
  if (!error_.ok()) return error_;
  return std::move(*statement);
}

// A table or index name: DynamoDB answers "Expected identifier for simple
// path" when a write names none, and reads it as a missing term after SELECT's
// FROM.
std::optional<std::string> Parser::ParseTableName(bool target_of_write) {
  const Token& token = Peek();
  bool name = token.kind == Kind::kQuotedIdentifier ||
              (token.kind == Kind::kIdentifier && !IsReservedWord(token) && !IsOperatorWord(token));
  if (!name) {
    if (target_of_write)
      Fail(Malformed("Expected identifier for simple path"));
    else
      UnexpectedTerm();
    return std::nullopt;
  }
  Skip();
  // "" names nothing: refused before any table is looked up (captured).
  if (token.value.empty()) {
    Fail(Status::InvalidArgument("Path component cannot be an empty string"));
    return std::nullopt;
  }
  return token.value;
}

std::optional<Source> Parser::ParseSource(bool target_of_write) {
  Source source;
  auto table = ParseTableName(target_of_write);
  if (!table) return std::nullopt;
  source.table = std::move(*table);
  if (Accept(Kind::kDot)) {
    auto index = ParseTableName(target_of_write);
    if (!index) return std::nullopt;
    source.index = std::move(*index);
    if (Peek().kind == Kind::kDot) {
      Fail(Status::InvalidArgument("A path may contain at most 2 components in the FROM clause"));
      return std::nullopt;
    }
  }
  return source;
}

// A name after the table (`"t" t`, `"t" AS t`) would alias it.
bool Parser::RejectAlias() {
  const Token& next = Peek();
  bool alias = PeekKeyword("AS") || next.kind == Kind::kQuotedIdentifier ||
               (next.kind == Kind::kIdentifier && !IsReservedWord(next) && !IsOperatorWord(next) &&
                !IsOneOf(next, {"ADD"}));
  return !alias || Fail(Status::InvalidArgument("Aliasing is not supported"));
}

bool Parser::RejectIndex(const Source& source) {
  return source.index.empty() ||
         Fail(Status::InvalidArgument("This operation is not supported on an index"));
}

std::optional<Statement> Parser::ParseSelect() {
  SelectStatement select;
  constexpr std::string_view kStarAndMore =
      "Other attributes should not be present in the projection when '*' is used.";
  if (!Accept(Kind::kStar)) {
    expr::Projection projection;
    do {
      if (Peek().kind == Kind::kStar) {
        Fail(Status::InvalidArgument(std::string(kStarAndMore)));
        return std::nullopt;
      }
      if (StartsFunction()) {
        FailAt("Unexpected path component", Peek());
        return std::nullopt;
      }
      auto path = ParsePath();
      if (!path) return std::nullopt;
      projection.paths.push_back(std::move(*path));
    } while (Accept(Kind::kComma));
    select.projection = std::move(projection);
  } else if (Peek().kind == Kind::kComma) {
    Fail(Status::InvalidArgument(std::string(kStarAndMore)));
    return std::nullopt;
  }
  if (!ExpectKeyword("FROM")) return std::nullopt;
  auto source = ParseSource(false);
  if (!source || !RejectAlias()) return std::nullopt;
  select.source = std::move(*source);
  if (AcceptKeyword("WHERE")) {
    auto where = ParseOr(0);
    if (!where) return std::nullopt;
    select.where = std::move(*where);
  }
  if (!ParseOrderBy(select)) return std::nullopt;
  return select;
}

bool Parser::ParseOrderBy(SelectStatement& select) {
  if (!AcceptKeyword("ORDER")) return true;
  if (!ExpectKeyword("BY")) return false;
  do {
    auto name = ParseTableName(false);
    if (!name) return false;
    bool descending = AcceptKeyword("DESC");
    if (!descending) AcceptKeyword("ASC");
    select.order_by.push_back({std::move(*name), descending});
  } while (Accept(Kind::kComma));
  return true;
}

std::optional<Statement> Parser::ParseInsert() {
  constexpr std::string_view kNotAStruct =
      "Unsupported format in item expression. Please use struct format {...} to express item "
      "values for insert statement.";
  if (!ExpectKeyword("INTO")) return std::nullopt;
  const Token table_token = Peek();
  auto source = ParseSource(true);
  if (!source) return std::nullopt;
  // Unlike UPDATE's and DELETE's, INSERT's grammar has no index: DynamoDB
  // refuses one while parsing, at the table's name, whether or not it names
  // an index (captured 2026-08; the position is the table name token's).
  if (!source->index.empty()) {
    FailAt("FROM clause may only contain a single table name in data manipulation statements",
           table_token);
    return std::nullopt;
  }
  if (AcceptKeyword("VALUES")) {
    Fail(Status::InvalidArgument(
        "Unsupported operation: Inserting multiple items in a single statement is not "
        "supported, use \"INSERT INTO tableName VALUE item\" instead"));
    return std::nullopt;
  }
  if (!PeekKeyword("VALUE")) {
    // DynamoDB reads an alias here as text left after the statement.
    Fail(Peek().kind == Kind::kIdentifier ? Malformed(kLeftover) : UnexpectedToken(text_, Peek()));
    return std::nullopt;
  }
  Skip();
  if (Peek().kind != Kind::kLeftBrace && Peek().kind != Kind::kParameter) {
    Fail(Status::InvalidArgument(std::string(kNotAStruct)));
    return std::nullopt;
  }
  auto value = literals_.ReadItem(*this);
  if (!value) {
    Fail(literals_.status());
    return std::nullopt;
  }
  if (!value->is<Map>()) {
    Fail(Status::InvalidArgument(std::string(kNotAStruct)));
    return std::nullopt;
  }
  if (PeekKeyword("RETURNING")) {
    Fail(Status::InvalidArgument("RETURNING is not supported in INSERT"));
    return std::nullopt;
  }
  return InsertStatement{std::move(source->table), std::move(value->as<Map>())};
}

std::optional<Statement> Parser::ParseUpdate() {
  auto source = ParseSource(true);
  if (!source || !RejectIndex(*source) || !RejectAlias()) return std::nullopt;
  UpdateStatement update;
  update.table = std::move(source->table);
  bool any = false;
  if (!ParseUpdateClauses(update.update, &any)) {
    if (!any) Unexpected();
    return std::nullopt;
  }
  if (!AcceptKeyword("WHERE")) {
    if (AtStatementEnd())
      Fail(Status::InvalidArgument(std::string(kNoKeyEquality)));
    else
      Unexpected();
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

// FROM "t" WHERE <key> SET ... / REMOVE ...: PartiQL's other UPDATE form.
std::optional<Statement> Parser::ParseFromFirstUpdate() {
  auto source = ParseSource(true);
  if (!source || !RejectIndex(*source) || !RejectAlias()) return std::nullopt;
  UpdateStatement update;
  update.table = std::move(source->table);
  bool has_where = AcceptKeyword("WHERE");
  if (has_where) {
    auto where = ParseOr(0);
    if (!where) return std::nullopt;
    update.where = std::move(*where);
  }
  bool any = false;
  if (!ParseUpdateClauses(update.update, &any)) {
    if (!any) Unexpected();
    return std::nullopt;
  }
  auto returning = ParseReturning(false);
  if (!returning) return std::nullopt;
  update.returning = *returning;
  if (!has_where) {
    Accept(Kind::kSemicolon);
    Fail(Peek().kind == Kind::kEnd ? Status::InvalidArgument(std::string(kNoKeyEquality))
                                   : Malformed(kLeftover));
    return std::nullopt;
  }
  return update;
}

std::optional<Statement> Parser::ParseDelete() {
  if (!ExpectKeyword("FROM")) return std::nullopt;
  auto source = ParseSource(true);
  if (!source || !RejectIndex(*source) || !RejectAlias()) return std::nullopt;
  if (!AcceptKeyword("WHERE")) {
    if (AtStatementEnd())
      Fail(Status::InvalidArgument(std::string(kNoKeyEquality)));
    else
      Unexpected();
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

}  // namespace internal

Result<Statement> ParseStatement(std::string_view text,
                                 const std::vector<AttributeValue>& parameters) {
  return internal::Parser(text, parameters).Parse();
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
