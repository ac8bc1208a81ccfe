// Database: the engine's data plane — tables and their items, per
// namespace, with DynamoDB's semantics: create, describe, update, delete
// and list tables; get, put, update and delete items; Query, Scan, batches
// and transactions. Engine (engine.h) opens the storage and builds it over
// the parts that own the state (docs/architecture.md has the picture):
//
//   TableRegistry  live tables, the catalog, table ids       table_registry.h
//   ItemWriter     item writes with index maintenance       item_writer.h
//   Transactions   multi-item writes and reads, claims       transactions.h
//   TableChanges   UpdateTable's schema changes              table_changes.h
//   Replication    strongly consistent global tables' writes replication.h
//
// Every other capability is a class of its own beside it (engine.h lists
// them). A namespace is an opaque string chosen by the caller ("" for the
// shared database, "<access key>/<region>" for per-key ones); table names
// are unique within one. Single-item writes are linearizable: each table
// has one write mutex over the whole read-check-write cycle, and each write
// — item, index entries, statistics, TTL entry, stream record — is one
// RocksDB batch, so a crash never leaves half a write.
//
// State: none of its own. Lock: the parts' (engine/README.md's table).
// Thread safety: safe for concurrent use by any number of threads. Reads
// take no lock beyond a short catalog lookup.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/items/item_write.h"
#include "engine/items/item_writer.h"
#include "engine/read_request.h"
#include "engine/replication/replication.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_changes.h"
#include "engine/tables/table_items.h"
#include "engine/tables/table_registry.h"
#include "engine/transactions.h"
#include "engine/write_path.h"

namespace ddb::engine {

class Database {
 public:
  // `transient_status_millis`: DatabaseOptions' (what DescribeTable shows).
  Database(const WritePath& path, Transactions& transactions, TableChanges& changes,
           Replication& replication, int64_t transient_status_millis)
      : path_(path),
        transactions_(transactions),
        changes_(changes),
        replication_(replication),
        transient_status_millis_(transient_status_millis) {}

  // --- Tables (table_registry.h, table_changes.h) -------------------------
  // CreateTable takes a validated schema and assigns its id, TableId,
  // creation time and index ids; kAlreadyExists if the name is taken.
  Result<TableDescription> CreateTable(std::string_view ns, TableSchema schema);
  Result<TableDescription> DescribeTable(std::string_view ns, std::string_view name) const;
  // Applies `change` to a copy of the schema (it may fail to abort) and
  // stores it. GSIs it adds (index_id 0) are backfilled before this
  // returns; indexes it removes lose their entries; a changed TTL attribute
  // reschedules the items; enabling or disabling the stream starts a new
  // stream or closes the old one.
  Result<TableDescription> UpdateTable(std::string_view ns, std::string_view name,
                                       const std::function<Status(TableSchema&)>& change);
  // kInUse if deletion protection is on. Returns the last description. A
  // global table's member leaves its group (Replication::RemoveReplica).
  Result<TableDescription> DeleteTable(std::string_view ns, std::string_view name);
  // Names after `exclusive_start` in UTF-8 byte order. REQUIRES: limit > 0.
  TableList ListTables(std::string_view ns, std::string_view exclusive_start,
                       size_t limit) const;
  // The table's current schema; kNotFound ("Requested resource not found").
  Result<std::shared_ptr<const TableSchema>> GetSchema(std::string_view ns,
                                                       std::string_view table) const;

  // --- Items (item_writer.h) ----------------------------------------------
  // kNotFound for a missing table; kInvalidArgument if a key does not match
  // the key schema or an item breaks a limit; otherwise the planner's or
  // `check`'s error, with nothing written. Writes return the item as it was.
  Result<std::optional<Item>> GetItem(std::string_view ns, std::string_view table,
                                      const Item& key) const;
  Result<std::optional<Item>> WriteItem(std::string_view ns, std::string_view table,
                                        const Item& key, const Planner& planner);
  // `item` is written as it is, not copied. `sizes`, when given, gets the
  // old and new item's sizes once the write is applied.
  Result<std::optional<Item>> PutItem(std::string_view ns, std::string_view table,
                                      const Item& item, const Precondition& check = nullptr,
                                      ItemSizes* sizes = nullptr);
  Result<std::optional<Item>> DeleteItem(std::string_view ns, std::string_view table,
                                         const Item& key, const Precondition& check = nullptr,
                                         ItemSizes* sizes = nullptr);

  // --- Transactions and batches (transactions.h) --------------------------
  // All of the mutations in one batch, or none (committed = false, with
  // the reasons); readers see all of a transaction or none of it.
  Result<TransactWriteOutcome> TransactWrite(std::string_view ns,
                                             const std::vector<TransactWriteItem>& items);
  // Several items from one snapshot: a consistent view across tables.
  Result<std::vector<std::optional<Item>>> GetItems(std::string_view ns,
                                                    const std::vector<ItemRef>& refs) const;
  // GetItems, unless an item is claimed by a transaction that has not
  // committed yet; then nothing is read and `conflicts` says which.
  Result<std::vector<std::optional<Item>>> TransactGet(std::string_view ns,
                                                       const std::vector<ItemRef>& refs,
                                                       std::vector<bool>* conflicts) const;

  // --- Query and Scan (query_scan.cc) ------------------------------------
  // One page of a partition / a segment of the table or of one of its
  // indexes. kInvalidArgument for a missing index ("The table does not have
  // the specified index: <name>").
  Result<Page> Query(std::string_view ns, std::string_view table,
                     const QueryRequest& request) const;
  Result<Page> Scan(std::string_view ns, std::string_view table,
                    const ScanRequest& request) const;

  const Clock& clock() const { return path_.clock; }
  // How long tables and settings pass through their transient statuses
  // (CREATING, ENABLING, …): DynamoDB Local's -delayTransientStatuses.
  int64_t transient_status_millis() const { return transient_status_millis_; }

 private:
  const WritePath path_;
  Transactions& transactions_;
  TableChanges& changes_;
  Replication& replication_;
  const int64_t transient_status_millis_;
};

}  // namespace ddb::engine
