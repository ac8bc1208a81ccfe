// Write clocks: how global tables (replication.h) order the versions of an
// item across regions.
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
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/items/item_write.h"
#include "engine/status.h"
#include "engine/storage/store.h"

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

}  // namespace ddb::engine
