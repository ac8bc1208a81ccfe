#include "api/tables/create_table_request.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "api/json_reader.h"
#include "api/tables/vector_index_request.h"
#include "engine/secondary_index.h"

namespace ddb::api {
namespace {

using engine::KeyElement;
using engine::ScalarType;

ApiError InvalidSchema(const std::string& detail) { return ApiError::InvalidParameters(detail); }

engine::ScalarType ToScalarType(std::string_view type) {
  return type == "N" ? ScalarType::kN : type == "B" ? ScalarType::kB : ScalarType::kS;
}

struct RawKeyElement {
  std::string name;
  std::string key_type;
};

// A KeySchema as DynamoDB echoes it in constraint messages (Java's form).
std::string KeySchemaEcho(const rapidjson::Value& json) {
  std::string echo;
  for (const auto& element : json.GetArray()) {
    auto text = [&](const char* member) -> std::string {
      if (!element.IsObject()) return "null";
      auto it = element.FindMember(member);
      return it != element.MemberEnd() && it->value.IsString() ? std::string(View(it->value))
                                                               : "null";
    };
    echo += std::string(echo.empty() ? "" : ", ") + "KeySchemaElement(attributeName=" +
            text("AttributeName") + ", keyType=" + text("KeyType") + ")";
  }
  return "[" + echo + "]";
}

// Reads a KeySchema array, recording constraint violations under `path`.
ApiResult<std::vector<RawKeyElement>> ReadKeySchema(const rapidjson::Value* json,
                                                    std::string_view path, size_t max,
                                                    Constraints& constraints) {
  std::vector<RawKeyElement> elements;
  constraints.NotNull(json != nullptr, path);
  if (!json) return elements;
  if (json->Empty()) {
    constraints.Violation("'[]'", path, "Member must have length greater than or equal to 1");
  } else if (json->Size() > max) {
    constraints.Violation(Quote(KeySchemaEcho(*json)), path,
                          "Member must have length less than or equal to " + std::to_string(max));
  }
  int i = 0;
  for (const auto& element : json->GetArray()) {
    std::string member = std::string(path) + "." + std::to_string(++i) + ".member.";
    if (!element.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    RequestReader r(element);
    auto name = r.String("AttributeName");
    auto type = r.String("KeyType");
    if (r.failed()) return r.error();
    constraints.NotNull(name.has_value(), member + "attributeName");
    constraints.NotNull(type.has_value(), member + "keyType");
    if (name) constraints.Length(*name, member + "attributeName", 1, 255);
    constraints.Enum(type, member + "keyType", {"HASH", "RANGE"});
    elements.push_back({std::string(name.value_or("")), std::string(type.value_or(""))});
  }
  return elements;
}

// A multi-attribute (GSI) key: at most four HASH and four RANGE attributes,
// every HASH first, no attribute twice.
ApiResult<bool> CheckMultiAttributeShape(const std::vector<RawKeyElement>& raw) {
  constexpr size_t kMaxPerKind = 4;
  size_t hashes = 0, ranges = 0;
  bool range_seen = false, hash_after_range = false;
  for (const auto& element : raw) {
    bool hash = element.key_type == "HASH";
    (hash ? hashes : ranges) += 1;
    hash_after_range = hash_after_range || (hash && range_seen);
    range_seen = range_seen || !hash;
  }
  for (auto [count, kind] : {std::pair{hashes, "HASH"}, std::pair{ranges, "RANGE"}}) {
    if (count > kMaxPerKind) {
      return InvalidSchema(std::string("The KeySchema exceeds the maximum allowed number of ") + kind +
                     " key attributes");
    }
  }
  if (hash_after_range) {
    return InvalidSchema("All HASH key attributes must precede RANGE key attributes in the KeySchema");
  }
  std::set<std::string_view> names;
  for (const auto& element : raw) {
    if (!names.insert(element.name).second) {
      return ApiError::Validation("The KeySchema contains multiple key attributes with the same name");
    }
  }
  return true;
}

// Resolves raw key elements against the attribute definitions.
ApiResult<engine::KeySchema> ResolveKeySchema(const std::vector<RawKeyElement>& raw,
                                              const std::vector<KeyElement>& definitions,
                                              bool allow_multi) {
  if (allow_multi) {
    auto shape = CheckMultiAttributeShape(raw);
    if (!shape.ok()) return shape.take_error();
  }
  engine::KeySchema key;
  for (size_t i = 0; i < raw.size(); ++i) {
    const RawKeyElement& element = raw[i];
    if (!allow_multi) {
      if (i == 0 && element.key_type != "HASH") {
        return ApiError::Validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
      }
      if (i == 1 && element.key_type != "RANGE") {
        return ApiError::Validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
      }
      if (i == 1 && element.name == raw[0].name) {  // DynamoDB's text for [pk HASH, pk RANGE]
        return ApiError::Validation("Invalid KeySchema: Some index key attribute have no definition");
      }
    }
    auto def = std::find_if(definitions.begin(), definitions.end(),
                            [&](const KeyElement& d) { return d.name == element.name; });
    if (def == definitions.end()) {
      if (definitions.empty()) {
        return ApiError::Validation("Invalid KeySchema: Some index key attribute have no definition");
      }
      std::string keys, defs;
      for (const auto& e : raw) keys += (keys.empty() ? "" : ", ") + e.name;
      for (const auto& d : definitions) defs += (defs.empty() ? "" : ", ") + d.name;
      return InvalidSchema("Some index key attributes are not defined in AttributeDefinitions. Keys: [" +
                     keys + "], AttributeDefinitions: [" + defs + "]");
    }
    (element.key_type == "HASH" ? key.hash : key.range).push_back(*def);
  }
  if (key.hash.empty()) {
    return ApiError::Validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  return key;
}

// Each NonKeyAttributes name is 1-255 characters, a member constraint
// DynamoDB checks before the schema's consistency.
void CheckNonKeyNameLengths(const rapidjson::Value& projection, std::string_view path,
                            Constraints& constraints) {
  auto it = projection.FindMember("NonKeyAttributes");
  if (it == projection.MemberEnd() || !it->value.IsArray()) return;
  std::string echo;
  bool bad = false;
  for (const auto& name : it->value.GetArray()) {
    if (!name.IsString()) return;  // a SerializationException when parsed
    echo += (echo.empty() ? "" : ", ") + std::string(View(name));
    bad = bad || name.GetStringLength() < 1 || Utf16Length(View(name)) > 255;
  }
  if (!bad) return;
  constraints.Violation(Quote("[" + echo + "]"), std::string(path) + ".projection.nonKeyAttributes",
                        "Member must satisfy constraint: [Member must have length less than or "
                        "equal to 255, Member must have length greater than or equal to 1]");
}

// The member constraints of one index (its name, key schema, projection),
// recorded under `path`: DynamoDB reports them with the request's other
// member constraints, before any check of the schema's consistency.
ApiResult<bool> CheckIndexMembers(const rapidjson::Value& json, bool is_local,
                                  std::string_view path, Constraints& constraints) {
  if (!json.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
  RequestReader r(json);
  auto name = r.String("IndexName");
  const rapidjson::Value* key_json = r.Array("KeySchema");
  const rapidjson::Value* projection_json = r.Object("Projection");
  if (r.failed()) return r.error();
  constraints.NotNull(name.has_value(), std::string(path) + ".indexName");
  if (name) constraints.TableName(name, std::string(path) + ".indexName");
  auto raw = ReadKeySchema(key_json, std::string(path) + ".keySchema", is_local ? 2 : 8, constraints);
  if (!raw.ok()) return raw.take_error();
  constraints.NotNull(projection_json != nullptr, std::string(path) + ".projection");
  if (projection_json) CheckNonKeyNameLengths(*projection_json, path, constraints);
  return true;
}

// CheckIndexMembers for every index of a CreateTable request: the GSIs'
// violations first, then the LSIs' (the order DynamoDB lists them in).
ApiResult<bool> CheckAllIndexMembers(const rapidjson::Value* gsi_json,
                                     const rapidjson::Value* lsi_json, Constraints& constraints) {
  for (auto [json, is_local] : {std::pair{gsi_json, false}, std::pair{lsi_json, true}}) {
    if (!json) continue;
    int i = 0;
    for (const auto& index_json : json->GetArray()) {
      std::string path =
          std::string(is_local ? "localSecondaryIndexes." : "globalSecondaryIndexes.") +
          std::to_string(++i) + ".member";
      auto checked = CheckIndexMembers(index_json, is_local, path, constraints);
      if (!checked.ok()) return checked;
    }
  }
  return true;
}

ApiResult<engine::IndexSchema> ParseIndex(const rapidjson::Value& json, bool is_local,
                                          const engine::TableSchema& table,
                                          std::string_view path, Constraints& constraints) {
  auto members = CheckIndexMembers(json, is_local, path, constraints);
  if (!members.ok()) return members.take_error();
  if (!constraints.empty()) return engine::IndexSchema{};  // reported by the caller
  RequestReader r(json);
  auto name = r.String("IndexName");
  const rapidjson::Value* key_json = r.Array("KeySchema");
  const rapidjson::Value* projection_json = r.Object("Projection");
  const rapidjson::Value* throughput_json = is_local ? nullptr : r.Object("ProvisionedThroughput");
  if (r.failed()) return r.error();
  Constraints unused;  // CheckIndexMembers recorded its violations
  auto raw = ReadKeySchema(key_json, std::string(path) + ".keySchema", is_local ? 2 : 8, unused);
  if (!raw.ok()) return raw.take_error();

  engine::IndexSchema index;
  index.name = std::string(*name);
  index.is_local = is_local;
  auto key = ResolveKeySchema(*raw, table.attribute_definitions, !is_local);
  if (!key.ok()) return key.take_error();
  index.key = std::move(key).value();
  if (is_local) {
    if (index.key.hash.front().name != table.hash_key().name) {
      return InvalidSchema("Index KeySchema does not have the same leading hash key as table KeySchema for index: " +
                     index.name + ". index hash key: " + index.key.hash.front().name +
                     ", table hash key: " + table.hash_key().name);
    }
    if (index.key.range.empty()) {
      return InvalidSchema("Index KeySchema does not have a range key for index: " + index.name);
    }
  }
  auto projection = ParseProjection(projection_json);
  if (!projection.ok()) return projection.take_error();
  index.projection = std::move(projection).value();
  if (!is_local) {
    bool provisioned = table.billing_mode == "PROVISIONED";
    if (provisioned && !throughput_json) {
      return InvalidSchema("ProvisionedThroughput is not specified for index: " + index.name);
    }
    if (!provisioned && throughput_json) {
      return InvalidSchema("ProvisionedThroughput should not be specified for index: " + index.name +
                     " when BillingMode is PAY_PER_REQUEST");
    }
    if (throughput_json) {
      auto throughput = ParseThroughput(*throughput_json, std::string(path) + ".provisionedThroughput");
      if (!throughput.ok()) return throughput.take_error();
      index.throughput = *throughput;
    }
  }
  return index;
}

ApiResult<std::vector<engine::IndexSchema>> ParseIndexes(const rapidjson::Value* json,
                                                         bool is_local,
                                                         const engine::TableSchema& table) {
  std::vector<engine::IndexSchema> indexes;
  if (!json) return indexes;
  const char* kind = is_local ? "LocalSecondaryIndexes" : "GlobalSecondaryIndexes";
  if (json->Empty()) return InvalidSchema(std::string("List of ") + kind + " is empty");
  if (is_local && !table.range_key()) {
    return InvalidSchema(
        "Table KeySchema does not have a range key, which is required when specifying a "
        "LocalSecondaryIndex");
  }
  if (is_local && json->Size() > 5) {
    return InvalidSchema("Number of LocalSecondaryIndexes exceeds per-table limit of 5");
  }
  if (!is_local && json->Size() > 20) {
    return InvalidSchema("GlobalSecondaryIndex count exceeds the per-table limit of 20");
  }
  Constraints constraints;
  int i = 0;
  for (const auto& index_json : json->GetArray()) {
    std::string path = std::string(is_local ? "localSecondaryIndexes." : "globalSecondaryIndexes.") +
                       std::to_string(++i) + ".member";
    auto index = ParseIndex(index_json, is_local, table, path, constraints);
    if (!index.ok()) return index.take_error();
    if (!constraints.empty()) return constraints.ToError();
    indexes.push_back(std::move(index).value());
  }
  return indexes;
}

// Table-level checks that follow the member constraints.
ApiResult<engine::TableSchema> CheckDefinitionsAndIndexNames(engine::TableSchema schema) {
  std::set<std::string> names;
  for (const auto* indexes : {&schema.local_indexes, &schema.global_indexes}) {
    for (const auto& index : *indexes) {
      if (!names.insert(index.name).second) return InvalidSchema("Duplicate index name: " + index.name);
    }
  }
  for (const auto& index : schema.vector_indexes) {
    if (!names.insert(index.name).second) return InvalidSchema("Duplicate index name: " + index.name);
  }
  // Every attribute definition must be used by a key.
  std::set<std::string> used = engine::KeyAttributeNames(schema);
  if (used.size() != schema.attribute_definitions.size()) {
    if (schema.local_indexes.empty() && schema.global_indexes.empty()) {
      return InvalidSchema(
          "Number of attributes in KeySchema does not exactly match number of attributes "
          "defined in AttributeDefinitions");
    }
    std::string defs, keys;
    for (const auto& d : schema.attribute_definitions) defs += (defs.empty() ? "" : ", ") + d.name;
    for (const auto& k : used) keys += (keys.empty() ? "" : ", ") + k;
    return InvalidSchema("Some AttributeDefinitions are not used. AttributeDefinitions: [" + defs +
                   "], keys used: [" + keys + "]");
  }
  return schema;
}

// Tag keys and values: at most `max_chars` Unicode characters of letters,
// digits, white space and "+ - = . _ : / @". Every non-ASCII character is
// taken for a letter (DynamoDB's \p{L}, \p{N} and \p{Z} classes would need
// Unicode tables).
bool IsValidTagText(std::string_view text, size_t max_chars) {
  size_t chars = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
    ++chars;
    bool allowed = c >= 0x80 || std::isalnum(c) || c == ' ' ||
                   std::string_view("+-=._:/@").find(static_cast<char>(c)) != std::string_view::npos;
    if (!allowed) return false;
  }
  return chars <= max_chars;
}

}  // namespace

ApiResult<engine::Projection> ParseProjection(const rapidjson::Value* json) {
  engine::Projection projection;
  std::optional<std::string_view> type;
  const rapidjson::Value* non_key = nullptr;
  if (json) {
    RequestReader r(*json);
    type = r.String("ProjectionType");
    non_key = r.Array("NonKeyAttributes");
    if (r.failed()) return r.error();
  }
  if (!type) return InvalidSchema("Unknown ProjectionType: null");
  if (*type == "ALL" || *type == "KEYS_ONLY") {
    if (non_key) return InvalidSchema("ProjectionType is " + std::string(*type) + ", but NonKeyAttributes is specified");
    projection.type = *type == "ALL" ? engine::ProjectionType::kAll : engine::ProjectionType::kKeysOnly;
    return projection;
  }
  if (*type != "INCLUDE") return InvalidSchema("Unknown ProjectionType: " + std::string(*type));
  if (!non_key) return InvalidSchema("ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
  projection.type = engine::ProjectionType::kInclude;
  for (const auto& name : non_key->GetArray()) {
    if (!name.IsString()) return WrongType(name, "String");
    auto& names = projection.non_key_attributes;
    if (std::find(names.begin(), names.end(), View(name)) != names.end()) {
      return InvalidSchema("Duplicate attribute names in NonKeyAttributes: " + std::string(View(name)));
    }
    names.emplace_back(View(name));
  }
  return projection;
}

ApiResult<engine::ProvisionedThroughput> ParseThroughput(const rapidjson::Value& json,
                                                         std::string_view path) {
  RequestReader r(json);
  auto read = r.Long("ReadCapacityUnits");
  auto write = r.Long("WriteCapacityUnits");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(write.has_value(), std::string(path) + ".writeCapacityUnits");
  constraints.NotNull(read.has_value(), std::string(path) + ".readCapacityUnits");
  constraints.Range(read, std::string(path) + ".readCapacityUnits", 1, INT64_MAX);
  constraints.Range(write, std::string(path) + ".writeCapacityUnits", 1, INT64_MAX);
  if (!constraints.empty()) return constraints.ToError();
  constexpr int64_t kMaxUnits = 1'000'000'000'000;
  if (*read > kMaxUnits) {
    return ApiError::Validation("Given value " + std::to_string(*read) + " for ReadCapacityUnits is out of bounds");
  }
  if (*write > kMaxUnits) {
    return ApiError::Validation("Given value " + std::to_string(*write) + " for WriteCapacityUnits is out of bounds");
  }
  engine::ProvisionedThroughput throughput;
  throughput.read_capacity_units = *read;
  throughput.write_capacity_units = *write;
  return throughput;
}

ApiResult<std::vector<std::pair<std::string, std::string>>> ParseTags(const rapidjson::Value& json) {
  std::vector<std::pair<std::string, std::string>> tags;
  for (const auto& tag : json.GetArray()) {
    if (!tag.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    RequestReader t(tag);
    auto key = t.String("Key");
    auto value = t.String("Value");
    if (t.failed()) return t.error();
    if (!key || key->empty() || !IsValidTagText(*key, 128)) {
      return ApiError::Validation("The Tag Key provided is invalid, Key: " +
                                  std::string(key.value_or("")));
    }
    if (key->starts_with("aws:")) {
      return ApiError::Validation("Tag Key cannot be prefixed with aws:, Key: " + std::string(*key));
    }
    if (!value || !IsValidTagText(*value, 256)) {
      return ApiError::Validation("The Tag Value provided is invalid, Value: " +
                                  std::string(value.value_or("null")));
    }
    for (const auto& [existing, _] : tags) {
      if (existing == *key) {
        return ApiError::Validation("Duplicate Tag Keys provided as input: Duplicate Tag Key found " +
                                    existing);
      }
    }
    tags.emplace_back(std::string(*key), std::string(value.value_or("")));
  }
  if (tags.size() > 50) {
    return ApiError::Validation("Number of Tags exceed the current limit for the provided ResourceArn");
  }
  return tags;
}

ApiResult<std::vector<engine::KeyElement>> ReadAttributeDefinitions(const rapidjson::Value& json,
                                                                    Constraints& constraints) {
  std::vector<engine::KeyElement> definitions;
  int i = 0;
  for (const auto& def : json.GetArray()) {
    std::string member = "attributeDefinitions." + std::to_string(++i) + ".member.";
    if (!def.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    RequestReader d(def);
    auto name = d.String("AttributeName");
    auto type = d.String("AttributeType");
    if (d.failed()) return d.error();
    constraints.NotNull(name.has_value(), member + "attributeName");
    constraints.NotNull(type.has_value(), member + "attributeType");
    if (name) constraints.Length(*name, member + "attributeName", 1, 255);
    constraints.Enum(type, member + "attributeType", {"B", "N", "S"});
    if (name && type) definitions.push_back({std::string(*name), ToScalarType(*type)});
  }
  return definitions;
}

ApiResult<engine::IndexSchema> ParseGlobalIndex(const rapidjson::Value& json,
                                                const engine::TableSchema& table,
                                                std::string_view path) {
  Constraints constraints;
  auto index = ParseIndex(json, false, table, path, constraints);
  if (!index.ok()) return index.take_error();
  if (!constraints.empty()) return constraints.ToError();
  return index;
}

ApiResult<engine::StreamSpecification> ReadStreamSpecification(const rapidjson::Value& json) {
  RequestReader s(json);
  auto enabled = s.Bool("StreamEnabled");
  auto view_type = s.String("StreamViewType");
  if (s.failed()) return s.error();
  Constraints constraints;
  constraints.NotNull(enabled.has_value(), "streamSpecification.streamEnabled");
  constraints.Enum(view_type, "streamSpecification.streamViewType",
                   {"NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"});
  if (!constraints.empty()) return constraints.ToError();
  engine::StreamSpecification spec;
  spec.enabled = *enabled;
  spec.view_type = std::string(view_type.value_or(""));
  return spec;
}

ApiResult<engine::SseDescription> ParseSseSpecification(const rapidjson::Value& json,
                                                       std::string_view path) {
  RequestReader s(json);
  auto enabled = s.Bool("Enabled");
  auto sse_type = s.String("SSEType");
  auto kms_key = s.String("KMSMasterKeyId");
  if (s.failed()) return s.error();
  Constraints constraints;
  constraints.Enum(sse_type, std::string(path) + ".sSEType", {"AES256", "KMS"});
  if (!constraints.empty()) return constraints.ToError();
  engine::SseDescription sse;
  if (enabled.value_or(false)) {
    sse.enabled = true;
    sse.sse_type = "KMS";
    sse.kms_key_arn = std::string(kms_key.value_or(""));  // empty: the caller picks
  }
  return sse;
}

ApiResult<engine::TableSchema> ParseCreateTable(const rapidjson::Value& request) {
  RequestReader r(request);
  auto table_name = r.String("TableName");
  const rapidjson::Value* key_json = r.Array("KeySchema");
  const rapidjson::Value* defs_json = r.Array("AttributeDefinitions");
  auto billing_mode = r.String("BillingMode");
  const rapidjson::Value* throughput_json = r.Object("ProvisionedThroughput");
  const rapidjson::Value* lsi_json = r.Array("LocalSecondaryIndexes");
  const rapidjson::Value* gsi_json = r.Array("GlobalSecondaryIndexes");
  const rapidjson::Value* vector_json = r.Array("VectorIndexes");
  const rapidjson::Value* stream_json = r.Object("StreamSpecification");
  const rapidjson::Value* sse_json = r.Object("SSESpecification");
  const rapidjson::Value* tags_json = r.Array("Tags");
  auto table_class = r.String("TableClass");
  auto deletion_protection = r.Bool("DeletionProtectionEnabled");
  if (r.failed()) return r.error();

  if (!table_name) {
    return ApiError::Validation(
        "The parameter 'TableName' is required but was not present in the request");
  }
  Constraints constraints;
  constraints.NotNull(defs_json != nullptr, "attributeDefinitions");
  constraints.TableName(table_name);
  auto raw_key = ReadKeySchema(key_json, "keySchema", 2, constraints);
  if (!raw_key.ok()) return raw_key.take_error();
  engine::TableSchema schema;
  if (defs_json) {
    auto defs = ReadAttributeDefinitions(*defs_json, constraints);
    if (!defs.ok()) return defs.take_error();
    schema.attribute_definitions = std::move(defs).value();
  }
  constraints.Enum(billing_mode, "billingMode", {"PROVISIONED", "PAY_PER_REQUEST"});
  auto index_members = CheckAllIndexMembers(gsi_json, lsi_json, constraints);
  if (!index_members.ok()) return index_members.take_error();
  if (!constraints.empty()) return constraints.ToError();

  schema.name = std::string(*table_name);
  for (size_t i = 0; i < schema.attribute_definitions.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (schema.attribute_definitions[i].name == schema.attribute_definitions[j].name) {
        return ApiError::Validation("Attribute Name is duplicated: " +
                                    schema.attribute_definitions[i].name);
      }
    }
  }
  auto key = ResolveKeySchema(*raw_key, schema.attribute_definitions, false);
  if (!key.ok()) return key.take_error();
  schema.key = std::move(key).value();

  schema.billing_mode = std::string(billing_mode.value_or("PROVISIONED"));
  if (schema.billing_mode == "PROVISIONED") {
    if (!throughput_json) {
      return InvalidSchema("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
    }
    auto throughput = ParseThroughput(*throughput_json, "provisionedThroughput");
    if (!throughput.ok()) return throughput.take_error();
    schema.throughput = *throughput;
  } else if (throughput_json) {
    return InvalidSchema("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  }

  auto lsis = ParseIndexes(lsi_json, true, schema);
  if (!lsis.ok()) return lsis.take_error();
  schema.local_indexes = std::move(lsis).value();
  auto gsis = ParseIndexes(gsi_json, false, schema);
  if (!gsis.ok()) return gsis.take_error();
  schema.global_indexes = std::move(gsis).value();

  if (stream_json) {
    auto stream = ReadStreamSpecification(*stream_json);
    if (!stream.ok()) return stream.take_error();
    if (stream->enabled && stream->view_type.empty()) {
      return InvalidSchema("Table is being created with a stream enabled, UpdateViewType is required");
    }
    if (!stream->enabled && !stream->view_type.empty()) {
      return InvalidSchema("Table is being created with a stream disabled, UpdateViewType should not be specified");
    }
    schema.stream = std::move(stream).value();
  }
  if (sse_json) {
    auto sse = ParseSseSpecification(*sse_json, "sSESpecification");
    if (!sse.ok()) return sse.take_error();
    schema.sse = std::move(sse).value();
  }
  if (tags_json) {
    auto tags = ParseTags(*tags_json);
    if (!tags.ok()) return tags.take_error();
    schema.tags = std::move(tags).value();
  }
  if (table_class) {
    if (*table_class != "STANDARD" && *table_class != "STANDARD_INFREQUENT_ACCESS") {
      return ApiError::Validation(
          "Invalid table-class parameter provided. Please try again with a valid table-class "
          "value: [STANDARD, STANDARD_INFREQUENT_ACCESS].");
    }
    schema.table_class = std::string(*table_class);
  }
  schema.deletion_protection = deletion_protection.value_or(false);
  auto vector_indexes = ParseVectorIndexes(vector_json, schema);
  if (!vector_indexes.ok()) return vector_indexes.take_error();
  return CheckDefinitionsAndIndexNames(std::move(schema));
}

}  // namespace ddb::api
