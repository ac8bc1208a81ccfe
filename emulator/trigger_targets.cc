#include "emulator/trigger_targets.h"

#include <algorithm>

#include "emulator/host_names.h"

namespace ddb::emulator {

TriggerTargets::TriggerTargets(std::vector<std::string> hosts) {
  for (const auto& list : hosts) {
    for (const auto& host : SplitList(list)) {
      if (host == "*") any_ = true;
      hosts_.push_back(Lowercase(HostOf(host)));
    }
  }
}

bool TriggerTargets::Listed(std::string_view host) const {
  return any_ || std::find(hosts_.begin(), hosts_.end(), Lowercase(host)) != hosts_.end();
}

std::optional<std::string> TriggerTargets::Refusal(std::string_view url) const {
  std::string_view host = HostOf(AuthorityOf(url));
  if (host.empty()) return "the Url names no host: " + std::string(url);
  if (IsLoopbackName(host) || Listed(host)) return std::nullopt;
  return "Url " + std::string(url) + " is not on this machine: triggers may target loopback "
         "only, unless the server is started with --trigger-hosts " + std::string(host) +
         " (docs/security.md)";
}

}  // namespace ddb::emulator
