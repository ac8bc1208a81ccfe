#include "engine/transactions.h"

#include <chrono>
#include <thread>

#include "engine/items/item_reads.h"
#include "engine/secondary_index.h"

namespace ddb::engine {
namespace {

std::vector<TableState*> TablesOf(const std::vector<ItemLocation>& targets) {
  std::vector<TableState*> tables;
  for (const ItemLocation& t : targets) tables.push_back(t.state.get());
  return tables;
}

// kNotFound when a table was deleted while the caller waited for its lock.
// (All are locked even then, so that claims are only ever touched under
// their table's lock.) REQUIRES: every table locked.
Status CheckLive(const TableLocks& locks) {
  for (TableState* table : locks.tables()) {
    table->write_mu.AssertHeld();
    if (table->dropped) return ItemTableNotFound();
  }
  return Status::Ok();
}

// The schemas as of now: an index added while the caller waited must get
// its entries.
void RefreshSchemas(std::vector<ItemLocation>& targets) {
  for (ItemLocation& t : targets) t.schema = t.state->schema();
}

}  // namespace

Transactions::Transactions(Store& store, const TableRegistry& tables, ItemWriter& writer,
                           int64_t hold_millis)
    : store_(store), tables_(tables), writer_(writer), hold_millis_(hold_millis) {}

bool Transactions::BuildBatch(const std::vector<TransactWriteItem>& items,
                              const std::vector<ItemLocation>& targets,
                              const std::vector<Mutation>& mutations,
                              TransactWriteOutcome& outcome, Store::Batch& batch,
                              std::map<TableState*, PendingStats>& pending) {
  bool ok = true;
  for (size_t i = 0; i < items.size(); ++i) {
    TableState& state = *targets[i].state;
    state.write_mu.AssertHeld();
    auto& stats = pending.try_emplace(&state, state).first->second;
    Status added = writer_.AddMutation(state, *targets[i].schema, targets[i].item_key,
                                       items[i].key, outcome.before[i], mutations[i], batch,
                                       stats);
    if (!added.ok()) {
      outcome.reasons[i] = added;
      ok = false;
    }
  }
  return ok;
}

Result<TransactWriteOutcome> Transactions::Write(std::string_view ns,
                                                 const std::vector<TransactWriteItem>& items) {
  std::vector<ItemLocation> targets;
  for (const TransactWriteItem& item : items) {
    auto location = tables_.Locate(ns, item.table, item.key);
    if (!location.ok()) return location.status();
    targets.push_back(std::move(location).value());
  }
  TableLocks locks(TablesOf(targets));
  DDB_RETURN_IF_ERROR(CheckLive(locks));
  RefreshSchemas(targets);

  // Decide: every planner sees the items as they are now.
  TransactWriteOutcome outcome;
  outcome.reasons.resize(items.size());
  outcome.before.resize(items.size());
  std::vector<Mutation> mutations(items.size());
  bool cancel = false;
  for (size_t i = 0; i < items.size(); ++i) {
    TableState& state = *targets[i].state;
    state.write_mu.AssertHeld();
    if (state.claimed.contains(targets[i].item_key)) {
      outcome.reasons[i] = Status::TransactionConflict(std::string(kTransactionOngoing));
      cancel = true;
      continue;
    }
    auto current = ReadItem(store_, targets[i].item_key);
    if (!current.ok()) return current.status();
    outcome.before[i] = std::move(current).value();
    auto mutation = items[i].planner(outcome.before[i] ? &*outcome.before[i] : nullptr);
    if (!mutation.ok()) {
      outcome.reasons[i] = mutation.status();
      cancel = true;
      continue;
    }
    // A new item with an empty secondary index key fails the whole request;
    // a wrong-typed one is the action's cancellation reason (both captured
    // by the public conformance suite, 2026).
    if (mutation->kind == Mutation::Kind::kPut) {
      DDB_RETURN_IF_ERROR(CheckIndexKeysNotEmpty(*targets[i].schema, mutation->put_item()));
    }
    mutations[i] = std::move(mutation).value();
  }
  if (cancel) return outcome;

  auto batch = std::make_unique<Store::Batch>(store_);
  std::map<TableState*, PendingStats> pending;
  if (!BuildBatch(items, targets, mutations, outcome, *batch, pending)) return outcome;

  if (hold_millis_ > 0) {
    // Claim the items, let go of the tables for the hold, then commit what
    // was decided: claimed items cannot change meanwhile.
    for (const ItemLocation& t : targets) {
      t.state->write_mu.AssertHeld();
      t.state->claimed.insert(t.item_key);
    }
    locks.Release();
    std::this_thread::sleep_for(std::chrono::milliseconds(hold_millis_));
    locks.Acquire();
    for (const ItemLocation& t : targets) {
      t.state->write_mu.AssertHeld();
      t.state->claimed.erase(t.item_key);
    }
    DDB_RETURN_IF_ERROR(CheckLive(locks));
    RefreshSchemas(targets);
    batch = std::make_unique<Store::Batch>(store_);
    pending.clear();
    if (!BuildBatch(items, targets, mutations, outcome, *batch, pending)) return outcome;
  }
  for (auto& [state, stats] : pending) stats.AddTo(state->table_id, *batch);
  DDB_RETURN_IF_ERROR(store_.Write(*batch));
  for (auto& [state, stats] : pending) {
    state->write_mu.AssertHeld();
    stats.CommitTo(*state);
    writer_.AfterCommit(stats);
  }
  outcome.committed = true;
  for (size_t i = 0; i < items.size(); ++i) {
    switch (mutations[i].kind) {
      case Mutation::Kind::kPut:
        // A borrowed item is copied: its owner keeps it.
        outcome.after.push_back(mutations[i].borrowed_item ? *mutations[i].borrowed_item
                                                           : std::move(mutations[i].new_item));
        break;
      case Mutation::Kind::kDelete: outcome.after.push_back(std::nullopt); break;
      case Mutation::Kind::kNone: outcome.after.push_back(outcome.before[i]); break;
    }
  }
  return outcome;
}

Result<std::vector<std::optional<Item>>> Transactions::Get(std::string_view ns,
                                                           const std::vector<ItemRef>& refs,
                                                           std::vector<bool>* conflicts) const {
  auto locations = tables_.LocateAll(ns, refs);
  if (!locations.ok()) return locations.status();
  conflicts->assign(refs.size(), false);
  if (hold_millis_ > 0) {
    bool any = false;
    for (size_t i = 0; i < locations->size(); ++i) {
      const ItemLocation& location = (*locations)[i];
      TableState& state = *location.state;
      MutexLock lock(state.write_mu);
      (*conflicts)[i] = state.claimed.contains(location.item_key);
      any = any || (*conflicts)[i];
    }
    if (any) return std::vector<std::optional<Item>>();
  }
  return ReadItems(store_, *locations);
}

}  // namespace ddb::engine
