// Reading every key under a table's or an index's prefix past the damaged
// blocks among them: a block whose checksum fails stops a RocksDB
// iterator for good, and a check that stopped there would count every key
// after it as lost when most are readable (a flipped byte costs one 4 KB
// block, not its file).
//
// Both layouts put the partition hash (8 bytes, big-endian) right after
// the prefix (key_codec.h, secondary_index.h), so past a damaged block the
// scan looks for the smallest hash whose seek reads again (a binary
// search, about 64 seeks a block) and resumes there. It skips the keys of
// the damaged block, and those of a partition that straddles its end.
//
// Thread safety: reads a store nobody writes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/storage/store_check.h"

namespace ddb::engine {

// Partition hashes from `first` to `last`, both included.
struct HashRange {
  uint64_t first = 0;
  uint64_t last = 0;
  bool Holds(uint64_t hash) const { return first <= hash && hash <= last; }
};

struct ScanOutcome {
  // The reads that failed, one per damaged stretch skipped; empty: every
  // key under the prefix was read.
  std::vector<Status> errors;
  // The hashes whose keys may have been skipped, one range per error: any
  // key unread lies in one of them.
  std::vector<HashRange> skipped;
};

// The partition hash of `key`, a key under a prefix of `prefix_size`
// bytes; 0 when it is too short to have one.
uint64_t PartitionHashOf(std::string_view key, size_t prefix_size);

// Calls `visit` with every readable key under `prefix` in `family`, in
// key order.
ScanOutcome ScanPastDamage(const ReadOnlyStore& store, Family family, const std::string& prefix,
                           const std::function<void(std::string_view key,
                                                    std::string_view value)>& visit);

}  // namespace ddb::engine
