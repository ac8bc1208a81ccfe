#include "api/tables/vector_index_request.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "api/json_reader.h"
#include "api/tables/create_table_request.h"
#include "api/tables/gsi_updates.h"
#include "engine/secondary_index.h"
#include "engine/vectors/vector_index.h"

namespace ddb::api {
namespace {

const engine::KeyElement* FindDefinition(const std::vector<engine::KeyElement>& definitions,
                                         std::string_view name) {
  auto it = std::find_if(definitions.begin(), definitions.end(),
                         [&](const engine::KeyElement& d) { return d.name == name; });
  return it == definitions.end() ? nullptr : &*it;
}

// One VectorIndex (CreateTable) or CreateVectorIndexAction (UpdateTable);
// `path` is its member path in constraint messages.
ApiResult<engine::VectorIndexSchema> ParseVectorIndex(const rapidjson::Value& json,
                                                      const engine::TableSchema& table,
                                                      const std::string& path) {
  if (!json.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
  RequestReader r(json);
  auto name = r.String("IndexName");
  const rapidjson::Value* attribute_json = r.Object("VectorAttribute");
  auto dimensions = r.Long("Dimensions");
  auto distance = r.String("DistanceFunction");
  const rapidjson::Value* projection_json = r.Object("Projection");
  const rapidjson::Value* search_json = r.Array("SearchSchema");
  if (r.failed()) return r.error();
  std::optional<std::string_view> attribute;
  if (attribute_json) {
    RequestReader a(*attribute_json);
    attribute = a.String("AttributeName");
    if (a.failed()) return a.error();
  }
  Constraints constraints;
  constraints.NotNull(name.has_value(), path + ".indexName");
  if (name) constraints.TableName(name, path + ".indexName");
  constraints.NotNull(attribute_json != nullptr, path + ".vectorAttribute");
  if (attribute_json) {
    constraints.NotNull(attribute.has_value(), path + ".vectorAttribute.attributeName");
    if (attribute) constraints.Length(*attribute, path + ".vectorAttribute.attributeName", 1, 255);
  }
  constraints.NotNull(dimensions.has_value(), path + ".dimensions");
  // Below 1 is the member's constraint; above the maximum, the service's
  // sentence (below).
  constraints.Range(dimensions, path + ".dimensions", 1, INT64_MAX);
  constraints.NotNull(distance.has_value(), path + ".distanceFunction");
  constraints.Enum(distance, path + ".distanceFunction", {"DOT_PRODUCT", "COSINE", "EUCLIDEAN"});
  constraints.NotNull(projection_json != nullptr, path + ".projection");
  if (search_json && search_json->Empty()) {
    constraints.Violation("'[]'", path + ".searchSchema",
                          "Member must have length greater than or equal to 1");
  }
  if (!constraints.empty()) return constraints.ToError();
  // The service's own check, not a constraint on the member (captured
  // 2026-08 for 4097).
  if (*dimensions > kMaxVectorDimensions) {
    return ApiError::InvalidParameters("Number of dimensions must be between 1 and " +
                                       std::to_string(kMaxVectorDimensions) + " inclusive.");
  }

  engine::VectorIndexSchema index;
  index.name = std::string(*name);
  index.vector_attribute = std::string(*attribute);
  index.dimensions = static_cast<uint32_t>(*dimensions);
  index.distance = *distance == "COSINE"      ? engine::DistanceFunction::kCosine
                   : *distance == "EUCLIDEAN" ? engine::DistanceFunction::kEuclidean
                                              : engine::DistanceFunction::kDotProduct;
  auto projection = ParseProjection(projection_json);
  if (!projection.ok()) return projection.take_error();
  index.projection = std::move(projection).value();
  if (FindDefinition(table.attribute_definitions, index.vector_attribute)) {
    return ApiError::InvalidParameters(
        "Conflicting attribute definition for '" + index.vector_attribute +
        "'. An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute.");
  }
  if (search_json) {
    int hash = 0;
    int filters = 0;
    for (const auto& element_json : search_json->GetArray()) {
      if (!element_json.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
      RequestReader e(element_json);
      auto element_name = e.String("AttributeName");
      auto type = e.String("SearchSchemaElementType");
      if (e.failed()) return e.error();
      Constraints element_constraints;
      element_constraints.NotNull(element_name.has_value(), path + ".searchSchema.member.attributeName");
      element_constraints.NotNull(type.has_value(), path + ".searchSchema.member.searchSchemaElementType");
      element_constraints.Enum(type, path + ".searchSchema.member.searchSchemaElementType",
                               {"HASH", "INLINE_FILTER"});
      if (!element_constraints.empty()) return element_constraints.ToError();
      const engine::KeyElement* definition =
          FindDefinition(table.attribute_definitions, *element_name);
      if (!definition) {
        return ApiError::InvalidParameters(
            "One element in SearchSchema is not defined in attribute definitions");
      }
      engine::SearchSchemaElement element;
      element.name = std::string(*element_name);
      element.type = *type == "HASH" ? engine::SearchSchemaType::kHash
                                     : engine::SearchSchemaType::kInlineFilter;
      element.scalar_type = definition->type;
      (*type == "HASH" ? hash : filters) += 1;
      index.search_schema.push_back(std::move(element));
    }
    if (hash > 1) {
      return ApiError::InvalidParameters("SearchSchema can have at most one element of type HASH");
    }
    if (filters > 18) {
      return ApiError::InvalidParameters(
          "SearchSchema can have at most 18 elements of type INLINE_FILTER");
    }
  }
  return index;
}

ApiResult<bool> CheckBilling(const engine::TableSchema& table) {
  if (table.billing_mode != "PAY_PER_REQUEST") {
    return ApiError::InvalidParameters("Vector indexes are only supported for PAY_PER_REQUEST tables");
  }
  return true;
}

// The one action of a VectorIndexUpdate: "Create" or "Delete" and its body.
ApiResult<std::pair<std::string_view, const rapidjson::Value*>> ReadVectorIndexAction(
    const rapidjson::Value& update) {
  if (!update.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
  std::pair<std::string_view, const rapidjson::Value*> action{"", nullptr};
  int count = 0;
  for (std::string_view kind : {"Create", "Delete"}) {
    auto it = update.FindMember(rapidjson::StringRef(kind.data(), kind.size()));
    if (it == update.MemberEnd() || it->value.IsNull()) continue;
    if (!it->value.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    ++count;
    action = {kind, &it->value};
  }
  if (count != 1) {
    return ApiError::InvalidParameters(
        "One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must be specified");
  }
  return action;
}

// Vector indexes on one attribute read it as one vector: their dimensions
// must agree.
ApiResult<bool> CheckSameDimensions(const engine::TableSchema& schema,
                                    const engine::VectorIndexSchema& index) {
  for (const auto& other : schema.vector_indexes) {
    if (other.vector_attribute == index.vector_attribute && other.dimensions != index.dimensions) {
      return ApiError::InvalidParameters(
          "Conflicting attribute definition for '" + index.vector_attribute +
          "'. All VectorIndexes on the same vector attribute must use the same dimensions.");
    }
  }
  return true;
}

}  // namespace

ApiResult<bool> CheckVectorIndexBilling(const engine::TableSchema& schema) {
  if (schema.vector_indexes.empty()) return true;
  return CheckBilling(schema);
}

ApiResult<bool> ParseVectorIndexes(const rapidjson::Value* json, engine::TableSchema& schema) {
  if (!json) return true;
  if (json->Empty()) return ApiError::InvalidParameters("List of VectorIndexes is empty");
  if (json->Size() > kMaxVectorIndexes) {
    return ApiError::InvalidParameters("VectorIndex count exceeds the per-table limit of 5");
  }
  auto billing = CheckBilling(schema);
  if (!billing.ok()) return billing;
  int i = 0;
  for (const auto& index_json : json->GetArray()) {
    auto index = ParseVectorIndex(index_json, schema,
                                  "vectorIndexes." + std::to_string(++i) + ".member");
    if (!index.ok()) return index.take_error();
    auto same = CheckSameDimensions(schema, *index);
    if (!same.ok()) return same;
    schema.vector_indexes.push_back(std::move(index).value());
  }
  return true;
}

ApiResult<int> CountVectorIndexUpdates(const rapidjson::Value& updates) {
  int online = 0;
  for (const auto& update : updates.GetArray()) {
    auto action = ReadVectorIndexAction(update);
    if (!action.ok()) return action.take_error();
    ++online;
  }
  return online;
}

ApiResult<std::vector<std::string>> ApplyVectorIndexUpdates(const rapidjson::Value& updates,
                                                            const rapidjson::Value* definitions,
                                                            engine::TableSchema& schema) {
  // The request's definitions declare the new indexes' search schema; the
  // schema keeps only those a created index uses (below).
  engine::TableSchema with_definitions = schema;
  if (definitions) {
    auto merged = MergeAttributeDefinitions(*definitions, with_definitions);
    if (!merged.ok()) return merged.take_error();
  }
  std::vector<std::string> created;
  for (const auto& update : updates.GetArray()) {
    auto action = ReadVectorIndexAction(update);
    if (!action.ok()) return action.take_error();
    auto [kind, body] = *action;
    if (kind == "Create") {
      auto billing = CheckBilling(schema);
      if (!billing.ok()) return billing.take_error();
      if (schema.vector_indexes.size() >= kMaxVectorIndexes) {
        return ApiError::LimitExceeded(
            "Subscriber limit exceeded: Number of vector secondary indexes exceeds per-table "
            "limit of 5");
      }
      auto index = ParseVectorIndex(*body, with_definitions, "vectorIndexUpdates.1.member.create");
      if (!index.ok()) return index.take_error();
      if (engine::FindIndex(schema, index->name) || engine::FindVectorIndex(schema, index->name)) {
        return ApiError::Validation("Attempting to create an index which already exists");
      }
      auto same = CheckSameDimensions(schema, *index);
      if (!same.ok()) return same.take_error();
      // The search schema's definitions join the table's.
      for (const auto& element : index->search_schema) {
        if (!FindDefinition(schema.attribute_definitions, element.name)) {
          schema.attribute_definitions.push_back({element.name, element.scalar_type});
        }
      }
      created.push_back(index->name);
      index->index_id = 0;
      schema.vector_indexes.push_back(std::move(index).value());
      continue;
    }
    RequestReader r(*body);
    auto name = r.String("IndexName");
    if (r.failed()) return r.error();
    Constraints constraints;
    constraints.NotNull(name.has_value(), "vectorIndexUpdates.1.member.delete.indexName");
    if (!constraints.empty()) return constraints.ToError();
    auto& indexes = schema.vector_indexes;
    auto existing = std::find_if(indexes.begin(), indexes.end(),
                                 [&](const auto& index) { return index.name == *name; });
    if (existing == indexes.end()) {
      return ApiError::ResourceNotFound("Requested resource not found: Index: " +
                                        std::string(*name) + " not found");
    }
    indexes.erase(existing);
    // Definitions only the deleted index used go with it, as a GSI's do.
    std::set<std::string> used = engine::KeyAttributeNames(schema);
    std::erase_if(schema.attribute_definitions,
                  [&](const engine::KeyElement& d) { return !used.contains(d.name); });
  }
  return created;
}

}  // namespace ddb::api
