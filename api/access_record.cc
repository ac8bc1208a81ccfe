#include "api/access_record.h"

#include <charconv>
#include <cstring>
#include <optional>
#include <string>

namespace ddb::api {
namespace {

// Writes "<length>:<bytes>" at `out` (no byte of a name or value can end it
// early) and returns the end; `digits` holds the length's decimal digits.
char* PutCounted(std::string_view digits, std::string_view bytes, char* out) {
  std::memcpy(out, digits.data(), digits.size());
  out += digits.size();
  *out++ = ':';
  if (!bytes.empty()) std::memcpy(out, bytes.data(), bytes.size());
  return out + bytes.size();
}

// A size_t's decimal digits, in `digits`, without a string for them.
std::string_view DigitsOf(size_t n, char (&digits)[20]) {
  return std::string_view(digits, std::to_chars(digits, digits + sizeof digits, n).ptr - digits);
}

// Appends a name, a type and a value: the name's and value's counted bytes
// with one resize, as this runs for every key the profile counts and each
// append of its own cost as much as the copies.
void AppendCountedPair(std::string_view name, char type, std::string_view value,
                       std::string& text) {
  char name_digits[20], value_digits[20];
  std::string_view name_count = DigitsOf(name.size(), name_digits);
  std::string_view value_count = DigitsOf(value.size(), value_digits);
  size_t at = text.size();
  text.resize(at + name_count.size() + 1 + name.size() + 1 + value_count.size() + 1 +
              value.size());
  char* out = PutCounted(name_count, name, text.data() + at);
  *out++ = type;
  PutCounted(value_count, value, out);
}

// The bytes PutCounted wrote at the front of `text`, taken off it; none
// when `text` does not start with them.
std::optional<std::string> TakeCounted(std::string_view& text) {
  size_t colon = text.find(':');
  if (colon == 0 || colon == std::string_view::npos) return std::nullopt;
  size_t length = 0;
  for (char digit : text.substr(0, colon)) {
    if (digit < '0' || digit > '9') return std::nullopt;
    length = length * 10 + static_cast<size_t>(digit - '0');
  }
  if (text.size() - colon - 1 < length) return std::nullopt;
  std::string bytes(text.substr(colon + 1, length));
  text.remove_prefix(colon + 1 + length);
  return bytes;
}

}  // namespace

void AppendKeyText(std::string_view name, const engine::AttributeValue& value,
                   std::string& text) {
  char type = static_cast<char>('0' + static_cast<int>(value.type()));
  switch (value.type()) {
    case engine::AttributeType::kS:
      AppendCountedPair(name, type, value.as<std::string>(), text);
      break;
    case engine::AttributeType::kN:
      AppendCountedPair(name, type, value.as<engine::Number>().ToString(), text);
      break;
    case engine::AttributeType::kB:
      AppendCountedPair(name, type, value.as<engine::Binary>().bytes, text);
      break;
    default:  // not a key type
      AppendCountedPair(name, type, engine::DebugString(value), text);
      break;
  }
}

std::string KeyText(const engine::Item& key) {
  std::string text;
  for (const auto& [name, value] : key) AppendKeyText(name, value, text);
  return text;
}

engine::Item KeyFromText(std::string_view text) {
  engine::Item key;
  while (!text.empty()) {
    std::optional<std::string> name = TakeCounted(text);
    if (!name || text.empty()) break;  // not a KeyText
    auto type = static_cast<engine::AttributeType>(text.front() - '0');
    text.remove_prefix(1);
    std::optional<std::string> value = TakeCounted(text);
    if (!value) break;
    if (type == engine::AttributeType::kN) {
      auto number = engine::Number::Parse(*value);
      if (number.ok()) key.emplace(std::move(*name), engine::AttributeValue(*std::move(number)));
    } else if (type == engine::AttributeType::kB) {
      key.emplace(std::move(*name), engine::AttributeValue(engine::Binary{std::move(*value)}));
    } else {
      key.emplace(std::move(*name), engine::AttributeValue(std::move(*value)));
    }
  }
  return key;
}

}  // namespace ddb::api
