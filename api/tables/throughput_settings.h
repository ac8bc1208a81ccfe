// WarmThroughput and OnDemandThroughput: how CreateTable and UpdateTable set
// them on a table and its global indexes, with DynamoDB's checks and texts.
//
// DynamoDB reports warm throughput for every table and global index, and
// never lowers it: it is the highest of what was asked for and of every
// capacity the table or index has had (12,000 reads and 4,000 writes per
// second once on demand). RatchetWarm keeps that invariant after any change
// of billing mode or provisioned throughput. On-demand maximums are kept only
// while the table is on demand; -1 removes one.
//
// Thread safety: pure functions.
#pragma once

#include <rapidjson/document.h>

#include <string_view>

#include "api/errors.h"
#include "engine/catalog/catalog.h"

namespace ddb::api {

// On-demand tables and indexes start warm at these units per second.
inline constexpr int64_t kOnDemandInitialReadUnits = 12000;
inline constexpr int64_t kOnDemandInitialWriteUnits = 4000;
// The account's per-table maximum (DescribeLimits' TableMax*CapacityUnits).
inline constexpr int64_t kTableMaxCapacityUnits = 40000;

// Applies CreateTable's WarmThroughput and OnDemandThroughput members, the
// table's and each GlobalSecondaryIndexes entry's, to `schema` (already
// parsed, in the request's index order). `region` names the account's region
// in LimitExceededException texts.
ApiResult<bool> ApplyCreateThroughputSettings(const rapidjson::Value& request,
                                              engine::TableSchema& schema,
                                              std::string_view region);

// UpdateTable's table-level WarmThroughput and OnDemandThroughput (either may
// be null). Call it once this update's billing mode change is applied: both
// are checked against the table's new mode and capacity.
ApiResult<bool> ApplyTableThroughputUpdate(const rapidjson::Value* warm,
                                           const rapidjson::Value* on_demand,
                                           engine::TableSchema& schema, std::string_view region);

// A GlobalSecondaryIndexUpdate's Update or Create action body: its
// WarmThroughput and OnDemandThroughput. `created` for a Create action.
ApiResult<bool> ApplyIndexThroughputUpdate(const rapidjson::Value& body, bool created,
                                           const engine::TableSchema& table,
                                           engine::IndexSchema& index, std::string_view region);

// Raises the table's and every global index's warm throughput to at least
// their current capacity, and drops on-demand maximums from a provisioned
// table. Call after any change of billing mode or throughput.
void RatchetWarm(engine::TableSchema& schema);

}  // namespace ddb::api
