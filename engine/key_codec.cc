#include "engine/key_codec.h"

#include <cassert>

#include "engine/coding.h"

namespace ddb::engine {
namespace {

void AppendEscapedBytes(std::string_view bytes, std::string* out) {
  for (char c : bytes) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xff');
  }
}

void AppendEscaped(std::string_view bytes, std::string* out) {
  AppendEscapedBytes(bytes, out);
  out->push_back('\0');
  out->push_back('\x01');
}

}  // namespace

void AppendKeyValuePrefix(const AttributeValue& value, std::string* out) {
  assert(value.is<std::string>() || value.is<Binary>());
  AppendEscapedBytes(value.is<std::string>() ? value.as<std::string>() : value.as<Binary>().bytes,
                     out);
}

void AppendKeyValue(const AttributeValue& value, std::string* out) {
  switch (value.type()) {
    case AttributeType::kS:
      return AppendEscaped(value.as<std::string>(), out);
    case AttributeType::kB:
      return AppendEscaped(value.as<Binary>().bytes, out);
    case AttributeType::kN:
      return value.as<Number>().AppendKeyEncoding(out);
    default:
      assert(false && "key values are S, N or B");
  }
}

uint64_t PartitionHash(std::string_view encoded_pk) {
  // FNV-1a, then the splitmix64 finalizer so that the high bits, which
  // decide parallel-scan segments, are well mixed.
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : encoded_pk) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

std::string TablePrefix(uint64_t table_id) {
  std::string out;
  coding::PutFixed64BE(&out, table_id);
  return out;
}

std::string PartitionPrefix(uint64_t table_id, const AttributeValue& pk) {
  std::string encoded_pk;
  AppendKeyValue(pk, &encoded_pk);
  std::string out = TablePrefix(table_id);
  coding::PutFixed64BE(&out, PartitionHash(encoded_pk));
  out += encoded_pk;
  return out;
}

std::string ItemKey(uint64_t table_id, const TableSchema& schema, const Item& key) {
  std::string out = PartitionPrefix(table_id, key.find(schema.hash_key().name)->second);
  if (const KeyElement* range = schema.range_key()) {
    AppendKeyValue(key.find(range->name)->second, &out);
  }
  return out;
}

std::string_view KeyValuesOf(std::string_view item_key) {
  constexpr size_t kTableIdAndHash = 16;
  return item_key.size() < kTableIdAndHash ? item_key : item_key.substr(kTableIdAndHash);
}

std::string PrefixSuccessor(std::string prefix) {
  while (!prefix.empty()) {
    auto& last = reinterpret_cast<unsigned char&>(prefix.back());
    if (last != 0xff) {
      ++last;
      return prefix;
    }
    prefix.pop_back();
  }
  return prefix;
}

}  // namespace ddb::engine
