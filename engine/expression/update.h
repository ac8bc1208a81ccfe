// Applying an UpdateExpression (or the legacy AttributeUpdates translated to
// one) to an item: SET with + and -, if_not_exists and list_append; REMOVE of
// attributes, nested paths and list elements; ADD to numbers and sets; DELETE
// from sets ("Update expressions" in the DynamoDB developer guide).
//
// As in DynamoDB, every value on the right of SET is computed from the item
// as it was before the update, so `SET a = b, b = a` swaps; list elements
// removed by one update are numbered as they were, and the list closes up; a
// list index beyond the end appends; arithmetic is exact (Number::Add).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/expression/ast.h"
#include "engine/status.h"

namespace ddb::engine::expr {

// Rejects an action on a key attribute (`key_attributes`), nested or not.
// (Overlapping paths and operand types are checked by Resolve.)
Status CheckUpdate(const Update& update, const std::vector<std::string>& key_attributes);

// Applies `update` to *item, which holds the current item (or only its key
// when the item does not exist). On error *item is unspecified: the caller
// discards it, so nothing is half-applied. Errors are DynamoDB's
// ValidationException texts ("The provided expression refers to an attribute
// that does not exist in the item", "An operand in the update expression has
// an incorrect data type", "The document path provided in the update
// expression is invalid for update", number overflow).
Status ApplyUpdate(const Update& update, Item* item);

// Whether every action of `update` only takes away (REMOVE, DELETE from a
// set): DynamoDB then creates no item when there is none.
bool RemovesOnly(const Update& update);

// The paths `update` writes, for ReturnValues UPDATED_OLD / UPDATED_NEW.
std::vector<const Path*> UpdatedPaths(const Update& update);

}  // namespace ddb::engine::expr
