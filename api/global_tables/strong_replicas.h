// Changes to the group of a strongly consistent global table, or a request
// that asks for one (MultiRegionConsistency, GlobalTableWitnessUpdates).
//
// Thread safety: as the Database.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/context.h"
#include "api/global_tables/replica_actions.h"

namespace ddb::api {

// UpdateTable's answer, or DynamoDB's refusal. `current`: the caller's
// table; `strong_asked`: MultiRegionConsistency STRONG was sent.
ApiResult<std::string> UpdateStrongGroup(Context& ctx, std::string_view table,
                                         const engine::TableSchema& current, bool strong_asked,
                                         const std::vector<replicas::Action>& actions,
                                         const std::optional<replicas::WitnessUpdate>& witness);

}  // namespace ddb::api
