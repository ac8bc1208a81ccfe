#include "engine/ttl/ttl.h"

#include <cmath>
#include <cstdlib>

#include "engine/coding.h"

namespace ddb::engine {

std::optional<int64_t> TtlExpiry(const TableSchema& schema, const Item& item) {
  if (schema.ttl_attribute.empty()) return std::nullopt;
  auto it = item.find(schema.ttl_attribute);
  if (it == item.end() || it->second.type() != AttributeType::kN) return std::nullopt;
  // Epoch seconds fit a double exactly far beyond any real expiry time;
  // larger values (milliseconds by mistake, 1e30) stay unscheduled: they
  // would never come due anyway.
  double seconds = std::strtod(it->second.as<Number>().ToString().c_str(), nullptr);
  if (!(seconds >= 0) || seconds >= 1e15) return std::nullopt;
  return static_cast<int64_t>(std::floor(seconds));
}

std::string TtlEntryKey(int64_t expiry_seconds, std::string_view item_key) {
  std::string key;
  key.reserve(8 + item_key.size());
  coding::PutFixed64BE(&key, static_cast<uint64_t>(expiry_seconds));
  key.append(item_key);
  return key;
}

bool ParseTtlEntryKey(std::string_view entry_key, int64_t* expiry_seconds,
                      std::string_view* item_key) {
  if (entry_key.size() < 16) return false;  // expiry and at least a table id
  *expiry_seconds = static_cast<int64_t>(coding::DecodeFixed64BE(entry_key));
  *item_key = entry_key.substr(8);
  return true;
}

std::string TtlEntriesThrough(int64_t seconds) {
  std::string key;
  coding::PutFixed64BE(&key, static_cast<uint64_t>(seconds) + 1);
  return key;
}

}  // namespace ddb::engine
