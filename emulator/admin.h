// The admin API: localdynamo's own controls, as small JSON endpoints under
// one path prefix on the DynamoDB port — the one place for everything that
// is not DynamoDB's API (the test clock, TTL sweeps, triggers; later model
// reset and the console's needs).
//
//   GET  /_localdynamo/                 the endpoints, as JSON
//   GET  /_localdynamo/clock            {"NowMillis", "Now", "OffsetMillis"}
//   POST /_localdynamo/clock            {"AdvanceSeconds": n} | {"AdvanceMillis": n}
//                                       | {"SetMillis": epoch millis} | {"Reset": true}
//   POST /_localdynamo/sweep            runs a TTL sweep and stream maintenance
//                                       now: {"Deleted": [{"TableName", "Key",
//                                       "ExpiredAt"}…], "DeletedCount"}
//   GET  /_localdynamo/triggers         every trigger with its position, lag and
//                                       last error
//   POST /_localdynamo/triggers         creates a trigger (emulator/trigger_spec.h format)
//   GET|DELETE /_localdynamo/triggers/<name>
//   POST /_localdynamo/reset            drops every table and loads the preloaded
//                                       models afresh: {"Tables", "Indexes",
//                                       "Items", "Millis"}
//
// Errors are DynamoDB-style JSON ({"__type", "message"}) with 400, 404 or
// 405; a server started with --no-admin answers 403 to every admin path.
//
// Thread safety: HandleAdmin may be called concurrently.
#pragma once

#include <string_view>

#include "api/dispatch.h"
#include "emulator/models.h"
#include "emulator/triggers.h"
#include "engine/clock.h"
#include "engine/database.h"

namespace ddb::emulator {

inline constexpr std::string_view kAdminPrefix = "/_localdynamo";

struct AdminServices {
  engine::Database& db;
  engine::ShiftableClock& clock;  // the clock `db` reads
  TriggerManager& triggers;
  Preloader& preloader;
};

// `path` is the request target, starting with kAdminPrefix.
api::Response HandleAdmin(AdminServices& services, std::string_view method, std::string_view path,
                          std::string_view body);

// The answer to every admin request when the admin API is turned off, and
// to one a browser sent from a page of another origin.
api::Response AdminDisabledResponse();
api::Response AdminCrossOriginResponse();

}  // namespace ddb::emulator
