// How local stream triggers reach their targets: an HTTP POST (so a function
// running in the AWS Lambda Runtime Interface Emulator, or any local web
// server, receives the event as Lambda would send it) or a local command
// that reads the event on standard input.
//
// An HTTP target gets a POST and nothing more: it must be listed by
// emulator::TriggerTargets (a name not listed must resolve to loopback, so
// a DNS answer cannot move it), redirects are not followed, connecting has
// its own shorter deadline, and the answer read is bounded.
//
// Thread safety: Deliver may be called concurrently (each call has its own
// I/O context or child process).
#pragma once

#include "emulator/trigger_targets.h"
#include "emulator/trigger_transport.h"

namespace ddb::server {

class TriggerTransport final : public emulator::TriggerTransport {
 public:
  explicit TriggerTransport(emulator::TriggerTargets targets = emulator::TriggerTargets())
      : targets_(std::move(targets)) {}
  emulator::DeliveryOutcome Deliver(const std::string& url, const std::string& command,
                                    const std::string& body, int timeout_seconds,
                                    const std::atomic<bool>& cancel) override;

 private:
  const emulator::TriggerTargets targets_;
};

}  // namespace ddb::server
