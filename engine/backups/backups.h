// Backups: DynamoDB's on-demand backups. Creating one copies a table's
// items and index entries (table_data.h) under the backup's own data id
// and writes its catalog entry — the table's schema and statistics — in the
// same batch, so a backup is whole or absent after a crash. It is kept
// until deleted, whatever becomes of its table, and a restore copies it
// back as a new table under a new name, again in one batch.
//
// Data ids have the top bit set: table ids count up from 1 and never get
// there, so a backup's keys sit in the items and indexes families beside
// the tables' without ever meeting them. The next id is one past the
// largest a kept backup uses (found by Load).
//
// Thread safety: every method may be called concurrently. `mu_` is taken
// before the registry's locks: it serializes backup operations (each is a
// copy of one table) and keeps a backup from going while it is restored.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/mutex.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_registry.h"
#include "engine/thread_annotations.h"

namespace ddb::engine {

class Backups {
 public:
  Backups(Store& store, TableRegistry& tables, const Clock& clock)
      : store_(store), tables_(tables), clock_(clock) {}

  // Reads every backup's catalog entry. REQUIRES: before any other call.
  Status Load() EXCLUDES(mu_);

  // Copies the live table `table` of `ns` as it is now, named `name`.
  // kNotFound when there is no such table.
  Result<BackupInfo> Create(std::string_view ns, std::string_view table, std::string_view name)
      EXCLUDES(mu_);
  // The backups of `ns`, oldest first.
  std::vector<std::shared_ptr<const BackupInfo>> List(std::string_view ns) const EXCLUDES(mu_);
  // kNotFound when `ns` has no backup `backup_id`.
  Result<std::shared_ptr<const BackupInfo>> Find(std::string_view ns,
                                                 std::string_view backup_id) const EXCLUDES(mu_);
  // Deletes the backup and its data; returns what it was.
  Result<std::shared_ptr<const BackupInfo>> Delete(std::string_view ns, std::string_view backup_id)
      EXCLUDES(mu_);
  // Creates `target` in `ns` with the backup's items and the entries of the
  // indexes `target` keeps (matched by index id). The caller derives
  // `target` from the backup's schema: its name, overrides, settings that
  // a restore leaves off. kNotFound for a missing backup, kAlreadyExists
  // when the name is taken.
  Result<TableDescription> Restore(std::string_view ns, std::string_view backup_id,
                                   TableSchema target) EXCLUDES(mu_);
  // Runs `reset` (DataSnapshots::Reset, which deletes every backup's keys with
  // the tables') holding mu_, then forgets every backup if it succeeded.
  Status DropAll(const std::function<Status()>& reset) EXCLUDES(mu_);

 private:
  static constexpr uint64_t kFirstDataId = uint64_t{1} << 63;

  std::string NewBackupId(int64_t now) const;

  Store& store_;
  TableRegistry& tables_;
  const Clock& clock_;

  mutable Mutex mu_;  // before the registry's locks
  // By catalog_keys::QualifiedName(ns, backup_id).
  std::map<std::string, std::shared_ptr<const BackupInfo>, std::less<>> backups_ GUARDED_BY(mu_);
  uint64_t next_data_id_ GUARDED_BY(mu_) = kFirstDataId;
};

}  // namespace ddb::engine
