#include "engine/expression/lexer.h"

namespace ddb::engine::expr {
namespace {

// Attribute names in expressions start with a letter; placeholders may
// also start with a digit or '_' ("#_" is a valid, if unusual, name).
bool IsNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsNameChar(char c) { return IsNameStart(c) || IsDigit(c) || c == '_'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

bool IsKeyword(std::string_view text, std::string_view keyword) {
  if (text.size() != keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != keyword[i]) return false;
  }
  return true;
}

std::vector<Token> Tokenize(std::string_view expression) {
  using Kind = Token::Kind;
  std::vector<Token> tokens;
  size_t i = 0;
  auto emit = [&](Kind kind, size_t length) {
    tokens.push_back(Token{kind, expression.substr(i, length), i});
    i += length;
  };
  // Length of the run of name characters starting at `from`.
  auto name_run = [&](size_t from) {
    size_t end = from;
    while (end < expression.size() && IsNameChar(expression[end])) ++end;
    return end - from;
  };
  while (i < expression.size()) {
    char c = expression[i];
    char next = i + 1 < expression.size() ? expression[i + 1] : '\0';
    if (IsSpace(c)) {
      ++i;
    } else if (IsNameStart(c)) {
      emit(Kind::kName, name_run(i));
    } else if (IsDigit(c)) {
      size_t end = i;
      while (end < expression.size() && IsDigit(expression[end])) ++end;
      emit(Kind::kNumber, end - i);
    } else if ((c == '#' || c == ':') && IsNameChar(next)) {
      emit(c == '#' ? Kind::kNamePlaceholder : Kind::kValuePlaceholder, 1 + name_run(i + 1));
    } else if (c == '<' && next == '>') {
      emit(Kind::kNe, 2);
    } else if (c == '<' && next == '=') {
      emit(Kind::kLe, 2);
    } else if (c == '>' && next == '=') {
      emit(Kind::kGe, 2);
    } else {
      Kind kind = Kind::kInvalid;
      switch (c) {
        case '(': kind = Kind::kLeftParen; break;
        case ')': kind = Kind::kRightParen; break;
        case '[': kind = Kind::kLeftBracket; break;
        case ']': kind = Kind::kRightBracket; break;
        case ',': kind = Kind::kComma; break;
        case '.': kind = Kind::kDot; break;
        case '=': kind = Kind::kEq; break;
        case '<': kind = Kind::kLt; break;
        case '>': kind = Kind::kGt; break;
        case '+': kind = Kind::kPlus; break;
        case '-': kind = Kind::kMinus; break;
        default: break;
      }
      size_t length = 1;
      // Keep a multi-byte UTF-8 character whole, so messages quote it intact.
      if (kind == Kind::kInvalid && (c & 0x80)) {
        while (i + length < expression.size() && (expression[i + length] & 0xC0) == 0x80) ++length;
      }
      emit(kind, length);
    }
  }
  tokens.push_back(Token{Kind::kEnd, expression.substr(expression.size()), expression.size()});
  return tokens;
}

}  // namespace ddb::engine::expr
