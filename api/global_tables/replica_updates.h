// UpdateTable's ReplicaUpdates: a global table's replicas (version
// 2019.11.21) added, changed and deleted, with DynamoDB's rules and texts
// (docs/research/global-tables.md). Each replica is a table of its own in
// its region's database; the engine keeps the group and replicates
// (engine/replication/replication.h).
//
// Thread safety: as the Database.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "api/context.h"
#include "api/errors.h"

namespace ddb::api {

// Whether an UpdateTable request carries ReplicaUpdates (a non-empty list).
bool HasReplicaUpdates(const rapidjson::Value& request);

// UpdateTable with ReplicaUpdates: the answer's TableDescription.
ApiResult<std::string> UpdateReplicas(Context& ctx, std::string_view table,
                                      const rapidjson::Value& request);

// After a change to a global table's settings in the caller's region:
// gives every other member the settings DynamoDB keeps the same on all of
// them — billing mode and write capacity, GSIs (added ones backfilled),
// SSE, TTL, on-demand write maximum and warm throughput — keeping what a
// replica overrides. Nothing for a regional table.
engine::Status SyncReplicaSettings(Context& ctx, std::string_view table);

// Whether DynamoDB's global tables run in `region`.
bool IsGlobalTableRegion(std::string_view region);

}  // namespace ddb::api
