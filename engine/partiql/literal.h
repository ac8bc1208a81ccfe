// PartiQL value literals — 'string', numbers, TRUE/FALSE/NULL, lists [...],
// maps {'k': v}, string and number sets <<...>> — and `?` parameters, read
// from a statement's tokens into AttributeValues ("PartiQL data types for
// DynamoDB" in the developer guide).
//
// Errors are DynamoDB's: a number literal whose exponent or scale does not
// fit a 32-bit integer makes the statement malformed (nothing after the
// colon); one outside DynamoDB's number range gets the number message with
// the place of the number appended ("... under root", "under root.a[1]",
// counted from the literal, or from each attribute of an INSERT's item); a
// set literal may not be empty, mixed or hold a value twice.
//
// Thread safety: a LiteralReader belongs to one parse.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/partiql/lexer.h"
#include "engine/status.h"

namespace ddb::engine::partiql {

// Whether `token` can start a value literal.
bool StartsLiteral(const Token& token);

class LiteralReader {
 public:
  // `statement` (for error positions) and `parameters` must outlive the reader.
  LiteralReader(std::string_view statement, const std::vector<AttributeValue>& parameters)
      : statement_(statement), parameters_(parameters) {}

  size_t parameter_count() const { return parameters_.size(); }

  // Reads the literal starting at the current token and moves `tokens` past
  // it; the n-th `?` read is bound to parameters[n]. `depth` is the number
  // of enclosing lists and maps. On error returns nullopt and sets status().
  // REQUIRES: the statement has no more `?` than parameters.
  std::optional<AttributeValue> Read(TokenCursor& tokens, int depth);

  // Read for the item of an INSERT: a map whose attribute values are each
  // the root of the paths that messages name.
  std::optional<AttributeValue> ReadItem(TokenCursor& tokens);

  const Status& status() const { return status_; }

 private:
  std::optional<AttributeValue> ReadAt(TokenCursor& tokens, int depth, const std::string& path);
  std::optional<AttributeValue> ReadNumber(const Token& token, bool negative,
                                           const std::string& path);
  std::optional<AttributeValue> ReadList(TokenCursor& tokens, int depth, const std::string& path);
  std::optional<AttributeValue> ReadMap(TokenCursor& tokens, int depth,
                                        const std::string& path, bool item);
  std::optional<AttributeValue> ReadSet(TokenCursor& tokens, int depth, const std::string& path);
  std::nullopt_t Fail(Status status);

  std::string_view statement_;
  const std::vector<AttributeValue>& parameters_;
  size_t next_parameter_ = 0;
  Status status_;
};

}  // namespace ddb::engine::partiql
