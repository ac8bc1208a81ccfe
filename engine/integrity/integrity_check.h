// IntegrityCheck: `localdynamo check`'s reading of a data directory, offline
// and read-only (store_check.h). First every table file's block checksums;
// then every table's and every backup's items and secondary index entries,
// each checked against the others:
//   - an item decodes and lies under the key its key attributes give;
//   - every item with all of a GSI's or LSI's key attributes (valid ones)
//     has its entry there, and no other item has one (sparse indexes);
//   - every entry decodes, is the projection of an item that exists and
//     has that very index key, and projects the index's keys;
//   - the item counts DescribeTable reports are the items and entries
//     stored;
//   - no items or entries lie under a table id that no table or backup has.
// A damaged block met while reading is a finding, and the reading goes on
// past it (scan_past_damage.h). Vector indexes' entries, the TTL schedule,
// streams and point-in-time history are not checked.
//
// Thread safety: a check reads a store nobody writes (it is offline).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/storage/store_check.h"

namespace ddb::engine {

// One kind of problem in one place, e.g. "GSI ByCustomer: entries whose
// item is missing", with how often it was met and its first few examples.
struct Finding {
  enum class Kind {
    kDamage,      // a read that failed (a damaged block): what is "<where>: <why>"
    kItem,        // an item that reads but is wrong in itself
    kIndex,       // an index entry missing, extra or not its item's
    kStatistics,  // counts that are not what is stored
    kCatalog,     // a catalog entry that does not decode; keys of no table
  };
  Kind kind = Kind::kDamage;
  std::string what;
  int64_t count = 0;
  std::vector<std::string> examples;  // at most kFindingExamples
};
inline constexpr size_t kFindingExamples = 3;

// Counts one more of `what` in `findings` (adding it the first time),
// keeping `example` among the first few when it is not empty.
void AddFinding(std::vector<Finding>& findings, Finding::Kind kind, const std::string& what,
                std::string example);

// A table's (or a backup's) items and index entries as the check read them.
struct TableCheck {
  std::string ns;
  std::string name;         // the table's name (a backup's: its table's)
  std::string backup_name;  // set for a backup
  std::string backup_id;    // set for a backup
  uint64_t data_id = 0;     // the id its keys begin with
  // The statistics' count; nullopt when they could not be read.
  std::optional<int64_t> recorded_items;
  int64_t items_read = 0;
  bool items_whole = true;  // no damaged block among its items
  size_t indexes = 0;       // secondary (GSI and LSI) indexes checked
  int64_t index_entries = 0;
  std::vector<Finding> findings;

  bool is_backup() const { return !backup_id.empty(); }
  bool damaged() const;
  // Findings a rebuild of the indexes and statistics from the items
  // answers (and no damage, so the items read are all there are).
  bool rebuildable() const;
};

struct IntegrityReport {
  std::string path;
  // Set when the database could not be opened because it is damaged (then
  // only the files were checked, one by one).
  std::optional<std::string> open_damage;
  FileVerification files;
  // RocksDB's warnings while opening (e.g. a damaged log's dropped records).
  std::vector<std::string> warnings;
  // The database as a whole: the catalog, keys of no table.
  std::vector<Finding> findings;
  std::vector<TableCheck> tables;  // tables, then backups

  bool clean() const { return problem_count() == 0; }
  // Damaged files, open damage, log records lost, and every finding.
  int64_t problem_count() const;
};

// Checks the database at `path`. kNotFound when there is none; kInternal
// when it cannot be read at all for another reason than damage (with
// RocksDB's words).
Result<IntegrityReport> CheckDataDir(const std::string& path);

// The checks over an open store: the catalog, each table and backup, keys
// of no table. Files and open warnings are CheckDataDir's.
class IntegrityCheck {
 public:
  explicit IntegrityCheck(const ReadOnlyStore& store) : store_(store) {}
  void Run(IntegrityReport& report) const;

 private:
  const ReadOnlyStore& store_;
};

}  // namespace ddb::engine
