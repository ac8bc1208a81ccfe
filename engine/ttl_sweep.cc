// Database's side of TTL: keeping the schedule in step with items and
// schemas, and the sweep that deletes expired items.
#include <algorithm>
#include <climits>

#include "engine/coding.h"
#include "engine/database.h"
#include "engine/item_codec.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/table_state.h"
#include "engine/ttl.h"

namespace ddb::engine {

void Database::WriteTtlEntries(const TableSchema& schema, const std::string& item_key,
                               const Item* old_item, const Item* new_item, Store::Batch& batch,
                               PendingStats& pending) {
  if (schema.ttl_attribute.empty()) return;
  auto old_expiry = old_item ? TtlExpiry(schema, *old_item) : std::nullopt;
  auto new_expiry = new_item ? TtlExpiry(schema, *new_item) : std::nullopt;
  if (old_expiry == new_expiry) return;
  if (old_expiry) batch.Delete(Family::kTtl, TtlEntryKey(*old_expiry, item_key));
  if (new_expiry) {
    batch.Put(Family::kTtl, TtlEntryKey(*new_expiry, item_key), "");
    pending.earliest_expiry = std::min(pending.earliest_expiry, *new_expiry);
  }
}

void Database::NoteScheduled(int64_t expiry) {
  int64_t current = ttl_written_min_.load();
  while (expiry < current && !ttl_written_min_.compare_exchange_weak(current, expiry)) {
  }
}

Status Database::RescheduleTtl(const TableSchema& old_schema, const TableSchema& schema) {
  // Entries are written before the schema that needs them: a crash between
  // the two leaves entries the sweeper finds stale and drops, never an item
  // that should expire without an entry.
  constexpr size_t kEntriesPerBatch = 1000;
  std::string prefix = TablePrefix(schema.table_id);
  auto it = store_->NewIterator(Family::kItems, prefix, PrefixSuccessor(prefix));
  auto batch = std::make_unique<Store::Batch>(*store_);
  int64_t earliest = INT64_MAX;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto item = DecodeItem(it->value());
    if (!item.ok()) return item.status();
    std::string item_key(it->key());
    auto old_expiry = TtlExpiry(old_schema, *item);
    auto new_expiry = TtlExpiry(schema, *item);
    // Old entries stay: the sweeper drops them as stale when they come due
    // (deleting them before the schema is stored could lose live ones).
    if (old_expiry == new_expiry) continue;
    if (new_expiry) {
      batch->Put(Family::kTtl, TtlEntryKey(*new_expiry, item_key), "");
      earliest = std::min(earliest, *new_expiry);
    }
    if (batch->count() >= kEntriesPerBatch) {
      DDB_RETURN_IF_ERROR(store_->Write(*batch));
      batch = std::make_unique<Store::Batch>(*store_);
    }
  }
  DDB_RETURN_IF_ERROR(it->status());
  DDB_RETURN_IF_ERROR(store_->Write(*batch));
  NoteScheduled(earliest);
  return Status::Ok();
}

Result<std::vector<ExpiredItem>> Database::SweepExpired(size_t limit) {
  std::lock_guard maintenance(maintenance_mu_);
  int64_t now_seconds = clock_.NowMillis() / 1000;
  // Entries written before this exchange are in the store by now (writers
  // note them after their batch), so the iterator below sees them.
  int64_t from = std::min(ttl_swept_through_.load(), ttl_written_min_.exchange(INT64_MAX));
  from = std::max<int64_t>(from, 0);
  // The due entries first, then one write each: an item's lock is held
  // only for its own delete, never across the sweep.
  std::vector<std::pair<int64_t, std::string>> due;
  {
    auto it = store_->NewIterator(Family::kTtl, TtlEntriesThrough(from - 1),
                                  TtlEntriesThrough(now_seconds));
    for (it->SeekToFirst(); it->Valid() && due.size() < limit; it->Next()) {
      int64_t expiry = 0;
      std::string_view item_key;
      if (!ParseTtlEntryKey(it->key(), &expiry, &item_key)) continue;
      due.emplace_back(expiry, std::string(item_key));
    }
    DDB_RETURN_IF_ERROR(it->status());
  }
  // Where the next sweep starts: after this one, unless it stopped at its
  // limit or left an entry (claimed by a transaction) for later.
  int64_t next_from = due.size() == limit ? due.back().first : now_seconds + 1;
  std::vector<ExpiredItem> deleted;
  Status failed = Status::Ok();
  for (const auto& [expiry, item_key] : due) {
    ExpiredItem expired;
    auto outcome = ExpireEntry(expiry, item_key, now_seconds, &expired);
    if (!outcome.ok()) {
      next_from = std::min(next_from, expiry);
      failed = outcome.status();
      break;
    }
    if (*outcome == ExpireOutcome::kDeleted) deleted.push_back(std::move(expired));
    if (*outcome == ExpireOutcome::kDeferred) next_from = std::min(next_from, expiry);
  }
  int64_t through = ttl_written_min_.exchange(INT64_MAX);
  ttl_swept_through_ = std::min(next_from, through);
  if (!failed.ok()) return failed;
  return deleted;
}

Result<Database::ExpireOutcome> Database::ExpireEntry(int64_t expiry,
                                                      const std::string& item_key,
                                                      int64_t now_seconds, ExpiredItem* expired) {
  std::string entry_key = TtlEntryKey(expiry, item_key);
  auto drop_entry = [&]() -> Result<ExpireOutcome> {
    Store::Batch batch(*store_);
    batch.Delete(Family::kTtl, entry_key);
    DDB_RETURN_IF_ERROR(store_->Write(batch));
    return ExpireOutcome::kDropped;
  };
  auto state = FindTableById(coding::DecodeFixed64BE(item_key));
  if (!state) return drop_entry();  // the table was deleted
  std::lock_guard lock(state->write_mu);
  if (state->dropped) return drop_entry();
  // A transaction holding the item decides its fate; try again next sweep.
  if (state->claimed.contains(item_key)) return ExpireOutcome::kDeferred;
  auto schema = state->schema();
  auto current = ReadCurrent(item_key);
  if (!current.ok()) return current.status();
  // Re-checked under the lock: an item updated to a later expiry (or whose
  // table's TTL was disabled) has no business with this entry any more.
  if (!*current || TtlExpiry(*schema, **current) != expiry) return drop_entry();
  // Five or more years past: DynamoDB takes the value for a mistake and
  // never deletes the item; it leaves the schedule for good.
  if (expiry <= now_seconds - kTtlIgnoredAfterSeconds) return drop_entry();

  Item key = ExtractKey(*schema, **current);
  Mutation mutation{Mutation::Kind::kDelete, {}};
  mutation.by_ttl = true;
  Store::Batch batch(*store_);
  PendingStats pending(*state);
  DDB_RETURN_IF_ERROR(
      AddMutation(*state, *schema, item_key, key, *current, mutation, batch, pending));
  pending.AddTo(schema->table_id, batch);
  DDB_RETURN_IF_ERROR(store_->Write(batch));
  pending.CommitTo(*state);
  NoteStreamWrites(pending);
  *expired = ExpiredItem{state->ns, schema->name, std::move(key), expiry};
  return ExpireOutcome::kDeleted;
}

}  // namespace ddb::engine
