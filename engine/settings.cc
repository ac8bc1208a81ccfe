#include "engine/settings.h"

#include "engine/catalog/catalog_keys.h"
#include "engine/key_codec.h"

namespace ddb::engine {

Status Settings::Put(std::string_view key, std::string_view value) {
  Store::Batch batch(store_);
  batch.Put(Family::kCatalog, catalog_keys::Setting(key), value);
  return store_.Write(batch);
}

Status Settings::Delete(std::string_view key) {
  Store::Batch batch(store_);
  batch.Delete(Family::kCatalog, catalog_keys::Setting(key));
  return store_.Write(batch);
}

Result<std::optional<std::string>> Settings::Get(std::string_view key) const {
  return store_.Get(Family::kCatalog, catalog_keys::Setting(key));
}

Result<std::vector<std::pair<std::string, std::string>>> Settings::List(
    std::string_view prefix) const {
  std::string begin = catalog_keys::Setting(prefix);
  auto it = store_.NewIterator(Family::kCatalog, begin, PrefixSuccessor(begin));
  std::vector<std::pair<std::string, std::string>> settings;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    // The key without its kind byte.
    settings.emplace_back(std::string(it->key().substr(1)), std::string(it->value()));
  }
  DDB_RETURN_IF_ERROR(it->status());
  return settings;
}

}  // namespace ddb::engine
