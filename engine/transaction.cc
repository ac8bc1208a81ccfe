// Database::TransactWrite, GetItems and TransactGet: several items, several
// tables, one write batch or one snapshot.
#include <algorithm>
#include <chrono>
#include <thread>

#include "engine/database.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/table_state.h"

namespace ddb::engine {

Result<TransactWriteOutcome> Database::TransactWrite(
    std::string_view ns, const std::vector<TransactWriteItem>& items) {
  std::vector<ItemLocation> targets;
  for (const TransactWriteItem& item : items) {
    auto location = Locate(ns, item.table, item.key);
    if (!location.ok()) return location.status();
    targets.push_back(std::move(location).value());
  }
  // Lock each table once, in table-id order.
  std::vector<TableState*> tables;
  for (const ItemLocation& t : targets) tables.push_back(t.state.get());
  std::sort(tables.begin(), tables.end(), [&](TableState* a, TableState* b) {
    return a->schema()->table_id < b->schema()->table_id;
  });
  tables.erase(std::unique(tables.begin(), tables.end()), tables.end());
  std::vector<std::unique_lock<std::mutex>> locks;
  // Locks every table (all of them, even when one turns out dropped, so
  // that claims are only ever touched under their table's lock).
  auto lock_all = [&]() -> Status {
    for (TableState* table : tables) locks.emplace_back(table->write_mu);
    for (TableState* table : tables) {
      if (table->dropped) return ItemTableNotFound();
    }
    return Status::Ok();
  };
  DDB_RETURN_IF_ERROR(lock_all());
  // The schemas as of now (an index added meanwhile must get its entries).
  auto refresh_schemas = [&] {
    for (ItemLocation& t : targets) t.schema = t.state->schema();
  };
  refresh_schemas();

  // Decide: every planner sees the items as they are now.
  TransactWriteOutcome outcome;
  outcome.reasons.resize(items.size());
  outcome.before.resize(items.size());
  std::vector<Mutation> mutations(items.size());
  bool cancel = false;
  for (size_t i = 0; i < items.size(); ++i) {
    if (targets[i].state->claimed.contains(targets[i].item_key)) {
      outcome.reasons[i] = Status::TransactionConflict(std::string(kTransactionOngoing));
      cancel = true;
      continue;
    }
    auto current = ReadCurrent(targets[i].item_key);
    if (!current.ok()) return current.status();
    outcome.before[i] = std::move(current).value();
    auto mutation = items[i].planner(outcome.before[i] ? &*outcome.before[i] : nullptr);
    if (!mutation.ok()) {
      outcome.reasons[i] = mutation.status();
      cancel = true;
    } else {
      mutations[i] = std::move(mutation).value();
    }
  }
  if (cancel) return outcome;

  // The batch of every mutation, with the statistics as they are when it is
  // built; false (reasons set) if a mutation breaks a limit.
  auto build = [&](Store::Batch& batch, std::map<TableState*, PendingStats>& pending) {
    bool ok = true;
    for (size_t i = 0; i < items.size(); ++i) {
      TableState& state = *targets[i].state;
      auto& stats = pending.try_emplace(&state, state).first->second;
      Status added = AddMutation(state, *targets[i].schema, targets[i].item_key, items[i].key,
                                 outcome.before[i], mutations[i], batch, stats);
      if (!added.ok()) {
        outcome.reasons[i] = added;
        ok = false;
      }
    }
    return ok;
  };
  auto batch = std::make_unique<Store::Batch>(*store_);
  std::map<TableState*, PendingStats> pending;
  if (!build(*batch, pending)) return outcome;

  if (options_.transaction_hold_millis > 0) {
    // Claim the items, let go of the tables for the hold, then commit what
    // was decided: claimed items cannot change meanwhile.
    for (const ItemLocation& t : targets) t.state->claimed.insert(t.item_key);
    locks.clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(options_.transaction_hold_millis));
    Status relocked = lock_all();
    for (const ItemLocation& t : targets) t.state->claimed.erase(t.item_key);
    DDB_RETURN_IF_ERROR(relocked);
    refresh_schemas();
    batch = std::make_unique<Store::Batch>(*store_);
    pending.clear();
    if (!build(*batch, pending)) return outcome;
  }
  for (auto& [state, stats] : pending) stats.AddTo(state->schema()->table_id, *batch);
  DDB_RETURN_IF_ERROR(store_->Write(*batch));
  for (auto& [state, stats] : pending) {
    stats.CommitTo(*state);
    NoteScheduled(stats.earliest_expiry);
    NoteStreamWrites(stats);
  }
  outcome.committed = true;
  for (size_t i = 0; i < items.size(); ++i) {
    switch (mutations[i].kind) {
      case Mutation::Kind::kPut: outcome.after.push_back(std::move(mutations[i].new_item)); break;
      case Mutation::Kind::kDelete: outcome.after.push_back(std::nullopt); break;
      case Mutation::Kind::kNone: outcome.after.push_back(outcome.before[i]); break;
    }
  }
  return outcome;
}

TokenCheck Database::CheckToken(std::string_view ns, std::string_view token,
                                std::string_view fingerprint, int64_t lifetime_millis) {
  std::lock_guard lock(tokens_mu_);
  int64_t now = clock_.NowMillis();
  std::erase_if(tokens_, [&](const auto& entry) { return entry.second.expires <= now; });
  std::string key = std::string(ns) + '\0' + std::string(token);
  auto it = tokens_.find(key);
  if (it == tokens_.end()) {
    // Reserved now, so that a retry arriving before this request finishes
    // does not run it a second time.
    tokens_.emplace(std::move(key), TokenEntry{std::string(fingerprint), now + lifetime_millis,
                                               /*done=*/false});
    return TokenCheck::kNew;
  }
  if (it->second.fingerprint != fingerprint) return TokenCheck::kMismatch;
  return it->second.done ? TokenCheck::kRepeat : TokenCheck::kInProgress;
}

void Database::FinishToken(std::string_view ns, std::string_view token, bool committed,
                           int64_t lifetime_millis) {
  std::lock_guard lock(tokens_mu_);
  auto it = tokens_.find(std::string(ns) + '\0' + std::string(token));
  if (it == tokens_.end()) return;
  if (!committed) {
    tokens_.erase(it);  // a failed request may be retried as new
    return;
  }
  // The window runs from the request's completion.
  it->second.done = true;
  it->second.expires = clock_.NowMillis() + lifetime_millis;
}

Result<std::vector<std::optional<Item>>> Database::ReadAll(
    const std::vector<ItemLocation>& locations) const {
  auto snapshot = store_->GetSnapshot();
  std::vector<std::optional<Item>> found;
  for (const ItemLocation& location : locations) {
    auto item = ReadCurrent(location.item_key, snapshot.get());
    if (!item.ok()) return item.status();
    found.push_back(std::move(item).value());
  }
  return found;
}

Result<std::vector<ItemLocation>> Database::LocateAll(std::string_view ns,
                                                     const std::vector<ItemRef>& refs) const {
  std::vector<ItemLocation> locations;
  for (const ItemRef& ref : refs) {
    auto location = Locate(ns, ref.table, ref.key);
    if (!location.ok()) return location.status();
    locations.push_back(std::move(location).value());
  }
  return locations;
}

Result<std::vector<std::optional<Item>>> Database::GetItems(
    std::string_view ns, const std::vector<ItemRef>& refs) const {
  auto locations = LocateAll(ns, refs);
  if (!locations.ok()) return locations.status();
  return ReadAll(*locations);
}

Result<std::vector<std::optional<Item>>> Database::TransactGet(std::string_view ns,
                                                               const std::vector<ItemRef>& refs,
                                                               std::vector<bool>* conflicts) const {
  auto locations = LocateAll(ns, refs);
  if (!locations.ok()) return locations.status();
  conflicts->assign(refs.size(), false);
  if (options_.transaction_hold_millis > 0) {
    bool any = false;
    for (size_t i = 0; i < locations->size(); ++i) {
      const ItemLocation& location = (*locations)[i];
      std::lock_guard lock(location.state->write_mu);
      (*conflicts)[i] = location.state->claimed.contains(location.item_key);
      any = any || (*conflicts)[i];
    }
    if (any) return std::vector<std::optional<Item>>();
  }
  return ReadAll(*locations);
}

}  // namespace ddb::engine
