// Vector indexes: how an item appears in one, and the byte layout of its
// entries in the `indexes` column family (beside the secondary indexes'
// entries, under the same index prefix scheme).
//
// Layout (persisted — do not reorder or change):
//   entry key   := IndexPrefix(table_id, index_id)  item key (key_codec.h)
//   entry value := dimensions × f32 (little-endian)
//                  then, per search schema element, a length-prefixed
//                  key_value (key_codec.h) of the item's value, or an
//                  empty string when the item lacks it
//
// An item is in a vector index when its vector attribute is a List of
// Numbers and, if the search schema has a HASH element, it has that
// attribute (DynamoDB indexes items without an inline filter attribute).
// Writes of an item whose vector attribute has another shape, another
// length, or a value outside the 32-bit float range are refused.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/status.h"

namespace ddb::engine {

// nullptr when `schema` has no vector index called `name`.
const VectorIndexSchema* FindVectorIndex(const TableSchema& schema, std::string_view name);

// An item's row in a vector index.
struct VectorRow {
  std::vector<float> vector;
  // One per search schema element: the value's key_value encoding, or empty
  // when the item lacks the attribute.
  std::vector<std::string> filter_values;
};

// The row `item` has in `index`, or nullopt when the item is not in it;
// kInvalidArgument with the message DynamoDB gives when the vector attribute
// is not a List of as many Numbers as the index has dimensions, each within
// the f32 range, or a search schema attribute has another type.
Result<std::optional<VectorRow>> VectorRowOf(const VectorIndexSchema& index, const Item& item);

// Whether an item already written (so valid) has a row in `index`: cheaper
// than VectorRowOf, for the item a write replaces.
bool InVectorIndex(const VectorIndexSchema& index, const Item& item);

std::string EncodeVectorRow(const VectorRow& row);
// nullopt when the bytes are not a row of `index`.
std::optional<VectorRow> DecodeVectorRow(const VectorIndexSchema& index, std::string_view bytes);

// The entry key of an item (by its item key) in `index`.
std::string VectorEntryKey(uint64_t table_id, const VectorIndexSchema& index,
                           std::string_view item_key);

// The bytes an index entry counts for in IndexSizeBytes: the vector as
// f32s, its attribute name, and the search schema attributes.
int64_t VectorEntrySize(const VectorIndexSchema& index, const Item& item);

// Whether `index` holds attribute `name` of its items: the table's key
// attributes, the search schema attributes and the projected others. (The
// vector itself is in every entry; a KEYS_ONLY index does not return it.)
bool VectorIndexProjects(const TableSchema& schema, const VectorIndexSchema& index,
                         std::string_view name);

// The size DynamoDB bills a write of `item` at (captured 2026-10): ItemSize,
// except that an attribute a vector index holds as its vector counts its name
// plus 4 bytes per dimension, whatever digits its numbers have. Reads and the
// 400 KB limit count the numbers themselves (ItemSize).
size_t BilledItemSize(const TableSchema& schema, const Item& item);

// VectorWriteRequestBytes for `index`'s entry of `item` (captured 2026-08):
// the billed size of the entry (its vector, key and projected attributes),
// at least 1024. nullopt when `item` has no entry in `index`.
std::optional<size_t> VectorWriteBytes(const TableSchema& schema, const VectorIndexSchema& index,
                                       const Item& item);

// Whether `index`'s entries of `a` and `b` (either may be null) differ:
// a write that changes nothing the index holds is no vector write.
bool VectorEntryChanges(const TableSchema& schema, const VectorIndexSchema& index, const Item* a,
                        const Item* b);

// A Number's value as a 32-bit float; nullopt outside the f32 range.
std::optional<float> ToFloat(const Number& number);

// The decimal text DynamoDB returns for a stored f32 component: the
// shortest that reads back as the same float, Java's Float.toString form
// ("1.0", "0.25", "1.0E-5").
std::string FloatText(float value);

}  // namespace ddb::engine
