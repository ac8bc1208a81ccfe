// Progress of a long data command on stderr: items so far, the rate, the
// share done and the time left, at most once a second, then a summary line.
// On a terminal each report overwrites the last; otherwise (a CI log) each
// is its own line.
//
// Thread safety: one reporter per thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace ddb::cli {

// "1,234,567"
std::string GroupThousands(uint64_t n);

// "import Music: 250,000 items, 98,765 items/s, 42%, about 7 s left".
// `fraction` is the share done, or negative when unknown (then no share
// and no time left are shown).
std::string FormatProgress(const std::string& label, uint64_t items, double elapsed_seconds,
                           double fraction);

class ProgressReporter {
 public:
  ProgressReporter(std::string label, std::ostream& out, bool enabled, bool terminal);

  // Reports if a second has passed since the last report.
  void Update(uint64_t items, double fraction);
  // The summary: "import Music: 1,000,000 items in 9.8 s (102,040 items/s)".
  void Finish(uint64_t items);
  double elapsed_seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::string label_;
  std::ostream& out_;
  bool enabled_;
  bool terminal_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_report_ = start_;
  bool reported_ = false;
};

}  // namespace ddb::cli
