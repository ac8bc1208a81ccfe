// The tokens of PartiQL for DynamoDB: identifiers (bare or "double-quoted"),
// 'string' literals, numbers, the `?` parameter marker and punctuation,
// including `<<` and `>>` around set literals; `--` and `/* */` comments are
// skipped. Keywords are case-insensitive
// and stay identifiers; the parser tells them apart.
//
// Thread safety: pure function.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/expression/token_cursor.h"
#include "engine/status.h"

namespace ddb::engine::partiql {

struct Token {
  enum class Kind {
    kIdentifier,        // SELECT, a1 (bare)
    kQuotedIdentifier,  // "my-table" (value holds the unescaped text)
    kString,            // 'text' (value holds the unescaped text)
    kNumber,            // 12, 1.5, 3e10
    kParameter,         // ?
    kLeftParen,
    kRightParen,
    kLeftBracket,
    kRightBracket,
    kLeftBrace,
    kRightBrace,
    kLeftBag,   // <<
    kRightBag,  // >>
    kComma,
    kDot,
    kColon,
    kSemicolon,
    kStar,
    kEq,
    kNe,  // <> or !=
    kLt,
    kLe,
    kGt,
    kGe,
    kPlus,
    kMinus,
    kInvalid,  // a character that starts no token, or an unterminated quote
    kEnd,
  };
  Kind kind = Kind::kEnd;
  std::string_view text;  // as written; empty for kEnd
  std::string value;      // identifiers and literals: the text without quotes or escapes
  size_t offset = 0;      // of text in the statement
};

// The tokens of `statement`, always ending with one kEnd token.
std::vector<Token> Tokenize(std::string_view statement);

// The parser's and the literal reader's place in a statement's tokens;
// keywords are bare identifiers.
using TokenCursor = expr::TokenCursor<Token, Token::Kind::kIdentifier>;

// "Statement wasn't well formed, can't be processed: <detail>".
inline constexpr std::string_view kMalformed = "Statement wasn't well formed, can't be processed: ";
Status Malformed(std::string_view detail);

// Where `token` is in `statement`, as DynamoDB points at tokens in its
// messages: "<line>:<column>:<length>", counted from 1.
std::string Position(std::string_view statement, const Token& token);

// The syntax error for meeting `token` in `statement`: "Statement wasn't well
// formed, can't be processed: Unexpected token "x" at L:C:N", "... Unexpected
// end of statement", or nothing after the colon for text that is no token
// at all (an unterminated quote or comment, a '#').
Status UnexpectedToken(std::string_view statement, const Token& token);

}  // namespace ddb::engine::partiql
