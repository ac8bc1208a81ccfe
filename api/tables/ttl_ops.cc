// UpdateTimeToLive and DescribeTimeToLive.
//
// TTL takes effect at once here: the status is ENABLED or DISABLED, never
// ENABLING/DISABLING, and there is no hour-long wait between changes
// (docs/compatibility.md). DescribeTable does not mention TTL, as in
// DynamoDB.
#include "api/global_tables/replica_updates.h"
#include "api/json_reader.h"
#include "api/operations.h"

namespace ddb::api {
namespace {

std::string TableNotFoundText(std::string_view table) {
  return "Requested resource not found: Table: " + std::string(table) + " not found";
}

}  // namespace

ApiResult<std::string> UpdateTimeToLive(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = r.String("TableName");
  const rapidjson::Value* spec_json = r.Object("TimeToLiveSpecification");
  if (r.failed()) return r.error();
  std::optional<bool> enabled;
  std::optional<std::string_view> attribute;
  if (spec_json) {
    RequestReader spec(*spec_json);
    enabled = spec.Bool("Enabled");
    attribute = spec.String("AttributeName");
    if (spec.failed()) return spec.error();
  }
  Constraints constraints;
  constraints.TableName(table);
  constraints.NotNull(spec_json != nullptr, "timeToLiveSpecification");
  if (spec_json) {
    constraints.NotNull(attribute.has_value(), "timeToLiveSpecification.attributeName");
    if (attribute) {
      constraints.Length(*attribute, "timeToLiveSpecification.attributeName", 1, 255);
    }
    constraints.NotNull(enabled.has_value(), "timeToLiveSpecification.enabled");
  }
  if (!constraints.empty()) return constraints.ToError();

  auto updated = ctx.db.UpdateTable(
      ctx.caller.ns, *table, [&](engine::TableSchema& schema) -> engine::Status {
        const std::string& current = schema.ttl_attribute;
        if (!current.empty() && current != *attribute) {
          return engine::Status::InvalidArgument(
              "TimeToLive is active on a different AttributeName: current AttributeName is " +
              current);
        }
        if (*enabled && schema.strong_consistency) {
          return engine::Status::InvalidArgument(
              "TimeToLive is not supported for global tables with MultiRegionConsistency set "
              "to STRONG.");
        }
        if (*enabled && !current.empty()) {
          return engine::Status::InvalidArgument("TimeToLive is already enabled");
        }
        if (!*enabled && current.empty()) {
          return engine::Status::InvalidArgument("TimeToLive is already disabled");
        }
        schema.ttl_attribute = *enabled ? std::string(*attribute) : std::string();
        return engine::Status::Ok();
      });
  if (!updated.ok()) {
    if (updated.status().code() == engine::Status::Code::kNotFound) {
      return ApiError::ResourceNotFound(TableNotFoundText(*table));
    }
    return updated.status();
  }
  if (!updated->schema.replicas.empty()) {
    auto synced = SyncReplicaSettings(ctx, *table);
    if (!synced.ok()) return synced;
  }
  return RenderObject([&](JsonWriter& w) {
    w.Key("TimeToLiveSpecification");
    w.StartObject();
    w.Key("Enabled");
    w.Bool(*enabled);
    w.Key("AttributeName");
    WriteString(w, *attribute);
    w.EndObject();
  });
}

ApiResult<std::string> DescribeTimeToLive(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = r.String("TableName");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.TableName(table);
  if (!constraints.empty()) return constraints.ToError();
  auto description = ctx.db.DescribeTable(ctx.caller.ns, *table);
  if (!description.ok()) return ApiError::ResourceNotFound(TableNotFoundText(*table));
  const std::string& attribute = description->schema.ttl_attribute;
  return RenderObject([&](JsonWriter& w) {
    w.Key("TimeToLiveDescription");
    w.StartObject();
    w.Key("TimeToLiveStatus");
    w.String(attribute.empty() ? "DISABLED" : "ENABLED");
    if (!attribute.empty()) {
      w.Key("AttributeName");
      WriteString(w, attribute);
    }
    w.EndObject();
  });
}

}  // namespace ddb::api
