#include "engine/integrity/scan_past_damage.h"

#include <cstdint>
#include <limits>
#include <optional>

#include "engine/coding.h"
#include "engine/key_codec.h"

namespace ddb::engine {
namespace {

constexpr size_t kHashSize = 8;

std::string Target(const std::string& prefix, uint64_t hash) {
  std::string target = prefix;
  coding::PutFixed64BE(&target, hash);
  return target;
}

}  // namespace

uint64_t PartitionHashOf(std::string_view key, size_t prefix_size) {
  if (key.size() < prefix_size + kHashSize) return 0;
  return coding::DecodeFixed64BE(key.substr(prefix_size, kHashSize));
}

ScanOutcome ScanPastDamage(const ReadOnlyStore& store, Family family, const std::string& prefix,
                           const std::function<void(std::string_view key,
                                                    std::string_view value)>& visit) {
  ScanOutcome outcome;
  const std::string end = PrefixSuccessor(prefix);
  auto it = store.NewIterator(family, prefix, end);
  // Whether a seek to `hash` reads (to a key, or to the end); `it` is left
  // there. A fresh iterator each time: one that met an error, or that
  // reseeks near where it is, answers from what it read before.
  auto reads_at = [&](uint64_t hash) {
    it = store.NewIterator(family, prefix, end);
    it->Seek(Target(prefix, hash));
    return it->status().ok();
  };
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  // The hash of the last key read, or where the scan last resumed: the
  // next damage lies past it.
  std::optional<uint64_t> position;
  it->SeekToFirst();
  while (true) {
    for (; it->Valid(); it->Next()) {
      position = PartitionHashOf(it->key(), prefix.size());
      visit(it->key(), it->value());
    }
    if (it->status().ok()) break;
    outcome.errors.push_back(it->status());
    // The rest of the partition at `position` may be unread too: the
    // stretch skipped starts there, and the scan resumes past it.
    const uint64_t from = position.value_or(0);
    if (position && *position == kMax) {
      outcome.skipped.push_back({from, kMax});
      break;
    }
    uint64_t low = position ? *position + 1 : 0;
    uint64_t resume = low;
    if (!reads_at(low)) {
      if (!reads_at(kMax)) {  // the rest is damaged
        outcome.skipped.push_back({from, kMax});
        break;
      }
      // reads_at(low) fails and reads_at(kMax) reads: find the first that reads.
      uint64_t high = kMax;
      while (high - low > 1) {
        uint64_t middle = low + (high - low) / 2;
        (reads_at(middle) ? high : low) = middle;
      }
      reads_at(high);
      resume = high;
    }
    outcome.skipped.push_back({from, resume - (resume > from ? 1 : 0)});
    position = resume;
  }
  return outcome;
}

}  // namespace ddb::engine
