// Resource-based policy documents as DynamoDB checks and keeps them
// (PutResourcePolicy, CreateTable's ResourcePolicy). Nothing here enforces
// a policy: localdynamo answers every caller. What is checked is what
// DynamoDB refuses on the way in — size, JSON, an empty Statement, a
// statement without Resource, repeated Sids, an Allow to everyone, a
// policy that would lock its author out — with DynamoDB's texts.
//
// A document is kept in DynamoDB's canonical form: minified; Version then
// Statement; each statement's keys in IAM's order; a one-element list as
// its element; an account id as its root ARN. Two documents that differ
// only in those ways are the same policy (a Put of it changes nothing).
// GetResourcePolicy reads it back with Version 2008-10-17 when it has none,
// as DynamoDB does.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "api/errors.h"

namespace ddb::api {

// DynamoDB's limit on a document, whitespace counted.
inline constexpr size_t kMaxPolicyBytes = 20480;

// The canonical form of `document`, or the ValidationException DynamoDB
// answers for it.
ApiResult<std::string> CanonicalPolicy(std::string_view document);

// `canonical` as GetResourcePolicy answers it.
std::string PolicyAsRead(std::string_view canonical);

// Whether `canonical` denies `account_id`'s principals PutResourcePolicy
// (with no condition), so its author could never change it again.
bool DeniesPolicyChanges(std::string_view canonical, std::string_view account_id);

}  // namespace ddb::api
