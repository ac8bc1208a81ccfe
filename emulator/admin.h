// The admin API: localdynamo's own controls, as small JSON endpoints under
// one path prefix on the DynamoDB port — the one place for everything that
// is not DynamoDB's API (the test clock, TTL sweeps, triggers; later model
// reset and the console's needs).
//
//   GET  /_localdynamo/                 the endpoints, as JSON
//   GET  /_localdynamo/clock            {"NowMillis", "Now", "OffsetMillis"}
//   POST /_localdynamo/clock            {"AdvanceSeconds": n} | {"AdvanceMillis": n}
//                                       | {"SetMillis": epoch millis} | {"Reset": true},
//                                       each with or without "Freeze": bool (a
//                                       frozen clock moves only when told)
//   POST /_localdynamo/sweep            runs a TTL sweep and stream maintenance
//                                       now: {"Deleted": [{"TableName", "Key",
//                                       "ExpiredAt"}…], "DeletedCount"}
//   GET  /_localdynamo/triggers         every trigger with its position, lag and
//                                       last error
//   POST /_localdynamo/triggers         creates a trigger (emulator/trigger_spec.h format)
//   GET|DELETE /_localdynamo/triggers/<name>
//   POST /_localdynamo/reset            drops every table and loads the preloaded
//                                       models afresh: {"Tables", "Indexes",
//                                       "Items", "Millis"}; {"Namespace": ns}: only
//                                       that database's ("Models": false leaves it
//                                       empty)
//   GET  /_localdynamo/snapshots        the named snapshots (emulator/snapshots.h)
//   POST /_localdynamo/snapshots        saves one: {"Name", "Namespace"?}
//   POST /_localdynamo/snapshots/<name>/restore   {} | {"Namespace": ns}
//   DELETE /_localdynamo/snapshots/<name>
//   GET  /_localdynamo/faults           the injected-fault rules: {"Rules": [...]}
//   POST /_localdynamo/faults           adds one (emulator/fault_rules.h format)
//   DELETE /_localdynamo/faults         removes them all (?namespace=<ns>: of one
//                                       database): {"Removed": n}
//   DELETE /_localdynamo/faults/<id>    removes one
//   GET|POST /_localdynamo/replication  global tables' delay and backlog; settle
//                                       (emulator/replication_admin.h)
//   GET  /_localdynamo/profile          the access profile (docs/profile.md);
//                                       ?namespace, ?region (prices), ?shapes
//   DELETE /_localdynamo/profile        starts it afresh (?namespace: one database's)
//   GET  /_localdynamo/throttle         whether it is on, and every bucket
//   POST /_localdynamo/throttle         {"Enabled": bool} and/or {"Reset": true}
//                                       (every bucket starts afresh)
//
// Errors are DynamoDB-style JSON ({"__type", "message"}) with 400, 404 or
// 405; a server started with --no-admin answers 403 to every admin path.
//
// Thread safety: HandleAdmin may be called concurrently.
#pragma once

#include <string_view>

#include "api/database_scope.h"
#include "api/dispatch.h"
#include "emulator/models.h"
#include "emulator/profile/access_profile.h"
#include "emulator/replicator.h"
#include "emulator/request_controls.h"
#include "emulator/snapshots.h"
#include "emulator/triggers.h"
#include "engine/clock.h"
#include "engine/engine.h"

namespace ddb::emulator {

inline constexpr std::string_view kAdminPrefix = "/_localdynamo";

struct AdminServices {
  engine::Engine& engine;
  engine::ShiftableClock& clock;  // the clock `engine` reads
  TriggerManager& triggers;
  Preloader& preloader;
  RequestControls& controls;  // injected faults and the throttle
  Snapshots& snapshots;
  // Which database a request's region and access key name.
  api::DatabaseScope scope = api::DatabaseScope::kPerRegion;
  // Global tables' replication; null where nothing replicates in the
  // background (the MCP server's offline database).
  Replicator* replicator = nullptr;
  // The access profile of the requests served; null when it is off.
  AccessProfile* profile = nullptr;
};

// `path` is the request target, starting with kAdminPrefix.
api::Response HandleAdmin(AdminServices& services, std::string_view method, std::string_view path,
                          std::string_view body);

// The answer to every admin request when the admin API is turned off. Who
// may reach it otherwise is server/access_policy.h's decision.
api::Response AdminDisabledResponse();

}  // namespace ddb::emulator
