// Every key of the catalog column family (Family::kCatalog), defined once.
//
// Layout (persisted — do not change; docs/storage.md):
//   "t" ns 0x00 name                    -> EncodeTableSchema   (a live table)
//   "s" table_id:u64be                  -> EncodeTableStats    (its items)
//   "s" table_id:u64be index_id:u32be   -> EncodeTableStats    (an index's entries)
//   "x" stream_id:u64be                 -> EncodeStreamInfo    (a stream, live or disabled)
//   "k" ns 0x00 backup_id               -> EncodeBackupInfo    (an on-demand backup)
//   "a" key                             -> a setting's value   (opaque to the engine)
//   "m:next_table_id", "m:next_stream_id" -> varint id counters
// catalog_codec.h encodes the values.
//
// Thread safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/storage/store.h"

namespace ddb::engine::catalog_keys {

inline constexpr char kSchema = 't';
inline constexpr char kStats = 's';
inline constexpr char kStream = 'x';
inline constexpr char kBackup = 'k';
inline constexpr char kSetting = 'a';
inline constexpr std::string_view kNextTableId = "m:next_table_id";
inline constexpr std::string_view kNextStreamId = "m:next_stream_id";

// The kinds of entry that describe tables, streams and backups: what Reset
// clears. (Settings and the id counters outlive a reset.)
inline constexpr std::array<char, 4> kTableKinds = {kSchema, kStats, kStream, kBackup};

// ns 0x00 name: a table's name within the database, as the schema key
// holds it and the in-memory registry orders tables.
std::string QualifiedName(std::string_view ns, std::string_view name);
std::string Schema(std::string_view ns, std::string_view name);
std::string Stats(uint64_t table_id);
std::string IndexStats(uint64_t table_id, uint32_t index_id);
std::string Stream(uint64_t stream_id);
std::string Backup(std::string_view ns, std::string_view backup_id);
std::string Setting(std::string_view key);

// Every key of one kind starts with this and sorts before KindEnd(kind).
std::string KindBegin(char kind);
std::string KindEnd(char kind);

// An id counter: `*value` is left alone when the key was never written.
// kInternal if it is not a varint.
Status LoadCounter(const Store& store, std::string_view key, uint64_t* value);
// The stored form of a counter's value.
std::string EncodeCounter(uint64_t value);

}  // namespace ddb::engine::catalog_keys
