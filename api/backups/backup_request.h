// What the backup operations (backup_ops.cc, backup_restore_ops.cc) share.
//
// Thread safety: pure functions.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>

#include "api/errors.h"
#include "engine/catalog/catalog.h"

namespace ddb::api {

// The backup operations name a missing table in their own words:
// TableNotFoundException, "Table not found: <name>".
// An empty name gives the bare "Table not found" (a table named by ARN).
ApiError BackupTableNotFound(const std::string& table);

// The instants a table can be restored to: from when recovery was enabled,
// or the recovery period ago if later, to now. (DynamoDB's latest lags
// about five minutes; here writes are restorable at once.)
struct RecoveryWindow {
  int64_t earliest = 0;
  int64_t latest = 0;
};
RecoveryWindow RecoveryWindowOf(const engine::PointInTimeRecovery& pitr, int64_t now);

// A timestamp member (epoch seconds, fractions allowed) in milliseconds;
// nothing when absent or null; SerializationException when not a number.
ApiResult<std::optional<int64_t>> ReadEpochMillis(const rapidjson::Value& request,
                                                  const char* name);

}  // namespace ddb::api
