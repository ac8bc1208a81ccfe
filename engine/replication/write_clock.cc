#include "engine/replication/write_clock.h"

#include "engine/coding.h"
#include "engine/key_codec.h"
#include "engine/secondary_index.h"

namespace ddb::engine {

std::string WriteClockPrefix(uint64_t table_id) {
  return IndexPrefix(table_id, kWriteClockIndexId);
}

std::string WriteClockKey(std::string_view item_key) {
  std::string key(item_key.substr(0, kTablePrefixSize));
  coding::PutFixed32BE(&key, kWriteClockIndexId);
  key.append(item_key.substr(kTablePrefixSize));
  return key;
}

std::string EncodeWriteClock(const WriteClock& clock) {
  std::string out;
  coding::PutFixed64BE(&out, static_cast<uint64_t>(clock.stamp));
  out.append(clock.origin_ns);
  return out;
}

std::optional<WriteClock> DecodeWriteClock(std::string_view bytes) {
  if (bytes.size() < 8) return std::nullopt;
  return WriteClock{static_cast<int64_t>(coding::DecodeFixed64BE(bytes)),
                    std::string(bytes.substr(8))};
}

Result<std::optional<WriteClock>> ReadWriteClock(const Store& store, std::string_view item_key) {
  auto stored = store.Get(Family::kIndexes, WriteClockKey(item_key));
  if (!stored.ok()) return stored.status();
  if (!*stored) return std::optional<WriteClock>();
  return DecodeWriteClock(**stored);
}

}  // namespace ddb::engine
