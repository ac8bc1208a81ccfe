// Clock: the engine's only source of time, injected so tests can drive it.
//
// Thread safety: SystemClock is stateless; FakeClock and ShiftableClock are
// safe for concurrent use (atomics).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

namespace ddb::engine {

// `epoch_millis` as ISO 8601 UTC with milliseconds and no zone letter,
// "2026-11-26T07:44:26.123": a stream label's form, and the admin clock's
// before its "Z".
inline std::string IsoMillis(int64_t epoch_millis) {
  std::time_t seconds = epoch_millis / 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03d", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(epoch_millis % 1000));
  return buf;
}

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
  void Set(int64_t millis) { now_ = millis; }

 private:
  std::atomic<int64_t> now_;
};

// The server's clock: the system's time plus an offset that the admin API
// moves, so that a test can make an hour pass (TTL expiry, stream trimming,
// iterator expiry) without waiting for it. Frozen, it stands still until
// moved, so that a test that counts per-second capacity (the emulator's
// throttle) is exact however slowly it runs.
class ShiftableClock final : public Clock {
 public:
  int64_t NowMillis() const override { return Base() + offset_.load(); }
  // Moves "now" by `millis` (may be negative).
  void Advance(int64_t millis) { offset_ += millis; }
  // Makes "now" `epoch_millis`; time then runs on (or stands, frozen) from there.
  void Set(int64_t epoch_millis) { offset_ = epoch_millis - Base(); }
  // Back to the system's time, running.
  void Reset() {
    frozen_at_ = -1;
    offset_ = 0;
  }
  // Stops time at "now" (only Advance and Set move it), or lets it run on
  // from where it stands.
  void Freeze(bool frozen) {
    int64_t now = NowMillis();
    frozen_at_ = frozen ? base_.NowMillis() : -1;
    offset_ = now - Base();
  }
  bool frozen() const { return frozen_at_.load() >= 0; }
  int64_t offset_millis() const { return offset_.load(); }

 private:
  int64_t Base() const {
    int64_t frozen_at = frozen_at_.load();
    return frozen_at >= 0 ? frozen_at : base_.NowMillis();
  }
  SystemClock base_;
  std::atomic<int64_t> offset_{0};
  std::atomic<int64_t> frozen_at_{-1};  // the system time it stopped at; -1: running
};

}  // namespace ddb::engine
