// Replication: global tables (DynamoDB's version 2019.11.21) in the engine
// — adding and removing a member, the group every member's schema lists,
// applying each member's replication feed to the others, and strongly
// consistent writes.
//
// A global table is a group of tables of one name, each in its region's
// namespace; every member's schema lists the whole group
// (TableSchema::replicas). Each member writes its own changes — not those
// replicated into it — to a hidden replication feed (StreamKind::
// kReplicationFeed), in the change's own batch. Replicate reads every feed
// in order and applies each record to the group's other members once the
// record's delay has passed on the engine's clock, so replication is
// asynchronous, ordered per item, and as slow as a test asks. Conflicts
// resolve last-writer-wins by the items' write clocks (write_clock.h).
//
// State: the replicator's position in each feed (also kept in the
// settings, "replication/<stream id>").
// Lock: `mu_` serializes replication with changes to groups, so a member
// is never replicated to while it is being made. It is taken before the
// backups', the registry's and every table's write_mu.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/items/item_write.h"
#include "engine/items/item_writer.h"
#include "engine/mutex.h"
#include "engine/replication/write_clock.h"
#include "engine/write_path.h"
#include "engine/settings.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/streams/stream_log.h"
#include "engine/tables/table_changes.h"
#include "engine/tables/table_registry.h"
#include "engine/thread_annotations.h"

namespace ddb::engine {

// A delay with which every record is due, even one stamped ahead of a
// clock that was set back: what settling and strong consistency use.
inline constexpr int64_t kEverythingDue = std::numeric_limits<int64_t>::min() / 2;

// What one member of a global table has not yet given its replicas.
struct ReplicationBacklog {
  std::string ns;
  std::string table;
  uint64_t pending = 0;             // records written, not yet applied everywhere
  int64_t oldest_pending_millis = 0;  // when the oldest of them was written; 0: none
};

class Replication {
 public:
  // `hold_millis`: DatabaseOptions::replication_hold_millis.
  Replication(const WritePath& path, StreamLog& streams, Settings& settings,
              TableChanges& changes, int64_t hold_millis)
      : path_(path),
        streams_(streams),
        settings_(settings),
        changes_(changes),
        hold_millis_(hold_millis) {}

  // Makes `added` a new replica of the table `name` of `ns`: the group
  // (the table's, or `self` and `added` for a regional table) gains it on
  // every member, then `target` is created in the new member's namespace
  // with the table's items and their write clocks as they are then, in one
  // batch. The caller derives `target` from the table's schema.
  // kAlreadyExists when the region is a member or its namespace has the table.
  Result<TableDescription> AddReplica(std::string_view ns, std::string_view name,
                                      const Replica& self, const Replica& added,
                                      TableSchema target) EXCLUDES(mu_);
  // Deletes the replica of `name` in `replica_ns` (DeleteTable's checks)
  // and takes it out of the other members' group.
  Result<TableDescription> RemoveReplica(std::string_view name, std::string_view replica_ns)
      EXCLUDES(mu_);
  // Gives every member of the group `group` as its list: a replica's
  // overrides changed. Members that are gone are skipped.
  Status SetReplicaGroup(std::string_view name, const std::vector<Replica>& group)
      EXCLUDES(mu_);
  // Applies the replication feeds' records to the other members of their
  // tables' groups, in order per feed: each once `delay_of(ns, table)`
  // milliseconds have passed since it was written, by the clock, and only
  // where it beats the item's write clock. Returns how many were applied.
  using Delay = std::function<int64_t(std::string_view ns, std::string_view table)>;
  Result<size_t> Replicate(const Delay& delay_of) EXCLUDES(mu_);
  // Applies every pending record now, whatever its delay (a test's settle).
  Result<size_t> Settle() EXCLUDES(mu_);
  // Whether any table is a global table's member (has a replication feed).
  bool HasFeeds() const;
  // What each member has not yet replicated.
  Result<std::vector<ReplicationBacklog>> Backlogs() const EXCLUDES(mu_);

  // A strongly consistent global table's write (Database's item writes
  // come here): decided, held (with `hold_millis`: claimed in every member
  // meanwhile), written, and applied in every member before it is answered.
  Result<std::optional<Item>> WriteStrong(const std::shared_ptr<TableState>& state,
                                          const TableSchema& schema, const Item& key,
                                          const Planner& planner) EXCLUDES(mu_);

 private:
  // Sets `group` on each of `members` still alive (by their namespaces).
  Status WriteGroup(std::string_view name, const std::vector<Replica>& members,
                    const std::vector<Replica>& group) REQUIRES(mu_);
  // Applies one replicated record to the table `name` of `ns`: true when
  // applied, false when the item's version is newer or the table is gone.
  Result<bool> ApplyReplicated(std::string_view ns, std::string_view name,
                               const StreamRecord& record, const WriteClock& clock)
      REQUIRES(mu_);
  // Where the replicator is in `feed`: the next sequence number to apply,
  // as last kept in memory or in the settings (1: from the start).
  uint64_t KnownPosition(const StreamState& feed) const REQUIRES(mu_);
  // The same, kept in memory from now on.
  uint64_t ReplicatedThrough(const StreamState& feed) REQUIRES(mu_);
  // Applies `feed`'s records written `delay` or more milliseconds before
  // `now` to the other members; adds how many to `*applied`.
  Status ReplicateFeed(const StreamState& feed, int64_t delay, int64_t now, size_t* applied)
      REQUIRES(mu_);
  // WriteStrong's claim: the item's key in each live member of the group,
  // claimed for `state`'s region once `planner` decided to write; empty
  // when it writes nothing. A claim from another region is DynamoDB's
  // ReplicatedWriteConflictException; one from the same region is waited out.
  struct MemberItem {
    std::shared_ptr<TableState> state;
    std::string item_key;
  };
  Result<std::vector<MemberItem>> ClaimInEveryMember(const std::shared_ptr<TableState>& state,
                                                     const TableSchema& schema, const Item& key,
                                                     const Planner& planner);
  // Applies `state`'s replication feed to the other members now.
  Status ReplicateNow(TableState& state) REQUIRES(mu_);

  const WritePath path_;
  StreamLog& streams_;
  Settings& settings_;
  TableChanges& changes_;
  const int64_t hold_millis_;
  mutable Mutex mu_;
  // Per replication feed (stream id): the next sequence number to apply.
  std::map<uint64_t, uint64_t> replicated_through_ GUARDED_BY(mu_);
};

}  // namespace ddb::engine
