// A parser's place in its tokens: looking ahead, and moving on over a token
// of an expected kind or a keyword. Shared by the expression parser
// (parser.cc) and the PartiQL parser (engine/partiql/), whose tokens differ
// but are alike in what the cursor needs: a `kind`, the `text` as written
// and one kEnd token last. Keywords are words (tokens of kind `kWordKind`)
// compared without ASCII case.
//
// What happens when an expected token is missing (the error and its text)
// is each parser's own: the cursor only says whether it moved.
//
// Thread safety: a cursor belongs to one parse.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/expression/lexer.h"

namespace ddb::engine::expr {

template <class TokenType, typename TokenType::Kind kWordKind>
class TokenCursor {
 public:
  using Kind = typename TokenType::Kind;

  // REQUIRES: `tokens` ends with one kEnd token.
  explicit TokenCursor(std::vector<TokenType> tokens) : tokens_(std::move(tokens)) {}

  // The token `ahead` places past the current one; kEnd past the end.
  const TokenType& Peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  bool PeekKeyword(std::string_view keyword, size_t ahead = 0) const {
    const TokenType& token = Peek(ahead);
    return token.kind == kWordKind && IsKeyword(token.text, keyword);
  }
  // Moves past the current token if it is of `kind`.
  bool Accept(Kind kind) {
    if (Peek().kind != kind) return false;
    ++pos_;
    return true;
  }
  // Moves past the current token if it is `keyword` (upper case).
  bool AcceptKeyword(std::string_view keyword) {
    if (!PeekKeyword(keyword)) return false;
    ++pos_;
    return true;
  }
  // Moves past `count` tokens the caller has looked at already.
  void Skip(size_t count = 1) { pos_ += count; }

  // The token before the current one; nullptr at the start.
  const TokenType* Previous() const { return pos_ > 0 ? &tokens_[pos_ - 1] : nullptr; }
  const std::vector<TokenType>& tokens() const { return tokens_; }

 private:
  std::vector<TokenType> tokens_;
  size_t pos_ = 0;
};

}  // namespace ddb::engine::expr
