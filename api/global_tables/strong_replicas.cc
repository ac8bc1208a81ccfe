// A strongly consistent global table's group (MultiRegionConsistency
// STRONG): made whole in one UpdateTable, never added to, dismantled in one,
// with DynamoDB's captured rules and texts (docs/research/global-tables.md §4).
#include "api/global_tables/strong_replicas.h"

#include <algorithm>

#include "api/tables/table_json.h"

namespace ddb::api {

using namespace replicas;  // the shared refusals and helpers

namespace {

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
    if (auto refused = AddReplicaFor(ctx, table, action)) return *refused;
    view.creating_replicas.push_back(action.region);
  }
  view.witnesses_creating = true;
  auto description = ctx.db.DescribeTable(ctx.caller.ns, table);
  if (!description.ok()) return description.status();
  description->schema.status = "UPDATING";
  return RenderTableDescription(ctx, "TableDescription", *description, view);
}

}  // namespace

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
    auto removed = ctx.engine.replication().RemoveReplica(table, member->ns);
    if (!removed.ok()) return removed.status();
  }
  // DynamoDB's answer still lists what is being deleted.
  description->schema.status = "UPDATING";
  return RenderTableDescription(ctx, "TableDescription", *description);
}

}  // namespace ddb::api
