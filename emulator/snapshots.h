// Named snapshots: the whole database (every namespace) or one access key's
// database saved under a name, in the server's memory, and restored in one
// batch (engine/backups/snapshot.h) — fast enough to restore before every test. A
// one-database snapshot may be restored into another database: a suite
// seeds one, saves it, and restores it into every worker's.
//
// The admin API's JSON (emulator/admin.h has the paths):
//   Save     {"Name": n}                  the whole database
//            {"Name": n, "Namespace": ns} one database ("" is the shared one)
//            -> {"Name", "Namespace"?, "Tables", "Items", "Bytes", "Millis"}
//   Restore  {} | {"Namespace": ns}       into where it came from | into ns
//            -> {"Name", "Namespace"?, "Tables", "Items", "Millis"}
//   List     -> {"Snapshots": [{"Name", "Namespace"?, "Tables", "Items",
//                "Bytes", "CreatedMillis"}…]} by name
//   Delete   -> {"Name"}
// Saving under a name that is taken replaces that snapshot. Snapshots are
// gone when the server stops (a data directory keeps only the live tables).
//
// Thread safety: every method may be called concurrently.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "api/errors.h"
#include "emulator/models.h"
#include "engine/backups/snapshot.h"
#include "engine/clock.h"
#include "engine/engine.h"

namespace ddb::emulator {

class Snapshots {
 public:
  Snapshots(engine::Engine& engine, Preloader& preloader, const engine::Clock& clock)
      : engine_(engine), preloader_(preloader), clock_(clock) {}

  api::ApiResult<std::string> Save(std::string_view body);
  api::ApiResult<std::string> Restore(std::string_view name, std::string_view body);
  std::string ListJson() const;
  api::ApiResult<std::string> Delete(std::string_view name);

 private:
  struct Saved {
    std::shared_ptr<const engine::DataSnapshot> data;
    // For a whole-database snapshot: the databases that had their models
    // then (Preloader::Loaded), so a restore loads none on top.
    std::set<std::string, std::less<>> loaded;
    int64_t created_millis = 0;
  };

  engine::Engine& engine_;
  Preloader& preloader_;
  const engine::Clock& clock_;
  mutable std::mutex mu_;  // guards saved_ (not the restores themselves)
  std::map<std::string, std::shared_ptr<const Saved>, std::less<>> saved_;
};

}  // namespace ddb::emulator
