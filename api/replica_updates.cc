#include "api/replica_updates.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "api/json_reader.h"
#include "api/table_json.h"

namespace ddb::api {
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

// UpdateTable's members other than its name and those that change a
// global table's group.
constexpr std::array<const char*, 11> kOtherMembers = {
    "AttributeDefinitions", "BillingMode",         "ProvisionedThroughput",
    "GlobalSecondaryIndexUpdates", "StreamSpecification", "SSESpecification",
    "TableClass",           "DeletionProtectionEnabled", "OnDemandThroughput",
    "WarmThroughput",       "VectorIndexUpdates"};

// The regions where multi-Region strong consistency runs, by region set.
constexpr std::array<std::string_view, 10> kStrongRegions = {
    "us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-west-2",
    "eu-west-3", "eu-central-1", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3"};

constexpr std::string_view kStrongSuffix =
    " for global tables with MultiRegionConsistency set to STRONG";

enum class ActionKind { kCreate, kUpdate, kDelete };

// One ReplicationGroupUpdate.
struct Action {
  ActionKind kind = ActionKind::kCreate;
  std::string region;
  std::optional<int64_t> read_capacity;
  std::optional<int64_t> max_read_units;
  std::optional<std::string> table_class;
  bool has_settings = false;  // anything besides RegionName
};

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

// GlobalTableWitnessUpdates: at most one Create or Delete of a witness.
struct WitnessUpdate {
  bool create = true;
  std::string region;
};

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
  if (action.table_class) target.table_class = *action.table_class;
  if (action.read_capacity) target.throughput.read_capacity_units = *action.read_capacity;
  if (action.max_read_units) target.on_demand.max_read_request_units = *action.max_read_units;
  return target;
}

void ApplyOverrides(engine::Replica& replica, const Action& action) {
  if (action.read_capacity) replica.read_capacity_override = *action.read_capacity;
  if (action.max_read_units) replica.max_read_request_units_override = *action.max_read_units;
  if (action.table_class) replica.table_class_override = *action.table_class;
}

// Makes `member`'s synchronised settings `source`'s.
void Converge(engine::TableSchema& member, const engine::TableSchema& source) {
  member.attribute_definitions = source.attribute_definitions;
  member.billing_mode = source.billing_mode;
  member.pay_per_request_since_millis = source.pay_per_request_since_millis;
  member.throughput.write_capacity_units = source.throughput.write_capacity_units;
  if (member.billing_mode == "PAY_PER_REQUEST") member.throughput = source.throughput;
  member.on_demand.max_write_request_units = source.on_demand.max_write_request_units;
  member.warm = source.warm;
  member.sse = source.sse;
  member.ttl_attribute = source.ttl_attribute;
  std::vector<engine::IndexSchema> indexes;
  for (const engine::IndexSchema& index : source.global_indexes) {
    auto kept = std::find_if(member.global_indexes.begin(), member.global_indexes.end(),
                             [&](const engine::IndexSchema& i) { return i.name == index.name; });
    if (kept == member.global_indexes.end()) {
      engine::IndexSchema added = index;
      added.index_id = 0;  // the engine numbers and backfills it
      added.status = "ACTIVE";
      added.backfilling = false;
      indexes.push_back(std::move(added));
    } else {
      kept->throughput.write_capacity_units = index.throughput.write_capacity_units;
      kept->on_demand.max_write_request_units = index.on_demand.max_write_request_units;
      kept->warm = index.warm;
      indexes.push_back(*kept);
    }
  }
  member.global_indexes = std::move(indexes);
}

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

// Makes a regional table a strongly consistent global table: two new
// replicas, or one and a witness, in one request.
ApiResult<std::string> CreateStrongGroup(Context& ctx, std::string_view table,
                                         const engine::TableSchema& current,
                                         const std::vector<Action>& actions,
                                         const std::optional<WitnessUpdate>& witness) {
  bool only_creates = std::all_of(actions.begin(), actions.end(),
                                  [](const Action& a) { return a.kind == ActionKind::kCreate; });
  if (!only_creates || (witness && !witness->create)) {
    return ApiError::Validation(
        "Only Replica Create actions are supported when MultiRegionConsistency parameter is "
        "provided.");
  }
  if (actions.size() + (witness ? 1 : 0) != 2) {
    return ApiError::Validation("Unsupported replica count" + std::string(kStrongSuffix) + ".");
  }
  std::vector<std::string> unsupported;
  std::vector<std::string> regions = {ctx.caller.region};
  for (const Action& action : actions) regions.push_back(action.region);
  if (witness) regions.push_back(witness->region);
  for (const std::string& region : regions) {
    if (!IsStrongRegion(region)) unsupported.push_back(region);
  }
  if (!unsupported.empty()) {
    return ApiError::Validation("Unsupported Region(s) specified" + std::string(kStrongSuffix) +
                                ": " + Joined(unsupported) + ".");
  }
  if (witness && std::count(regions.begin(), regions.end(), witness->region) > 1) {
    return ApiError::Validation(
        "Cannot add a witness in the same region as an existing replica when creating a global "
        "table with MultiRegionConsistency set to STRONG.");
  }
  if (!current.replicas.empty()) {
    return ApiError::Validation("MultiRegionConsistency parameter is unsupported on existing global table");
  }
  if (auto refused = CheckBilling(current)) return *refused;
  // What DynamoDB documents as unsupported with strong consistency; its
  // texts for these are not published, so these are localdynamo's.
  if (!current.local_indexes.empty()) {
    return InvalidParameters("Local secondary indexes are not supported" +
                             std::string(kStrongSuffix) + ".");
  }
  if (!current.ttl_attribute.empty()) {
    return InvalidParameters("TimeToLive is not supported" + std::string(kStrongSuffix) + ".");
  }
  auto described = ctx.db.DescribeTable(ctx.caller.ns, table);
  if (!described.ok()) return described.status();
  if (described->stats.item_count > 0) {
    return InvalidParameters("A global table" + std::string(kStrongSuffix) +
                             " can only be created from an empty table.");
  }
  for (const Action& action : actions) {
    std::string target_ns = ctx.caller.NamespaceOfRegion(action.region);
    if (target_ns == ctx.caller.ns || ctx.db.GetSchema(target_ns, table).ok()) {
      return AlreadyExisted(table);
    }
  }
  auto made_strong = ctx.db.UpdateTable(ctx.caller.ns, table, [&](engine::TableSchema& s) {
    s.strong_consistency = true;
    s.witnesses.clear();
    if (witness) s.witnesses.push_back(witness->region);
    return engine::Status::Ok();
  });
  if (!made_strong.ok()) return made_strong.status();
  DescriptionView view;
  for (const Action& action : actions) {
    auto source = ctx.db.GetSchema(ctx.caller.ns, table);
    if (!source.ok()) return source.status();
    engine::Replica self{ctx.caller.region, ctx.caller.ns, (*source)->creation_millis};
    engine::Replica added{action.region, ctx.caller.NamespaceOfRegion(action.region),
                          ctx.db.clock().NowMillis()};
    ApplyOverrides(added, action);
    auto created =
        ctx.db.AddReplica(ctx.caller.ns, table, self, added, ReplicaSchema(**source, action));
    if (created.status().code() == engine::Status::Code::kAlreadyExists) return AlreadyExisted(table);
    if (!created.ok()) return created.status();
    view.creating_replicas.push_back(action.region);
  }
  view.witnesses_creating = true;
  auto description = ctx.db.DescribeTable(ctx.caller.ns, table);
  if (!description.ok()) return description.status();
  description->schema.status = "UPDATING";
  return RenderTableDescription(ctx, "TableDescription", *description, view);
}

// Changes to the group of a strongly consistent global table (or asking
// for one): it is made whole in one request and dismantled in one.
ApiResult<std::string> UpdateStrongGroup(Context& ctx, std::string_view table,
                                         const engine::TableSchema& current, bool strong_asked,
                                         const std::vector<Action>& actions,
                                         const std::optional<WitnessUpdate>& witness) {
  if (!current.strong_consistency) {
    if (!strong_asked) {
      return ApiError::Validation(
          "MultiRegionConsistency must be set as STRONG when GlobalTableWitnessUpdates parameter "
          "is present.");
    }
    return CreateStrongGroup(ctx, table, current, actions, witness);
  }
  if (strong_asked) {
    return ApiError::Validation("MultiRegionConsistency parameter is unsupported on existing global table");
  }
  bool adds = std::any_of(actions.begin(), actions.end(),
                          [](const Action& a) { return a.kind == ActionKind::kCreate; });
  if (adds || (witness && witness->create)) {
    return ApiError::Validation(
        "Cannot add replicas to a global table with strong MultiRegionConsistency");
  }
  for (const Action& action : actions) {
    if (action.kind != ActionKind::kDelete) {
      return ApiError::Validation(
          "Update table operation with more than one type of replica actions not allowed");
    }
    if (!FindMember(current, action.region)) return NotMembers(action.region);
  }
  if (witness && std::find(current.witnesses.begin(), current.witnesses.end(), witness->region) ==
                     current.witnesses.end()) {
    return ApiError::Validation(
        "Update global table operation failed because one or more witnesses were not part of "
        "the global table. Please retry the request without these witnesses: [" +
        witness->region + "].");
  }
  if (!current.witnesses.empty() && !witness) {
    return ApiError::Validation("Update table delete operation does not include all witnesses.");
  }
  if (actions.size() + 1 != current.replicas.size()) {
    return ApiError::Validation("Deletion of only one table replica is not supported" +
                                std::string(kStrongSuffix) + ".");
  }
  auto description = ctx.db.DescribeTable(ctx.caller.ns, table);
  if (!description.ok()) return description.status();
  for (const Action& action : actions) {
    const engine::Replica* member = FindMember(current, action.region);
    auto removed = ctx.db.RemoveReplica(table, member->ns);
    if (!removed.ok()) return removed.status();
  }
  // DynamoDB's answer still lists what is being deleted.
  description->schema.status = "UPDATING";
  return RenderTableDescription(ctx, "TableDescription", *description);
}

}  // namespace

engine::Status SyncReplicaSettings(Context& ctx, std::string_view table) {
  auto source = ctx.db.GetSchema(ctx.caller.ns, table);
  if (!source.ok() || (*source)->replicas.empty()) return engine::Status::Ok();
  for (const engine::Replica& member : (*source)->replicas) {
    if (member.ns == ctx.caller.ns) continue;
    auto synced = ctx.db.UpdateTable(member.ns, table, [&](engine::TableSchema& schema) {
      Converge(schema, **source);
      return engine::Status::Ok();
    });
    if (!synced.ok() && synced.status().code() != engine::Status::Code::kNotFound) {
      return synced.status();
    }
  }
  return engine::Status::Ok();
}

bool IsGlobalTableRegion(std::string_view region) {
  return std::find(kRegions.begin(), kRegions.end(), region) != kRegions.end();
}

bool HasReplicaUpdates(const rapidjson::Value& request) {
  auto member = request.FindMember("ReplicaUpdates");
  return member != request.MemberEnd() && member->value.IsArray() && !member->value.Empty();
}

ApiResult<std::string> UpdateReplicas(Context& ctx, std::string_view table,
                                      const rapidjson::Value& request) {
  RequestReader r(request);
  auto consistency = r.String("MultiRegionConsistency");
  if (r.failed()) return r.error();
  auto witness = ReadWitnessUpdate(request);
  if (!witness.ok()) return witness.take_error();
  const bool group_fields = consistency.has_value() || witness->has_value();
  for (const char* other : kOtherMembers) {
    auto member = request.FindMember(other);
    if (member != request.MemberEnd() && !member->value.IsNull()) {
      if (group_fields) {
        return ApiError::Validation(
            "Requests that modify replicas or witnesses must not also modify other fields");
      }
      return InvalidParameters("Replica modification must be the only operation in the request");
    }
  }
  if (consistency && *consistency != "EVENTUAL" && *consistency != "STRONG") {
    return ApiError::Validation("1 validation error detected: Value '" + std::string(*consistency) +
                                "' at 'multiRegionConsistency' failed to satisfy constraint: "
                                "Member must satisfy enum value set: [EVENTUAL, STRONG]");
  }
  const bool strong = consistency == "STRONG";
  std::vector<Action> actions;
  const rapidjson::Value* updates = nullptr;
  if (auto member = request.FindMember("ReplicaUpdates");
      member != request.MemberEnd() && member->value.IsArray()) {
    updates = &member->value;
  }
  std::vector<const rapidjson::Value*> listed;
  if (updates) {
    for (const auto& update : updates->GetArray()) listed.push_back(&update);
  }
  for (const rapidjson::Value* update : listed) {
    auto action = ReadAction(*update);
    if (!action.ok()) return action.take_error();
    bool repeated = std::any_of(actions.begin(), actions.end(), [&](const Action& seen) {
      return seen.region == action->region;
    });
    if (repeated && strong) {
      return ApiError::Validation("Cannot target multiple regions with the same action");
    }
    // DynamoDB takes two identical requests for one.
    if (!repeated) actions.push_back(std::move(action).value());
  }
  if (actions.empty()) {
    return ApiError::Validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
        "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, DeletionProtectionEnabled "
        "or TableClass is required");
  }
  bool mixed = std::any_of(actions.begin(), actions.end(),
                           [&](const Action& a) { return a.kind != actions.front().kind; });
  if (mixed) {
    return ApiError::Validation(
        "Update table operation with more than one type of replica actions not allowed");
  }
  for (const Action& action : actions) {
    if (!IsGlobalTableRegion(action.region)) {
      return ApiError::Validation("Region " + action.region +
                                  " is not supported. The latest version of global tables are "
                                  "only supported in the following regions: " +
                                  RegionList() + ".");
    }
    if (action.region == ctx.caller.region && action.kind != ActionKind::kUpdate) {
      return ApiError::Validation(
          "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, "
          "DeleteTable, or UpdateTable as required.");
    }
  }
  auto schema = ctx.db.GetSchema(ctx.caller.ns, table);
  if (!schema.ok()) return engine::TableNotFound(table);
  const engine::TableSchema& current = **schema;
  bool strong_change = strong || witness->has_value() ||
                       (current.strong_consistency && actions.front().kind != ActionKind::kUpdate);
  if (strong_change) {
    return UpdateStrongGroup(ctx, table, current, strong, actions, *witness);
  }
  if (actions.size() > 1 && actions.front().kind != ActionKind::kUpdate) {
    return ApiError::Validation(
        "Update table operation with more than one create or delete replica actions not allowed");
  }
  // A table still settling a replica takes no other change of its group.
  auto busy = std::any_of(current.replicas.begin(), current.replicas.end(),
                          [&](const engine::Replica& r) { return ctx.InTransition(r.created_millis); });
  if (busy) return ApiError::ResourceInUse("The resource which you are attempting to change is in use.");

  const Action& action = actions.front();
  auto description = ctx.db.DescribeTable(ctx.caller.ns, table);
  if (!description.ok()) return description.status();
  DescriptionView view;
  switch (action.kind) {
    case ActionKind::kCreate: {
      std::string target_ns = ctx.caller.NamespaceOfRegion(action.region);
      auto already_existed = [&] { return AlreadyExisted(table); };
      if (FindMember(current, action.region) || target_ns == ctx.caller.ns ||
          ctx.db.GetSchema(target_ns, table).ok()) {
        return already_existed();
      }
      if (auto refused = CheckBilling(current)) return *refused;
      // A global table's changes reach its replicas through its stream:
      // DynamoDB turns one on (new and old images) if the table has none.
      if (!current.stream.enabled) {
        auto streamed = ctx.db.UpdateTable(ctx.caller.ns, table, [](engine::TableSchema& s) {
          s.stream.enabled = true;
          s.stream.view_type = "NEW_AND_OLD_IMAGES";
          return engine::Status::Ok();
        });
        if (!streamed.ok()) return streamed.status();
      }
      auto source = ctx.db.GetSchema(ctx.caller.ns, table);
      if (!source.ok()) return source.status();
      engine::Replica self{ctx.caller.region, ctx.caller.ns, (*source)->creation_millis};
      engine::Replica added{action.region, target_ns, ctx.db.clock().NowMillis()};
      ApplyOverrides(added, action);
      auto created =
          ctx.db.AddReplica(ctx.caller.ns, table, self, added, ReplicaSchema(**source, action));
      if (created.status().code() == engine::Status::Code::kAlreadyExists) return already_existed();
      if (!created.ok()) return created.status();
      view.creating_replicas.push_back(action.region);
      description = ctx.db.DescribeTable(ctx.caller.ns, table);
      if (!description.ok()) return description.status();
      break;
    }
    case ActionKind::kDelete: {
      const engine::Replica* member = FindMember(current, action.region);
      if (!member) return NotMembers(action.region);
      auto replica_schema = ctx.db.GetSchema(member->ns, table);
      if (replica_schema.ok() && (*replica_schema)->deletion_protection) {
        return ApiError::Validation("Cannot delete table " + std::string(table) + " in region " +
                                    action.region +
                                    " because it has deletion protection enabled. Disable "
                                    "deletion protection first.");
      }
      // DynamoDB's answer still lists the replica, being deleted.
      auto removed = ctx.db.RemoveReplica(table, member->ns);
      if (!removed.ok()) return removed.status();
      break;
    }
    case ActionKind::kUpdate: {
      std::vector<engine::Replica> group = current.replicas;
      for (const Action& update : actions) {
        auto member = std::find_if(group.begin(), group.end(), [&](const engine::Replica& r) {
          return r.region == update.region;
        });
        if (member == group.end()) return NotMembers(update.region);
        if (!update.has_settings) {
          return ApiError::Validation(
              "There are no actions specified in the Replica Update Action of the request.");
        }
        ApplyOverrides(*member, update);
        auto changed = ctx.db.UpdateTable(member->ns, table, [&](engine::TableSchema& s) {
          if (update.table_class) s.table_class = *update.table_class;
          if (update.read_capacity) s.throughput.read_capacity_units = *update.read_capacity;
          if (update.max_read_units) s.on_demand.max_read_request_units = *update.max_read_units;
          return engine::Status::Ok();
        });
        if (!changed.ok()) return changed.status();
      }
      auto set = ctx.db.SetReplicaGroup(table, group);
      if (!set.ok()) return set;
      description = ctx.db.DescribeTable(ctx.caller.ns, table);
      if (!description.ok()) return description.status();
      break;
    }
  }
  description->schema.status = "UPDATING";
  return RenderTableDescription(ctx, "TableDescription", *description, view);
}

}  // namespace ddb::api
