// The replicator: the thread that keeps global tables' replicas in step
// (engine/replication/replication.h). It applies each replication feed's records once
// their delay has passed on the emulator's clock — by default about a
// second, as DynamoDB's "typically within a second", settable for the
// server and per table, zero for at once — and, frozen with the clock,
// holds them until the clock moves or a test settles them.
//
// The admin API (emulator/admin.h) shows each member's backlog, sets the
// delays and settles (engine::Replication::Settle: everything pending at once).
//
// Thread safety: safe for concurrent use; the constructor starts the
// thread, the destructor stops and joins it.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "engine/engine.h"

namespace ddb::emulator {

class Replicator {
 public:
  // `db` must outlive the Replicator.
  Replicator(engine::Engine& engine, int64_t delay_millis);
  ~Replicator();
  Replicator(const Replicator&) = delete;
  Replicator& operator=(const Replicator&) = delete;

  int64_t delay_millis() const;
  void set_delay_millis(int64_t millis);
  // A table's own delay (in `ns`), or none to follow the server's.
  void SetTableDelay(const std::string& ns, const std::string& table,
                     std::optional<int64_t> millis);
  std::optional<int64_t> TableDelay(const std::string& ns, const std::string& table) const;
  // The delay the replicator waits for a member's records.
  int64_t DelayOf(std::string_view ns, std::string_view table) const;

 private:
  void Run();

  engine::Engine& engine_;
  mutable std::mutex mu_;
  int64_t delay_millis_;  // guarded by mu_
  std::map<std::pair<std::string, std::string>, int64_t, std::less<>> table_delays_;  // by mu_
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;  // guarded by stop_mu_
  std::thread thread_;     // last: started once the rest is made
};

}  // namespace ddb::emulator
