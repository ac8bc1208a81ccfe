// Checks that keys and items agree with a table's key schema, with
// DynamoDB's error messages ("The provided key element does not match the
// schema", "Missing the key …", "Type mismatch for key …"), and DynamoDB's
// key size limits: 2048 bytes for each partition key value, 1024 bytes for
// the sort key values together (strings as UTF-8, binaries as raw bytes).
//
// Thread safety: pure functions.
#pragma once

#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/status.h"

namespace ddb::engine {

// For Key parameters (GetItem, DeleteItem, ...): exactly the key attributes,
// each with its declared type and non-empty. kInvalidArgument otherwise.
Status ValidateKey(const TableSchema& schema, const Item& key);

// For whole items (PutItem): every key attribute present, typed as declared,
// non-empty. kInvalidArgument otherwise.
Status ValidateItemKey(const TableSchema& schema, const Item& item);

// The key attributes of `item`. REQUIRES: ValidateItemKey(schema, item).ok().
Item ExtractKey(const TableSchema& schema, const Item& item);

inline constexpr size_t kMaxHashKeyBytes = 2048;
inline constexpr size_t kMaxRangeKeyBytes = 1024;

// kInvalidArgument with DynamoDB's message when a partition key value is
// over kMaxHashKeyBytes or the sort key values together are over
// kMaxRangeKeyBytes. Null pointers (absent attributes) count as nothing.
Status CheckKeySizes(const std::vector<const AttributeValue*>& hash_values,
                     const std::vector<const AttributeValue*>& range_values);

// The bytes a key value counts against the key size limits: a string's or
// a binary's length (numbers are at most 38 digits, far below either).
size_t KeyValueBytes(const AttributeValue& value);

// Whether `value` is an empty string or binary, which no key may be.
bool IsEmptyKeyValue(const AttributeValue& value);

// Whether `value` has the scalar type `type`.
bool HasScalarType(const AttributeValue& value, ScalarType type);

std::string_view ScalarTypeName(ScalarType type);

}  // namespace ddb::engine
