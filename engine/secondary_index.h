// Secondary indexes (GSIs and LSIs): how an item appears in an index, and
// the byte layout of index entries in the `indexes` column family.
//
// Layout (persisted — do not reorder or change):
//   index prefix     := table_id:u64be  index_id:u32be
//   index partition  := index prefix  hash:u64be  key_value(h1) … key_value(hn)
//   index entry key  := index partition  key_value(r1) … key_value(rm)
//                       key_value(table pk)  [key_value(table sk)]
//   index entry value:= EncodeItem(the item projected onto the index)
// where h1…hn and r1…rm are the index's partition and sort key attributes
// (an LSI's partition key is the table's) and hash is PartitionHash of the
// encoded partition values. The table's key at the end makes entries unique
// and orders items with equal index keys by their table key, so the order is
// stable.
//
// An item is in an index only when it has every index key attribute (sparse
// indexes). Implements "Improving data access with secondary indexes" in the
// DynamoDB developer guide.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/status.h"

namespace ddb::engine {

// Every index of `schema`, local ones first.
std::vector<const IndexSchema*> AllIndexes(const TableSchema& schema);

// nullptr when `schema` has no index called `name`.
const IndexSchema* FindIndex(const TableSchema& schema, std::string_view name);

std::string IndexPrefix(uint64_t table_id, uint32_t index_id);

// REQUIRES: `hash_values` has one value per partition key attribute of
// `index`, each of the declared type.
std::string IndexPartitionPrefix(uint64_t table_id, const IndexSchema& index,
                                 const std::vector<const AttributeValue*>& hash_values);

// The entry key of `item` in `index`, or nullopt when an index key attribute
// is absent, of another type or empty. REQUIRES: `item` has the table's key.
std::optional<std::string> IndexEntryKey(const TableSchema& schema, const IndexSchema& index,
                                         const Item& item);

// The attributes of `item` that `index` holds: the table's and the index's
// key attributes, plus all (ALL), none (KEYS_ONLY) or the listed (INCLUDE)
// others.
Item ProjectForIndex(const TableSchema& schema, const IndexSchema& index, const Item& item);

// Whether `projection` holds non-key attribute `name`: every one for ALL,
// none for KEYS_ONLY, the listed ones for INCLUDE. Secondary and vector
// indexes add their own key attributes.
bool ProjectionHolds(const Projection& projection, std::string_view name);

// Whether `index` holds attribute `name` of its items.
bool IndexProjects(const TableSchema& schema, const IndexSchema& index, std::string_view name);
// The attributes of `names` that `index` does not hold, as DynamoDB lists
// them in its refusals ("a, b"); empty when it holds them all.
std::string UnprojectedNames(const TableSchema& schema, const IndexSchema& index,
                             const std::set<std::string>& names);

// Index key attributes present in `item` must have their declared type and,
// for S and B, not be empty, and keep within the key size limits (an LSI's
// with DynamoDB's table-key texts; a GSI's naming the index key, its size
// and the limit). A backfill leaves an item that breaks them out instead.
// kInvalidArgument with DynamoDB's message; when
// `by_update_expression`, with the message DynamoDB gives UpdateItem.
Status ValidateIndexKeys(const TableSchema& schema, const Item& item, bool by_update_expression);

// ValidateIndexKeys' check for an empty string or binary alone (of a value
// of the key's type): the one a transaction answers for the whole request
// rather than as an action's cancellation reason.
Status CheckIndexKeysNotEmpty(const TableSchema& schema, const Item& item);

// DynamoDB's refusal of an empty string or binary `value` in the key
// attribute `key` of the index `index` (a vector index's HASH element too).
Status EmptyIndexKeyError(std::string_view index, std::string_view key,
                          const AttributeValue& value);

// The names of every attribute the attribute definitions declare: the key
// attributes of the table and its indexes, and the search schema
// attributes of its vector indexes.
std::set<std::string> KeyAttributeNames(const TableSchema& schema);

// The index's key attribute names: partition ones, then sort ones.
std::vector<const KeyElement*> IndexKeyElements(const IndexSchema& index);

}  // namespace ddb::engine
