// What callers of the engine pass to describe writes: a single item's
// mutation decided from the item as it is, and the actions of a
// transaction.
//
// Thread safety: plain values and callables; a Planner runs under its
// table's write lock, so it must not call back into the Database.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/status.h"

namespace ddb::engine {

struct PreparedPut;  // item_writer.h

// When and where a global table's write was made: what last-writer-wins
// compares (replication.h). The later write wins; at the same stamp the one
// from the greater namespace, so every replica picks the same.
struct WriteClock {
  static constexpr int64_t kStampsPerMilli = 1000;
  // Milliseconds × kStampsPerMilli, plus a count that orders the writes to
  // one item within a millisecond (a frozen clock's): a change is always
  // stamped after the version it replaces.
  int64_t stamp = 0;
  std::string origin_ns;
  int64_t millis() const { return stamp / kStampsPerMilli; }
  bool Beats(const WriteClock& other) const {
    return stamp != other.stamp ? stamp > other.stamp : origin_ns > other.origin_ns;
  }
};

// The sizes (ItemSize) of the item a write replaced and of the one it
// wrote, 0 for none: the writer measures both for the table's statistics,
// and a caller billing the write (api::WriteConsumption) need not again.
struct ItemSizes {
  size_t old_size = 0;
  size_t new_size = 0;
  bool known = false;  // set once the write was applied
};

// What a single-item write does, decided from the item as it was.
struct Mutation {
  enum class Kind { kNone, kPut, kDelete };
  Kind kind = Kind::kNone;
  Item new_item;  // kPut only: the whole new item, key attributes included
  // kPut: the new item when the caller keeps it alive through the write
  // (Database::PutItem), instead of a copy in new_item.
  const Item* borrowed_item = nullptr;
  // The item came from an UpdateExpression: index key type errors are
  // worded as DynamoDB words them for UpdateItem.
  bool by_update_expression = false;
  // A TTL delete: its stream record names the service as the deleter.
  bool by_ttl = false;
  // kPut: what was computed from the new item before the write took the
  // table's lock (PreparePut), or null.
  PreparedPut* prepared = nullptr;
  // Applied from another replica of a global table (replication.h), made
  // then and there: it is not replicated again.
  const WriteClock* replicated = nullptr;
  // Where to report the sizes the write measured, or null.
  ItemSizes* sizes = nullptr;

  // kPut only: the new item, wherever it is held.
  const Item& put_item() const { return borrowed_item ? *borrowed_item : new_item; }
};

// Decides the mutation from the current item (nullptr when absent). A non-ok
// Status (e.g. kConditionFailed) aborts the write; nothing is changed.
using Planner = std::function<Result<Mutation>(const Item* old_item)>;

// Accepts or rejects a write given the current item (nullptr when absent).
using Precondition = std::function<Status(const Item* old_item)>;

// One action of TransactWriteItems: the item's key and what to do with it.
struct TransactWriteItem {
  std::string table;
  Item key;
  Planner planner;  // may return kConditionFailed to cancel the transaction
};

struct TransactWriteOutcome {
  bool committed = false;
  // When not committed: per item, Ok or the reason it cancels.
  std::vector<Status> reasons;
  // Per item: the item before the transaction (nullopt when absent).
  std::vector<std::optional<Item>> before;
  // When committed, per item: the item after it (nullopt when absent).
  std::vector<std::optional<Item>> after;
};

// An item to read: its table and key.
struct ItemRef {
  std::string table;
  Item key;
};

}  // namespace ddb::engine
