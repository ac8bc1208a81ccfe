// Query's key condition — KeyConditionExpression or the legacy KeyConditions
// — checked as DynamoDB checks it and turned into the partition values and
// sort-key condition the engine reads by.
//
// Two steps, because DynamoDB makes the syntactic checks before it looks the
// table up and the schema checks after:
//   1. KeyTermsFrom*: one KeyTerm per condition; rejects other operators
//      ("Invalid operator used in KeyConditionExpression: OR"), nested
//      paths and operations, conditions without or with two attribute
//      names, two conditions on one attribute.
//   2. ApplyKeyTerms: against the table's or index's key schema — equality
//      on every partition attribute, sort attributes constrained left to
//      right with a range only on the last one given (multi-attribute GSI
//      keys included), value types as declared.
//
// Thread safety: pure functions.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "api/errors.h"
#include "engine/catalog/catalog.h"
#include "engine/expression/ast.h"
#include "engine/read_request.h"

namespace ddb::api {

// One condition on one key attribute.
struct KeyTerm {
  std::string attribute;
  engine::SortKeyCondition::Op op = engine::SortKeyCondition::Op::kEq;
  std::vector<engine::AttributeValue> values;  // two for BETWEEN, else one
};

ApiResult<std::vector<KeyTerm>> KeyTermsFromExpression(const engine::expr::Condition& condition);
ApiResult<std::vector<KeyTerm>> KeyTermsFromLegacy(const rapidjson::Value& key_conditions);

// Fills request->partition and request->sort from `terms` for a read keyed
// by `key`. `legacy`: the terms came from KeyConditions, which answer more
// conditions than the key has in their own words.
ApiResult<bool> ApplyKeyTerms(const std::vector<KeyTerm>& terms, const engine::KeySchema& key,
                              bool legacy, engine::QueryRequest* request);

// ExclusiveStartKey against the query's conditions: the same partition, a
// sort value the condition accepts, and not a one-row query (`table_key`:
// `key` is the table's own key schema).
ApiResult<bool> CheckStartKeyInRange(const engine::Item& start, const engine::KeySchema& key,
                                     const engine::QueryRequest& request, bool table_key);

}  // namespace ddb::api
