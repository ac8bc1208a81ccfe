#include "emulator/replicator.h"

#include <chrono>
#include <iostream>

namespace ddb::emulator {
namespace {

// How often the feeds are looked at: a record is applied within this of
// falling due on a clock that moved. While global tables exist, a write
// wakes the thread at once (records due now are applied without waiting);
// otherwise it only ticks, so writes to regional tables never wake it.
constexpr int64_t kPollMillis = 10;

}  // namespace

Replicator::Replicator(engine::Engine& engine, int64_t delay_millis)
    : engine_(engine), delay_millis_(delay_millis), thread_([this] { Run(); }) {}

Replicator::~Replicator() {
  {
    std::lock_guard lock(stop_mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int64_t Replicator::delay_millis() const {
  std::lock_guard lock(mu_);
  return delay_millis_;
}

void Replicator::set_delay_millis(int64_t millis) {
  std::lock_guard lock(mu_);
  delay_millis_ = millis;
}

void Replicator::SetTableDelay(const std::string& ns, const std::string& table,
                               std::optional<int64_t> millis) {
  std::lock_guard lock(mu_);
  if (millis) {
    table_delays_[{ns, table}] = *millis;
  } else {
    table_delays_.erase({ns, table});
  }
}

std::optional<int64_t> Replicator::TableDelay(const std::string& ns,
                                              const std::string& table) const {
  std::lock_guard lock(mu_);
  auto it = table_delays_.find(std::pair(ns, table));
  if (it == table_delays_.end()) return std::nullopt;
  return it->second;
}

int64_t Replicator::DelayOf(std::string_view ns, std::string_view table) const {
  std::lock_guard lock(mu_);
  auto it = table_delays_.find(std::pair(std::string(ns), std::string(table)));
  return it == table_delays_.end() ? delay_millis_ : it->second;
}

void Replicator::Run() {
  std::unique_lock lock(stop_mu_);
  while (!stopping_) {
    lock.unlock();
    uint64_t seen = engine_.streams().Writes();
    auto applied = engine_.replication().Replicate(
        [this](std::string_view ns, std::string_view table) { return DelayOf(ns, table); });
    if (!applied.ok()) {
      std::cerr << "localdynamo: replication: " << applied.status().message() << "\n";
    }
    bool global = engine_.replication().HasFeeds();
    if (global) engine_.streams().WaitForWrites(seen, kPollMillis);
    lock.lock();
    if (!global) stop_cv_.wait_for(lock, std::chrono::milliseconds(kPollMillis));
  }
}

}  // namespace ddb::emulator
