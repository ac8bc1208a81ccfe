#include "engine/housekeeping.h"

#include "engine/backups/history.h"

namespace ddb::engine {

Result<std::vector<ExpiredItem>> Housekeeping::SweepExpired(size_t limit) {
  return sweeper_.Sweep(limit);
}

Status Housekeeping::MaintainStreams() {
  return streams_.Maintain([this](uint64_t table_id) { return tables_.FindById(table_id); });
}

Status Housekeeping::TrimHistory() {
  int64_t now = clock_.NowMillis();
  for (const auto& state : tables_.All()) {
    const PointInTimeRecovery& pitr = state->schema()->point_in_time_recovery;
    if (!pitr.enabled) continue;
    DDB_RETURN_IF_ERROR(engine::TrimHistory(store_, state->table_id,
                                            now - pitr.recovery_period_days * 86'400'000));
  }
  return Status::Ok();
}

}  // namespace ddb::engine
