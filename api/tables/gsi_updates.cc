#include "api/tables/gsi_updates.h"

#include <algorithm>
#include <set>

#include "api/json_reader.h"
#include "api/tables/create_table_request.h"
#include "api/tables/throughput_settings.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"

namespace ddb::api {
namespace {

ApiError InvalidUpdate(const std::string& detail) { return ApiError::InvalidParameters(detail); }

// The one action of an update object, its name ("Create", ...) and body.
struct Action {
  std::string_view kind;
  const rapidjson::Value* body = nullptr;
  std::string index_name;
};

ApiResult<Action> ReadGsiAction(const rapidjson::Value& update) {
  if (!update.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
  Action action;
  int count = 0;
  for (std::string_view kind : {"Update", "Create", "Delete"}) {
    auto it = update.FindMember(rapidjson::StringRef(kind.data(), kind.size()));
    if (it == update.MemberEnd() || it->value.IsNull()) continue;
    if (!it->value.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    ++count;
    action.kind = kind;
    action.body = &it->value;
  }
  if (count == 0) {
    return InvalidUpdate(
        "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
        "GlobalSecondaryIndexUpdate.Delete must not be null");
  }
  if (count > 1) {
    return InvalidUpdate("Only one global secondary index action is allowed per "
                   "GlobalSecondaryIndexUpdate object");
  }
  RequestReader r(*action.body);
  auto name = r.String("IndexName");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(name.has_value(), "globalSecondaryIndexUpdates.member.indexName");
  if (!constraints.empty()) return constraints.ToError();
  action.index_name = std::string(*name);
  return action;
}

ApiResult<std::vector<Action>> ReadGsiActions(const rapidjson::Value& updates) {
  std::vector<Action> actions;
  for (const auto& update : updates.GetArray()) {
    auto action = ReadGsiAction(update);
    if (!action.ok()) return action.take_error();
    actions.push_back(std::move(action).value());
  }
  return actions;
}

// An attribute definition as DynamoDB echoes it in messages.
std::string DefinitionEcho(const engine::KeyElement& definition) {
  return "AttributeDefinition(attributeName=" + definition.name +
         ", attributeType=" + std::string(engine::ScalarTypeName(definition.type)) + ")";
}

// Keeps only the definitions some key uses: DynamoDB forgets a deleted
// index's attributes.
void PruneDefinitions(engine::TableSchema& schema) {
  std::set<std::string> used = engine::KeyAttributeNames(schema);
  std::erase_if(schema.attribute_definitions,
                [&](const engine::KeyElement& d) { return !used.contains(d.name); });
}

}  // namespace

ApiResult<bool> CheckGsiUpdates(const GsiUpdates& request) {
  auto actions = ReadGsiActions(*request.updates);
  if (!actions.ok()) return actions.take_error();
  std::set<std::string> named;
  int online = 0;
  for (const Action& action : *actions) {
    if (!named.insert(action.index_name).second) {
      return InvalidUpdate("Only one global secondary index update per index is allowed "
                     "simultaneously. Index: " + action.index_name);
    }
    if (action.kind != "Update") ++online;
  }
  if (online > 1) {
    return ApiError::LimitExceeded(
        "Subscriber limit exceeded: Only 1 online index can be created or deleted "
        "simultaneously per table");
  }
  return true;
}

ApiResult<bool> MergeAttributeDefinitions(const rapidjson::Value& json,
                                          engine::TableSchema& schema) {
  Constraints constraints;
  auto definitions = ReadAttributeDefinitions(json, constraints);
  if (!definitions.ok()) return definitions.take_error();
  if (!constraints.empty()) return constraints.ToError();
  for (const auto& definition : *definitions) {
    auto& defs = schema.attribute_definitions;
    auto same = std::find_if(defs.begin(), defs.end(),
                             [&](const auto& d) { return d.name == definition.name; });
    if (same == defs.end()) {
      defs.push_back(definition);
    } else if (same->type != definition.type) {
      return InvalidUpdate(
          "Attributes cannot be redefined. Please check that your attribute has the same type "
          "as previously defined. Existing schema: " + DefinitionEcho(*same) +
          " New schema: " + DefinitionEcho(definition));
    }
  }
  return true;
}

ApiResult<std::vector<std::string>> ApplyGsiUpdates(const GsiUpdates& request,
                                                    engine::TableSchema& schema,
                                                    std::string_view region) {
  auto actions = ReadGsiActions(*request.updates);
  if (!actions.ok()) return actions.take_error();
  if (request.definitions) {
    auto merged = MergeAttributeDefinitions(*request.definitions, schema);
    if (!merged.ok()) return merged.take_error();
  }
  std::vector<std::string> created;
  auto& indexes = schema.global_indexes;
  for (const Action& action : *actions) {
    auto existing = std::find_if(indexes.begin(), indexes.end(),
                                 [&](const auto& i) { return i.name == action.index_name; });
    if (action.kind == "Create") {
      if (engine::FindIndex(schema, action.index_name) != nullptr) {
        return ApiError::Validation("Attempting to create an index which already exists");
      }
      if (!request.definitions) {
        return InvalidUpdate("AttributeDefinitions is not specified for index: " + action.index_name);
      }
      if (indexes.size() >= 20) {
        return ApiError::LimitExceeded(
            "Subscriber limit exceeded: The number of global secondary indexes for this table "
            "would exceed the limit of 20");
      }
      auto index = ParseGlobalIndex(*action.body, schema,
                                    "globalSecondaryIndexUpdates.1.member.create");
      if (!index.ok()) return index.take_error();
      auto settings = ApplyIndexThroughputUpdate(*action.body, true, schema, *index, region);
      if (!settings.ok()) return settings.take_error();
      index->index_id = 0;
      indexes.push_back(std::move(index).value());
      created.push_back(action.index_name);
      continue;
    }
    if (existing == indexes.end()) {
      return ApiError::ResourceNotFound("Requested resource not found: Index: " +
                                        action.index_name + " not found");
    }
    if (action.kind == "Delete") {
      indexes.erase(existing);
      continue;
    }
    RequestReader r(*action.body);
    const rapidjson::Value* throughput_json = r.Object("ProvisionedThroughput");
    const rapidjson::Value* warm_json = r.Object("WarmThroughput");
    const rapidjson::Value* on_demand_json = r.Object("OnDemandThroughput");
    if (r.failed()) return r.error();
    bool on_demand_limits = on_demand_json && on_demand_json->MemberCount() > 0;
    if (schema.billing_mode == "PAY_PER_REQUEST" &&
        (throughput_json || (!warm_json && !on_demand_limits))) {
      return InvalidUpdate("The only Updates for index: " + action.index_name +
                     " when TableThroughputMode is PAY_PER_REQUEST can be to "
                     "OnDemandThroughput, WarmThroughput");
    }
    auto settings = ApplyIndexThroughputUpdate(*action.body, false, schema, *existing, region);
    if (!settings.ok()) return settings.take_error();
    if (throughput_json) {
      auto throughput = ParseThroughput(*throughput_json,
                                        "globalSecondaryIndexUpdates.1.member.update."
                                        "provisionedThroughput");
      if (!throughput.ok()) return throughput.take_error();
      existing->throughput = *throughput;
    }
  }
  PruneDefinitions(schema);
  return created;
}

}  // namespace ddb::api
