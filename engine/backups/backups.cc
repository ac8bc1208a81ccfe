#include "engine/backups/backups.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>

#include "engine/backups/snapshot.h"
#include "engine/backups/table_data.h"
#include "engine/catalog/catalog_codec.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/key_codec.h"
#include "engine/secondary_index.h"

namespace ddb::engine {
namespace {

// DynamoDB's backup ids are the creation time in milliseconds, 14 digits,
// and 8 hex digits.
std::string FormatBackupId(int64_t millis, uint32_t random) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%014lld-%08x", static_cast<long long>(millis), random);
  return buf;
}

}  // namespace

Status Backups::Load() {
  MutexLock lock(mu_);
  auto it = store_.NewIterator(Family::kCatalog, catalog_keys::KindBegin(catalog_keys::kBackup),
                               catalog_keys::KindEnd(catalog_keys::kBackup));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto info = DecodeBackupInfo(it->value());
    if (!info.ok()) return info.status();
    next_data_id_ = std::max(next_data_id_, info->data_id + 1);
    std::string key = catalog_keys::QualifiedName(info->ns, info->backup_id);
    backups_.emplace(std::move(key), std::make_shared<const BackupInfo>(std::move(*info)));
  }
  return it->status();
}

std::string Backups::NewBackupId(int64_t now) const {
  static thread_local std::mt19937 rng{std::random_device{}()};
  return FormatBackupId(now, static_cast<uint32_t>(rng()));
}

Result<BackupInfo> Backups::Create(std::string_view ns, std::string_view table,
                                   std::string_view name) {
  const std::string table_name(table);
  MutexLock lock(mu_);
  BackupInfo info;
  info.ns = std::string(ns);
  info.name = std::string(name);
  info.data_id = next_data_id_;
  DataSnapshot::Table data;
  int64_t bytes = 0;
  // The copy is written while the table is still locked, so the backup is
  // the table as of one moment and no write lands between read and copy.
  DDB_RETURN_IF_ERROR(tables_.WithTableLocked(ns, table, [&](TableState& state) -> Status {
    state.write_mu.AssertHeld();  // by WithTableLocked
    mu_.AssertHeld();             // since Create began
    info.created_millis = clock_.NowMillis();
    // DynamoDB finds no table to back up while it is being created.
    if (info.created_millis < state.active_at_millis) return Status::NotFound(table_name);
    do {
      info.backup_id = NewBackupId(info.created_millis);
    } while (backups_.count(catalog_keys::QualifiedName(ns, info.backup_id)));
    info.schema = *state.schema();
    info.stats = state.stats;
    info.index_stats.assign(state.index_stats.begin(), state.index_stats.end());
    data.schema = info.schema;
    DDB_RETURN_IF_ERROR(ReadTableData(store_, state.table_id, data, &bytes));
    Store::Batch batch(store_);
    AddTableData(data, info.data_id, batch);
    batch.Put(Family::kCatalog, catalog_keys::Backup(ns, info.backup_id), EncodeBackupInfo(info));
    return store_.Write(batch);
  }));
  ++next_data_id_;
  backups_.emplace(catalog_keys::QualifiedName(ns, info.backup_id),
                   std::make_shared<const BackupInfo>(info));
  return info;
}

std::vector<std::shared_ptr<const BackupInfo>> Backups::List(std::string_view ns) const {
  MutexLock lock(mu_);
  std::vector<std::shared_ptr<const BackupInfo>> list;
  std::string prefix = catalog_keys::QualifiedName(ns, "");
  for (auto it = backups_.lower_bound(prefix);
       it != backups_.end() && it->first.starts_with(prefix); ++it) {
    list.push_back(it->second);
  }
  // Ids start with the creation time; the random rest orders backups of
  // one millisecond arbitrarily, as DynamoDB's would be.
  return list;
}

Result<std::shared_ptr<const BackupInfo>> Backups::Find(std::string_view ns,
                                                        std::string_view backup_id) const {
  MutexLock lock(mu_);
  auto it = backups_.find(catalog_keys::QualifiedName(ns, backup_id));
  if (it == backups_.end()) return Status::NotFound("Backup not found");
  return it->second;
}

Result<std::shared_ptr<const BackupInfo>> Backups::Delete(std::string_view ns,
                                                          std::string_view backup_id) {
  MutexLock lock(mu_);
  auto it = backups_.find(catalog_keys::QualifiedName(ns, backup_id));
  if (it == backups_.end()) return Status::NotFound("Backup not found");
  std::shared_ptr<const BackupInfo> info = it->second;
  Store::Batch batch(store_);
  std::string begin = TablePrefix(info->data_id);
  std::string end = PrefixSuccessor(begin);
  for (Family family : {Family::kItems, Family::kIndexes}) batch.DeleteRange(family, begin, end);
  batch.Delete(Family::kCatalog, catalog_keys::Backup(ns, backup_id));
  DDB_RETURN_IF_ERROR(store_.Write(batch));
  backups_.erase(it);
  return info;
}

Result<TableDescription> Backups::Restore(std::string_view ns, std::string_view backup_id,
                                          TableSchema target) {
  MutexLock lock(mu_);
  auto it = backups_.find(catalog_keys::QualifiedName(ns, backup_id));
  if (it == backups_.end()) return Status::NotFound("Backup not found");
  const BackupInfo& backup = *it->second;

  std::set<uint32_t> kept;
  for (const IndexSchema* index : AllIndexes(target)) kept.insert(index->index_id);
  for (const VectorIndexSchema& index : target.vector_indexes) kept.insert(index.index_id);
  TableRegistry::NewTable table{std::string(ns), std::move(target), backup.stats, {}};
  for (const auto& [index_id, stats] : backup.index_stats) {
    if (kept.count(index_id)) table.index_stats[index_id] = stats;
  }
  DataSnapshot::Table data;
  data.schema = backup.schema;
  int64_t bytes = 0;
  DDB_RETURN_IF_ERROR(ReadTableData(store_, backup.data_id, data, &bytes));
  return tables_.CreateFilled(
      std::move(table), [&](uint64_t table_id, Store::Batch& batch, TableRegistry::NewTable&) {
        AddTableData(data, table_id, batch,
                     [&](uint32_t index_id) { return kept.count(index_id) > 0; });
        return Status::Ok();
      });
}

Status Backups::DropAll(const std::function<Status()>& reset) {
  MutexLock lock(mu_);
  DDB_RETURN_IF_ERROR(reset());
  backups_.clear();
  next_data_id_ = kFirstDataId;
  return Status::Ok();
}

}  // namespace ddb::engine
