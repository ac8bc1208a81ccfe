#include "engine/ttl/ttl_schedule.h"

#include <algorithm>

#include "engine/tables/table_items.h"
#include "engine/ttl/ttl.h"

namespace ddb::engine {

int64_t TtlSchedule::WriteEntries(const TableSchema& schema, const std::string& item_key,
                                  const Item* old_item, const Item* new_item,
                                  Store::Batch& batch) {
  if (schema.ttl_attribute.empty()) return INT64_MAX;
  auto old_expiry = old_item ? TtlExpiry(schema, *old_item) : std::nullopt;
  auto new_expiry = new_item ? TtlExpiry(schema, *new_item) : std::nullopt;
  if (old_expiry == new_expiry) return INT64_MAX;
  if (old_expiry) batch.Delete(Family::kTtl, TtlEntryKey(*old_expiry, item_key));
  if (!new_expiry) return INT64_MAX;
  batch.Put(Family::kTtl, TtlEntryKey(*new_expiry, item_key), "");
  return *new_expiry;
}

void TtlSchedule::NoteScheduled(int64_t expiry) {
  int64_t current = written_min_.load();
  while (expiry < current && !written_min_.compare_exchange_weak(current, expiry)) {
  }
}

Status TtlSchedule::Reschedule(Store& store, const TableSchema& old_schema,
                               const TableSchema& schema) {
  int64_t earliest = INT64_MAX;
  auto batch = std::make_unique<Store::Batch>(store);
  DDB_RETURN_IF_ERROR(ForEachTableItem(
      store, schema.table_id, batch,
      [&](std::string_view item_key, const Item& item, Store::Batch& batch) {
        auto old_expiry = TtlExpiry(old_schema, item);
        auto new_expiry = TtlExpiry(schema, item);
        // Old entries stay: the sweeper drops them as stale when they come
        // due (deleting them before the schema is stored could lose live ones).
        if (old_expiry == new_expiry || !new_expiry) return Status::Ok();
        batch.Put(Family::kTtl, TtlEntryKey(*new_expiry, item_key), "");
        earliest = std::min(earliest, *new_expiry);
        return Status::Ok();
      }));
  DDB_RETURN_IF_ERROR(store.Write(*batch));
  NoteScheduled(earliest);
  return Status::Ok();
}

int64_t TtlSchedule::SweepFrom() {
  // Entries written before this exchange are in the store by now (writers
  // note them after their batch), so a sweep's iterator sees them.
  return std::max<int64_t>(std::min(swept_through_.load(), written_min_.exchange(INT64_MAX)), 0);
}

bool TtlSchedule::MayBeDue(int64_t now_seconds) const {
  return std::min(next_due_.load(), written_min_.load()) <= now_seconds;
}

void TtlSchedule::SweptThrough(int64_t next_from, int64_t next_due) {
  // An entry written during the sweep may have been missed by its reads.
  int64_t written = written_min_.exchange(INT64_MAX);
  swept_through_ = std::min(next_from, written);
  next_due_ = std::min(next_due, written);
}

void TtlSchedule::NothingScheduled() { next_due_ = INT64_MAX; }

void TtlSchedule::Clear() {
  swept_through_ = 0;
  written_min_ = INT64_MAX;
  next_due_ = 0;
}

}  // namespace ddb::engine
