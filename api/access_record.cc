#include "api/access_record.h"

#include <charconv>
#include <cstring>
#include <optional>
#include <string>

namespace ddb::api {
namespace {

// "<length>:<bytes>": no byte of a name or value can end it early. Written
// with one resize and copies: this runs for every key the profile counts,
// and three appends cost twice as much.
void AppendCounted(std::string_view bytes, std::string& text) {
  char digits[20];  // a size_t's decimal digits, without a string for them
  size_t count = std::to_chars(digits, digits + sizeof digits, bytes.size()).ptr - digits;
  size_t at = text.size();
  text.resize(at + count + 1 + bytes.size());
  char* out = text.data() + at;
  std::memcpy(out, digits, count);
  out[count] = ':';
  if (!bytes.empty()) std::memcpy(out + count + 1, bytes.data(), bytes.size());
}

// The bytes AppendCounted wrote at the front of `text`, taken off it; none
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
  AppendCounted(name, text);
  text += static_cast<char>('0' + static_cast<int>(value.type()));
  switch (value.type()) {
    case engine::AttributeType::kS: AppendCounted(value.as<std::string>(), text); break;
    case engine::AttributeType::kN:
      AppendCounted(value.as<engine::Number>().ToString(), text);
      break;
    case engine::AttributeType::kB: AppendCounted(value.as<engine::Binary>().bytes, text); break;
    default: AppendCounted(engine::DebugString(value), text); break;  // not a key type
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
