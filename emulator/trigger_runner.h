// One stream trigger at work: a thread that follows its table's current
// stream from the trigger's checkpoint on, in sequence order (so in order
// per shard, and shards in lineage order), drops the records its filters
// reject, and hands batches of the rest, in Lambda's event shape
// ({"Records": […]}), to the transport. A failed delivery is retried with
// backoff and holds back the records after it; after MaximumRetryAttempts
// the batch goes to the OnFailure file and the trigger moves on. The
// checkpoint is written to the database only after a batch is delivered (or
// given up), so a restart resumes where it stopped: delivery is at least
// once.
//
// Thread safety: Describe and RequestStop may be called from any thread
// while the trigger runs.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "emulator/trigger_spec.h"
#include "emulator/trigger_transport.h"
#include "engine/engine.h"

namespace ddb::emulator {

class TriggerRunner {
 public:
  using Log = std::function<void(const std::string& line)>;

  // Starts the trigger's thread. `db`, `transport` and `log` must outlive
  // the runner.
  TriggerRunner(TriggerSpec spec, engine::Engine& engine, TriggerTransport& transport,
                const Log& log);
  // Stops the trigger (RequestStop) and waits for its thread.
  ~TriggerRunner();

  TriggerRunner(const TriggerRunner&) = delete;
  TriggerRunner& operator=(const TriggerRunner&) = delete;

  // Tells the thread to stop, without waiting: a wait ends at once and a
  // delivery in progress gives up (its batch stays after the checkpoint).
  void RequestStop();

  const TriggerSpec& spec() const { return spec_; }

  // The definition with the trigger's state, position, lag against the
  // stream as it is now, delivery counts and last error, as a JSON object.
  std::string Describe() const;

 private:
  void Run();
  // Delivers one batch with retries; false if stopped meanwhile.
  bool DeliverWithRetries(const std::string& body, size_t count, uint64_t first, uint64_t last);
  void WriteFailure(const std::string& body, const std::string& error, int attempts,
                    uint64_t first, uint64_t last);
  // Sleeps up to `duration`; false if the trigger was stopped.
  bool Wait(std::chrono::milliseconds duration);
  bool stopped() const;
  void SetState(std::string state);

  const TriggerSpec spec_;
  engine::Engine& engine_;
  TriggerTransport& transport_;
  const Log& log_;

  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;  // guarded by mu_
  // Set with `stop_`; a delivery in progress gives up when it sees it.
  std::atomic<bool> cancel_{false};
  // Guarded by mu_: what the admin API shows.
  std::string label_;
  uint64_t position_ = 0;
  uint64_t next_sequence_ = 0;
  uint64_t batches_ = 0, records_ = 0, failures_ = 0, given_up_ = 0;
  std::string last_error_;
  std::string state_ = "starting";

  std::thread thread_;  // last: started once everything above is set up
};

}  // namespace ddb::emulator
