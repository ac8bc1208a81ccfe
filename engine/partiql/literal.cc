#include "engine/partiql/literal.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <set>

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

bool FitsInt32(int64_t value) {
  return value >= std::numeric_limits<int32_t>::min() &&
         value <= std::numeric_limits<int32_t>::max();
}

// Whether DynamoDB can convert the number text at all: its exponent, and its
// scale (digits after the point less the exponent), must fit 32-bit integers.
bool Convertible(std::string_view text) {
  size_t e = text.find_first_of("eE");
  std::string_view mantissa = text.substr(0, e);
  size_t dot = mantissa.find('.');
  int64_t fraction_digits = dot == std::string_view::npos ? 0 : mantissa.size() - dot - 1;
  int64_t exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view digits = text.substr(e + 1);
    bool negative = !digits.empty() && digits.front() == '-';
    if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) {
      digits.remove_prefix(1);
    }
    if (digits.size() > 12) return false;  // far beyond 32 bits
    std::from_chars(digits.data(), digits.data() + digits.size(), exponent);
    if (negative) exponent = -exponent;
    if (!FitsInt32(exponent)) return false;
  }
  return FitsInt32(fraction_digits - exponent);
}

// How a set member appears in the duplicates message.
std::string MemberText(const AttributeValue& element) {
  switch (element.type()) {
    case AttributeType::kS:
      return element.as<std::string>();
    case AttributeType::kN:
      return element.as<Number>().ToString();
    default:
      return element.as<Binary>().bytes;
  }
}

// Builds a set from `elements`: strings make a string set, numbers a number
// set, binaries (from parameters) a binary set.
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
  bool duplicates = false;
  std::string listed;
  for (const AttributeValue& element : elements) {
    std::string text = MemberText(element);
    duplicates = !seen.insert(text).second || duplicates;
    listed += (listed.empty() ? "" : ", ") + text;
  }
  if (duplicates) {
    return Status::InvalidArgument("One or more parameter values were invalid: Input collection [" +
                                   listed + "] contains duplicates.");
  }
  if (type == AttributeType::kN) {
    NumberSet set;
    for (const AttributeValue& e : elements) set.values.push_back(e.as<Number>());
    return AttributeValue(std::move(set));
  }
  std::vector<std::string> values;
  for (const AttributeValue& e : elements) values.push_back(MemberText(e));
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

std::optional<AttributeValue> LiteralReader::Read(TokenCursor& tokens, int depth) {
  return ReadAt(tokens, depth, "root");
}

std::optional<AttributeValue> LiteralReader::ReadItem(TokenCursor& tokens) {
  if (tokens.Peek().kind != Kind::kLeftBrace) return ReadAt(tokens, 0, "root");
  return ReadMap(tokens, 0, "root", true);
}

std::optional<AttributeValue> LiteralReader::ReadAt(TokenCursor& tokens, int depth,
                                                    const std::string& path) {
  if (depth >= kMaxNestingDepth) return Fail(Status::InvalidArgument(std::string(kTooDeep)));
  const Token& token = tokens.Peek();
  switch (token.kind) {
    case Kind::kString:
      tokens.Skip();
      return AttributeValue(token.value);
    case Kind::kNumber:
      tokens.Skip();
      return ReadNumber(token, false, path);
    case Kind::kMinus:
    case Kind::kPlus: {
      const Token& number = tokens.Peek(1);
      if (number.kind != Kind::kNumber) return Fail(UnexpectedToken(statement_, number));
      tokens.Skip(2);
      return ReadNumber(number, token.kind == Kind::kMinus, path);
    }
    case Kind::kParameter:
      tokens.Skip();
      return parameters_[next_parameter_++];
    case Kind::kLeftBracket:
      return ReadList(tokens, depth, path);
    case Kind::kLeftBrace:
      return ReadMap(tokens, depth, path, false);
    case Kind::kLeftBag:
      return ReadSet(tokens, depth, path);
    default:
      break;
  }
  if (IsWord(token, "TRUE") || IsWord(token, "FALSE")) {
    tokens.Skip();
    return AttributeValue(IsWord(token, "TRUE"));
  }
  if (IsWord(token, "NULL")) {
    tokens.Skip();
    return AttributeValue(Null{});
  }
  if (token.kind == Kind::kIdentifier && tokens.Peek(1).kind == Kind::kLeftParen) {
    std::string name = token.value;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return Fail(Status::InvalidArgument("Unsupported data type: " + name + " under key " + path +
                                        " at " + Position(statement_, token)));
  }
  return Fail(UnexpectedToken(statement_, token));
}

std::optional<AttributeValue> LiteralReader::ReadNumber(const Token& token, bool negative,
                                                        const std::string& path) {
  if (!Convertible(token.value)) return Fail(Malformed(""));
  auto number =
      Number::Parse(negative ? "-" + token.value : token.value, Number::Reading::kBigDecimal);
  if (!number.ok()) {
    return Fail(Status::InvalidArgument(number.status().message() + " under " + path));
  }
  return AttributeValue(std::move(number).value());
}

std::optional<AttributeValue> LiteralReader::ReadList(TokenCursor& tokens, int depth,
                                                      const std::string& path) {
  tokens.Skip();  // [
  List list;
  if (tokens.Peek().kind != Kind::kRightBracket) {
    do {
      std::string element_path = path + "[" + std::to_string(list.size()) + "]";
      auto element = ReadAt(tokens, depth + 1, element_path);
      if (!element) return std::nullopt;
      list.push_back(std::move(*element));
    } while (tokens.Accept(Kind::kComma));
  }
  if (!tokens.Accept(Kind::kRightBracket)) return Fail(UnexpectedToken(statement_, tokens.Peek()));
  return AttributeValue(std::move(list));
}

// `item`: the map is an INSERT's item, whose values are each a root.
std::optional<AttributeValue> LiteralReader::ReadMap(TokenCursor& tokens, int depth,
                                                     const std::string& path, bool item) {
  tokens.Skip();  // {
  Map map;
  if (tokens.Peek().kind != Kind::kRightBrace) {
    do {
      const Token& key = tokens.Peek();
      if (key.kind != Kind::kString && key.kind != Kind::kQuotedIdentifier) {
        return Fail(UnexpectedToken(statement_, key));
      }
      if (tokens.Peek(1).kind != Kind::kColon) {
        return Fail(UnexpectedToken(statement_, tokens.Peek(1)));
      }
      tokens.Skip(2);
      auto value = ReadAt(tokens, depth + 1, item ? path : path + "." + key.value);
      if (!value) return std::nullopt;
      if (!map.emplace(key.value, std::move(*value)).second) {
        return Fail(Status::InvalidArgument("Duplicate keys in tuple. Key: " + key.value));
      }
    } while (tokens.Accept(Kind::kComma));
  }
  if (!tokens.Accept(Kind::kRightBrace)) return Fail(UnexpectedToken(statement_, tokens.Peek()));
  return AttributeValue(std::move(map));
}

std::optional<AttributeValue> LiteralReader::ReadSet(TokenCursor& tokens, int depth,
                                                     const std::string& path) {
  tokens.Skip();  // <<
  std::vector<AttributeValue> elements;
  if (tokens.Peek().kind != Kind::kRightBag) {
    do {
      auto element = ReadAt(tokens, depth + 1, path);
      if (!element) return std::nullopt;
      elements.push_back(std::move(*element));
    } while (tokens.Accept(Kind::kComma));
  }
  if (!tokens.Accept(Kind::kRightBag)) return Fail(UnexpectedToken(statement_, tokens.Peek()));
  auto set = MakeSet(elements);
  if (!set.ok()) return Fail(set.status());
  return std::move(set).value();
}

}  // namespace ddb::engine::partiql
