// The throttle (opt-in, --throttle or the admin API): provisioned tables and
// their global secondary indexes answer ProvisionedThroughputExceededException
// once reads or writes exceed their provisioned capacity, as DynamoDB does.
//
// Each table and GSI has a read and a write bucket of capacity units, filled
// at its provisioned units per second by the emulator's clock (the test
// clock: freeze it and move it, and the arithmetic is exact) and holding at
// most 300 seconds' worth: DynamoDB's burst capacity, kept from unused
// capacity over the last five minutes. A bucket first used starts as if it
// had been filling since its table was created, from one second's worth (a
// new table can use its capacity at once; an idle one has its burst). A request is admitted while its
// buckets hold more than zero units and is charged afterwards what it
// consumed — the ConsumedCapacity localdynamo reports, so the numbers are the
// same — which may take a bucket below zero, as a large read does in
// DynamoDB; a batch runs only as many of a table's requests as the buckets'
// Headroom holds, the rest left unprocessed (request_controls.cc). Writes
// need their table's write bucket and every GSI's: a GSI out
// of write capacity throttles writes to its table. Reads on a GSI use the
// index's read bucket; on a local index, the table's. The buckets read the
// current schema on every request, so UpdateTable takes effect at once.
// On-demand tables and GSIs are held to their OnDemandThroughput maximums
// (MaxReadRequestUnits, MaxWriteRequestUnits) the same way, without burst:
// ThrottlingException with reason …MaxOnDemandThroughputExceeded; without
// maximums they are never throttled.
//
// Thread safety: every member may be called concurrently.
#pragma once

#include <rapidjson/document.h>

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "api/context.h"
#include "api/errors.h"
#include "engine/clock.h"
#include "engine/database.h"

namespace ddb::emulator {

// Below this a bucket counts as empty (sums of fractions of units).
constexpr double kEmptyBucket = 1e-9;

class Throttle {
 public:
  // `db` and `clock` (the one `db` reads) must outlive the throttle.
  Throttle(engine::Database& db, const engine::Clock& clock) : db_(db), clock_(clock) {}

  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  void set_enabled(bool enabled) { enabled_ = enabled; }

  // Before a request on `table` (`index`: a Query's or Scan's IndexName):
  // DynamoDB's error when a bucket it needs is empty, else nothing.
  std::optional<api::ApiError> Admit(const api::Caller& caller, std::string_view table,
                                     std::string_view index, bool reads);

  // The fewest units left in the buckets a request on `table` needs, refilled
  // to now (infinity when nothing limits it): how much of a batch admitted by
  // Admit may run before the rest is left unprocessed.
  double Headroom(const api::Caller& caller, std::string_view table, bool reads);

  // After it: charges the ConsumedCapacity (INDEXES form; one object or a
  // list) a request of database `ns` consumed.
  void Charge(std::string_view ns, const rapidjson::Value& consumed, bool reads);

  // {"Enabled", "Buckets": [{"Namespace", "TableName", "IndexName",
  //  "Capacity": "Read"|"Write", "UnitsPerSecond", "Available",
  //  "ConsumedUnits", "ThrottledRequests"}]}, the buckets refilled to now.
  std::string StatsJson();
  // Forgets every bucket (they start afresh, one second's worth).
  void Clear();

 private:
  struct Bucket {
    std::string table_uuid;  // a table recreated under the same name starts afresh
    double units_per_second = 0;
    double burst_seconds = 0;
    double tokens = 0;
    int64_t at_millis = 0;
    double consumed = 0;
    uint64_t throttled = 0;
  };
  struct Key {
    std::string ns, table, index;
    bool reads;
    // By std::tie: libc++ before LLVM 16 has no operator<=> for std::string.
    bool operator<(const Key& other) const {
      return std::tie(ns, table, index, reads) <
             std::tie(other.ns, other.table, other.index, other.reads);
    }
  };
  // The bucket refilled to `now`; a new one filled since `created_millis`
  // (its table's creation). REQUIRES: mu_ held.
  Bucket& Refill(const Key& key, const std::string& uuid, double units_per_second,
                 double burst_seconds, int64_t now, int64_t created_millis);

  engine::Database& db_;
  const engine::Clock& clock_;
  std::atomic<bool> enabled_{false};
  std::mutex mu_;
  std::map<Key, Bucket> buckets_;  // guarded by mu_
};

}  // namespace ddb::emulator
