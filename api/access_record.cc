#include "api/access_record.h"

namespace ddb::api {
namespace {

constexpr char kNameEnd = '\x1f';
constexpr char kValueEnd = '\x1e';

}  // namespace

void AppendKeyText(std::string_view name, const engine::AttributeValue& value,
                   std::string& text) {
  text += name;
  text += kNameEnd;
  text += static_cast<char>('0' + static_cast<int>(value.type()));
  switch (value.type()) {
    case engine::AttributeType::kS: text += value.as<std::string>(); break;
    case engine::AttributeType::kN: text += value.as<engine::Number>().ToString(); break;
    case engine::AttributeType::kB: text += value.as<engine::Binary>().bytes; break;
    default: text += engine::DebugString(value); break;  // not a key type
  }
  text += kValueEnd;
}

std::string KeyText(const engine::Item& key) {
  std::string text;
  for (const auto& [name, value] : key) AppendKeyText(name, value, text);
  return text;
}

engine::Item KeyFromText(std::string_view text) {
  engine::Item key;
  while (!text.empty()) {
    size_t name_end = text.find(kNameEnd);
    size_t value_end = text.find(kValueEnd, name_end);
    if (name_end == std::string_view::npos || value_end == std::string_view::npos ||
        value_end == name_end + 1) {
      break;  // not a KeyText
    }
    std::string name(text.substr(0, name_end));
    auto type = static_cast<engine::AttributeType>(text[name_end + 1] - '0');
    std::string value(text.substr(name_end + 2, value_end - name_end - 2));
    text.remove_prefix(value_end + 1);
    if (type == engine::AttributeType::kN) {
      auto number = engine::Number::Parse(value);
      if (number.ok()) key.emplace(std::move(name), engine::AttributeValue(*std::move(number)));
    } else if (type == engine::AttributeType::kB) {
      key.emplace(std::move(name), engine::AttributeValue(engine::Binary{std::move(value)}));
    } else {
      key.emplace(std::move(name), engine::AttributeValue(std::move(value)));
    }
  }
  return key;
}

}  // namespace ddb::api
