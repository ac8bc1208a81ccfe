#include "engine/items/item_codec.h"

#include "engine/coding.h"

namespace ddb::engine {
namespace {

constexpr uint8_t kItemFormatVersion = 1;

void EncodeValue(const AttributeValue& value, std::string* out);

void EncodeMap(const Map& map, std::string* out) {
  coding::PutVarint(out, map.size());
  for (const auto& [name, value] : map) {
    coding::PutString(out, name);
    EncodeValue(value, out);
  }
}

template <class Container, class Fn>
void EncodeStrings(const Container& values, Fn to_text, std::string* out) {
  coding::PutVarint(out, values.size());
  for (const auto& v : values) coding::PutString(out, to_text(v));
}

void EncodeValue(const AttributeValue& value, std::string* out) {
  out->push_back(static_cast<char>(value.type()));
  auto same = [](const std::string& s) -> const std::string& { return s; };
  switch (value.type()) {
    case AttributeType::kS:
      return coding::PutString(out, value.as<std::string>());
    case AttributeType::kN:
      return coding::PutString(out, value.as<Number>().ToString());
    case AttributeType::kB:
      return coding::PutString(out, value.as<Binary>().bytes);
    case AttributeType::kBool:
      out->push_back(value.as<bool>() ? 1 : 0);
      return;
    case AttributeType::kNull:
      return;
    case AttributeType::kM:
      return EncodeMap(value.as<Map>(), out);
    case AttributeType::kL:
      coding::PutVarint(out, value.as<List>().size());
      for (const auto& v : value.as<List>()) EncodeValue(v, out);
      return;
    case AttributeType::kSS:
      return EncodeStrings(value.as<StringSet>().values, same, out);
    case AttributeType::kNS:
      return EncodeStrings(
          value.as<NumberSet>().values,
          [](const Number& n) -> const std::string& { return n.ToString(); }, out);
    case AttributeType::kBS:
      return EncodeStrings(value.as<BinarySet>().values, same, out);
  }
}

// Stored items nest at most kMaxNestingDepth levels (the api refuses more);
// a deeper encoding is corrupt, and refusing it bounds the recursion.
constexpr int kMaxDecodeDepth = 4 * kMaxNestingDepth;

bool DecodeValue(coding::Reader& in, AttributeValue* value, int depth);

bool DecodeMap(coding::Reader& in, Map* map, int depth) {
  uint64_t count;
  if (!in.GetVarint(&count)) return false;
  for (uint64_t i = 0; i < count; ++i) {
    std::string name;
    AttributeValue value;
    if (!in.GetString(&name) || !DecodeValue(in, &value, depth)) return false;
    map->emplace(std::move(name), std::move(value));
  }
  return true;
}

bool DecodeNumber(std::string_view text, Number* number) {
  return Number::ParseInto(text, number).ok();
}

template <class T, class Fn>
bool DecodeStrings(coding::Reader& in, std::vector<T>* values, Fn convert) {
  uint64_t count;
  // Every element takes at least one byte, so a larger count is corrupt
  // (and must not reach reserve(), which would throw).
  if (!in.GetVarint(&count) || count > in.remaining()) return false;
  values->reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    std::string_view s;
    T v;
    if (!in.GetString(&s) || !convert(s, &v)) return false;
    values->push_back(std::move(v));
  }
  return true;
}

bool CopyString(std::string_view s, std::string* out) {
  out->assign(s);
  return true;
}

bool DecodeValue(coding::Reader& in, AttributeValue* value, int depth) {
  uint8_t type;
  if (!in.GetByte(&type) || depth > kMaxDecodeDepth) return false;
  switch (static_cast<AttributeType>(type)) {
    case AttributeType::kS: {
      std::string s;
      if (!in.GetString(&s)) return false;
      *value = AttributeValue(std::move(s));
      return true;
    }
    case AttributeType::kN: {
      std::string_view s;
      Number n;
      if (!in.GetString(&s) || !DecodeNumber(s, &n)) return false;
      *value = AttributeValue(std::move(n));
      return true;
    }
    case AttributeType::kB: {
      Binary b;
      if (!in.GetString(&b.bytes)) return false;
      *value = AttributeValue(std::move(b));
      return true;
    }
    case AttributeType::kBool: {
      bool b;
      if (!in.GetBool(&b)) return false;
      *value = AttributeValue(b);
      return true;
    }
    case AttributeType::kNull:
      *value = AttributeValue(Null{});
      return true;
    case AttributeType::kM: {
      Map m;
      if (!DecodeMap(in, &m, depth + 1)) return false;
      *value = AttributeValue(std::move(m));
      return true;
    }
    case AttributeType::kL: {
      uint64_t count;
      if (!in.GetVarint(&count) || count > in.remaining()) return false;  // as DecodeStrings
      List list;
      list.reserve(count);
      for (uint64_t i = 0; i < count; ++i) {
        if (!DecodeValue(in, &list.emplace_back(), depth + 1)) return false;
      }
      *value = AttributeValue(std::move(list));
      return true;
    }
    case AttributeType::kSS: {
      StringSet set;
      if (!DecodeStrings(in, &set.values, CopyString)) return false;
      *value = AttributeValue(std::move(set));
      return true;
    }
    case AttributeType::kNS: {
      NumberSet set;
      if (!DecodeStrings(in, &set.values, DecodeNumber)) return false;
      *value = AttributeValue(std::move(set));
      return true;
    }
    case AttributeType::kBS: {
      BinarySet set;
      if (!DecodeStrings(in, &set.values, CopyString)) return false;
      *value = AttributeValue(std::move(set));
      return true;
    }
  }
  return false;
}

}  // namespace

std::string EncodeItem(const Item& item) {
  std::string out;
  out.push_back(static_cast<char>(kItemFormatVersion));
  EncodeMap(item, &out);
  return out;
}

Result<Item> DecodeItem(std::string_view bytes) {
  coding::Reader in(bytes);
  uint8_t version;
  Item item;
  if (!in.GetByte(&version) || version != kItemFormatVersion || !DecodeMap(in, &item, 0) ||
      !in.done()) {
    return Status::Internal("stored item is corrupt");
  }
  return item;
}

}  // namespace ddb::engine
