// Key encoding: how item and index keys become RocksDB keys whose bytewise
// order is DynamoDB's order.
//
// Layout (persisted — do not reorder or change):
//   item key   := table_id:u64be  hash:u64be  key_value(pk)  [key_value(sk)]
//   table prefix := table_id:u64be
//   partition prefix := table_id:u64be  hash:u64be  key_value(pk)
//   key_value(S|B) := bytes with 0x00 escaped as 0x00 0xFF, then 0x00 0x01
//                     (so "a" < "a\0" < "ab", and the value self-delimits)
//   key_value(N)   := Number::AppendKeyEncoding (byte-comparable)
//   hash := PartitionHash(key_value(pk)): spreads partitions over the key
//           space like DynamoDB's hashing, so a Scan is in hash order and
//           parallel-scan segments are hash ranges.
//
// Within a partition, items sort by key_value(sk): strings by UTF-8 bytes,
// binaries by unsigned bytes, numbers numerically.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"

namespace ddb::engine {

// Appends the byte-comparable, self-delimiting encoding of a key value.
// REQUIRES: value is S, N or B.
void AppendKeyValue(const AttributeValue& value, std::string* out);

// Appends what every key_value of an S or B value starting with `value`
// begins with (for begins_with). REQUIRES: value is S or B.
void AppendKeyValuePrefix(const AttributeValue& value, std::string* out);

// A stable 64-bit hash of an encoded partition key value (persisted: never
// change it).
uint64_t PartitionHash(std::string_view encoded_pk);

std::string TablePrefix(uint64_t table_id);
// Its length: a table id is 8 bytes, big-endian.
inline constexpr size_t kTablePrefixSize = 8;

// REQUIRES: `pk` has the table's hash key type.
std::string PartitionPrefix(uint64_t table_id, const AttributeValue& pk);

// The RocksDB key of the item whose key attributes `key` holds.
// REQUIRES: `key` holds every key attribute of `schema` with its declared type.
std::string ItemKey(uint64_t table_id, const TableSchema& schema, const Item& key);

// The smallest byte string greater than every string that starts with `prefix`
// (the exclusive upper bound of a prefix scan). Empty if there is none.
std::string PrefixSuccessor(std::string prefix);

// The part of an item key (ItemKey) after its table id and partition hash:
// the key values themselves, so comparing these parts bytewise orders items
// by partition key, then sort key.
std::string_view KeyValuesOf(std::string_view item_key);

}  // namespace ddb::engine
