// How local stream triggers reach their targets: an HTTP POST (so a function
// running in the AWS Lambda Runtime Interface Emulator, or any local web
// server, receives the event as Lambda would send it) or a local command
// that reads the event on standard input.
//
// Thread safety: Deliver may be called concurrently (each call has its own
// I/O context or child process).
#pragma once

#include "emulator/trigger_transport.h"

namespace ddb::server {

class TriggerTransport final : public emulator::TriggerTransport {
 public:
  emulator::DeliveryOutcome Deliver(const std::string& url, const std::string& command,
                                    const std::string& body, int timeout_seconds,
                                    const std::atomic<bool>& cancel) override;
};

}  // namespace ddb::server
