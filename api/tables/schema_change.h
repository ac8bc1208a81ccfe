// Changing a table setting kept in its schema (resource policies, Kinesis
// destinations, Contributor Insights) through Database::UpdateTable, with a
// change that may refuse in DynamoDB's words.
//
// Thread safety: as Database::UpdateTable (the change runs under the
// table's lock).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "api/context.h"
#include "api/errors.h"

namespace ddb::api {

// Returns the error it refuses with, or nothing to have the schema stored.
using SchemaChange = std::function<std::optional<ApiError>(engine::TableSchema&)>;

// Applies `change` to `table`'s schema: its refusal is the answer, and then
// nothing is stored; a missing table is "Requested resource not found:
// Table: <t> not found".
ApiResult<bool> ChangeSchema(Context& ctx, const std::string& table, const SchemaChange& change);

}  // namespace ddb::api
