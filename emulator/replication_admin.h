// The admin API's replication endpoints (emulator/admin.h):
//
//   GET  /_localdynamo/replication          the delay and each global-table member's
//                                           backlog: {"DelayMillis", "Members": [{"Region",
//                                           "Namespace", "TableName", "Pending",
//                                           "OldestPendingMillis", "DelayMillis"}]}
//   POST /_localdynamo/replication          {"DelayMillis": n} for the server, or with
//                                           "TableName" (and "Region", "AccessKey" or
//                                           "Namespace") for one member;
//                                           "DelayMillis": null returns it to the server's
//   POST /_localdynamo/replication/settle   applies everything pending now: {"Applied": n}
//
// Thread safety: as the Replicator.
#pragma once

#include <string_view>

#include "api/database_scope.h"
#include "api/errors.h"
#include "emulator/replicator.h"
#include "engine/engine.h"

namespace ddb::emulator {

// `sub` is the path after "replication" ("" or "settle"). Without a
// replicator (the MCP server's offline database) delays are not kept.
api::ApiResult<std::string> ReplicationControl(engine::Engine& engine, Replicator* replicator,
                                               api::DatabaseScope scope, std::string_view method,
                                               std::string_view sub, std::string_view body);

}  // namespace ddb::emulator
