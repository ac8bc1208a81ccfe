// TableChanges: UpdateTable's work — a schema change and its side effects:
// backfilling a new GSI or vector index, dropping a removed index's
// entries, rescheduling TTL, starting or stopping the stream, the Kinesis
// feed and the replication feed, forgetting point-in-time history.
//
// State: none of its own; it changes the table's TableState.
// Lock: the table's write_mu (not the registry's lock) serializes schema
// changes with each other and with item writes, so a long backfill blocks
// only writes to its own table. Taken after the replicator's lock
// (replication.h) when a global table's group changes.
#pragma once

#include <functional>
#include <string_view>

#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/streams/stream_log.h"
#include "engine/tables/table_items.h"
#include "engine/tables/table_registry.h"
#include "engine/tables/table_state.h"
#include "engine/thread_annotations.h"
#include "engine/ttl/ttl_schedule.h"

namespace ddb::engine {

class TableChanges {
 public:
  TableChanges(Store& store, const Clock& clock, TableRegistry& tables, TtlSchedule& ttl,
               StreamLog& streams)
      : store_(store), clock_(clock), tables_(tables), ttl_(ttl), streams_(streams) {}

  // Applies `change` to a copy of the schema (it may fail to abort) and
  // stores it. Indexes it adds (index_id 0) are backfilled before this
  // returns; indexes it removes lose their entries.
  Result<TableDescription> Update(std::string_view ns, std::string_view name,
                                  const std::function<Status(TableSchema&)>& change);

 private:
  // Creates a new index's entries: `entry_of` gives each item's entry, or
  // none when the item stays out of the index; the index's statistics are
  // stored with the last batch.
  Status Backfill(TableState& state, uint32_t index_id, const BackfillEntryOf& entry_of)
      REQUIRES(state.write_mu);

  Store& store_;
  const Clock& clock_;
  TableRegistry& tables_;
  TtlSchedule& ttl_;
  StreamLog& streams_;
};

}  // namespace ddb::engine
