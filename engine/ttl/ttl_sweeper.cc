#include "engine/ttl/ttl_sweeper.h"

#include <algorithm>

#include "engine/coding.h"
#include "engine/items/item_reads.h"
#include "engine/key_validation.h"
#include "engine/replication/write_clock.h"
#include "engine/ttl/ttl.h"

namespace ddb::engine {

TtlSweeper::TtlSweeper(Store& store, const Clock& clock, const TableRegistry& tables,
                       ItemWriter& writer, TtlSchedule& schedule)
    : store_(store), clock_(clock), tables_(tables), writer_(writer), schedule_(schedule) {}

Result<std::vector<ExpiredItem>> TtlSweeper::Sweep(size_t limit) {
  MutexLock lock(mu_);
  int64_t now_seconds = clock_.NowMillis() / 1000;
  if (!schedule_.MayBeDue(now_seconds)) return std::vector<ExpiredItem>{};
  int64_t from = schedule_.SweepFrom();
  // The due entries first, then one write each.
  std::vector<std::pair<int64_t, std::string>> due;
  {
    auto it = store_.NewIterator(Family::kTtl, TtlEntriesThrough(from - 1),
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
    auto outcome = Expire(expiry, item_key, now_seconds, &expired);
    if (!outcome.ok()) {
      next_from = std::min(next_from, expiry);
      failed = outcome.status();
      break;
    }
    if (*outcome == Outcome::kDeleted) deleted.push_back(std::move(expired));
    if (*outcome == Outcome::kDeferred) next_from = std::min(next_from, expiry);
  }
  // Everything through now handled: the next sweep has work from the first
  // entry after now. Otherwise from what was left.
  int64_t next_due = next_from;
  if (next_from > now_seconds) {
    auto after = store_.NewIterator(Family::kTtl, TtlEntriesThrough(now_seconds), "");
    after->SeekToFirst();
    int64_t expiry = 0;
    std::string_view item_key;
    if (!after->Valid()) {
      next_due = after->status().ok() ? INT64_MAX : 0;  // 0: unknown, look again
    } else {
      // An entry that does not parse is skipped by the next sweep's walk.
      next_due = ParseTtlEntryKey(after->key(), &expiry, &item_key) ? expiry : now_seconds + 1;
    }
  }
  schedule_.SweptThrough(next_from, next_due);
  if (!failed.ok()) return failed;
  return deleted;
}

Result<TtlSweeper::Outcome> TtlSweeper::DropEntry(const std::string& entry_key) {
  Store::Batch batch(store_);
  batch.Delete(Family::kTtl, entry_key);
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  return Outcome::kDropped;
}

Result<TtlSweeper::Outcome> TtlSweeper::Expire(int64_t expiry, const std::string& item_key,
                                               int64_t now_seconds, ExpiredItem* expired) {
  std::string entry_key = TtlEntryKey(expiry, item_key);
  auto found = tables_.FindById(coding::DecodeFixed64BE(item_key));
  if (!found) return DropEntry(entry_key);  // the table was deleted
  TableState& state = *found;
  MutexLock lock(state.write_mu);
  if (state.dropped) return DropEntry(entry_key);
  // A transaction holding the item decides its fate; try again next sweep.
  if (state.claimed.contains(item_key)) return Outcome::kDeferred;
  auto schema = state.schema();
  auto current = ReadItem(store_, item_key);
  if (!current.ok()) return current.status();
  // Re-checked under the lock: an item updated to a later expiry (or whose
  // table's TTL was disabled) has no business with this entry any more.
  if (!*current || TtlExpiry(*schema, **current) != expiry) return DropEntry(entry_key);
  // Five or more years past: DynamoDB takes the value for a mistake and
  // never deletes the item; it leaves the schedule for good.
  if (expiry <= now_seconds - kTtlIgnoredAfterSeconds) return DropEntry(entry_key);
  // A global table's item expires where it was last written; the other
  // replicas receive that deletion as a replicated write, as DynamoDB's do,
  // and try again next sweep until it arrives (or its region leaves).
  if (FeedsReplication(*schema)) {
    auto clock = ReadWriteClock(store_, item_key);
    if (!clock.ok()) return clock.status();
    const std::string* origin = *clock ? &(*clock)->origin_ns : nullptr;
    bool elsewhere = origin && *origin != state.ns &&
                     std::any_of(schema->replicas.begin(), schema->replicas.end(),
                                 [&](const Replica& r) { return r.ns == *origin; });
    if (elsewhere) return Outcome::kDeferred;
  }

  Item key = ExtractKey(*schema, **current);
  Mutation mutation{Mutation::Kind::kDelete, {}};
  mutation.by_ttl = true;
  Store::Batch batch(store_);
  PendingStats pending(state);
  DDB_RETURN_IF_ERROR(
      writer_.AddMutation(state, *schema, item_key, key, *current, mutation, batch, pending));
  DDB_RETURN_IF_ERROR(writer_.Commit(state, batch, pending));
  *expired = ExpiredItem{state.ns, schema->name, std::move(key), expiry};
  return Outcome::kDeleted;
}

}  // namespace ddb::engine
