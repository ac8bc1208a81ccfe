// The database as the offline data commands (export, import, dump-models)
// see it: the data directory opened directly, without a server, and every
// request sent through api::Dispatch, so it is validated and answered
// exactly as a client's would be.
//
// RocksDB locks the directory: while a server runs on it, Open fails and
// says so.
//
// Thread safety: Call is safe from several threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/context.h"
#include "engine/clock.h"
#include "engine/engine.h"

namespace ddb::cli {

struct OfflineTarget {
  std::string data_dir = "./localdynamo-data";
  std::string region = "us-east-1";
  // The server's --shared-db: one database, whatever the region.
  bool shared_db = false;
  // With the server's --per-key-databases: the access key whose database
  // to use (empty: the region's, api/database_scope.h).
  std::string access_key;
};

struct CallResult {
  bool ok = false;
  std::string body;        // the answer, when ok
  std::string error;       // "<ErrorType>: <message>", when not
  std::string error_type;  // "<ErrorType>" alone, when not
};

class OfflineDatabase {
 public:
  enum class Mode {
    kExisting,  // the directory must hold a database already
    kBulkLoad,  // created if missing; writes skip the write-ahead log and
                // are flushed at close (a crash mid-way: run it again)
  };

  // Returns nullptr and sets `*error` to a sentence for the user if the
  // directory cannot be opened (in use by a server, missing, corrupt).
  static std::unique_ptr<OfflineDatabase> Open(const OfflineTarget& target, Mode mode,
                                               std::string* error);
  ~OfflineDatabase();

  // Sends "DynamoDB_20120810.<operation>" with `body`.
  CallResult Call(std::string_view operation, std::string_view body);

  // The tables to work on: `requested` after checking each exists, or every
  // table when it is empty. False and `*error` set otherwise.
  bool ResolveTables(const std::vector<std::string>& requested, std::vector<std::string>* tables,
                     std::string* error);

  // The open database, its clock and the caller every Call uses: for a
  // command that also drives the emulator's own controls in-process (the
  // admin API's handler, as `localdynamo mcp --data-dir` does).
  engine::Engine& engine() { return *engine_; }
  engine::ShiftableClock& clock() { return clock_; }
  const api::Caller& caller() const { return caller_; }

 private:
  OfflineDatabase() = default;
  // The system's time until a caller moves it (the admin API's clock).
  engine::ShiftableClock clock_;
  std::unique_ptr<engine::Engine> engine_;
  api::Caller caller_;
};

}  // namespace ddb::cli
