// The tokens of DynamoDB's expression language.
//
// Splits an expression into names (attribute names and keywords, which the
// parser tells apart), #name and :value placeholders, list indexes and
// punctuation. Keywords are case-insensitive, so the lexer leaves them as
// names. A character that starts no token becomes a kInvalid token, reported
// by the parser as a syntax error like any other unexpected token.
//
// Thread safety: pure function.
#pragma once

#include <string_view>
#include <vector>

namespace ddb::engine::expr {

struct Token {
  enum class Kind {
    kName,              // a1, attribute_exists, AND
    kNamePlaceholder,   // #n
    kValuePlaceholder,  // :v
    kNumber,            // 3 (list indexes)
    kLeftParen,
    kRightParen,
    kLeftBracket,
    kRightBracket,
    kComma,
    kDot,
    kEq,
    kNe,
    kLt,
    kLe,
    kGt,
    kGe,
    kPlus,
    kMinus,
    kInvalid,  // a character that starts no token
    kEnd,
  };
  Kind kind = Kind::kEnd;
  std::string_view text;  // a view into the expression; empty for kEnd
  size_t offset = 0;      // of text in the expression
};

// The tokens of `expression`, always ending with one kEnd token.
std::vector<Token> Tokenize(std::string_view expression);

// Whether `text` equals `keyword` ignoring ASCII case. `keyword` is upper case.
bool IsKeyword(std::string_view text, std::string_view keyword);

}  // namespace ddb::engine::expr
