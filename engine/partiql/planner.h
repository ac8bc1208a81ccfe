// How a PartiQL statement reaches its items: the key a write's WHERE must
// pin down, and the key range a SELECT's WHERE allows.
//
// DynamoDB runs a SELECT whose WHERE fixes the partition key (an equality,
// IN with a list of values, or equalities ORed together, ANDed with the
// rest — or a top-level OR each of whose branches does so) as a Query of
// each such partition, narrowed by a sort key condition when one is ANDed
// in too; any other SELECT is a Scan. Either way
// the whole WHERE is still evaluated on every item read, so the key range
// only makes the read cheaper, never changes its result. A write (UPDATE,
// DELETE) needs an equality on every key attribute; the rest of its WHERE
// is a condition on the item.
//
// Thread safety: pure functions.
#pragma once

#include <optional>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/expression/ast.h"
#include "engine/partiql/statement.h"
#include "engine/read_request.h"
#include "engine/status.h"

namespace ddb::engine::partiql {

// The partition and sort key condition a SELECT can read by.
struct KeyRange {
  std::vector<AttributeValue> partition;  // one per partition key attribute
  SortKeyCondition sort;
};

// At most this many partitions are read one by one; more make a Scan.
inline constexpr size_t kMaxPartitionReads = 100;

// The key ranges `where` pins on `key` (a table's or an index's key
// schema), one per partition, in the order the WHERE names them (a
// partition named twice is read whole, once); empty when it does not fix
// every partition key attribute with values of the attribute's type.
std::vector<KeyRange> PlanKeyRanges(const expr::Condition& where, const KeySchema& key);

// DynamoDB refuses OR branches that read one partition when one narrows it
// by its sort key and another filters on attributes outside the key
// (`pk = 'a' AND x = 1 OR pk = 'a' AND sk = 2`): kInvalidArgument
// "Overlapping conditions with range keys are not supported in where
// clause". Branches that only test the key, negations included, may overlap.
Status CheckBranchesDoNotOverlap(const expr::Condition& where, const KeySchema& key);

// ORDER BY of `select` over `ranges` (as PlanKeyRanges gave them for
// `key`): only key attributes, only over partitions the WHERE names. The
// partition key's direction reorders `ranges`; the sort key's decides the
// order within each. Returns whether partitions are read forward.
// kInvalidArgument with DynamoDB's texts otherwise ("Variable reference <a>
// in ORDER BY clause must be part of the primary key", ...).
Result<bool> ApplyOrderBy(const SelectStatement& select, const KeySchema& key,
                          std::vector<KeyRange>& ranges);

// A write's target: the key, and what else its WHERE requires of the item.
struct KeyedWhere {
  Item key;
  std::optional<expr::Condition> rest;
};

// Splits `where` into equalities on every attribute of `key` and the rest.
// kInvalidArgument "Where clause does not contain a mandatory equality on all
// key attributes" when an attribute has none.
Result<KeyedWhere> SplitKey(const expr::Condition& where, const KeySchema& key);

}  // namespace ddb::engine::partiql
