// Time to Live: which second an item expires at, and the schedule that
// finds expired items without scanning tables.
//
// The schedule is the ttl column family: one empty entry per item that has
// an expiry, keyed by (expiry second, item key). A write puts and deletes
// entries in the same batch as the item (ItemWriter::AddMutation), so the
// schedule always agrees with the table; the sweeper reads it in key order
// up to "now", so its cost grows with the number of expired items only.
//
// Layout (persisted — do not change):
//   ttl family: expiry_seconds:u64be item_key -> ""
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"

namespace ddb::engine {

// DynamoDB does not delete items whose TTL value is five or more years in
// the past: such values are taken for mistakes, not expiry times.
inline constexpr int64_t kTtlIgnoredAfterSeconds = 5LL * 365 * 24 * 3600;

// The second `item` expires at: the table's TTL attribute when TTL is
// enabled and the attribute is a Number of non-negative epoch seconds
// (fractions rounded down). nullopt for other types, no attribute, or TTL
// disabled — such items never expire.
std::optional<int64_t> TtlExpiry(const TableSchema& schema, const Item& item);

std::string TtlEntryKey(int64_t expiry_seconds, std::string_view item_key);

// Splits an entry key; false if it is not one.
bool ParseTtlEntryKey(std::string_view entry_key, int64_t* expiry_seconds,
                      std::string_view* item_key);

// The exclusive upper bound of the entries expiring at or before `seconds`.
std::string TtlEntriesThrough(int64_t seconds);

}  // namespace ddb::engine
