// Housekeeping: the work that time makes — deleting items whose TTL has
// expired, rolling over and trimming streams, forgetting point-in-time
// history past each table's recovery period. The emulator's maintenance
// thread (or a test, on its own clock) calls it; nothing here runs by
// itself.
//
// State: none of its own (the sweeper keeps where the last sweep stopped).
// Lock: each job takes what its part takes — the sweeper its own lock and
// one table's write_mu per deleted item, the stream log its maintenance
// lock; history trimming writes under no lock (it only deletes records
// older than anything a restore may read).
#pragma once

#include <climits>
#include <cstddef>
#include <vector>

#include "engine/clock.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/streams/stream_log.h"
#include "engine/tables/table_registry.h"
#include "engine/ttl/ttl_sweeper.h"

namespace ddb::engine {

class Housekeeping {
 public:
  Housekeeping(Store& store, const Clock& clock, const TableRegistry& tables, StreamLog& streams,
               TtlSweeper& sweeper)
      : store_(store), clock_(clock), tables_(tables), streams_(streams), sweeper_(sweeper) {}

  // Deletes at most `limit` items whose TTL expiry has passed by the clock.
  Result<std::vector<ExpiredItem>> SweepExpired(size_t limit = SIZE_MAX);
  // Rolls over, trims and forgets streams as their age says.
  Status MaintainStreams();
  // Forgets point-in-time history past each table's recovery period.
  Status TrimHistory();

 private:
  Store& store_;
  const Clock& clock_;
  const TableRegistry& tables_;
  StreamLog& streams_;
  TtlSweeper& sweeper_;
};

}  // namespace ddb::engine
