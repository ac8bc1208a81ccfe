// Turns a CreateTable request into an engine::TableSchema, validating it the
// way DynamoDB does: first the member constraints ("N validation errors
// detected"), then the key schema against the attribute definitions, the
// billing mode against the throughput, and each index.
//
// Thread safety: pure function.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <utility>
#include <vector>

#include "api/errors.h"
#include "api/json_reader.h"
#include "engine/catalog/catalog.h"

namespace ddb::api {

ApiResult<engine::TableSchema> ParseCreateTable(const rapidjson::Value& request);

// Parses a ProvisionedThroughput object (also used by UpdateTable); `path`
// is its member path for constraint messages.
ApiResult<engine::ProvisionedThroughput> ParseThroughput(const rapidjson::Value& json,
                                                         std::string_view path);

// Parses an AttributeDefinitions list, recording constraint violations.
ApiResult<std::vector<engine::KeyElement>> ReadAttributeDefinitions(const rapidjson::Value& json,
                                                                    Constraints& constraints);

// Parses one GlobalSecondaryIndex (also UpdateTable's Create) against the
// attribute definitions and billing mode of `table`.
ApiResult<engine::IndexSchema> ParseGlobalIndex(const rapidjson::Value& json,
                                                const engine::TableSchema& table,
                                                std::string_view path);

// Parses an index's Projection (GSI, LSI, vector index).
ApiResult<engine::Projection> ParseProjection(const rapidjson::Value* json);

// Parses a StreamSpecification (CreateTable, UpdateTable): StreamEnabled
// required, StreamViewType one of DynamoDB's four when given.
ApiResult<engine::StreamSpecification> ReadStreamSpecification(const rapidjson::Value& json);

// Parses an SSESpecification (CreateTable; RestoreTableFromBackup's
// override): enabled means KMS; an empty key ARN means the caller's default
// key (Context::DefaultKmsKeyArn).
ApiResult<engine::SseDescription> ParseSseSpecification(const rapidjson::Value& json,
                                                       std::string_view path);

// Parses a Tags list (CreateTable, TagResource) with DynamoDB's tag rules.
ApiResult<std::vector<std::pair<std::string, std::string>>> ParseTags(const rapidjson::Value& json);

}  // namespace ddb::api
