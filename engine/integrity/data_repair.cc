#include "engine/integrity/data_repair.h"

#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "engine/catalog/catalog_codec.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/integrity/item_salvage.h"
#include "engine/storage/store.h"
#include "engine/tables/index_rebuild.h"

namespace ddb::engine {
namespace {

// What names a table or a backup in both checks.
std::string IdentityOf(const TableCheck& check) {
  return check.ns + '\0' + check.name + '\0' + check.backup_id;
}

// Rebuilds a table's indexes and stores its statistics.
Status RebuildTable(Store& store, const TableCheck& check) {
  auto stored = store.Get(Family::kCatalog, catalog_keys::Schema(check.ns, check.name));
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return Status::NotFound("its catalog entry is gone");
  auto schema = DecodeTableSchema(**stored);
  if (!schema.ok()) return schema.status();
  auto rebuilt = RebuildSecondaryIndexes(store, *schema);
  if (!rebuilt.ok()) return rebuilt.status();
  Store::Batch batch(store);
  batch.Put(Family::kCatalog, catalog_keys::Stats(schema->table_id),
            EncodeTableStats(rebuilt->table));
  for (const auto& [index_id, stats] : rebuilt->indexes) {
    batch.Put(Family::kCatalog, catalog_keys::IndexStats(schema->table_id, index_id),
              EncodeTableStats(stats));
  }
  return store.Write(batch);
}

// The same for a backup, which keeps its statistics in its catalog entry.
Status RebuildBackup(Store& store, const TableCheck& check) {
  const std::string key = catalog_keys::Backup(check.ns, check.backup_id);
  auto stored = store.Get(Family::kCatalog, key);
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return Status::NotFound("its catalog entry is gone");
  auto info = DecodeBackupInfo(**stored);
  if (!info.ok()) return info.status();
  TableSchema schema = info->schema;
  schema.table_id = info->data_id;
  auto rebuilt = RebuildSecondaryIndexes(store, schema);
  if (!rebuilt.ok()) return rebuilt.status();
  info->stats = rebuilt->table;
  for (auto& [index_id, stats] : info->index_stats) {
    auto it = rebuilt->indexes.find(index_id);
    if (it == rebuilt->indexes.end()) continue;  // a vector index: left as it was
    stats = it->second;
    rebuilt->indexes.erase(it);
  }
  for (const auto& [index_id, stats] : rebuilt->indexes) {
    info->index_stats.emplace_back(index_id, stats);
  }
  Store::Batch batch(store);
  batch.Put(Family::kCatalog, key, EncodeBackupInfo(*info));
  return store.Write(batch);
}

// Rebuilds the indexes and statistics of every table or backup of `checks`
// that a rebuild answers; returns the identities of those rebuilt.
std::set<std::string> RebuildWhereNeeded(const std::string& path,
                                         const std::vector<TableCheck>& checks,
                                         std::vector<std::string>& errors) {
  std::set<std::string> rebuilt;
  std::vector<const TableCheck*> needed;
  for (const TableCheck& check : checks) {
    if (check.rebuildable()) needed.push_back(&check);
  }
  if (needed.empty()) return rebuilt;
  Store::Options options;
  options.path = path;
  auto store = Store::Open(options);
  if (!store.ok()) {
    errors.push_back(store.status().message());
    return rebuilt;
  }
  for (const TableCheck* check : needed) {
    Status s =
        check->is_backup() ? RebuildBackup(**store, *check) : RebuildTable(**store, *check);
    if (s.ok()) {
      rebuilt.insert(IdentityOf(*check));
    } else {
      errors.push_back((check->is_backup() ? "backup " + check->backup_name : check->name) +
                       ": " + s.message());
    }
  }
  return rebuilt;
}

// Copies the readable items of every table and backup `before` read to a
// new file under <dir>/lost/: returns its path and what it holds.
Result<std::pair<std::string, std::vector<SalvagedItems>>> Salvage(
    const std::string& path, const IntegrityReport& before) {
  const std::filesystem::path lost = std::filesystem::path(path) / "lost";
  std::error_code ec;
  std::filesystem::create_directories(lost, ec);
  // Named for its time, so that an interrupted repair's file is never
  // overwritten by the next one's (which reads less).
  const std::string file =
      (lost / ("salvaged-items-" + std::to_string(std::time(nullptr)) + ".bin")).string();
  StoreOpenError error;
  std::unique_ptr<ReadOnlyStore> store = ReadOnlyStore::Open(path, &error);
  if (!store) return Status::Internal(error.message);
  std::vector<uint64_t> data_ids;
  for (const TableCheck& table : before.tables) data_ids.push_back(table.data_id);
  auto salvaged = SalvageItems(*store, data_ids, file);
  if (!salvaged.ok()) return salvaged.status();
  return std::make_pair(file, std::move(salvaged).value());
}

// Puts the salvaged items back into the tables RocksDB's repair kept.
Result<std::map<uint64_t, ItemRestore>> PutBack(const std::string& path,
                                                const std::vector<SalvagedItems>& salvaged,
                                                const std::string& file) {
  auto kept = CheckDataDir(path);
  if (!kept.ok()) return kept.status();
  std::set<uint64_t> present;
  for (const TableCheck& table : kept->tables) present.insert(table.data_id);
  Store::Options options;
  options.path = path;
  auto store = Store::Open(options);
  if (!store.ok()) return store.status();
  return RestoreItems(**store, salvaged, present, file);
}

TableRepair RepairOf(const TableCheck& check) {
  TableRepair table;
  table.ns = check.ns;
  table.name = check.name;
  table.backup_name = check.backup_name;
  table.backup_id = check.backup_id;
  return table;
}

}  // namespace

int64_t TableRepair::lost() const {
  if (!recorded) return 0;
  int64_t after = items_after.value_or(0);
  return *recorded > after ? *recorded - after : 0;
}

Result<RepairReport> RepairDataDir(const std::string& path) {
  RepairReport report;
  report.path = path;
  auto before = CheckDataDir(path);
  if (!before.ok()) return before.status();
  report.before = std::move(before).value();
  // Nothing is changed until the readable items are safe in a file.
  std::vector<SalvagedItems> salvaged;
  if (!report.before.open_damage) {
    auto copied = Salvage(path, report.before);
    if (!copied.ok()) return copied.status();
    report.salvage_file = copied->first;
    salvaged = std::move(copied->second);
  }
  // RocksDB's repair turns the write-ahead log into table files only for
  // the families that have table files already (it learns the families
  // from them), and drops the rest of the log: a freshly written database
  // would lose every item. Opening the store writes the log into table
  // files for every family first (when it opens at all: one too damaged
  // for that is left to the repair).
  if (!report.before.open_damage) {
    Store::Options options;
    options.path = path;
    auto store = Store::Open(options);
    report.log_flushed = store.ok();
  }
  auto repaired = RepairStore(path);
  if (!repaired.ok()) {
    std::error_code ec;  // nothing was changed: the copy is not needed
    if (!report.salvage_file.empty()) {
      std::filesystem::remove(report.salvage_file, ec);
      std::filesystem::remove(std::filesystem::path(path) / "lost", ec);  // only when empty
    }
    return repaired.status();
  }
  report.store = std::move(repaired).value();
  std::map<uint64_t, ItemRestore> restored;
  if (!report.salvage_file.empty()) {
    auto put_back = PutBack(path, salvaged, report.salvage_file);
    if (put_back.ok()) {
      restored = std::move(put_back).value();
      std::error_code ec;
      std::filesystem::remove(report.salvage_file, ec);
      report.salvage_file.clear();
    } else {
      report.salvage_error = put_back.status().message();
    }
  }
  auto middle = CheckDataDir(path);
  if (!middle.ok()) return middle.status();
  const std::set<std::string> rebuilt =
      RebuildWhereNeeded(path, middle->tables, report.rebuild_errors);
  auto after = CheckDataDir(path);
  if (!after.ok()) return after.status();
  report.after = std::move(after).value();

  // Every table or backup of any check, in the order they were read.
  std::vector<std::string> order;
  std::map<std::string, TableRepair> tables;
  auto table_of = [&](const TableCheck& check) -> TableRepair& {
    auto [it, added] = tables.try_emplace(IdentityOf(check), RepairOf(check));
    if (added) order.push_back(it->first);
    return it->second;
  };
  for (const TableCheck& check : report.before.tables) {
    TableRepair& table = table_of(check);
    table.recorded = check.recorded_items;
    table.read_before = check.items_read;
    table.whole_before = check.items_whole;
  }
  for (const TableCheck& check : middle->tables) {
    TableRepair& table = table_of(check);
    if (!table.recorded) table.recorded = check.recorded_items;
  }
  for (const TableCheck& check : report.after.tables) {
    TableRepair& table = table_of(check);
    table.items_after = check.items_read;
    table.rebuilt = rebuilt.count(IdentityOf(check)) > 0;
    auto put_back = restored.find(check.data_id);
    if (put_back != restored.end()) table.restore = put_back->second;
  }
  for (const std::string& identity : order) report.tables.push_back(tables[identity]);
  return report;
}

}  // namespace ddb::engine
