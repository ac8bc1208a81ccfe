// TtlSweeper: deletes the items whose TTL expiry has passed by the clock,
// walking the schedule (ttl_schedule.h) from where the last sweep stopped up
// to now. Each item is deleted as DeleteItem would (indexes, statistics, a
// REMOVE record naming the service), re-checked under its table's lock; an
// item's lock is held only for its own delete, never across the sweep.
//
// Thread safety: safe for concurrent use; sweeps are serialized (`mu_`), as
// each moves the schedule's start point.
#pragma once

#include <climits>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/clock.h"
#include "engine/items/item_writer.h"
#include "engine/mutex.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_registry.h"
#include "engine/thread_annotations.h"
#include "engine/ttl/ttl_schedule.h"

namespace ddb::engine {

// An item the TTL sweeper deleted.
struct ExpiredItem {
  std::string ns;
  std::string table;
  Item key;
  int64_t expiry_seconds = 0;
};

class TtlSweeper {
 public:
  TtlSweeper(Store& store, const Clock& clock, const TableRegistry& tables, ItemWriter& writer,
             TtlSchedule& schedule);

  // Housekeeping::SweepExpired.
  Result<std::vector<ExpiredItem>> Sweep(size_t limit) EXCLUDES(mu_);

 private:
  enum class Outcome { kDeleted, kDropped, kDeferred };
  // Deletes the expired item behind one schedule entry (`expired` says
  // which), drops the entry alone when it is stale, or defers it while a
  // transaction holds the item.
  Result<Outcome> Expire(int64_t expiry, const std::string& item_key, int64_t now_seconds,
                         ExpiredItem* expired) REQUIRES(mu_);
  Result<Outcome> DropEntry(const std::string& entry_key);

  Store& store_;
  const Clock& clock_;
  const TableRegistry& tables_;
  ItemWriter& writer_;
  TtlSchedule& schedule_;
  Mutex mu_;
};

}  // namespace ddb::engine
