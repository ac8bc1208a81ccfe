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
// Each record is tallied as it comes, while it is still in the cache. A
// request that repeats its thread's last one (one table, same operation and
// shape: most of a test run) is only added to a few counts beside the
// memo of where that last one was tallied (TallyMemo::repeated), which
// stay in the cache from request to request; they are added into the
// tallies themselves when the thread's next request differs, its second
// ends, or a reader asks. Adding each request into the five objects its
// counts belong to touched as many cold cache lines; tallying records in
// batches, as before, saved that but found each record cold instead, and
// came out level timed (docs/measured.md).
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

// The counts of the requests that repeated a shard's last one, not yet
// added to the tallies its memo points at.
struct RepeatedCounts {
  int64_t second = 0;  // the second they were answered in (Unix time)
  uint64_t requests = 0;
  double read_units = 0;
  double write_units = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  uint64_t items_read = 0;
  uint64_t items_returned = 0;
};

// What a shard's last tallied request found in its tallies: most requests
// name the database, table, operation and shape the one before did, and
// finding each again in the maps compares strings, the larger part of a
// tally's cost. The maps' entries stay where they are until a Reset, which
// forgets the memo. The shape's parts are copied here so that a repeat is
// recognised from this object alone.
struct TallyMemo {
  std::string ns;
  std::map<std::string, TableTally, std::less<>>* tables = nullptr;  // of ns; null: none yet
  std::string table;
  TableTally* tally = nullptr;
  ResourceTally* table_resource = nullptr;  // the tally's "" resource
  std::string_view operation;          // a name as long-lived as the records'
  uint64_t* table_requests = nullptr;  // table_resource's count of `operation`
  ShapeTally* shape = nullptr;         // the tally's last shape
  // `shape`'s parts, as its request named them; no operation for a shape
  // on an index, which AddRepeated does not take.
  std::string_view shape_operation;
  std::string shape_key_condition;
  std::string shape_filter;
  std::string shape_projection;
  RepeatedCounts repeated;  // into table_resource, table_requests, shape and tally's timeline
};

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
    engine::Mutex mu;
    ProfileTallies tallies GUARDED_BY(mu);
    TallyMemo memo GUARDED_BY(mu);
  };
  Shard& ShardOfThisThread() const;

  // Mutable: reading the tallies first adds the repeated counts into them.
  mutable std::array<Shard, kShards> shards_;
  std::atomic<int64_t> since_millis_;
};

}  // namespace ddb::emulator
