// Which of DynamoDB's two layers checks an operation's attribute values, and
// so how it words a bad one (a number it cannot read, a duplicate set member,
// an empty set, ...). Captured in us-east-1, us-west-2, eu-west-1 and
// eu-west-2, 2026-10, the same in every region but one exception below:
//
//   current  PutItem, UpdateItem, DeleteItem: inside the `1 validation error
//            detected: ` envelope wherever the value sits, with no
//            `ExpressionAttributeValues contains invalid value` wrapper.
//            GetItem, BatchGetItem, Query: the same texts, bare.
//   older    BatchWriteItem, TransactWriteItems, TransactGetItems, Scan: its
//            own texts (engine::Number::Reading::kBigDecimal; duplicate set
//            members as sent, unquoted), bare, an expression value's inside
//            `ExpressionAttributeValues contains invalid value: <text> for
//            key <placeholder>`. eu-west-2 runs the current layer, bare, on
//            transactions; we answer as the other three regions do.
//
// Operations the captures do not cover (PartiQL, SearchVectors) keep the
// older layer, whose wrapper they always had.
//
// The same dispatch step puts some request-level checks of PutItem and
// DeleteItem (and one of UpdateItem) in the envelope: ApiError::envelope.
//
// Thread safety: a pure function.
#pragma once

#include <string_view>

#include "api/errors.h"

namespace ddb::api {

// `error` as `operation` answers it: a bad attribute value's error
// (ApiError::value_wording) worded by the operation's layer, a request-level
// check enveloped where the operation envelopes it (ApiError::envelope); any
// other error unchanged.
ApiError InLayerOf(std::string_view operation, ApiError error);

}  // namespace ddb::api
