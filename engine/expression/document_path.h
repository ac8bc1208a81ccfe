// Document paths over items: finding the value at `a.b[3]`, checking a set of
// paths for overlaps as DynamoDB does, projecting an item onto paths
// (ProjectionExpression, AttributesToGet, and ReturnValues UPDATED_*), and
// the attributes a condition reads.
//
// Thread safety: pure functions.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/expression/ast.h"
#include "engine/status.h"

namespace ddb::engine::expr {

// The value at `path`, or nullptr when some step is missing or has the wrong
// type (a name applied to a non-map, an index to a non-list or beyond its end).
const AttributeValue* FindPath(const Item& item, const Path& path);

// Rejects two paths of which one is a prefix of the other, equal paths
// included ("Two document paths overlap with each other; ..."), and two paths
// that use one step both as a map key and as a list index ("Two document
// paths conflict with each other; ..."). `parameter` names the expression in
// the message, e.g. "UpdateExpression".
Status CheckPathsDisjoint(const std::vector<const Path*>& paths, std::string_view parameter);

// The parts of `item` that `paths` select, nested as in the item. List
// elements keep their relative order; missing parts are left out, so the
// result may be empty.
Item Project(const Item& item, const std::vector<const Path*>& paths);
Item Project(const Item& item, const Projection& projection);

// The top-level attribute names `condition` reads (of `a.b[1]`, `a`).
std::set<std::string> AttributesRead(const Condition& condition);

}  // namespace ddb::engine::expr
