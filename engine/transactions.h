// Transactions: TransactWriteItems and TransactGetItems across tables, and
// the claims that let a test provoke DynamoDB's transaction conflicts.
//
// A transaction locks every table it touches (TableLocks: table-id order),
// decides every action against the current items, and writes all mutations
// — items, index entries, statistics — in one batch, or none of them.
// With a hold (DatabaseOptions::transaction_hold_millis) it first claims its
// items in their tables' `claimed` sets, lets go of the locks for the hold,
// and commits what it decided; requests meeting a claimed item conflict.
//
// Thread safety: safe for concurrent use; claims live under their table's
// write_mu.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/items/item_write.h"
#include "engine/items/item_writer.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_registry.h"

namespace ddb::engine {

class Transactions {
 public:
  Transactions(Store& store, const TableRegistry& tables, ItemWriter& writer,
               int64_t hold_millis);

  // Database::TransactWrite.
  Result<TransactWriteOutcome> Write(std::string_view ns,
                                     const std::vector<TransactWriteItem>& items);
  // Database::TransactGet.
  Result<std::vector<std::optional<Item>>> Get(std::string_view ns,
                                               const std::vector<ItemRef>& refs,
                                               std::vector<bool>* conflicts) const;

 private:
  // Adds every decided mutation to `batch`, with the statistics as they are
  // now; false (a reason set in `outcome`) if one breaks a limit.
  // REQUIRES: every target's table locked.
  bool BuildBatch(const std::vector<TransactWriteItem>& items,
                  const std::vector<ItemLocation>& targets,
                  const std::vector<Mutation>& mutations, TransactWriteOutcome& outcome,
                  Store::Batch& batch, std::map<TableState*, PendingStats>& pending);

  Store& store_;
  const TableRegistry& tables_;
  ItemWriter& writer_;
  const int64_t hold_millis_;
};

}  // namespace ddb::engine
