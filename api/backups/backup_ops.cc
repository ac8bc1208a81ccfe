// DescribeContinuousBackups, UpdateContinuousBackups: point-in-time
// recovery, kept per table in its schema and described (infrastructure
// tools read it on every refresh).
#include <algorithm>
#include <cmath>

#include "api/backups/backup_request.h"
#include "api/json_reader.h"
#include "api/operations.h"

namespace ddb::api {
namespace {

void WriteBackupSeconds(JsonWriter& w, int64_t millis) {
  w.Double(static_cast<double>(millis) / 1000.0);
}

std::string RenderContinuousBackups(const engine::PointInTimeRecovery& pitr, int64_t now) {
  return RenderObject([&](JsonWriter& w) {
    w.Key("ContinuousBackupsDescription");
    w.StartObject();
    w.Key("ContinuousBackupsStatus");
    w.String("ENABLED");  // DynamoDB keeps continuous backups on for every table
    w.Key("PointInTimeRecoveryDescription");
    w.StartObject();
    w.Key("PointInTimeRecoveryStatus");
    w.String(pitr.enabled ? "ENABLED" : "DISABLED");
    if (pitr.enabled) {
      w.Key("RecoveryPeriodInDays");
      w.Int64(pitr.recovery_period_days);
      RecoveryWindow window = RecoveryWindowOf(pitr, now);
      w.Key("EarliestRestorableDateTime");
      WriteBackupSeconds(w, window.earliest);
      w.Key("LatestRestorableDateTime");
      WriteBackupSeconds(w, window.latest);
    }
    w.EndObject();
    w.EndObject();
  });
}

}  // namespace

ApiError BackupTableNotFound(const std::string& table) {
  return ApiError::TableNotFound(table.empty() ? "Table not found" : "Table not found: " + table);
}

ApiResult<std::optional<int64_t>> ReadEpochMillis(const rapidjson::Value& request,
                                                  const char* name) {
  auto member = request.FindMember(name);
  if (member == request.MemberEnd() || member->value.IsNull()) return std::optional<int64_t>();
  if (!member->value.IsNumber()) return WrongType(member->value, "Date");
  return std::optional<int64_t>(std::llround(member->value.GetDouble() * 1000.0));
}

RecoveryWindow RecoveryWindowOf(const engine::PointInTimeRecovery& pitr, int64_t now) {
  constexpr int64_t kDayMillis = 86'400'000;
  return {std::max(pitr.enabled_since_millis, now - pitr.recovery_period_days * kDayMillis), now};
}

ApiResult<std::string> DescribeContinuousBackups(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = ReadTableNameOrArn(r);
  if (!table.ok()) return table.take_error();
  auto schema = ctx.db.GetSchema(ctx.caller.ns, *table);
  if (!schema.ok()) return BackupTableNotFound(*table);
  return RenderContinuousBackups((*schema)->point_in_time_recovery, ctx.db.clock().NowMillis());
}

ApiResult<std::string> UpdateContinuousBackups(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = ReadTableNameOrArn(r);
  if (!table.ok()) return table.take_error();
  const rapidjson::Value* spec = r.Object("PointInTimeRecoverySpecification");
  if (r.failed()) return r.error();
  std::optional<bool> enabled;
  std::optional<int64_t> period;
  if (spec) {
    RequestReader s(*spec);
    enabled = s.Bool("PointInTimeRecoveryEnabled");
    period = s.Integer("RecoveryPeriodInDays");
    if (s.failed()) return s.error();
  }
  Constraints constraints;
  constraints.NotNull(spec != nullptr, "pointInTimeRecoverySpecification");
  if (spec) {
    constraints.NotNull(enabled.has_value(),
                        "pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled");
    constraints.Range(period, "pointInTimeRecoverySpecification.recoveryPeriodInDays", 1, 35);
  }
  if (!constraints.empty()) return constraints.ToError();
  int64_t now = ctx.db.clock().NowMillis();
  auto updated = ctx.db.UpdateTable(
      ctx.caller.ns, *table, [&](engine::TableSchema& schema) -> engine::Status {
        auto& pitr = schema.point_in_time_recovery;
        if (*enabled && !pitr.enabled) pitr.enabled_since_millis = now;
        pitr.enabled = *enabled;
        if (period) pitr.recovery_period_days = *period;
        return engine::Status::Ok();
      });
  if (!updated.ok()) {
    if (updated.status().code() == engine::Status::Code::kNotFound) {
      return BackupTableNotFound(*table);
    }
    return updated.status();
  }
  return RenderContinuousBackups(updated->schema.point_in_time_recovery, now);
}

}  // namespace ddb::api
