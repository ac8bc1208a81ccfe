// DataSnapshots: a namespace's tables — or every namespace's — copied out
// as stored bytes (snapshot.h) and put back under fresh table ids; and the
// two ways of emptying: one namespace, or the whole database (Reset).
//
// State: none of its own; a DataSnapshot is the caller's to keep.
// Lock: the registry's lock and the tables' write_mu (TableRegistry::
// WithTablesLocked and Replace), so a snapshot is of one moment and a
// restore lands whole; Reset takes the backups' lock before them.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "engine/backups/backups.h"
#include "engine/backups/snapshot.h"
#include "engine/client_tokens.h"
#include "engine/clock.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/streams/stream_log.h"
#include "engine/tables/table_registry.h"
#include "engine/ttl/ttl_schedule.h"

namespace ddb::engine {

class DataSnapshots {
 public:
  struct Parts {
    Store& store;
    const Clock& clock;
    TableRegistry& tables;
    TtlSchedule& ttl;
    StreamLog& streams;
    ClientTokens& tokens;
    Backups& backups;
  };
  explicit DataSnapshots(const Parts& parts) : parts_(parts) {}

  // The tables of `ns` (of every namespace when nullopt) as of one moment:
  // writes to them wait while it is read.
  Result<std::shared_ptr<const DataSnapshot>> Take(std::optional<std::string_view> ns);
  // Replaces the tables of `into` by the snapshot's, in one batch: tables
  // made since go, the snapshot's come back with their items, index entries,
  // statistics and TTL schedule, under new ids. A whole-database snapshot
  // (ns nullopt) replaces every namespace and takes no `into`; a
  // namespace's may go into any namespace (nullopt: its own).
  // kInvalidArgument for a whole-database snapshot with an `into`.
  Result<RestoreSummary> Restore(const DataSnapshot& snapshot,
                                 std::optional<std::string_view> into);
  // Drops every table of one namespace, as if it were new.
  Status DropNamespace(std::string_view ns);
  // Drops every table of every namespace — items, indexes, streams, the TTL
  // schedule, tokens, backups — in one batch, as if the database were new
  // (ids keep counting up; settings stay). Writes in flight finish first.
  Status Reset();

 private:
  // Reset's work, under the backups' lock: every table's, stream's and
  // backup's keys deleted in one batch.
  Status DropEverything();

  const Parts parts_;
};

}  // namespace ddb::engine
