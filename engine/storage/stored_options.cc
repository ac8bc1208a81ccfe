#include "engine/storage/stored_options.h"

#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/utilities/options_util.h>

#include <cstdio>

namespace ddb::engine {

StoredOptions LoadStoredOptions(const std::string& path) {
  StoredOptions options;
  rocksdb::ConfigOptions config;
  // An OPTIONS file another RocksDB version wrote may name options this one
  // lacks; the ones it knows are what matter.
  config.ignore_unknown_options = true;
  config.env = rocksdb::Env::Default();
  if (rocksdb::LoadLatestOptions(config, path, &options.db, &options.families).ok() &&
      !options.families.empty()) {
    options.from_options_file = true;
    return options;
  }
  options = StoredOptions{};
  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(options.db, path, &names).ok() || names.empty()) {
    names = {rocksdb::kDefaultColumnFamilyName};
  }
  for (const std::string& name : names) {
    options.families.emplace_back(name, rocksdb::ColumnFamilyOptions());
  }
  return options;
}

const rocksdb::ColumnFamilyOptions& FamilyOptions(const StoredOptions& options,
                                                  std::string_view name) {
  for (const auto& family : options.families) {
    if (family.name == name) return family.options;
  }
  return options.families.front().options;
}

void WarningLog::Logv(const char*, va_list) {}  // no level: informational

void WarningLog::Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) {
  if (level < rocksdb::WARN_LEVEL || level == rocksdb::HEADER_LEVEL) return;
  char line[1024];
  std::vsnprintf(line, sizeof line, format, ap);
  MutexLock lock(mu_);
  lines_.emplace_back(line);
}

std::vector<std::string> WarningLog::lines() const {
  MutexLock lock(mu_);
  return lines_;
}

}  // namespace ddb::engine
