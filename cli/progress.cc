#include "cli/progress.h"

#include <cmath>
#include <cstdio>

namespace ddb::cli {
namespace {

std::string Duration(double seconds) {
  auto whole = static_cast<uint64_t>(std::llround(seconds));
  if (whole < 60) return std::to_string(whole) + " s";
  char text[32];
  if (whole < 3600) {
    std::snprintf(text, sizeof(text), "%llu:%02llu", static_cast<unsigned long long>(whole / 60),
                  static_cast<unsigned long long>(whole % 60));
  } else {
    std::snprintf(text, sizeof(text), "%llu:%02llu:%02llu",
                  static_cast<unsigned long long>(whole / 3600),
                  static_cast<unsigned long long>(whole / 60 % 60),
                  static_cast<unsigned long long>(whole % 60));
  }
  return text;
}

uint64_t Rate(uint64_t items, double seconds) {
  return seconds > 0 ? static_cast<uint64_t>(static_cast<double>(items) / seconds) : 0;
}

}  // namespace

std::string GroupThousands(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

std::string FormatProgress(const std::string& label, uint64_t items, double elapsed_seconds,
                           double fraction) {
  std::string text = label + ": " + GroupThousands(items) + " items, " +
                     GroupThousands(Rate(items, elapsed_seconds)) + " items/s";
  if (fraction >= 0) {
    fraction = std::min(fraction, 1.0);
    text += ", " + std::to_string(static_cast<int>(fraction * 100)) + "%";
    if (fraction > 0) {
      text += ", about " + Duration(elapsed_seconds * (1 - fraction) / fraction) + " left";
    }
  }
  return text;
}

ProgressReporter::ProgressReporter(std::string label, std::ostream& out, bool enabled,
                                   bool terminal)
    : label_(std::move(label)), out_(out), enabled_(enabled), terminal_(terminal) {}

double ProgressReporter::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void ProgressReporter::Update(uint64_t items, double fraction) {
  if (!enabled_) return;
  auto now = Clock::now();
  if (now - last_report_ < std::chrono::seconds(1)) return;
  last_report_ = now;
  std::string line = FormatProgress(label_, items, elapsed_seconds(), fraction);
  if (terminal_) {
    out_ << "\r" << line << "\033[K" << std::flush;
  } else {
    out_ << line << "\n" << std::flush;
  }
  reported_ = true;
}

void ProgressReporter::Finish(uint64_t items) {
  double seconds = elapsed_seconds();
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.1f s", seconds);
  if (terminal_ && reported_) out_ << "\r\033[K";
  out_ << label_ << ": " << GroupThousands(items) << " items in " << elapsed << " ("
       << GroupThousands(Rate(items, seconds)) << " items/s)\n"
       << std::flush;
}

}  // namespace ddb::cli
