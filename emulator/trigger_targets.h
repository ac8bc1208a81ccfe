// Where HTTP triggers may send stream records: loopback, and the hosts the
// server was started with (--trigger-hosts). A trigger is a way to make the
// server send data and requests somewhere; without this rule, whoever can
// create one could aim it at any host the server can reach (SSRF from a
// CI network, or from a page in the developer's browser).
//
// Checked twice: by name when a trigger is created (a clear 400), and by
// address when it delivers (server/trigger_transport.cc), where a host not
// listed must resolve to loopback.
//
// Thread safety: immutable after construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ddb::emulator {

class TriggerTargets {
 public:
  // `hosts`: host names or addresses beyond loopback, each entry a
  // comma-separated list as --trigger-hosts takes it; "*" allows any host.
  explicit TriggerTargets(std::vector<std::string> hosts = {});

  // Why `url` may not be a trigger's target, or nullopt if it may.
  std::optional<std::string> Refusal(std::string_view url) const;
  // Whether `host` (no port) was listed: its addresses need not be loopback.
  bool Listed(std::string_view host) const;

 private:
  std::vector<std::string> hosts_;  // lowercased
  bool any_ = false;
};

}  // namespace ddb::emulator
