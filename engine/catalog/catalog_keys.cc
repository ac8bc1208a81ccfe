#include "engine/catalog/catalog_keys.h"

#include "engine/coding.h"
#include "engine/key_codec.h"
#include "engine/secondary_index.h"
#include "engine/streams/stream.h"

namespace ddb::engine::catalog_keys {

std::string QualifiedName(std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(ns.size() + name.size() + 1);
  key.append(ns);
  key.push_back('\0');
  key.append(name);
  return key;
}

std::string Schema(std::string_view ns, std::string_view name) {
  return kSchema + QualifiedName(ns, name);
}

std::string Stats(uint64_t table_id) { return kStats + TablePrefix(table_id); }

std::string IndexStats(uint64_t table_id, uint32_t index_id) {
  return kStats + IndexPrefix(table_id, index_id);
}

std::string Stream(uint64_t stream_id) { return kStream + StreamPrefix(stream_id); }

std::string Backup(std::string_view ns, std::string_view backup_id) {
  return kBackup + QualifiedName(ns, backup_id);
}

std::string Setting(std::string_view key) { return kSetting + std::string(key); }

std::string KindBegin(char kind) { return std::string(1, kind); }

std::string KindEnd(char kind) { return PrefixSuccessor(KindBegin(kind)); }

Status LoadCounter(const Store& store, std::string_view key, uint64_t* value) {
  auto stored = store.Get(Family::kCatalog, key);
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return Status::Ok();
  coding::Reader in(**stored);
  if (!in.GetVarint(value)) return Status::Internal("catalog is corrupt");
  return Status::Ok();
}

std::string EncodeCounter(uint64_t value) {
  std::string out;
  coding::PutVarint(&out, value);
  return out;
}

}  // namespace ddb::engine::catalog_keys
