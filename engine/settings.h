// Settings: small values the server keeps in the catalog (the emulator's
// trigger definitions and checkpoints), under catalog_keys::Setting. Keys
// are opaque to the engine; a reset leaves them.
//
// Thread safety: as Store.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "engine/storage/store.h"

namespace ddb::engine {

class Settings {
 public:
  explicit Settings(Store& store) : store_(store) {}

  Status Put(std::string_view key, std::string_view value);
  Status Delete(std::string_view key);
  Result<std::optional<std::string>> Get(std::string_view key) const;
  // Every setting whose key starts with `prefix`, in key order.
  Result<std::vector<std::pair<std::string, std::string>>> List(std::string_view prefix) const;

 private:
  Store& store_;
};

}  // namespace ddb::engine
