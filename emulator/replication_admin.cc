#include "emulator/replication_admin.h"

#include "api/json_reader.h"
#include "emulator/admin_body.h"

namespace ddb::emulator {
namespace {

using api::ApiError;
using api::ApiResult;
using api::JsonWriter;

ApiResult<std::string> Backlogs(engine::Engine& engine, const Replicator* replicator) {
  auto backlogs = engine.replication().Backlogs();
  if (!backlogs.ok()) return backlogs.status();
  return api::RenderObject([&](JsonWriter& w) {
    if (replicator) {
      w.Key("DelayMillis");
      w.Int64(replicator->delay_millis());
    }
    w.Key("Members");
    w.StartArray();
    for (const engine::ReplicationBacklog& backlog : *backlogs) {
      w.StartObject();
      w.Key("Region");
      api::WriteString(w, api::RegionOfNamespace(backlog.ns));
      w.Key("Namespace");
      api::WriteString(w, backlog.ns);
      w.Key("TableName");
      api::WriteString(w, backlog.table);
      w.Key("Pending");
      w.Uint64(backlog.pending);
      if (backlog.oldest_pending_millis != 0) {
        w.Key("OldestPendingMillis");
        w.Int64(backlog.oldest_pending_millis);
      }
      if (replicator) {
        w.Key("DelayMillis");
        w.Int64(replicator->DelayOf(backlog.ns, backlog.table));
      }
      w.EndObject();
    }
    w.EndArray();
  });
}

ApiResult<std::string> SetDelay(engine::Engine& engine, Replicator* replicator,
                                api::DatabaseScope scope, std::string_view body) {
  if (!replicator) return ApiError::Validation("This database has no replicator to set a delay on");
  auto doc = ParseAdminBody(body);
  if (!doc.ok()) return doc.take_error();
  api::RequestReader r(*doc);
  auto table = r.String("TableName");
  auto region = r.String("Region");
  auto access_key = r.String("AccessKey");
  auto ns = r.String("Namespace");
  auto delay = r.Long("DelayMillis");
  if (r.failed()) return r.error();
  bool delay_given = doc->HasMember("DelayMillis");
  if (!delay_given) return ApiError::Validation("Give DelayMillis (null: the server's)");
  // An hour: well inside the feed's 24-hour retention.
  constexpr int64_t kMaxDelay = 3600LL * 1000;
  if (delay && (*delay < 0 || *delay > kMaxDelay)) {
    return ApiError::Validation("DelayMillis must be between 0 and 3600000");
  }
  if (!table) {
    if (!delay) return ApiError::Validation("The server's DelayMillis cannot be null");
    replicator->set_delay_millis(*delay);
    return Backlogs(engine, replicator);
  }
  std::string where = ns ? std::string(*ns)
                         : api::NamespaceOf(scope, access_key.value_or(""),
                                            region.value_or(api::kDefaultRegion));
  replicator->SetTableDelay(where, std::string(*table), delay);
  return Backlogs(engine, replicator);
}

}  // namespace

ApiResult<std::string> ReplicationControl(engine::Engine& engine, Replicator* replicator,
                                          api::DatabaseScope scope, std::string_view method,
                                          std::string_view sub, std::string_view body) {
  if (sub == "settle") {
    if (method != "POST") return ApiError::AdminMethodNotAllowed("Use POST on /_localdynamo/replication/settle");
    auto applied = engine.replication().Settle();
    if (!applied.ok()) return applied.status();
    return api::RenderObject([&](JsonWriter& w) {
      w.Key("Applied");
      w.Uint64(*applied);
    });
  }
  if (!sub.empty()) return ApiError::AdminNotFound("No admin endpoint at /_localdynamo/replication/" + std::string(sub));
  if (method == "GET") return Backlogs(engine, replicator);
  if (method == "POST") return SetDelay(engine, replicator, scope, body);
  return ApiError::AdminMethodNotAllowed("Use GET or POST on /_localdynamo/replication");
}

}  // namespace ddb::emulator
