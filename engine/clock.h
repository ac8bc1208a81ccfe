// Clock: the engine's only source of time, injected so tests can drive it.
//
// Thread safety: SystemClock is stateless; FakeClock is safe for concurrent
// use (an atomic).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace ddb::engine {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch.
  virtual int64_t NowMillis() const = 0;
};

class SystemClock final : public Clock {
 public:
  int64_t NowMillis() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

class FakeClock final : public Clock {
 public:
  explicit FakeClock(int64_t start_millis = 1'700'000'000'000) : now_(start_millis) {}
  int64_t NowMillis() const override { return now_.load(); }
  void Advance(int64_t millis) { now_ += millis; }

 private:
  std::atomic<int64_t> now_;
};

}  // namespace ddb::engine
