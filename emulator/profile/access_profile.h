// AccessProfile: every successful DynamoDB request the server answered,
// added up per database, table and index (docs/profile.md): requests by
// operation, the read and write units DynamoDB would charge and the bytes
// behind them, items read against items returned, Scans and how much of
// the table each read, request shapes, hot partition keys and units per
// second. Kept in memory, from the server's start or the last reset.
//
// Memory is bounded: at most kMaxShapes shapes per table (later new ones
// are added to one "(other)" shape), kMaxKeys partition keys per table and
// index (later new keys are not counted, as a Contributor Insights rule
// reports only its top contributors) and kTimelineSeconds seconds of units.
//
// Thread safety: safe for concurrent use. Each thread adds to one of
// kShards shards (its own in practice: the server has one I/O thread per
// core), each under its own leaf lock, so the I/O threads never wait for
// each other here; reading merges the shards.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include "api/access_record.h"
#include "emulator/profile/key_counts.h"
#include "engine/mutex.h"

namespace ddb::emulator {

struct UnitsAndBytes {
  double read_units = 0;
  double write_units = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
};

// A table's or one of its indexes' tallies.
struct ResourceTally {
  std::map<std::string, uint64_t, std::less<>> requests;  // by operation
  UnitsAndBytes units;
  uint64_t items_read = 0;
  uint64_t items_returned = 0;
  uint64_t scans = 0;
  uint64_t scan_items_read = 0;
  double scan_fraction_sum = 0;
  double scan_fraction_max = 0;
  KeyCounts partition_keys;
};

struct ShapeTally {
  std::string operation;
  std::string index;
  std::string key_condition;
  std::string filter;
  std::string projection;
  uint64_t count = 0;
  double read_units = 0;
  double write_units = 0;
  uint64_t items_read = 0;
  uint64_t items_returned = 0;
};

struct SecondUnits {
  int64_t second = 0;  // Unix time
  double read_units = 0;
  double write_units = 0;
};

struct TableTally {
  std::map<std::string, ResourceTally, std::less<>> resources;  // "": the table; else an index
  // By a key of all the shape's parts: hashed, as comparing those long keys
  // in a tree cost more than the rest of a request's tally.
  std::unordered_map<std::string, ShapeTally> shapes;
  std::deque<SecondUnits> timeline;                // oldest first
};

// Database (namespace) -> table -> its tallies.
using ProfileTallies =
    std::map<std::string, std::map<std::string, TableTally, std::less<>>, std::less<>>;

class AccessProfile {
 public:
  static constexpr size_t kMaxShapes = 200;
  static constexpr size_t kMaxKeys = KeyCounts::kMax;
  static constexpr size_t kTimelineSeconds = 600;
  static constexpr size_t kShards = 8;

  AccessProfile();

  // Adds one request's record, answered at `unix_second`.
  void Add(std::string_view ns, const api::AccessRecord& record, int64_t unix_second);
  // A copy of the tallies: every database's, or `ns`'s alone.
  ProfileTallies Tallies(const std::string* ns = nullptr) const;
  // Starts afresh: every database, or `ns` alone.
  void Reset(const std::string* ns = nullptr);
  // When counting began (Unix millis): the start or the last whole reset.
  int64_t since_millis() const { return since_millis_.load(std::memory_order_relaxed); }

 private:
  // A cache line each: two I/O threads locking neighbouring shards on
  // every request would otherwise pass one line back and forth.
  struct alignas(64) Shard {
    mutable engine::Mutex mu;
    ProfileTallies tallies GUARDED_BY(mu);
    // Changed whenever tallies are removed (Reset), so that a thread's
    // pointers into them from an earlier request are known to be stale.
    uint64_t generation GUARDED_BY(mu);
  };
  Shard& ShardOfThisThread();

  std::array<Shard, kShards> shards_;
  std::atomic<int64_t> since_millis_;
};

}  // namespace ddb::emulator
