// The global-table operations beside UpdateTable's ReplicaUpdates: the
// legacy version 2017.11.29 (CreateGlobalTable, UpdateGlobalTable,
// DescribeGlobalTable, ListGlobalTables, Describe/UpdateGlobalTableSettings)
// and replica auto scaling. DynamoDB no longer makes legacy global tables
// and does not count a 2019.11.21 table as one, so these answer as it does
// in 2026 (docs/research/global-tables.md §5): refusals, "not found" and an
// empty list. Replica auto scaling describes a current global table's
// members, whose on-demand capacity has nothing to scale.
#include <algorithm>

#include "api/json_reader.h"
#include "api/operations.h"

namespace ddb::api {
namespace {

ApiResult<std::string> RequiredGlobalTableName(const rapidjson::Value& request) {
  RequestReader r(request);
  auto name = r.String("GlobalTableName");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(name.has_value(), "globalTableName");
  if (name) constraints.TableName(name, "globalTableName");
  if (!constraints.empty()) return constraints.ToError();
  return std::string(*name);
}

ApiError LegacyRefused() {
  return ApiError::Validation(
      "One or more parameter values were invalid: DynamoDB global tables version 2017.11.29 is "
      "not supported. We recommend using DynamoDB global tables version 2019.11.21, instead of "
      "version 2017.11.29 (Legacy).");
}

ApiError NoSuchGlobalTable(std::string_view name) {
  return ApiError::GlobalTableNotFound("Global table with name: '" + std::string(name) +
                                       "' does not exist.");
}

// The table named by a replica auto-scaling request (a name or an ARN),
// if it is a global table; DynamoDB's "not found" otherwise.
ApiResult<std::shared_ptr<const engine::TableSchema>> GlobalTableOf(
    Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto name = r.String("TableName");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(name.has_value(), "tableName");
  if (name) constraints.TableNameOrArn(name, "tableName");
  if (!constraints.empty()) return constraints.ToError();
  std::string table = TableNameFromArn(*name);
  auto schema = ctx.db.GetSchema(ctx.caller.ns, table);
  if (!schema.ok() || (*schema)->replicas.empty()) {
    return ApiError::ResourceNotFound("Global table with name: '" + table + "' does not exist.");
  }
  return *schema;
}

void WriteScalingDisabled(JsonWriter& w, const char* key) {
  w.Key(key);
  w.StartObject();
  w.Key("AutoScalingDisabled");
  w.Bool(true);
  w.Key("ScalingPolicies");
  w.StartArray();
  w.EndArray();
  w.EndObject();
}

// TableAutoScalingDescription: every member, the caller's included, by
// region name.
std::string RenderAutoScaling(Context& ctx, const engine::TableSchema& schema) {
  std::vector<const engine::Replica*> members;
  for (const engine::Replica& replica : schema.replicas) members.push_back(&replica);
  std::sort(members.begin(), members.end(),
            [](const engine::Replica* a, const engine::Replica* b) { return a->region < b->region; });
  return RenderObject([&](JsonWriter& w) {
    w.Key("TableAutoScalingDescription");
    w.StartObject();
    w.Key("TableName");
    WriteString(w, schema.name);
    w.Key("TableStatus");
    WriteString(w, schema.status);
    w.Key("Replicas");
    w.StartArray();
    for (const engine::Replica* replica : members) {
      w.StartObject();
      w.Key("RegionName");
      WriteString(w, replica->region);
      w.Key("GlobalSecondaryIndexes");
      w.StartArray();
      for (const engine::IndexSchema& index : schema.global_indexes) {
        w.StartObject();
        w.Key("IndexName");
        WriteString(w, index.name);
        w.Key("IndexStatus");
        WriteString(w, index.status);
        WriteScalingDisabled(w, "ProvisionedReadCapacityAutoScalingSettings");
        WriteScalingDisabled(w, "ProvisionedWriteCapacityAutoScalingSettings");
        w.EndObject();
      }
      w.EndArray();
      WriteScalingDisabled(w, "ReplicaProvisionedReadCapacityAutoScalingSettings");
      WriteScalingDisabled(w, "ReplicaProvisionedWriteCapacityAutoScalingSettings");
      w.Key("ReplicaStatus");
      w.String(ctx.InTransition(replica->created_millis) ? "CREATING" : "ACTIVE");
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  });
}

// Whether any "…AutoScalingUpdate" object of an UpdateTableReplicaAutoScaling
// request (the table's, a GSI's, a replica's or a replica GSI's) asks for
// more than turning scaling off.
bool AsksForScaling(const rapidjson::Value& value) {
  if (value.IsArray()) {
    return std::any_of(value.Begin(), value.End(),
                       [](const rapidjson::Value& element) { return AsksForScaling(element); });
  }
  if (!value.IsObject()) return false;
  for (const auto& member : value.GetObject()) {
    if (View(member.name).ends_with("AutoScalingUpdate") && member.value.IsObject()) {
      for (const auto& setting : member.value.GetObject()) {
        if (View(setting.name) != "AutoScalingDisabled" && !setting.value.IsNull()) return true;
      }
    } else if (AsksForScaling(member.value)) {
      return true;
    }
  }
  return false;
}

}  // namespace

ApiResult<std::string> CreateGlobalTable(Context&, const rapidjson::Value& request) {
  auto name = RequiredGlobalTableName(request);
  if (!name.ok()) return name.take_error();
  return LegacyRefused();
}

ApiResult<std::string> UpdateGlobalTable(Context&, const rapidjson::Value& request) {
  auto name = RequiredGlobalTableName(request);
  if (!name.ok()) return name.take_error();
  RequestReader r(request);
  const rapidjson::Value* updates = r.Array("ReplicaUpdates");
  if (r.failed()) return r.error();
  if (!updates || updates->Empty()) {
    return ApiError::Validation("One or more parameter values were invalid");
  }
  // Adding a legacy replica is refused before the table is looked for.
  for (const auto& update : updates->GetArray()) {
    if (update.IsObject() && update.HasMember("Create")) return LegacyRefused();
  }
  return NoSuchGlobalTable(*name);
}

ApiResult<std::string> DescribeGlobalTable(Context&, const rapidjson::Value& request) {
  auto name = RequiredGlobalTableName(request);
  if (!name.ok()) return name.take_error();
  return ApiError::GlobalTableNotFound("Global table not found: Global table with name: '" + *name +
                                       "' does not exist.");
}

ApiResult<std::string> ListGlobalTables(Context&, const rapidjson::Value& request) {
  RequestReader r(request);
  auto start = r.String("ExclusiveStartGlobalTableName");
  auto limit = r.Integer("Limit");
  auto region = r.String("RegionName");
  if (r.failed()) return r.error();
  Constraints constraints;
  if (start) constraints.TableName(start, "exclusiveStartGlobalTableName");
  if (limit) constraints.Range(limit, "limit", 1, INT32_MAX);
  if (!constraints.empty()) return constraints.ToError();
  (void)region;  // no legacy global table exists in any region
  return RenderObject([](JsonWriter& w) {
    w.Key("GlobalTables");
    w.StartArray();
    w.EndArray();
  });
}

ApiResult<std::string> DescribeGlobalTableSettings(Context&, const rapidjson::Value& request) {
  auto name = RequiredGlobalTableName(request);
  if (!name.ok()) return name.take_error();
  return NoSuchGlobalTable(*name);
}

ApiResult<std::string> UpdateGlobalTableSettings(Context&, const rapidjson::Value& request) {
  auto name = RequiredGlobalTableName(request);
  if (!name.ok()) return name.take_error();
  return NoSuchGlobalTable(*name);
}

ApiResult<std::string> DescribeTableReplicaAutoScaling(Context& ctx,
                                                       const rapidjson::Value& request) {
  auto schema = GlobalTableOf(ctx, request);
  if (!schema.ok()) return schema.take_error();
  return RenderAutoScaling(ctx, **schema);
}

ApiResult<std::string> UpdateTableReplicaAutoScaling(Context& ctx,
                                                     const rapidjson::Value& request) {
  auto schema = GlobalTableOf(ctx, request);
  if (!schema.ok()) return schema.take_error();
  // Every member is on demand (ReplicaUpdates requires it): there is
  // nothing to scale, and DynamoDB accepts only turning scaling off.
  if (AsksForScaling(request)) {
    std::string regions;
    for (const engine::Replica& replica : (*schema)->replicas) {
      std::string upper = replica.region;
      std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
      regions += (regions.empty() ? "'" : ", '") + upper + "'";
    }
    return ApiError::Validation("Failed to update global table with name '" + (*schema)->name +
                                "'. Replicas " + regions + " BillingMode is PayPerRequest.");
  }
  // DynamoDB answers with the settings as they were before the update.
  return RenderAutoScaling(ctx, **schema);
}

}  // namespace ddb::api
