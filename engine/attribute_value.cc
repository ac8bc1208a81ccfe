#include "engine/attribute_value.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace ddb::engine {
namespace {

// Set equality in linear time; sets hold no duplicates.
template <class T>
bool SameElements(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  std::unordered_set<std::string_view> keys;
  for (const T& x : a) keys.insert(SetElementKey(x));
  return std::all_of(b.begin(), b.end(), [&](const T& y) { return keys.contains(SetElementKey(y)); });
}

size_t NameSize(std::string_view name) { return name.size(); }

}  // namespace

bool AttributeValue::operator==(const AttributeValue& other) const {
  if (type() != other.type()) return false;
  switch (type()) {
    case AttributeType::kSS:
      return SameElements(as<StringSet>().values, other.as<StringSet>().values);
    case AttributeType::kBS:
      return SameElements(as<BinarySet>().values, other.as<BinarySet>().values);
    case AttributeType::kNS:
      return SameElements(as<NumberSet>().values, other.as<NumberSet>().values);
    case AttributeType::kN:
      return as<Number>().Compare(other.as<Number>()) == 0;
    case AttributeType::kM:
      return as<Map>() == other.as<Map>();
    case AttributeType::kL:
      return as<List>() == other.as<List>();
    case AttributeType::kS:
      return as<std::string>() == other.as<std::string>();
    case AttributeType::kB:
      return as<Binary>() == other.as<Binary>();
    case AttributeType::kBool:
      return as<bool>() == other.as<bool>();
    case AttributeType::kNull:
      return true;
  }
  return false;
}

std::string_view TypeName(AttributeType type) {
  static constexpr std::string_view kNames[] = {"S", "N",    "B", "BOOL", "NULL",
                                                "M", "L", "SS", "NS",   "BS"};
  return kNames[static_cast<int>(type)];
}

int NestingDepth(const AttributeValue& value) {
  int deepest = 0;
  if (value.is<Map>()) {
    for (const auto& [_, v] : value.as<Map>()) deepest = std::max(deepest, NestingDepth(v));
  } else if (value.is<List>()) {
    for (const auto& v : value.as<List>()) deepest = std::max(deepest, NestingDepth(v));
  } else {
    return 0;
  }
  return deepest + 1;
}

size_t AttributeSize(const AttributeValue& value) {
  switch (value.type()) {
    case AttributeType::kS:
      return value.as<std::string>().size();
    case AttributeType::kN:
      return value.as<Number>().SizeInBytes();
    case AttributeType::kB:
      return value.as<Binary>().bytes.size();
    case AttributeType::kBool:
    case AttributeType::kNull:
      return 1;
    case AttributeType::kM: {
      size_t size = 3;
      for (const auto& [name, v] : value.as<Map>()) size += NameSize(name) + AttributeSize(v) + 1;
      return size;
    }
    case AttributeType::kL: {
      size_t size = 3;
      for (const auto& v : value.as<List>()) {
        // Long lists are mostly numbers (embeddings): no call for those.
        const Number* number = std::get_if<Number>(&v.variant());
        size += (number ? number->SizeInBytes() : AttributeSize(v)) + 1;
      }
      return size;
    }
    case AttributeType::kSS: {
      size_t size = 0;
      for (const auto& s : value.as<StringSet>().values) size += s.size();
      return size;
    }
    case AttributeType::kNS: {
      size_t size = 0;
      for (const auto& n : value.as<NumberSet>().values) size += n.SizeInBytes();
      return size;
    }
    case AttributeType::kBS: {
      size_t size = 0;
      for (const auto& b : value.as<BinarySet>().values) size += b.size();
      return size;
    }
  }
  return 0;
}

size_t ItemSize(const Item& item) {
  size_t size = 0;
  for (const auto& [name, value] : item) size += NameSize(name) + AttributeSize(value);
  return size;
}

std::string DebugString(const AttributeValue& value) {
  std::string out(TypeName(value.type()));
  out += ' ';
  switch (value.type()) {
    case AttributeType::kS:
      return out + value.as<std::string>();
    case AttributeType::kN:
      return out + value.as<Number>().ToString();
    case AttributeType::kB:
      return out + value.as<Binary>().bytes;
    case AttributeType::kBool:
      return out + (value.as<bool>() ? "true" : "false");
    case AttributeType::kNull:
      return out + "null";
    case AttributeType::kM:
      return out + DebugString(value.as<Map>());
    case AttributeType::kL: {
      out += '[';
      const char* sep = "";
      for (const auto& v : value.as<List>()) out += std::exchange(sep, ", ") + DebugString(v);
      return out + ']';
    }
    case AttributeType::kSS:
    case AttributeType::kBS: {
      const auto& values = value.is<StringSet>() ? value.as<StringSet>().values
                                                 : value.as<BinarySet>().values;
      out += '[';
      const char* sep = "";
      for (const auto& s : values) out += std::exchange(sep, ", ") + s;
      return out + ']';
    }
    case AttributeType::kNS: {
      out += '[';
      const char* sep = "";
      for (const auto& n : value.as<NumberSet>().values) {
        out += std::exchange(sep, ", ") + n.ToString();
      }
      return out + ']';
    }
  }
  return out;
}

std::string DebugString(const Item& item) {
  std::string out = "{";
  const char* sep = "";
  for (const auto& [name, value] : item) {
    out += std::exchange(sep, ", ") + name + ':' + DebugString(value);
  }
  return out + '}';
}

}  // namespace ddb::engine
