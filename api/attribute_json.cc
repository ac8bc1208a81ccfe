#include "api/attribute_json.h"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "api/base64.h"

namespace ddb::api {
namespace {

using engine::AttributeValue;

constexpr std::array<std::string_view, 10> kTypeKeys = {"S", "N",    "B",  "BOOL", "NULL",
                                                        "M", "L", "SS", "NS",   "BS"};

constexpr std::string_view kInvalidParameters = "One or more parameter values were invalid: ";

ApiError Invalid(const std::string& detail) { return ApiError::InvalidParameters(detail); }

// A bad value both of DynamoDB's layers word alike (api/value_layers.h).
ApiError InvalidValue(std::string message) { return ApiError::InvalidValue(message, message); }
ApiError InvalidParameterValue(std::string_view detail) {
  return InvalidValue(std::string(kInvalidParameters) + std::string(detail));
}

// Number text that `current` (the current layer's reading) refused.
ApiError BadNumber(std::string_view text, const engine::Status& current) {
  auto older = engine::Number::Parse(text, engine::Number::Reading::kBigDecimal);
  return ApiError::InvalidValue(current.message(),
                                older.ok() ? current.message() : older.status().message());
}

ApiResult<engine::Number> ParseNumber(const rapidjson::Value& json) {
  if (!json.IsString()) return WrongType(json, "String");
  auto number = engine::Number::Parse(View(json));
  if (!number.ok()) return BadNumber(View(json), number.status());
  return std::move(number).value();
}

ApiResult<std::string> ParseBinary(const rapidjson::Value& json) {
  if (!json.IsString()) {
    return ApiError::Serialization("only base-64-encoded strings are convertible to bytes");
  }
  std::string_view text = View(json);
  if (text.size() % 4 != 0) {
    return ApiError::Serialization("Base64 encoded length is expected a multiple of 4 bytes but found: " +
                                   std::to_string(text.size()));
  }
  auto bytes = Base64Decode(text);
  if (!bytes) return ApiError::Serialization("Invalid last non-pad Base64 character dectected");
  return std::move(*bytes);
}

std::string EchoList(const std::vector<std::string>& values, std::string_view separator,
                     bool quoted) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += separator;
    out += quoted ? "\"" + values[i] + "\"" : values[i];
  }
  return out + "]";
}

// A set's duplicate member, in both layers' words. The current layer lists
// the members in byte order up to the first repeat, then the repeat, then
// the rest as sent, quoted; the older one lists them as sent. Neither names
// a number set's members. `echo` is the members as sent, `members` what
// they are (decoded bytes for BS), `repeat` the first repeat's index.
ApiError DuplicateMembers(std::string_view type, const std::vector<std::string>& echo,
                          const std::vector<std::string>& members, size_t repeat) {
  const std::string invalid(kInvalidParameters);
  if (type == "NS") {
    return ApiError::InvalidValue(invalid + "Input collection contains duplicates.",
                                  "Input collection contains duplicates");
  }
  std::vector<size_t> order(repeat);
  for (size_t i = 0; i < repeat; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return members[a] < members[b]; });
  std::vector<std::string> current;
  for (size_t i : order) current.push_back(echo[i]);
  current.insert(current.end(), echo.begin() + static_cast<std::ptrdiff_t>(repeat), echo.end());
  if (type == "BS") {
    return ApiError::InvalidValue(
        invalid + "Input collection " + EchoList(current, ",", true) + "of type BS contains duplicates.",
        invalid + "Input collection " + EchoList(echo, ", ", false) + "of type BS contains duplicates.");
  }
  return ApiError::InvalidValue(
      invalid + "Input collection " + EchoList(current, ", ", true) + " contains duplicates.",
      invalid + "Input collection " + EchoList(echo, ", ", false) + " contains duplicates.");
}

// Parses the members of a set; `parse` turns one JSON string into T and
// `identity` gives the text two equal members share.
template <class T, class Parse, class Identity>
ApiResult<std::vector<T>> ParseSet(const rapidjson::Value& json, std::string_view type,
                                   Parse parse, Identity identity) {
  if (!json.IsArray()) return ApiError::Serialization("Unexpected field type");
  if (json.Empty()) {
    if (type == "BS") return InvalidParameterValue("Binary sets should not be empty");
    return InvalidParameterValue(type == "SS" ? "An string set  may not be empty"
                                              : "An number set  may not be empty");
  }
  std::vector<T> values;
  std::vector<std::string> echo;
  for (const auto& member : json.GetArray()) {
    auto value = parse(member);
    if (!value.ok()) return value.take_error();
    echo.emplace_back(member.IsString() ? View(member) : "");
    values.push_back(std::move(value).value());
  }
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < values.size(); ++i) {
    if (seen.insert(identity(values[i])).second) continue;
    std::vector<std::string> members;
    for (const T& value : values) members.emplace_back(identity(value));
    return DuplicateMembers(type, echo, members, i);
  }
  return values;
}

std::string_view SelfText(const std::string& s) { return s; }
std::string_view NumberText(const engine::Number& n) { return n.ToString(); }

ApiResult<std::string> ParseString(const rapidjson::Value& json) {
  if (!json.IsString()) return WrongType(json, "String");
  return std::string(View(json));
}

ApiResult<AttributeValue> ParseTyped(std::string_view type, const rapidjson::Value& json,
                                     int depth) {
  auto wrap = [](auto result) -> ApiResult<AttributeValue> {
    if (!result.ok()) return result.take_error();
    return AttributeValue(std::move(result).value());
  };
  if (type == "S") return wrap(ParseString(json));
  if (type == "N") return wrap(ParseNumber(json));
  if (type == "B") {
    auto bytes = ParseBinary(json);
    if (!bytes.ok()) return bytes.take_error();
    return AttributeValue(engine::Binary{std::move(bytes).value()});
  }
  if (type == "BOOL") {
    if (!json.IsBool()) return WrongType(json, "Boolean");
    return AttributeValue(json.GetBool());
  }
  if (type == "NULL") {
    if (!json.IsBool()) return WrongType(json, "Boolean");
    if (!json.GetBool()) {
      return InvalidParameterValue("Null attribute value types must have the value of true");
    }
    return AttributeValue(engine::Null{});
  }
  if (type == "M" || type == "L") {
    if (depth + 1 >= engine::kMaxNestingDepth) {
      return ApiError::Validation(std::string(kNestingTooDeep));
    }
  }
  if (type == "M") {
    if (!json.IsObject()) return ApiError::Serialization("Unexpected field type");
    engine::Map map;
    for (const auto& member : json.GetObject()) {
      auto value = ParseAttributeValue(member.value, depth + 1);
      if (!value.ok()) return value.take_error();
      map.insert_or_assign(std::string(View(member.name)), std::move(value).value());
    }
    return AttributeValue(std::move(map));
  }
  if (type == "L") {
    if (!json.IsArray()) return ApiError::Serialization("Unexpected field type");
    engine::List list;
    list.reserve(json.Size());
    for (const auto& member : json.GetArray()) {
      // A list of numbers (an embedding) is the common long list: its
      // {"N": "…"} elements skip the general path's intermediate moves.
      if (member.IsObject() && member.MemberCount() == 1 && member.MemberBegin()->value.IsString() &&
          View(member.MemberBegin()->name) == "N") {
        auto& element = list.emplace_back(engine::Number());
        std::string_view text = View(member.MemberBegin()->value);
        engine::Status parsed = engine::Number::ParseInto(text, &element.as<engine::Number>());
        if (!parsed.ok()) return BadNumber(text, parsed);
        continue;
      }
      auto value = ParseAttributeValue(member, depth + 1);
      if (!value.ok()) return value.take_error();
      list.push_back(std::move(value).value());
    }
    return AttributeValue(std::move(list));
  }
  if (type == "SS") {
    auto values = ParseSet<std::string>(json, type, ParseString, SelfText);
    if (!values.ok()) return values.take_error();
    return AttributeValue(engine::StringSet{std::move(values).value()});
  }
  if (type == "NS") {
    auto values = ParseSet<engine::Number>(json, type, ParseNumber, NumberText);
    if (!values.ok()) return values.take_error();
    return AttributeValue(engine::NumberSet{std::move(values).value()});
  }
  auto values = ParseSet<std::string>(json, type, ParseBinary, SelfText);
  if (!values.ok()) return values.take_error();
  return AttributeValue(engine::BinarySet{std::move(values).value()});
}

// A set's members, sorted as DynamoDB Local reads them back (and suites
// written against it expect): strings and binaries by their bytes, numbers by
// value. Sets keep the order they were written in; sorting here covers every
// answer, whatever wrote the set and whenever.
template <class Strings, class Text>
void WriteSet(JsonWriter& w, const Strings& values, Text text) {
  w.StartArray();
  if (std::is_sorted(values.begin(), values.end())) {
    for (const auto& v : values) WriteString(w, text(v));
  } else {
    std::vector<const typename Strings::value_type*> sorted;
    sorted.reserve(values.size());
    for (const auto& v : values) sorted.push_back(&v);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return *a < *b; });
    for (const auto* v : sorted) WriteString(w, text(*v));
  }
  w.EndArray();
}

}  // namespace

ApiResult<AttributeValue> ParseAttributeValue(const rapidjson::Value& json, int depth) {
  if (!json.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
  const rapidjson::Value* typed = nullptr;
  std::string_view type;
  int count = 0;
  for (const auto& member : json.GetObject()) {
    std::string_view key = View(member.name);
    if (member.value.IsNull()) continue;
    if (std::find(kTypeKeys.begin(), kTypeKeys.end(), key) == kTypeKeys.end()) continue;
    ++count;
    typed = &member.value;
    type = key;
  }
  if (count == 0) {
    return InvalidValue(
        "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  }
  if (count > 1) {
    return InvalidValue(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of "
        "the supported datatypes");
  }
  return ParseTyped(type, *typed, depth);
}

std::optional<std::string> CheckAttributeName(std::string_view name) {
  constexpr size_t kMaxNameBytes = 65535;
  if (name.empty()) return "Empty attribute name";
  if (name.size() > kMaxNameBytes) {
    return "Attribute name exceeds the maximum size limit of " + std::to_string(kMaxNameBytes) +
           " bytes";
  }
  return std::nullopt;
}

ApiResult<engine::Item> ParseItem(const rapidjson::Value& json) {
  if (!json.IsObject()) return ApiError::Serialization("Unexpected field type");
  engine::Item item;
  for (const auto& member : json.GetObject()) {
    if (auto problem = CheckAttributeName(View(member.name))) {
      return Invalid(*problem);
    }
    auto value = ParseAttributeValue(member.value);
    if (!value.ok()) return value.take_error();
    item.insert_or_assign(std::string(View(member.name)), std::move(value).value());
  }
  return item;
}

void WriteAttributeValue(JsonWriter& w, const AttributeValue& value) {
  w.StartObject();
  w.Key(engine::TypeName(value.type()).data());
  auto same = [](const std::string& s) -> std::string_view { return s; };
  auto b64 = [](const std::string& s) { return Base64Encode(s); };
  switch (value.type()) {
    case engine::AttributeType::kS:
      WriteString(w, value.as<std::string>());
      break;
    case engine::AttributeType::kN:
      WriteString(w, value.as<engine::Number>().ToString());
      break;
    case engine::AttributeType::kB:
      WriteString(w, Base64Encode(value.as<engine::Binary>().bytes));
      break;
    case engine::AttributeType::kBool:
      w.Bool(value.as<bool>());
      break;
    case engine::AttributeType::kNull:
      w.Bool(true);
      break;
    case engine::AttributeType::kM:
      WriteItem(w, value.as<engine::Map>());
      break;
    case engine::AttributeType::kL:
      w.StartArray();
      for (const auto& v : value.as<engine::List>()) WriteAttributeValue(w, v);
      w.EndArray();
      break;
    case engine::AttributeType::kSS:
      WriteSet(w, value.as<engine::StringSet>().values, same);
      break;
    case engine::AttributeType::kNS:
      WriteSet(w, value.as<engine::NumberSet>().values,
                   [](const engine::Number& n) -> std::string_view { return n.ToString(); });
      break;
    case engine::AttributeType::kBS:
      WriteSet(w, value.as<engine::BinarySet>().values, b64);
      break;
  }
  w.EndObject();
}

void WriteItem(JsonWriter& w, const engine::Item& item) {
  w.StartObject();
  for (const auto& [name, value] : item) {
    WriteString(w, name);
    WriteAttributeValue(w, value);
  }
  w.EndObject();
}

}  // namespace ddb::api
