// Vector index definitions: CreateTable's VectorIndexes and UpdateTable's
// VectorIndexUpdates (Create, Delete), validated as DynamoDB validates
// them — on-demand tables only, at most five per table, the vector
// attribute undeclared and the search schema's attributes declared.
//
// Thread safety: pure functions over a caller-owned document.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "api/errors.h"
#include "engine/catalog/catalog.h"

namespace ddb::api {

inline constexpr size_t kMaxVectorIndexes = 5;
inline constexpr int64_t kMaxVectorDimensions = 4096;

// Parses CreateTable's VectorIndexes (null: none) into `schema`, whose
// attribute definitions and billing mode are already set.
ApiResult<bool> ParseVectorIndexes(const rapidjson::Value* json, engine::TableSchema& schema);

// Counts UpdateTable's VectorIndexUpdates' creates and deletes (each is an
// online index change, as a GSI's) after checking their shape.
ApiResult<int> CountVectorIndexUpdates(const rapidjson::Value& updates);

// Applies UpdateTable's VectorIndexUpdates to `schema`, with the request's
// AttributeDefinitions (null: none). New indexes get index_id 0 (the engine
// assigns ids); returns their names.
ApiResult<std::vector<std::string>> ApplyVectorIndexUpdates(const rapidjson::Value& updates,
                                                            const rapidjson::Value* definitions,
                                                            engine::TableSchema& schema);

// "Vector indexes are only supported for PAY_PER_REQUEST tables" when a
// provisioned table would have one.
ApiResult<bool> CheckVectorIndexBilling(const engine::TableSchema& schema);

}  // namespace ddb::api
