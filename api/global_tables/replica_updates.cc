#include "api/global_tables/replica_updates.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "api/global_tables/replica_actions.h"
#include "api/global_tables/strong_replicas.h"
#include "api/json_reader.h"
#include "api/tables/table_json.h"

namespace ddb::api {

using namespace replicas;  // the shared refusals and helpers

namespace {

// UpdateTable's members other than its name and those that change a
// global table's group.
constexpr std::array<const char*, 11> kOtherMembers = {
    "AttributeDefinitions", "BillingMode",         "ProvisionedThroughput",
    "GlobalSecondaryIndexUpdates", "StreamSpecification", "SSESpecification",
    "TableClass",           "DeletionProtectionEnabled", "OnDemandThroughput",
    "WarmThroughput",       "VectorIndexUpdates"};

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
  Constraints constraints;
  constraints.Enum(consistency, "multiRegionConsistency", {"EVENTUAL", "STRONG"});
  if (!constraints.empty()) return constraints.ToError();
  const bool strong = consistency == "STRONG";
  // A non-empty list (HasReplicaUpdates), so there is at least one action.
  std::vector<Action> actions;
  for (const auto& update : request["ReplicaUpdates"].GetArray()) {
    auto action = ReadAction(update);
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
  if (ctx.caller.scope == DatabaseScope::kShared && actions.front().kind == ActionKind::kCreate) {
    // Not a situation DynamoDB has: every region is one database here.
    return InvalidParameters(
        "Replicas need a database per region; this localdynamo was started with --shared-db");
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
      if (FindMember(current, action.region) || target_ns == ctx.caller.ns ||
          ctx.db.GetSchema(target_ns, table).ok()) {
        return AlreadyExisted(table);
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
      if (auto refused = AddReplicaFor(ctx, table, action)) return *refused;
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
      auto removed = ctx.engine.replication().RemoveReplica(table, member->ns);
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
          ApplyOverrides(s, update);
          return engine::Status::Ok();
        });
        if (!changed.ok()) return changed.status();
      }
      auto set = ctx.engine.replication().SetReplicaGroup(table, group);
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
