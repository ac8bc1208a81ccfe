#include "emulator/admin.h"

#include <rapidjson/document.h>

#include <chrono>
#include <cstdlib>
#include <ctime>

#include "api/attribute_json.h"
#include "api/json_reader.h"
#include "api/resources/insights_report.h"
#include "emulator/admin_body.h"
#include "emulator/profile/profile_report.h"
#include "emulator/replication_admin.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;
using api::JsonWriter;
using api::RenderError;
using api::RenderObject;
using api::RequestReader;
using api::Response;
using api::WriteItem;
using api::WriteString;

namespace {

constexpr int64_t kLatestMillis = 253402300799999;  // 9999-12-31T23:59:59.999Z

Response Answer(ApiResult<std::string> result) {
  if (!result.ok()) return {result.error().http_status, RenderError(result.error())};
  return {200, std::move(result).value()};
}

std::string IsoTime(int64_t millis) { return engine::IsoMillis(millis) + "Z"; }

std::string ClockJson(const engine::ShiftableClock& clock) {
  int64_t now = clock.NowMillis();
  return RenderObject([&](JsonWriter& w) {
    w.Key("NowMillis");
    w.Int64(now);
    w.Key("Now");
    WriteString(w, IsoTime(now));
    w.Key("OffsetMillis");
    w.Int64(clock.offset_millis());
    w.Key("Frozen");
    w.Bool(clock.frozen());
  });
}

// The storage's state: whether writes are accepted, and the fault when not
// (docs/reliability.md). Times are the machine's, not the test clock's.
std::string HealthJson(const engine::StorageHealth& health) {
  const engine::StorageHealth::View view = health.view();
  return RenderObject([&](JsonWriter& w) {
    w.Key("Storage");
    w.StartObject();
    w.Key("State");
    WriteString(w, view.writable ? "WRITABLE" : "WRITES_STOPPED");
    w.Key("Fault");
    WriteString(w, engine::StorageFaultName(view.fault));
    if (!view.writable) {
      w.Key("Message");
      WriteString(w, engine::DescribeStorageFault(view.fault, view.reason));
    }
    w.Key("Stops");
    w.Uint64(view.stops);
    if (view.since_millis != 0) {
      w.Key("LastStoppedAt");
      WriteString(w, IsoTime(view.since_millis));
    }
    if (view.resumed_millis != 0) {
      w.Key("LastResumedAt");
      WriteString(w, IsoTime(view.resumed_millis));
    }
    w.EndObject();
  });
}

ApiResult<std::string> MoveClock(engine::ShiftableClock& clock, std::string_view body) {
  auto doc = ParseAdminBody(body);
  if (!doc.ok()) return doc.take_error();
  RequestReader r(*doc);
  auto seconds = r.Long("AdvanceSeconds");
  auto millis = r.Long("AdvanceMillis");
  auto set = r.Long("SetMillis");
  auto reset = r.Bool("Reset");
  auto freeze = r.Bool("Freeze");
  if (r.failed()) return r.error();
  int given = seconds.has_value() + millis.has_value() + set.has_value() + reset.value_or(false);
  if (freeze && given == 0 && !reset.has_value()) {
    clock.Freeze(*freeze);
    return ClockJson(clock);
  }
  if (given != 1) {
    return ApiError::Validation(
        "Give exactly one of AdvanceSeconds, AdvanceMillis, SetMillis and Reset: true "
        "(with or without Freeze)");
  }
  constexpr int64_t kMaxAdvanceMillis = 100LL * 365 * 24 * 3600 * 1000;  // a century
  int64_t advance = seconds ? *seconds * 1000 : millis.value_or(0);
  if ((seconds && (*seconds < 0 || *seconds > kMaxAdvanceMillis / 1000)) ||
      (millis && (*millis < 0 || *millis > kMaxAdvanceMillis))) {
    return ApiError::Validation(
        "The clock only moves forward by up to a century; use SetMillis to set it");
  }
  if (set && (*set < 0 || *set > kLatestMillis)) {
    return ApiError::Validation("SetMillis must be between 0 and 253402300799999 (9999-12-31)");
  }
  if (clock.NowMillis() + advance > kLatestMillis) {
    return ApiError::Validation("The clock cannot go past 9999-12-31");
  }
  if (set) {
    clock.Set(*set);
  } else if (reset) {
    clock.Reset();
  } else {
    clock.Advance(advance);
  }
  // Freezing combines with a move: {"SetMillis": t, "Freeze": true} stops at t.
  if (freeze) clock.Freeze(*freeze);
  return ClockJson(clock);
}

ApiResult<std::string> Sweep(engine::Engine& engine) {
  // In chunks, so that memory stays bounded however much is due; the answer
  // lists the first kMaxListed and counts them all.
  constexpr size_t kChunk = 1000;
  constexpr size_t kMaxListed = 1000;
  std::vector<engine::ExpiredItem> listed;
  uint64_t count = 0;
  for (;;) {
    auto deleted = engine.housekeeping().SweepExpired(kChunk);
    if (!deleted.ok()) return deleted.status();
    count += deleted->size();
    for (auto& item : *deleted) {
      if (listed.size() < kMaxListed) listed.push_back(std::move(item));
    }
    if (deleted->size() < kChunk) break;
  }
  auto maintained = engine.housekeeping().MaintainStreams();
  if (!maintained.ok()) return maintained;
  auto trimmed = engine.housekeeping().TrimHistory();
  if (!trimmed.ok()) return trimmed;
  return RenderObject([&](JsonWriter& w) {
    w.Key("Deleted");
    w.StartArray();
    for (const auto& item : listed) {
      w.StartObject();
      if (!item.ns.empty()) {
        w.Key("Namespace");
        WriteString(w, item.ns);
      }
      w.Key("TableName");
      WriteString(w, item.table);
      w.Key("Key");
      WriteItem(w, item.key);
      w.Key("ExpiredAt");
      w.Int64(item.expiry_seconds);
      w.EndObject();
    }
    w.EndArray();
    w.Key("DeletedCount");
    w.Uint64(count);
  });
}

ApiResult<std::string> Triggers(TriggerManager& triggers, std::string_view method,
                                std::string_view name, std::string_view body) {
  if (name.empty()) {
    if (method == "GET") return triggers.ListJson();
    if (method == "POST") return triggers.Add(body, TriggerSource::kAdminApi);
    return ApiError::AdminMethodNotAllowed("Use GET or POST on /_localdynamo/triggers");
  }
  if (method == "GET") {
    std::string described = triggers.DescribeJson(name);
    if (described.empty()) return ApiError::AdminNotFound("No such trigger: " + std::string(name));
    return described;
  }
  if (method == "DELETE") {
    if (!triggers.Remove(name)) return ApiError::AdminNotFound("No such trigger: " + std::string(name));
    return std::string("{}");
  }
  return ApiError::AdminMethodNotAllowed("Use GET or DELETE on /_localdynamo/triggers/<name>");
}

ApiResult<std::string> Reset(Preloader& preloader, std::string_view body) {
  auto doc = ParseAdminBody(body);
  if (!doc.ok()) return doc.take_error();
  RequestReader r(*doc);
  auto ns = r.String("Namespace");
  bool with_models = r.Bool("Models").value_or(true);
  if (r.failed()) return r.error();
  if (!ns && !with_models) {
    return ApiError::Validation("Models: false applies to one database: give its Namespace");
  }
  auto started = std::chrono::steady_clock::now();
  auto summary = ns ? preloader.ResetNamespace(CallerOfNamespace(*ns), with_models) : preloader.Reset();
  if (!summary.ok()) return summary.take_error();
  double millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            started).count();
  return RenderObject([&](JsonWriter& w) {
    w.Key("Tables");
    w.Int(summary->tables);
    w.Key("Indexes");
    w.Int(summary->indexes);
    w.Key("Items");
    w.Int(summary->items);
    w.Key("Millis");
    w.Double(millis);
  });
}

// The value of `name` in a query string ('/' may come percent-encoded);
// nothing when not given.
std::optional<std::string> QueryParameter(std::string_view query, std::string_view name) {
  for (size_t start = 0; start <= query.size();) {
    size_t end = std::min(query.find('&', start), query.size());
    std::string_view pair = query.substr(start, end - start);
    if (pair.size() > name.size() && pair.starts_with(name) && pair[name.size()] == '=') {
      std::string value(pair.substr(name.size() + 1));
      for (size_t p; (p = value.find("%2F")) != std::string::npos ||
                     (p = value.find("%2f")) != std::string::npos;) {
        value.replace(p, 3, "/");
      }
      return value;
    }
    start = end + 1;
  }
  return std::nullopt;
}

// ?namespace=<ns>: one database (api/database_scope.h: "<region>", or
// "<access key>/<region>" with --per-key-databases); nothing when not given.
std::optional<std::string> NamespaceParameter(std::string_view query) {
  return QueryParameter(query, "namespace");
}

// GET namespace?accessKey=<key>&region=<region>: the database a request
// signed so reaches, for tools (the console) that name it to other endpoints.
std::string NamespaceJson(api::DatabaseScope scope, std::string_view query) {
  std::string region = QueryParameter(query, "region").value_or(std::string(api::kDefaultRegion));
  std::string ns = api::NamespaceOf(scope, QueryParameter(query, "accessKey").value_or(""), region);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Namespace");
    WriteString(w, ns);
    w.Key("Region");
    WriteString(w, region.empty() ? api::kDefaultRegion : region);
    w.Key("Scope");
    w.String(scope == api::DatabaseScope::kShared          ? "SHARED"
             : scope == api::DatabaseScope::kPerKeyAndRegion ? "PER_KEY_AND_REGION"
                                                           : "PER_REGION");
  });
}

ApiResult<std::string> Faults(FaultRules& faults, std::string_view method, std::string_view id,
                              std::string_view query, std::string_view body) {
  if (id.empty()) {
    if (method == "GET") return faults.ListJson();
    if (method == "POST") return faults.Add(body);
    if (method == "DELETE") {
      size_t removed = faults.Clear(NamespaceParameter(query));
      return RenderObject([&](JsonWriter& w) {
        w.Key("Removed");
        w.Uint64(removed);
      });
    }
    return ApiError::AdminMethodNotAllowed("Use GET, POST or DELETE on /_localdynamo/faults");
  }
  if (method != "DELETE") {
    return ApiError::AdminMethodNotAllowed("Use DELETE on /_localdynamo/faults/<id>");
  }
  int64_t number = 0;
  for (char c : id) {
    if (c < '0' || c > '9' || number > INT64_MAX / 10 - 9) {
      return ApiError::AdminNotFound("No such fault rule: " + std::string(id));
    }
    number = number * 10 + (c - '0');
  }
  if (!faults.Remove(number)) return ApiError::AdminNotFound("No such fault rule: " + std::string(id));
  return std::string("{}");
}

ApiResult<std::string> ThrottleControl(Throttle& throttle, std::string_view method,
                                       std::string_view body) {
  if (method == "GET") return throttle.StatsJson();
  if (method != "POST") return ApiError::AdminMethodNotAllowed("Use GET or POST on /_localdynamo/throttle");
  auto doc = ParseAdminBody(body);
  if (!doc.ok()) return doc.take_error();
  RequestReader r(*doc);
  auto enabled = r.Bool("Enabled");
  auto reset = r.Bool("Reset");
  if (r.failed()) return r.error();
  if (!enabled && !reset) return ApiError::Validation("Give Enabled: true|false and/or Reset: true");
  if (reset.value_or(false)) throttle.Clear();
  if (enabled) throttle.set_enabled(*enabled);
  return throttle.StatsJson();
}

// A path segment with its %XX escapes decoded (a snapshot's name as a
// client library escapes it in the URL); malformed escapes stay as written.
std::string PercentDecoded(std::string_view segment) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string decoded;
  for (size_t i = 0; i < segment.size(); ++i) {
    if (segment[i] == '%' && i + 2 < segment.size() && hex(segment[i + 1]) >= 0 &&
        hex(segment[i + 2]) >= 0) {
      decoded.push_back(static_cast<char>(hex(segment[i + 1]) * 16 + hex(segment[i + 2])));
      i += 2;
    } else {
      decoded.push_back(segment[i]);
    }
  }
  return decoded;
}

ApiResult<std::string> SnapshotControl(Snapshots& snapshots, std::string_view method,
                                       std::string_view rest, std::string_view body) {
  if (rest.empty()) {
    if (method == "GET") return snapshots.ListJson();
    if (method == "POST") return snapshots.Save(body);
    return ApiError::AdminMethodNotAllowed("Use GET or POST on /_localdynamo/snapshots");
  }
  if (rest.ends_with("/restore")) {
    if (method != "POST") {
      return ApiError::AdminMethodNotAllowed(
          "Use POST on /_localdynamo/snapshots/<name>/restore");
    }
    return snapshots.Restore(PercentDecoded(rest.substr(0, rest.size() - 8)), body);
  }
  if (method != "DELETE") {
    return ApiError::AdminMethodNotAllowed("Use DELETE on /_localdynamo/snapshots/<name>");
  }
  return snapshots.Delete(PercentDecoded(rest));
}

std::string Index() {
  return R"({"Endpoints":[)"
         R"({"Method":"GET","Path":"/_localdynamo/clock","Does":"the emulator's time"},)"
         R"({"Method":"POST","Path":"/_localdynamo/clock","Does":"move it: {\"AdvanceSeconds\": n} | {\"AdvanceMillis\": n} | {\"SetMillis\": epochMillis} | {\"Reset\": true}"},)"
         R"({"Method":"POST","Path":"/_localdynamo/sweep","Does":"delete expired TTL items and maintain streams now"},)"
         R"({"Method":"GET","Path":"/_localdynamo/health","Does":"whether the storage takes writes: State WRITABLE or WRITES_STOPPED, the Fault and when"},)"
         R"({"Method":"GET","Path":"/_localdynamo/triggers","Does":"stream triggers with position, lag, last error"},)"
         R"({"Method":"POST","Path":"/_localdynamo/triggers","Does":"create a stream trigger"},)"
         R"({"Method":"GET|DELETE","Path":"/_localdynamo/triggers/<name>","Does":"one trigger"},)"
         R"({"Method":"POST","Path":"/_localdynamo/reset","Does":"drop every table and load the preloaded models afresh; {\"Namespace\": ns}: one database's"},)"
         R"({"Method":"GET|POST","Path":"/_localdynamo/snapshots","Does":"named snapshots: list, save one {\"Name\": n, \"Namespace\"?: ns}"},)"
         R"({"Method":"POST","Path":"/_localdynamo/snapshots/<name>/restore","Does":"restore it: {} | {\"Namespace\": ns}"},)"
         R"({"Method":"DELETE","Path":"/_localdynamo/snapshots/<name>","Does":"forget it"},)"
         R"({"Method":"GET|POST|DELETE","Path":"/_localdynamo/faults","Does":"injected-fault rules: list, add one, remove all"},)"
         R"({"Method":"DELETE","Path":"/_localdynamo/faults/<id>","Does":"remove one fault rule"},)"
         R"({"Method":"GET|POST","Path":"/_localdynamo/throttle","Does":"the provisioned-capacity throttle: its buckets; {\"Enabled\": bool} | {\"Reset\": true}"},)"
         R"({"Method":"GET|POST","Path":"/_localdynamo/replication","Does":"global tables: the replication delay and each member's backlog; {\"DelayMillis\": n, \"TableName\"?, \"Region\"?} sets a delay"},)"
         R"({"Method":"POST","Path":"/_localdynamo/replication/settle","Does":"apply every pending replicated write now"},)"
         R"({"Method":"GET","Path":"/_localdynamo/namespace","Does":"the database (Namespace) a request signed with ?accessKey=k&region=r reaches"},)"
         R"({"Method":"GET|DELETE","Path":"/_localdynamo/profile","Does":"the access profile: requests, units, cost, filter waste, Scans, shapes, hot keys per table and index; ?namespace=ns, ?region=r; DELETE starts it afresh"},)"
         R"({"Method":"GET","Path":"/_localdynamo/insights/<table>","Does":"Contributor Insights: each enabled rule's ten most accessed or throttled keys; ?namespace=ns for one database"}]})";
}

// GET profile (?namespace, ?region, ?shapes) or DELETE it (?namespace).
ApiResult<std::string> ProfileControl(AccessProfile* profile, const engine::Database& db,
                                      std::string_view method, std::string_view query) {
  if (!profile) {
    return ApiError::AdminNotFound("The access profile is off (the server was started with "
                                   "--no-profile)");
  }
  std::optional<std::string> ns = NamespaceParameter(query);
  if (method == "DELETE") {
    profile->Reset(ns ? &*ns : nullptr);
    return std::string(R"({"Reset":true})");
  }
  if (method != "GET") {
    return ApiError::AdminMethodNotAllowed("Use GET or DELETE on /_localdynamo/profile");
  }
  std::string region = QueryParameter(query, "region").value_or(std::string(api::kDefaultRegion));
  ProfileQuery request{.ns = ns ? &*ns : nullptr, .prices = PricesOf(region)};
  if (!request.prices) {
    std::string priced;
    for (const OnDemandPrices& prices : PricedRegions()) {
      priced += (priced.empty() ? "" : ", ") + std::string(prices.region);
    }
    return ApiError::Validation("No on-demand prices for region " + region + " here; priced: " +
                                priced);
  }
  if (auto shapes = QueryParameter(query, "shapes")) {
    char* end = nullptr;
    long n = std::strtol(shapes->c_str(), &end, 10);
    if (shapes->empty() || *end != '\0' || n < 0 || n > 200) {
      return ApiError::Validation("shapes must be a number from 0 to 200");
    }
    request.shapes = static_cast<size_t>(n);
  }
  return RenderProfile(*profile, db, request);
}

}  // namespace

Response HandleAdmin(AdminServices& services, std::string_view method, std::string_view path,
                     std::string_view body) {
  std::string_view rest = path.substr(kAdminPrefix.size());
  std::string_view query;
  if (size_t at = rest.find('?'); at != std::string_view::npos) {
    query = rest.substr(at + 1);
    rest = rest.substr(0, at);
  }
  while (rest.starts_with('/')) rest.remove_prefix(1);
  while (rest.ends_with('/')) rest.remove_suffix(1);
  auto only = [&](std::string_view allowed) {
    return ApiError::AdminMethodNotAllowed("Use " + std::string(allowed) + " on " +
                                           std::string(path));
  };
  if (rest.empty()) return method == "GET" ? Response{200, Index()} : Answer(only("GET"));
  if (rest == "clock") {
    if (method == "GET") return {200, ClockJson(services.clock)};
    if (method == "POST") return Answer(MoveClock(services.clock, body));
    return Answer(only("GET or POST"));
  }
  if (rest == "sweep") return Answer(method == "POST" ? Sweep(services.engine) : only("POST"));
  if (rest == "health") {
    return method == "GET" ? Response{200, HealthJson(services.engine.storage())}
                           : Answer(only("GET"));
  }
  if (rest == "reset") {
    return Answer(method == "POST" ? Reset(services.preloader, body) : only("POST"));
  }
  if (rest == "snapshots" || rest.starts_with("snapshots/")) {
    std::string_view name = rest == "snapshots" ? "" : rest.substr(10);
    return Answer(SnapshotControl(services.snapshots, method, name, body));
  }
  if (rest == "triggers" || rest.starts_with("triggers/")) {
    std::string_view name = rest == "triggers" ? "" : rest.substr(9);
    return Answer(Triggers(services.triggers, method, name, body));
  }
  if (rest == "faults" || rest.starts_with("faults/")) {
    std::string_view id = rest == "faults" ? "" : rest.substr(7);
    return Answer(Faults(services.controls.faults(), method, id, query, body));
  }
  if (rest == "namespace") {
    return method == "GET" ? Response{200, NamespaceJson(services.scope, query)}
                           : Answer(only("GET"));
  }
  if (rest == "replication" || rest.starts_with("replication/")) {
    std::string_view sub = rest == "replication" ? "" : rest.substr(12);
    return Answer(ReplicationControl(services.engine, services.replicator, services.scope, method,
                                     sub, body));
  }
  if (rest == "throttle") return Answer(ThrottleControl(services.controls.throttle(), method, body));
  if (rest == "profile") {
    return Answer(ProfileControl(services.profile, services.engine.database(), method, query));
  }
  if (rest.starts_with("insights/")) {
    if (method != "GET") return Answer(only("GET"));
    return Answer(api::InsightsReport(services.engine, NamespaceParameter(query).value_or(""),
                                      rest.substr(9), /*limit=*/10));
  }
  return Answer(ApiError::AdminNotFound("No admin endpoint at " + std::string(path)));
}

Response AdminDisabledResponse() {
  ApiError error = ApiError::AdminDisabled();
  return {error.http_status, RenderError(error)};
}

}  // namespace ddb::emulator
