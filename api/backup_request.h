// What the backup operations (backup_ops.cc, backup_restore_ops.cc) share.
//
// Thread safety: pure functions.
#pragma once

#include <string>

#include "api/errors.h"

namespace ddb::api {

// The backup operations name a missing table in their own words:
// TableNotFoundException, "Table not found: <name>".
ApiError BackupTableNotFound(const std::string& table);

}  // namespace ddb::api
