// A request's shape, for the access profile (access_record.h): its key
// condition and filter with every value written as `?` and every name
// placeholder resolved, and its projection, so that requests differing only
// in values or placeholder names group together.
//
//   KeyConditionExpression "#p = :v AND begins_with(#s, :w)"  ->  "pk = ? AND begins_with(sk, ?)"
//   KeyConditions {"pk": {"ComparisonOperator": "EQ"}}        ->  "pk EQ ?"
//
// A write's ConditionExpression (or Expected) stands as its filter.
//
// Thread safety: pure functions.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

namespace ddb::api {

struct AccessRecord;

// Fills `record`'s key_condition, filter and projection, empty before (a
// cleared record), from `request`, for the operations on one table
// (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan); leaves them
// empty for the others.
void DescribeShape(std::string_view operation, const rapidjson::Value& request,
                   AccessRecord& record);

// `expression` with `:values` as `?`, `#names` resolved through `names`
// (the request's ExpressionAttributeNames; null when absent) and runs of
// white space as one space.
std::string NormalizedExpression(std::string_view expression, const rapidjson::Value* names);

}  // namespace ddb::api
