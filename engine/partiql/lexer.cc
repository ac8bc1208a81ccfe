#include "engine/partiql/lexer.h"

#include <algorithm>

namespace ddb::engine::partiql {
namespace {

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || IsDigit(c); }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The length of the number starting at `from`: digits with at most one '.',
// then optionally an exponent.
size_t NumberLength(std::string_view text, size_t from) {
  size_t end = from;
  bool dot = false;
  while (end < text.size() && (IsDigit(text[end]) || (text[end] == '.' && !dot))) {
    dot = dot || text[end] == '.';
    ++end;
  }
  if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
    size_t exponent = end + 1;
    if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) ++exponent;
    if (exponent < text.size() && IsDigit(text[exponent])) {
      end = exponent;
      while (end < text.size() && IsDigit(text[end])) ++end;
    }
  }
  return end - from;
}

// Reads a literal quoted by `quote` ('…' or "…"), where a doubled quote
// stands for one. Returns the length consumed, 0 when unterminated.
size_t QuotedLength(std::string_view text, size_t from, char quote, std::string* value) {
  for (size_t i = from + 1; i < text.size(); ++i) {
    if (text[i] != quote) {
      value->push_back(text[i]);
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == quote) {
      value->push_back(quote);
      ++i;
      continue;
    }
    return i + 1 - from;
  }
  return 0;
}

struct Punctuation {
  std::string_view text;
  Token::Kind kind;
};

// Longest first, so "<=" wins over "<".
constexpr Punctuation kPunctuation[] = {
    {"<<", Token::Kind::kLeftBag},    {">>", Token::Kind::kRightBag},
    {"<>", Token::Kind::kNe},         {"!=", Token::Kind::kNe},
    {"<=", Token::Kind::kLe},         {">=", Token::Kind::kGe},
    {"(", Token::Kind::kLeftParen},   {")", Token::Kind::kRightParen},
    {"[", Token::Kind::kLeftBracket}, {"]", Token::Kind::kRightBracket},
    {"{", Token::Kind::kLeftBrace},   {"}", Token::Kind::kRightBrace},
    {",", Token::Kind::kComma},       {".", Token::Kind::kDot},
    {":", Token::Kind::kColon},       {";", Token::Kind::kSemicolon},
    {"*", Token::Kind::kStar},        {"?", Token::Kind::kParameter},
    {"=", Token::Kind::kEq},          {"<", Token::Kind::kLt},
    {">", Token::Kind::kGt},          {"+", Token::Kind::kPlus},
    {"-", Token::Kind::kMinus},
};

}  // namespace

std::vector<Token> Tokenize(std::string_view statement) {
  using Kind = Token::Kind;
  std::vector<Token> tokens;
  size_t i = 0;
  auto emit = [&](Kind kind, size_t length, std::string value = {}) {
    tokens.push_back(Token{kind, statement.substr(i, length), std::move(value), i});
    i += length;
  };
  while (i < statement.size()) {
    char c = statement[i];
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    if (statement.substr(i).starts_with("--")) {  // a line comment
      while (i < statement.size() && statement[i] != '\n') ++i;
      continue;
    }
    if (statement.substr(i).starts_with("/*")) {  // a block comment
      size_t end = statement.find("*/", i + 2);
      if (end == std::string_view::npos) {
        emit(Kind::kInvalid, statement.size() - i);
        break;
      }
      i = end + 2;
      continue;
    }
    if (IsIdentifierStart(c)) {
      size_t end = i;
      while (end < statement.size() && IsIdentifierChar(statement[end])) ++end;
      emit(Kind::kIdentifier, end - i, std::string(statement.substr(i, end - i)));
      continue;
    }
    if (IsDigit(c) || (c == '.' && i + 1 < statement.size() && IsDigit(statement[i + 1]))) {
      size_t length = NumberLength(statement, i);
      emit(Kind::kNumber, length, std::string(statement.substr(i, length)));
      continue;
    }
    if (c == '\'' || c == '"') {
      std::string value;
      size_t length = QuotedLength(statement, i, c, &value);
      if (length == 0) {
        emit(Kind::kInvalid, statement.size() - i);
        break;
      }
      emit(c == '\'' ? Kind::kString : Kind::kQuotedIdentifier, length, std::move(value));
      continue;
    }
    bool matched = false;
    for (const Punctuation& p : kPunctuation) {
      if (statement.substr(i).starts_with(p.text)) {
        emit(p.kind, p.text.size());
        matched = true;
        break;
      }
    }
    if (!matched) emit(Kind::kInvalid, 1);
  }
  tokens.push_back(Token{Kind::kEnd, {}, {}, statement.size()});
  return tokens;
}

Status Malformed(std::string_view detail) {
  return Status::InvalidArgument(std::string(kMalformed) + std::string(detail));
}

std::string Position(std::string_view statement, const Token& token) {
  std::string_view before = statement.substr(0, token.offset);
  size_t line = 1 + std::count(before.begin(), before.end(), '\n');
  size_t last_newline = before.rfind('\n');
  size_t column =
      last_newline == std::string_view::npos ? token.offset + 1 : token.offset - last_newline;
  return std::to_string(line) + ":" + std::to_string(column) + ":" +
         std::to_string(token.text.size());
}

Status UnexpectedToken(std::string_view statement, const Token& token) {
  if (token.kind == Token::Kind::kEnd) return Malformed("Unexpected end of statement");
  // DynamoDB names nothing after the colon for text it cannot read at all.
  if (token.kind == Token::Kind::kInvalid) return Malformed("");
  return Malformed("Unexpected token \"" + std::string(token.text) + "\" at " +
                   Position(statement, token));
}

}  // namespace ddb::engine::partiql
