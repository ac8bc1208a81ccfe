#include "cli/offline_database.h"

#include <filesystem>

#include "api/database_scope.h"
#include "api/dispatch.h"
#include "cli/data_transfer.h"

namespace ddb::cli {

std::unique_ptr<OfflineDatabase> OfflineDatabase::Open(const OfflineTarget& target, Mode mode,
                                                       std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (mode == Mode::kExisting && !fs::exists(fs::path(target.data_dir) / "CURRENT", ec)) {
    *error = "no database in " + target.data_dir +
             " (pass --data-dir, the directory the server was started with)";
    return nullptr;
  }
  fs::create_directories(target.data_dir, ec);
  std::unique_ptr<OfflineDatabase> offline(new OfflineDatabase());
  engine::DatabaseOptions options;
  options.data_dir = target.data_dir;
  options.write_ahead_log = mode != Mode::kBulkLoad;
  auto engine = engine::Engine::Open(options, offline->clock_);
  if (!engine.ok()) {
    const std::string& message = engine.status().message();
    if (message.find("lock") != std::string::npos || message.find("LOCK") != std::string::npos) {
      *error = "the data directory " + target.data_dir +
               " is in use by another process, most likely a localdynamo server running on "
               "it; stop that server first (RocksDB allows one process per directory)";
    } else {
      *error = message;
    }
    return nullptr;
  }
  offline->engine_ = std::move(engine).value();
  offline->caller_.region = target.region;
  api::DatabaseScope scope = !target.access_key.empty() ? api::DatabaseScope::kPerKeyAndRegion
                             : target.shared_db         ? api::DatabaseScope::kShared
                                                        : api::DatabaseScope::kPerRegion;
  offline->caller_.ns = api::NamespaceOf(scope, target.access_key, target.region);
  offline->caller_.scope = scope;
  offline->caller_.access_key = target.access_key;
  return offline;
}

OfflineDatabase::~OfflineDatabase() = default;

CallResult OfflineDatabase::Call(std::string_view operation, std::string_view body) {
  std::string target = "DynamoDB_20120810." + std::string(operation);
  api::Response response = api::Dispatch(*engine_, caller_, target, body);
  if (response.http_status == 200) return {true, std::move(response.body), "", ""};
  return {false, "", DescribeErrorBody(response.body), ErrorTypeOfBody(response.body)};
}

bool OfflineDatabase::ResolveTables(const std::vector<std::string>& requested,
                                    std::vector<std::string>* tables, std::string* error) {
  for (const std::string& table : requested) {
    CallResult described = Call("DescribeTable", TableNameBody(table));
    if (!described.ok) {
      *error = "table " + table + ": " + described.error;
      return false;
    }
  }
  if (!requested.empty()) {
    *tables = requested;
    return true;
  }
  std::string start;
  do {
    CallResult listed = Call("ListTables", ListTablesBody(start));
    auto page = listed.ok ? ParseListTables(listed.body)
                          : api::ApiResult<TableNamesPage>(api::ApiError::Internal(listed.error));
    if (!page.ok()) {
      *error = "ListTables: " + page.error().message;
      return false;
    }
    tables->insert(tables->end(), page->names.begin(), page->names.end());
    start = page->last_evaluated_table_name;
  } while (!start.empty());
  return true;
}

}  // namespace ddb::cli
