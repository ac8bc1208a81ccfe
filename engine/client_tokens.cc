#include "engine/client_tokens.h"

namespace ddb::engine {
namespace {

std::string TokenKey(std::string_view ns, std::string_view token) {
  return std::string(ns) + '\0' + std::string(token);
}

}  // namespace

TokenCheck ClientTokens::Check(std::string_view ns, std::string_view token,
                               std::string_view fingerprint, int64_t lifetime_millis) {
  MutexLock lock(mu_);
  int64_t now = clock_.NowMillis();
  std::erase_if(tokens_, [&](const auto& entry) { return entry.second.expires <= now; });
  std::string key = TokenKey(ns, token);
  auto it = tokens_.find(key);
  if (it == tokens_.end()) {
    // Reserved now, so that a retry arriving before this request finishes
    // does not run it a second time.
    tokens_.emplace(std::move(key),
                    Entry{std::string(fingerprint), now + lifetime_millis, /*done=*/false});
    return TokenCheck::kNew;
  }
  if (it->second.fingerprint != fingerprint) return TokenCheck::kMismatch;
  return it->second.done ? TokenCheck::kRepeat : TokenCheck::kInProgress;
}

void ClientTokens::Finish(std::string_view ns, std::string_view token, bool committed,
                          int64_t lifetime_millis) {
  MutexLock lock(mu_);
  auto it = tokens_.find(TokenKey(ns, token));
  if (it == tokens_.end()) return;
  if (!committed) {
    tokens_.erase(it);
    return;
  }
  // The window runs from the request's completion.
  it->second.done = true;
  it->second.expires = clock_.NowMillis() + lifetime_millis;
}

void ClientTokens::Clear() {
  MutexLock lock(mu_);
  tokens_.clear();
}

}  // namespace ddb::engine
