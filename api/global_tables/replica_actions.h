// The pieces of UpdateTable's replica changes that eventually and strongly
// consistent global tables share: reading ReplicaUpdates' and
// GlobalTableWitnessUpdates' actions, DynamoDB's region lists, refusals and
// texts, and how a new replica's table is derived (replica_updates.cc,
// strong_replicas.cc).
//
// Thread safety: pure functions.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/context.h"
#include "api/errors.h"
#include "engine/catalog/catalog.h"

namespace ddb::api::replicas {

inline constexpr std::string_view kStrongSuffix =
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

// GlobalTableWitnessUpdates: at most one Create or Delete of a witness.
struct WitnessUpdate {
  bool create = true;
  std::string region;
};

// "One or more parameter values were invalid: <detail>".
ApiError InvalidParameters(std::string detail);
// One ReplicationGroupUpdate (also a witness's update).
ApiResult<Action> ReadAction(const rapidjson::Value& update);
// The request's GlobalTableWitnessUpdates, if it has one.
ApiResult<std::optional<WitnessUpdate>> ReadWitnessUpdate(const rapidjson::Value& request);
// "[a, b, …]": the regions global tables run in, as DynamoDB lists them.
std::string RegionList();
// Whether multi-Region strong consistency runs in `region`.
bool IsStrongRegion(std::string_view region);
// "[a, b]".
std::string Joined(const std::vector<std::string>& regions);
// The group's member in `region`, or null.
const engine::Replica* FindMember(const engine::TableSchema& schema, std::string_view region);
// DynamoDB's refusals.
ApiError NotMembers(std::string_view region);
ApiError AlreadyExisted(std::string_view table);
// Why `schema`'s table cannot be made global because of its billing, if so.
std::optional<ApiError> CheckBilling(const engine::TableSchema& schema);
// The new replica's table for `action`, derived from a member's schema.
engine::TableSchema ReplicaSchema(const engine::TableSchema& source, const Action& action);
// The action's overrides, kept in the group, and applied to the replica's
// own table.
void ApplyOverrides(engine::Replica& replica, const Action& action);
void ApplyOverrides(engine::TableSchema& replica_table, const Action& action);
// Makes `action`'s region a replica of the caller's table `table`, derived
// from the table as it is now: DynamoDB's refusal if that fails.
std::optional<ApiError> AddReplicaFor(Context& ctx, std::string_view table, const Action& action);

}  // namespace ddb::api::replicas
