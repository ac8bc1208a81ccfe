#include "emulator/maintenance.h"

#include <chrono>
#include <cstdint>
#include <iostream>

namespace ddb::emulator {

Maintenance::Maintenance(engine::Engine& engine, double interval_seconds) : engine_(engine) {
  if (interval_seconds <= 0) return;
  auto interval = std::chrono::milliseconds(static_cast<int64_t>(interval_seconds * 1000));
  thread_ = std::thread([this, interval] {
    std::unique_lock lock(mu_);
    while (!wake_.wait_for(lock, interval, [this] { return stopping_; })) {
      lock.unlock();
      auto swept = engine_.housekeeping().SweepExpired();
      if (!swept.ok()) std::cerr << "localdynamo: TTL sweep: " << swept.status().message() << "\n";
      auto maintained = engine_.housekeeping().MaintainStreams();
      if (!maintained.ok()) std::cerr << "localdynamo: streams: " << maintained.message() << "\n";
      auto trimmed = engine_.housekeeping().TrimHistory();
      if (!trimmed.ok()) std::cerr << "localdynamo: recovery history: " << trimmed.message() << "\n";
      lock.lock();
    }
  });
}

Maintenance::~Maintenance() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace ddb::emulator
