// JSON <-> AttributeValue: DynamoDB's wire form of data ({"S":"x"},
// {"N":"1.5"}, {"B":"<base64>"}, {"M":{…}}, …), with the validation DynamoDB
// applies to every value a client sends: exactly one type per value, valid
// numbers, valid base64, non-empty sets without duplicates, NULL only true,
// at most 32 levels of nesting.
//
// Thread safety: pure functions.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>

#include "api/errors.h"
#include "api/json_reader.h"
#include "engine/attribute_value.h"

namespace ddb::api {

// A value nested beyond 32 levels, in items and ExpressionAttributeValues
// alike: DynamoDB's text, with its validation prefix in every region
// (captured), and never wrapped as an invalid ExpressionAttributeValues entry.
inline constexpr std::string_view kNestingTooDeep =
    "1 validation error detected: Nesting Levels have exceeded supported limits: Attributes in "
    "the item have nested levels beyond supported limit";

// Parses one attribute value. ValidationException or SerializationException
// as DynamoDB words them. `depth` is the number of M/L levels above it.
ApiResult<engine::AttributeValue> ParseAttributeValue(const rapidjson::Value& json,
                                                      int depth = 0);

// Parses a map of attribute name to value (an Item or a Key); every name
// must pass CheckAttributeName.
ApiResult<engine::Item> ParseItem(const rapidjson::Value& json);

// What is wrong with a top-level attribute name, or nothing: names are 1 to
// 65,535 bytes ("Empty attribute name", ...), wherever they come from.
std::optional<std::string> CheckAttributeName(std::string_view name);

void WriteAttributeValue(JsonWriter& writer, const engine::AttributeValue& value);
void WriteItem(JsonWriter& writer, const engine::Item& item);

}  // namespace ddb::api
