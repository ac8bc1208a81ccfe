// UpdateTable's GlobalSecondaryIndexUpdates: Create (with the
// AttributeDefinitions its keys need), Delete and Update (provisioned, warm
// and on-demand throughput),
// validated as DynamoDB validates them and applied to a schema. The engine
// then backfills created indexes and drops deleted ones
// (Database::UpdateTable).
//
// Thread safety: pure functions over a caller-owned document.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"
#include "engine/catalog/catalog.h"

namespace ddb::api {

struct GsiUpdates {
  const rapidjson::Value* updates = nullptr;      // the GlobalSecondaryIndexUpdates array
  const rapidjson::Value* definitions = nullptr;  // AttributeDefinitions, if given
};

// Checks what needs no schema: one action per update object, one update per
// index, at most one Create or Delete per call.
ApiResult<bool> CheckGsiUpdates(const GsiUpdates& request);

// Adds UpdateTable's AttributeDefinitions to `schema`'s; an attribute
// defined again with another type is refused with DynamoDB's text. Used by
// GSI and vector index creation alike.
ApiResult<bool> MergeAttributeDefinitions(const rapidjson::Value& json,
                                          engine::TableSchema& schema);

// Applies the updates to `schema`; returns the names of created indexes.
// New indexes get index_id 0 (the engine assigns ids). `region` names the
// account's region in limit errors.
ApiResult<std::vector<std::string>> ApplyGsiUpdates(const GsiUpdates& request,
                                                    engine::TableSchema& schema,
                                                    std::string_view region);

}  // namespace ddb::api
