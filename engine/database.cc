#include "engine/database.h"

#include "engine/items/item_reads.h"
#include "engine/key_validation.h"

namespace ddb::engine {

// --- Tables -----------------------------------------------------------------

Result<TableDescription> Database::CreateTable(std::string_view ns, TableSchema schema) {
  return path_.tables.Create(ns, std::move(schema));
}

Result<TableDescription> Database::DescribeTable(std::string_view ns,
                                                 std::string_view name) const {
  return path_.tables.Describe(ns, name);
}

Result<TableDescription> Database::DeleteTable(std::string_view ns, std::string_view name) {
  auto state = path_.tables.Find(ns, name);
  if (state && !state->schema()->replicas.empty()) {
    return replication_.RemoveReplica(name, ns);
  }
  return path_.tables.Delete(ns, name);
}

Result<TableDescription> Database::UpdateTable(
    std::string_view ns, std::string_view name,
    const std::function<Status(TableSchema&)>& change) {
  return changes_.Update(ns, name, change);
}

TableList Database::ListTables(std::string_view ns, std::string_view exclusive_start,
                               size_t limit) const {
  return path_.tables.List(ns, exclusive_start, limit);
}

Result<std::shared_ptr<const TableSchema>> Database::GetSchema(std::string_view ns,
                                                               std::string_view table) const {
  auto state = path_.tables.Find(ns, table);
  if (!state) return ItemTableNotFound();
  return state->schema();
}

// --- Items ------------------------------------------------------------------

Result<std::optional<Item>> Database::GetItem(std::string_view ns, std::string_view table,
                                              const Item& key) const {
  auto location = path_.tables.Locate(ns, table, key);
  if (!location.ok()) return location.status();
  return ReadItem(path_.store, location->item_key);
}

Result<std::optional<Item>> Database::WriteItem(std::string_view ns, std::string_view table,
                                                const Item& key, const Planner& planner) {
  auto state = path_.tables.Find(ns, table);
  if (!state) return ItemTableNotFound();
  auto schema = state->schema();
  DDB_RETURN_IF_ERROR(ValidateKey(*schema, key));
  if (schema->strong_consistency) {
    return replication_.WriteStrong(state, *schema, key, planner);
  }
  return path_.writer.Write(*state, *schema, key, planner);
}

Result<std::optional<Item>> Database::PutItem(std::string_view ns, std::string_view table,
                                              const Item& item, const Precondition& check,
                                              ItemSizes* sizes) {
  auto state = path_.tables.Find(ns, table);
  if (!state) return ItemTableNotFound();
  auto schema = state->schema();
  DDB_RETURN_IF_ERROR(ValidateItemKey(*schema, item));
  Item key = ExtractKey(*schema, item);
  // Encoded outside the table's lock; `schema` stays alive, so the writer
  // can tell whether it is still the table's.
  PreparedPut prepared = PreparePut(*schema, item);
  Planner planner = [&](const Item* old_item) -> Result<Mutation> {
    if (check) DDB_RETURN_IF_ERROR(check(old_item));
    Mutation put{Mutation::Kind::kPut, {}};
    put.borrowed_item = &item;  // alive until this call returns
    put.prepared = &prepared;
    put.sizes = sizes;
    return put;
  };
  if (schema->strong_consistency) {
    return replication_.WriteStrong(state, *schema, key, planner);
  }
  return path_.writer.Write(*state, *schema, key, planner);
}

Result<std::optional<Item>> Database::DeleteItem(std::string_view ns, std::string_view table,
                                                 const Item& key, const Precondition& check,
                                                 ItemSizes* sizes) {
  return WriteItem(ns, table, key, [&](const Item* old_item) -> Result<Mutation> {
    if (check) DDB_RETURN_IF_ERROR(check(old_item));
    Mutation remove{Mutation::Kind::kDelete, {}};
    remove.sizes = sizes;
    return remove;
  });
}

// --- Transactions and batches -------------------------------------------------

namespace {

// DynamoDB's transactions do not run on strongly consistent global tables.
// (The text is localdynamo's: DynamoDB's is not published.)
Status RefuseStrongTables(const TableRegistry& tables, std::string_view ns,
                          const std::vector<std::string_view>& names) {
  for (std::string_view name : names) {
    auto state = tables.Find(ns, name);
    if (state && state->schema()->strong_consistency) {
      return Status::InvalidArgument(
          "Transactions are not supported for global tables with MultiRegionConsistency set to "
          "STRONG: " + std::string(name));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<TransactWriteOutcome> Database::TransactWrite(
    std::string_view ns, const std::vector<TransactWriteItem>& items) {
  std::vector<std::string_view> names;
  for (const TransactWriteItem& item : items) names.push_back(item.table);
  DDB_RETURN_IF_ERROR(RefuseStrongTables(path_.tables, ns, names));
  return transactions_.Write(ns, items);
}

Result<std::vector<std::optional<Item>>> Database::GetItems(
    std::string_view ns, const std::vector<ItemRef>& refs) const {
  auto locations = path_.tables.LocateAll(ns, refs);
  if (!locations.ok()) return locations.status();
  return ReadItems(path_.store, *locations);
}

Result<std::vector<std::optional<Item>>> Database::TransactGet(std::string_view ns,
                                                               const std::vector<ItemRef>& refs,
                                                               std::vector<bool>* conflicts) const {
  std::vector<std::string_view> names;
  for (const ItemRef& ref : refs) names.push_back(ref.table);
  DDB_RETURN_IF_ERROR(RefuseStrongTables(path_.tables, ns, names));
  return transactions_.Get(ns, refs, conflicts);
}

}  // namespace ddb::engine
