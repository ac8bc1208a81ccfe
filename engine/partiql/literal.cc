#include "engine/partiql/literal.h"

#include <set>
#include <string>

#include "engine/expression/lexer.h"

namespace ddb::engine::partiql {
namespace {

using Kind = Token::Kind;

bool IsWord(const Token& token, std::string_view keyword) {
  return token.kind == Kind::kIdentifier && expr::IsKeyword(token.text, keyword);
}

constexpr std::string_view kTooDeep =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
    "beyond supported limit";

// Builds a set from `elements`: strings make a string set, numbers a number
// set, binaries a binary set; equal elements count once.
Result<AttributeValue> MakeSet(const std::vector<AttributeValue>& elements) {
  if (elements.empty()) return Status::InvalidArgument("Empty bags are not supported");
  AttributeType type = elements.front().type();
  for (const AttributeValue& element : elements) {
    if (element.type() != type ||
        (type != AttributeType::kS && type != AttributeType::kN && type != AttributeType::kB)) {
      return Status::InvalidArgument(
          "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in "
          "bags");
    }
  }
  std::set<std::string> seen;
  if (type == AttributeType::kN) {
    NumberSet set;
    for (const AttributeValue& e : elements) {
      if (seen.insert(e.as<Number>().ToString()).second) set.values.push_back(e.as<Number>());
    }
    return AttributeValue(std::move(set));
  }
  std::vector<std::string> values;
  for (const AttributeValue& e : elements) {
    const std::string& text =
        type == AttributeType::kS ? e.as<std::string>() : e.as<Binary>().bytes;
    if (seen.insert(text).second) values.push_back(text);
  }
  if (type == AttributeType::kS) return AttributeValue(StringSet{std::move(values)});
  return AttributeValue(BinarySet{std::move(values)});
}

}  // namespace

bool StartsLiteral(const Token& token) {
  switch (token.kind) {
    case Kind::kString:
    case Kind::kNumber:
    case Kind::kParameter:
    case Kind::kLeftBracket:
    case Kind::kLeftBrace:
    case Kind::kLeftBag:
    case Kind::kMinus:
    case Kind::kPlus:
      return true;
    default:
      return IsWord(token, "TRUE") || IsWord(token, "FALSE") || IsWord(token, "NULL");
  }
}

std::nullopt_t LiteralReader::Fail(Status status) {
  if (status_.ok()) status_ = std::move(status);
  return std::nullopt;
}

std::optional<AttributeValue> LiteralReader::Read(const std::vector<Token>& tokens, size_t& pos,
                                                  int depth) {
  if (depth >= kMaxNestingDepth) return Fail(Status::InvalidArgument(std::string(kTooDeep)));
  const Token& token = tokens[pos];
  switch (token.kind) {
    case Kind::kString:
      ++pos;
      return AttributeValue(token.value);
    case Kind::kNumber:
      ++pos;
      return ReadNumber(token, false);
    case Kind::kMinus:
    case Kind::kPlus:
      if (tokens[pos + 1].kind != Kind::kNumber)
        return Fail(UnexpectedToken(statement_, tokens[pos + 1]));
      pos += 2;
      return ReadNumber(tokens[pos - 1], token.kind == Kind::kMinus);
    case Kind::kParameter:
      ++pos;
      return parameters_[next_parameter_++];
    case Kind::kLeftBracket:
      return ReadList(tokens, pos, depth);
    case Kind::kLeftBrace:
      return ReadMap(tokens, pos, depth);
    case Kind::kLeftBag:
      return ReadSet(tokens, pos, depth);
    default:
      break;
  }
  if (IsWord(token, "TRUE") || IsWord(token, "FALSE")) {
    ++pos;
    return AttributeValue(IsWord(token, "TRUE"));
  }
  if (IsWord(token, "NULL")) {
    ++pos;
    return AttributeValue(Null{});
  }
  return Fail(UnexpectedToken(statement_, token));
}

std::optional<AttributeValue> LiteralReader::ReadNumber(const Token& token, bool negative) {
  auto number = Number::Parse(negative ? "-" + token.value : token.value);
  if (!number.ok()) return Fail(number.status());
  return AttributeValue(std::move(number).value());
}

std::optional<AttributeValue> LiteralReader::ReadList(const std::vector<Token>& tokens, size_t& pos,
                                                      int depth) {
  ++pos;  // [
  List list;
  if (tokens[pos].kind != Kind::kRightBracket) {
    while (true) {
      auto element = Read(tokens, pos, depth + 1);
      if (!element) return std::nullopt;
      list.push_back(std::move(*element));
      if (tokens[pos].kind != Kind::kComma) break;
      ++pos;
    }
  }
  if (tokens[pos].kind != Kind::kRightBracket)
    return Fail(UnexpectedToken(statement_, tokens[pos]));
  ++pos;
  return AttributeValue(std::move(list));
}

std::optional<AttributeValue> LiteralReader::ReadMap(const std::vector<Token>& tokens, size_t& pos,
                                                     int depth) {
  ++pos;  // {
  Map map;
  if (tokens[pos].kind != Kind::kRightBrace) {
    while (true) {
      const Token& key = tokens[pos];
      if (key.kind != Kind::kString && key.kind != Kind::kQuotedIdentifier) {
        return Fail(UnexpectedToken(statement_, key));
      }
      if (tokens[pos + 1].kind != Kind::kColon) {
        return Fail(UnexpectedToken(statement_, tokens[pos + 1]));
      }
      pos += 2;
      auto value = Read(tokens, pos, depth + 1);
      if (!value) return std::nullopt;
      if (!map.emplace(key.value, std::move(*value)).second) {
        return Fail(Status::InvalidArgument("Duplicate keys in tuple. Key: " + key.value));
      }
      if (tokens[pos].kind != Kind::kComma) break;
      ++pos;
    }
  }
  if (tokens[pos].kind != Kind::kRightBrace) return Fail(UnexpectedToken(statement_, tokens[pos]));
  ++pos;
  return AttributeValue(std::move(map));
}

std::optional<AttributeValue> LiteralReader::ReadSet(const std::vector<Token>& tokens, size_t& pos,
                                                     int depth) {
  ++pos;  // <<
  std::vector<AttributeValue> elements;
  if (tokens[pos].kind != Kind::kRightBag) {
    while (true) {
      auto element = Read(tokens, pos, depth + 1);
      if (!element) return std::nullopt;
      elements.push_back(std::move(*element));
      if (tokens[pos].kind != Kind::kComma) break;
      ++pos;
    }
  }
  if (tokens[pos].kind != Kind::kRightBag) return Fail(UnexpectedToken(statement_, tokens[pos]));
  ++pos;
  auto set = MakeSet(elements);
  if (!set.ok()) return Fail(set.status());
  return std::move(set).value();
}

}  // namespace ddb::engine::partiql
