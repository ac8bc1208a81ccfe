// Checks that keys and items agree with a table's key schema, with
// DynamoDB's error messages ("The provided key element does not match the
// schema", "Missing the key …", "Type mismatch for key …").
//
// Thread safety: pure functions.
#pragma once

#include "engine/attribute_value.h"
#include "engine/catalog.h"
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

// Whether `value` is an empty string or binary, which no key may be.
bool IsEmptyKeyValue(const AttributeValue& value);

// Whether `value` has the scalar type `type`.
bool HasScalarType(const AttributeValue& value, ScalarType type);

std::string_view ScalarTypeName(ScalarType type);

}  // namespace ddb::engine
