#include "engine/storage/store_repair.h"

#include <rocksdb/db.h>

#include <filesystem>
#include <set>
#include <string_view>

#include "engine/storage/stored_options.h"

namespace ddb::engine {
namespace {

std::set<std::string> FilesIn(const std::filesystem::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

}  // namespace

Result<StoreRepair> RepairStore(const std::string& path) {
  const std::set<std::string> before = FilesIn(path);
  StoredOptions stored = LoadStoredOptions(path);
  auto log = std::make_shared<WarningLog>();
  rocksdb::DBOptions db_options = stored.db;
  db_options.info_log = log;
  // Families the OPTIONS file does not name (none are expected) are kept
  // too, with the default family's options, rather than dropped.
  rocksdb::ColumnFamilyOptions unknown = FamilyOptions(stored, rocksdb::kDefaultColumnFamilyName);
  rocksdb::Status s = rocksdb::RepairDB(path, db_options, stored.families, unknown);
  if (!s.ok()) {
    const std::string reason = s.ToString();
    if (reason.find("lock") != std::string::npos || reason.find("LOCK") != std::string::npos) {
      return Status::Internal("cannot repair " + path +
                              ": another localdynamo (or another RocksDB program) has it open; "
                              "stop it first (" + reason + ")");
    }
    return Status::Internal("cannot repair " + path + ": " + reason);
  }
  StoreRepair repair;
  // Moved: gone from the directory and now in lost/ (which may also hold
  // an earlier repair's files).
  const std::set<std::string> after = FilesIn(path);
  const std::set<std::string> lost = FilesIn(std::filesystem::path(path) / "lost");
  for (const std::string& name : before) {
    if (!after.count(name) && lost.count(name)) repair.moved_aside.push_back(name);
  }
  for (std::string line : log->lines()) {
    // The repair's own account ("Table #12: ignoring ...", "Log #5:
    // dropping ...", what it recovered), without its source location;
    // other warnings (a table file without a unique id) say nothing of it.
    const std::string_view from = "[db/repair.cc:";
    if (line.rfind(from, 0) != 0) continue;
    size_t end = line.find("] ");
    if (end != std::string::npos) line = line.substr(end + 2);
    // The same warning for each record of a log is one line, counted.
    if (!repair.warnings.empty() && repair.warnings.back().text == line) {
      ++repair.warnings.back().times;
    } else {
      repair.warnings.push_back({line, 1});
    }
  }
  return repair;
}

bool IsLostTableFile(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".sst") == 0;
}

}  // namespace ddb::engine
