#include "api/access_record.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace ddb::api {
namespace {

// A name's or value's length, before its bytes: four bytes in the machine's
// order, so that no byte of the bytes can end them early. Fixed-size, not
// decimal digits: this runs for every key the profile counts, and writing
// digits was a third of the key text's cost. The text never leaves the
// process (it is turned back into a key for a report).
using Length = uint32_t;

char* PutCounted(std::string_view bytes, char* out) {
  Length length = static_cast<Length>(bytes.size());
  std::memcpy(out, &length, sizeof length);
  out += sizeof length;
  if (!bytes.empty()) std::memcpy(out, bytes.data(), bytes.size());
  return out + bytes.size();
}

// Appends a name, a type and a value with one resize, as each append of
// its own cost as much as the copies.
void AppendCountedPair(std::string_view name, char type, std::string_view value,
                       std::string& text) {
  size_t at = text.size();
  text.resize(at + sizeof(Length) + name.size() + 1 + sizeof(Length) + value.size());
  char* out = PutCounted(name, text.data() + at);
  *out++ = type;
  PutCounted(value, out);
}

// The bytes PutCounted wrote at the front of `text`, taken off it; none
// when `text` does not start with them.
std::optional<std::string> TakeCounted(std::string_view& text) {
  Length length;
  if (text.size() < sizeof length) return std::nullopt;
  std::memcpy(&length, text.data(), sizeof length);
  text.remove_prefix(sizeof length);
  if (text.size() < length) return std::nullopt;
  std::string bytes(text.substr(0, length));
  text.remove_prefix(length);
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
