// How a stream trigger hands a batch to its target. The emulator knows no
// HTTP: the server implements this (server/trigger_transport.h) with an
// HTTP POST or a local command, and tests with a fake.
//
// Thread safety: Deliver may be called concurrently (by several triggers).
#pragma once

#include <atomic>
#include <string>

namespace ddb::emulator {

struct DeliveryOutcome {
  bool ok = false;
  std::string error;  // why not, when !ok
};

class TriggerTransport {
 public:
  virtual ~TriggerTransport() = default;
  // POSTs `body` to `url` when it is set, else runs `command` with `body`
  // on standard input; gives up after `timeout_seconds`. ok means a 2xx
  // answer or exit status 0.
  // Gives up soon after `cancel` becomes true (the trigger is stopping).
  virtual DeliveryOutcome Deliver(const std::string& url, const std::string& command,
                                  const std::string& body, int timeout_seconds,
                                  const std::atomic<bool>& cancel) = 0;
};

}  // namespace ddb::emulator
