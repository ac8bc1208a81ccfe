#include "api/global_tables/replica_actions.h"

#include <algorithm>
#include <array>

#include "api/global_tables/replica_updates.h"
#include "api/json_reader.h"

namespace ddb::api::replicas {
namespace {

// The commercial regions DynamoDB's global tables run in, as its refusal
// of another lists them.
constexpr std::array<std::string_view, 33> kRegions = {
    "af-south-1",     "ap-east-1",      "ap-east-2",      "ap-northeast-1", "ap-northeast-2",
    "ap-northeast-3", "ap-south-1",     "ap-south-2",     "ap-southeast-1", "ap-southeast-2",
    "ap-southeast-3", "ap-southeast-4", "ap-southeast-5", "ap-southeast-7", "ca-central-1",
    "ca-west-1",      "eu-central-1",   "eu-central-2",   "eu-north-1",     "eu-south-1",
    "eu-south-2",     "eu-west-1",      "eu-west-2",      "eu-west-3",      "il-central-1",
    "me-central-1",   "me-south-1",     "mx-central-1",   "sa-east-1",      "us-east-1",
    "us-east-2",      "us-west-1",      "us-west-2"};

// The regions where multi-Region strong consistency runs, by region set.
constexpr std::array<std::string_view, 10> kStrongRegions = {
    "us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-west-2",
    "eu-west-3", "eu-central-1", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3"};


}  // namespace

ApiError InvalidParameters(std::string detail) {
  return ApiError::Validation("One or more parameter values were invalid: " + std::move(detail));
}

ApiResult<Action> ReadAction(const rapidjson::Value& update) {
  if (!update.IsObject()) return ApiError::Serialization("Start of structure or map found where not expected");
  Action action;
  const rapidjson::Value* body = nullptr;
  int kinds = 0;
  for (auto [name, kind] : {std::pair("Create", ActionKind::kCreate),
                            std::pair("Update", ActionKind::kUpdate),
                            std::pair("Delete", ActionKind::kDelete)}) {
    auto member = update.FindMember(name);
    if (member == update.MemberEnd() || member->value.IsNull()) continue;
    if (!member->value.IsObject()) {
      return ApiError::Serialization("Unexpected value type in payload");
    }
    ++kinds;
    action.kind = kind;
    body = &member->value;
  }
  if (kinds != 1) {
    return InvalidParameters(
        "Exactly one of Create, Update or Delete must be specified in a ReplicaUpdate");
  }
  RequestReader r(*body);
  auto region = r.String("RegionName");
  const rapidjson::Value* throughput = r.Object("ProvisionedThroughputOverride");
  const rapidjson::Value* on_demand = r.Object("OnDemandThroughputOverride");
  auto table_class = r.String("TableClassOverride");
  auto kms_key = r.String("KMSMasterKeyId");
  const rapidjson::Value* indexes = r.Array("GlobalSecondaryIndexes");
  if (r.failed()) return r.error();
  if (!region || region->empty()) {
    return ApiError::AccessDenied("User is not authorized to perform this action on an empty region.");
  }
  action.region = std::string(*region);
  if (throughput) {
    RequestReader t(*throughput);
    action.read_capacity = t.Long("ReadCapacityUnits");
    if (t.failed()) return t.error();
  }
  if (on_demand) {
    RequestReader t(*on_demand);
    action.max_read_units = t.Long("MaxReadRequestUnits");
    if (t.failed()) return t.error();
  }
  if (table_class) {
    if (*table_class != "STANDARD" && *table_class != "STANDARD_INFREQUENT_ACCESS") {
      return ApiError::Validation(
          "Invalid table-class parameter provided. Please try again with a valid table-class "
          "value: [STANDARD, STANDARD_INFREQUENT_ACCESS].");
    }
    action.table_class = std::string(*table_class);
  }
  action.has_settings = throughput || on_demand || table_class || kms_key || indexes;
  return action;
}

std::string RegionList() {
  std::string out = "[";
  for (size_t i = 0; i < kRegions.size(); ++i) {
    if (i) out += ", ";
    out += kRegions[i];
  }
  return out + "]";
}


ApiResult<std::optional<WitnessUpdate>> ReadWitnessUpdate(const rapidjson::Value& request) {
  auto member = request.FindMember("GlobalTableWitnessUpdates");
  if (member == request.MemberEnd() || member->value.IsNull()) return std::optional<WitnessUpdate>();
  if (!member->value.IsArray()) return ApiError::Serialization("Unexpected value type in payload");
  if (member->value.Empty()) return std::optional<WitnessUpdate>();
  if (member->value.Size() > 1) {
    return ApiError::Validation(
        "1 validation error detected: Value at 'globalTableWitnessUpdates' failed to satisfy "
        "constraint: Member must have length less than or equal to 1");
  }
  auto action = ReadAction(member->value[0]);
  if (!action.ok()) return action.take_error();
  if (action->kind == ActionKind::kUpdate) {
    return InvalidParameters("A witness can only be created or deleted");
  }
  return std::optional<WitnessUpdate>(
      WitnessUpdate{action->kind == ActionKind::kCreate, action->region});
}

bool IsStrongRegion(std::string_view region) {
  return std::find(kStrongRegions.begin(), kStrongRegions.end(), region) != kStrongRegions.end();
}

const engine::Replica* FindMember(const engine::TableSchema& schema, std::string_view region) {
  for (const engine::Replica& replica : schema.replicas) {
    if (replica.region == region) return &replica;
  }
  return nullptr;
}

ApiError NotMembers(std::string_view region) {
  return ApiError::Validation(
      "Update global table operation failed because one or more replicas were not part of the "
      "global table. Please retry the request without these replicas: [" +
      std::string(region) + "].");
}

// DynamoDB replicates writes only of tables whose capacity follows their
// load: on demand, or provisioned with write auto scaling (which
// localdynamo does not keep, so provisioned tables are refused).
std::optional<ApiError> CheckBilling(const engine::TableSchema& schema) {
  if (schema.billing_mode == "PAY_PER_REQUEST") return std::nullopt;
  if (!schema.global_indexes.empty()) {
    return ApiError::Validation("GSI write capacity should either be Pay-Per-Request or AutoScaled.");
  }
  return ApiError::Validation("Table write capacity should either be Pay-Per-Request or AutoScaled.");
}

// The new replica's table: the member's schema without what DynamoDB keeps
// per replica (tags, deletion protection, backups, policies, insights,
// Kinesis destinations), with the action's overrides.
engine::TableSchema ReplicaSchema(const engine::TableSchema& source, const Action& action) {
  engine::TableSchema target = source;
  target.tags.clear();
  target.deletion_protection = false;
  target.point_in_time_recovery = {};
  target.restored_from = {};
  target.resource_policies.clear();
  target.contributor_insights.clear();
  target.kinesis_destinations.clear();
  target.stream.label.clear();
  ApplyOverrides(target, action);
  return target;
}

void ApplyOverrides(engine::TableSchema& replica_table, const Action& action) {
  if (action.table_class) replica_table.table_class = *action.table_class;
  if (action.read_capacity) replica_table.throughput.read_capacity_units = *action.read_capacity;
  if (action.max_read_units) {
    replica_table.on_demand.max_read_request_units = *action.max_read_units;
  }
}

void ApplyOverrides(engine::Replica& replica, const Action& action) {
  if (action.read_capacity) replica.read_capacity_override = *action.read_capacity;
  if (action.max_read_units) replica.max_read_request_units_override = *action.max_read_units;
  if (action.table_class) replica.table_class_override = *action.table_class;
}

// Makes `member`'s synchronised settings `source`'s.
std::string Joined(const std::vector<std::string>& regions) {
  std::string out;
  for (const std::string& region : regions) out += (out.empty() ? "" : ", ") + region;
  return "[" + out + "]";
}

ApiError AlreadyExisted(std::string_view table) {
  return ApiError::Validation("Failed to create a the new replica of table with name: '" +
                              std::string(table) +
                              "' because one or more replicas already existed as tables.");
}

std::optional<ApiError> AddReplicaFor(Context& ctx, std::string_view table, const Action& action) {
  auto source = ctx.db.GetSchema(ctx.caller.ns, table);
  if (!source.ok()) return ApiResult<int>(source.status()).error();
  engine::Replica self{.region = ctx.caller.region, .ns = ctx.caller.ns,
                       .created_millis = (*source)->creation_millis};
  engine::Replica added{.region = action.region, .ns = ctx.caller.NamespaceOfRegion(action.region),
                        .created_millis = ctx.db.clock().NowMillis()};
  ApplyOverrides(added, action);
  auto created = ctx.engine.replication().AddReplica(ctx.caller.ns, table, self, added,
                                                     ReplicaSchema(**source, action));
  if (created.status().code() == engine::Status::Code::kAlreadyExists) return AlreadyExisted(table);
  if (!created.ok()) return ApiResult<int>(created.status()).error();
  return std::nullopt;
}

}  // namespace ddb::api::replicas

namespace ddb::api {

bool IsGlobalTableRegion(std::string_view region) {
  return std::find(replicas::kRegions.begin(), replicas::kRegions.end(), region) !=
         replicas::kRegions.end();
}

}  // namespace ddb::api
