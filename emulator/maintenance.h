// The background maintenance of a running server: at a fixed interval (the
// server's --ttl-interval) it deletes the expired TTL items
// (engine::Housekeeping::SweepExpired) and rolls and trims the streams' shards
// (Housekeeping::MaintainStreams), on a thread of its own. The admin API's
// POST /_localdynamo/sweep runs the same work on demand (emulator/admin.h).
//
// Thread safety: the constructor starts the thread, the destructor stops
// and joins it; nothing else is called on it.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/engine.h"

namespace ddb::emulator {

class Maintenance {
 public:
  // Runs every `interval_seconds` until destroyed; not at all when it is
  // not positive. `db` must outlive the Maintenance.
  Maintenance(engine::Engine& engine, double interval_seconds);
  ~Maintenance();

  Maintenance(const Maintenance&) = delete;
  Maintenance& operator=(const Maintenance&) = delete;

 private:
  engine::Engine& engine_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace ddb::emulator
