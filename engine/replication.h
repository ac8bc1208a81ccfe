// Global tables' replication (DynamoDB's version 2019.11.21) in the engine.
//
// A global table is a group of tables of one name, each in its region's
// namespace; every member's schema lists the whole group
// (TableSchema::replicas). Each member writes its own changes — not those
// replicated into it — to a hidden replication feed (StreamKind::
// kReplicationFeed), in the change's own batch. Database::Replicate reads
// every feed in order and applies each record to the group's other members
// once the record's delay has passed on the engine's clock, so replication
// is asynchronous, ordered per item, and as slow as a test asks.
//
// Conflicts resolve last-writer-wins, as DynamoDB's do: every version of a
// member's item, a deletion's too, keeps the WriteClock of the write that
// made it — in the `indexes` family under a reserved index id, in the item's
// own batch, so it is dropped, copied and restored with the table — and a
// replicated change is applied only when its clock beats the item's.
// A local change is stamped after the version it replaces, so a change made
// on top of a replicated one wins over it even within one millisecond.
// Applying a record twice therefore changes nothing, and the replicator's
// position in each feed needs no more care than "not behind".
//
// Storage (persisted — do not change; docs/storage.md):
//   indexes family: table_id:u64be 0xFFFFFFFF:u32be key_values -> stamp:u64be origin_ns
//   streams family: a replication feed's records are stamped (created_millis)
//                   with their WriteClock's stamp, not milliseconds
//   catalog:        setting "replication/<stream id>" -> the next sequence to apply
//
// Thread safety: pure functions; Database::Replicate serializes itself.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "engine/item_write.h"
#include "engine/status.h"
#include "engine/store.h"

namespace ddb::engine {

// The index id whose prefix holds a table's write clocks: never a real
// index's (ids count up from 1).
inline constexpr uint32_t kWriteClockIndexId = 0xFFFFFFFF;

// The key of the write clock of the item stored at `item_key`.
std::string WriteClockKey(std::string_view item_key);
// The prefix of every write clock of a table.
std::string WriteClockPrefix(uint64_t table_id);
std::string EncodeWriteClock(const WriteClock& clock);
// nullopt for bytes the encoder did not write.
std::optional<WriteClock> DecodeWriteClock(std::string_view bytes);
// The write clock stored for the item at `item_key`; nullopt when it has
// none (written before its table was global).
Result<std::optional<WriteClock>> ReadWriteClock(const Store& store, std::string_view item_key);

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

}  // namespace ddb::engine
