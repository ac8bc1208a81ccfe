// ClientTokens: the idempotency of TransactWriteItems. A ClientRequestToken
// is remembered with the request's fingerprint for a while after the
// request commits, so a retry of the same request writes nothing again.
// In memory only, as a restart is far longer than a client's retries.
//
// Thread safety: safe for concurrent use.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "engine/clock.h"
#include "engine/mutex.h"
#include "engine/thread_annotations.h"

namespace ddb::engine {

// What a ClientRequestToken says about a request.
enum class TokenCheck {
  kNew,         // first use: reserved for this request
  kRepeat,      // the same request already committed
  kInProgress,  // the same request is still running
  kMismatch,    // the token was used for another request
};

class ClientTokens {
 public:
  explicit ClientTokens(const Clock& clock) : clock_(clock) {}

  // Reserves a new `token` (in `ns`) for the request with this `fingerprint`.
  TokenCheck Check(std::string_view ns, std::string_view token, std::string_view fingerprint,
                   int64_t lifetime_millis) EXCLUDES(mu_);
  // Keeps the token for `lifetime_millis` after a commit, or forgets it
  // after a failure (a failed request may be retried as new).
  void Finish(std::string_view ns, std::string_view token, bool committed,
              int64_t lifetime_millis) EXCLUDES(mu_);
  void Clear() EXCLUDES(mu_);

 private:
  struct Entry {
    std::string fingerprint;
    int64_t expires = 0;  // millis
    bool done = false;    // false while the request runs
  };

  const Clock& clock_;
  Mutex mu_;
  // ns 0x00 token -> its request.
  std::map<std::string, Entry, std::less<>> tokens_ GUARDED_BY(mu_);
};

}  // namespace ddb::engine
