#include "engine/integrity/integrity_check.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "engine/catalog/catalog_codec.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/coding.h"
#include "engine/key_codec.h"
#include "engine/secondary_index.h"
#include "engine/integrity/table_check.h"

namespace ddb::engine {
namespace {

using FindingKind = Finding::Kind;

// What a damaged write-ahead log costs, in RocksDB's words at open: each
// cut is "dropping N bytes". (Its other warnings are of damaged table
// files, which the files' check names.)
bool IsLoss(std::string_view line) { return line.find("dropping") != std::string_view::npos; }

class CatalogReader {
 public:
  CatalogReader(const ReadOnlyStore& store, std::vector<Finding>& findings)
      : store_(store), findings_(findings) {}

  // A statistics key's value; zero when it was never written, nullopt when
  // it cannot be read (a finding).
  std::optional<TableStats> Stats(const std::string& key) {
    auto stored = store_.Get(Family::kCatalog, key);
    if (!stored.ok()) {
      Damage(stored.status());
      return std::nullopt;
    }
    if (!stored->has_value()) return TableStats{};
    auto stats = DecodeTableStats(**stored);
    if (stats.ok()) return *stats;
    AddFinding(findings_, FindingKind::kCatalog, "statistics entries that do not decode", "");
    return std::nullopt;
  }

  // Calls `visit(ns, name, value)` for every entry of `kind` (the name: a
  // table's, or a backup's id).
  template <class Visit>
  void ForEach(char kind, const Visit& visit) {
    auto it = store_.NewIterator(Family::kCatalog, catalog_keys::KindBegin(kind),
                                 catalog_keys::KindEnd(kind));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::string_view qualified = it->key().substr(1);
      size_t sep = qualified.find('\0');
      if (sep == std::string_view::npos) {
        AddFinding(findings_, FindingKind::kCatalog, "catalog keys that do not parse", "");
        continue;
      }
      visit(qualified.substr(0, sep), qualified.substr(sep + 1), it->value());
    }
    if (!it->status().ok()) {
      Damage(it->status());
    }
  }

 private:
  void Damage(const Status& status) {
    AddFinding(findings_, FindingKind::kDamage, "catalog: " + status.message(), "");
  }

  const ReadOnlyStore& store_;
  std::vector<Finding>& findings_;
};

// Whether a damage with RocksDB's `message` is among `report`'s findings.
bool DamageReported(const IntegrityReport& report, const std::string& message) {
  auto names = [&](const Finding& finding) {
    return finding.kind == FindingKind::kDamage && finding.what.size() >= message.size() &&
           finding.what.compare(finding.what.size() - message.size(), message.size(),
                                message) == 0;
  };
  if (std::any_of(report.findings.begin(), report.findings.end(), names)) return true;
  return std::any_of(report.tables.begin(), report.tables.end(), [&](const TableCheck& table) {
    return std::any_of(table.findings.begin(), table.findings.end(), names);
  });
}

// Keys in `family` under ids that `known` lacks, found by jumping from one
// id's keys to the next id's, so the scan costs a seek per id. A damaged
// block met here is reported only when the tables' reads did not meet it.
void FindStrayIds(const ReadOnlyStore& store, Family family, std::string_view family_name,
                  const std::set<uint64_t>& known, IntegrityReport& report) {
  std::vector<Finding>& findings = report.findings;
  auto it = store.NewIterator(family, "", "");
  for (it->SeekToFirst(); it->Valid();) {
    std::string_view key = it->key();
    if (key.size() < kTablePrefixSize) {
      AddFinding(findings, FindingKind::kCatalog,
                 std::string(family_name) + ": keys too short for a table id", "");
      it->Next();
      continue;
    }
    uint64_t id = coding::DecodeFixed64BE(key.substr(0, kTablePrefixSize));
    if (!known.count(id)) {
      AddFinding(findings, FindingKind::kCatalog,
                 std::string(family_name) + ": keys under ids that no table or backup has",
                 "id " + std::to_string(id));
    }
    std::string next = PrefixSuccessor(TablePrefix(id));
    if (next.empty()) break;
    it->Seek(next);
  }
  const Status status = it->status();
  if (!status.ok() && !DamageReported(report, status.message())) {
    AddFinding(findings, FindingKind::kDamage,
               std::string(family_name) + ": " + status.message(), "");
  }
}

}  // namespace

void AddFinding(std::vector<Finding>& findings, Finding::Kind kind, const std::string& what,
                std::string example) {
  auto it = std::find_if(findings.begin(), findings.end(),
                         [&](const Finding& finding) { return finding.what == what; });
  if (it == findings.end()) {
    findings.push_back(Finding{kind, what, 0, {}});
    it = findings.end() - 1;
  }
  ++it->count;
  if (!example.empty() && it->examples.size() < kFindingExamples) {
    it->examples.push_back(std::move(example));
  }
}

bool TableCheck::damaged() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& finding) { return finding.kind == FindingKind::kDamage; });
}

bool TableCheck::rebuildable() const {
  return !findings.empty() &&
         std::all_of(findings.begin(), findings.end(), [](const Finding& finding) {
           return finding.kind == FindingKind::kIndex || finding.kind == FindingKind::kStatistics;
         });
}

int64_t IntegrityReport::problem_count() const {
  int64_t count = static_cast<int64_t>(files.damaged.size() + warnings.size());
  if (open_damage) ++count;
  for (const Finding& finding : findings) count += finding.count;
  for (const TableCheck& table : tables) {
    for (const Finding& finding : table.findings) count += finding.count;
  }
  return count;
}

void IntegrityCheck::Run(IntegrityReport& report) const {
  CatalogReader catalog(store_, report.findings);
  struct Data {
    TableCheck check;
    TableSchema schema;  // its table_id: the data's id
    std::optional<TableStats> stats;
    std::map<uint32_t, TableStats> index_stats;  // those that could be read
  };
  std::vector<Data> all;
  catalog.ForEach(catalog_keys::kSchema, [&](std::string_view ns, std::string_view name,
                                             std::string_view value) {
    auto schema = DecodeTableSchema(value);
    if (!schema.ok()) {
      AddFinding(report.findings, FindingKind::kCatalog, "table schemas that do not decode",
                 std::string(name));
      return;
    }
    Data data;
    data.check.ns = std::string(ns);
    data.check.name = std::string(name);
    data.stats = catalog.Stats(catalog_keys::Stats(schema->table_id));
    for (const IndexSchema* index : AllIndexes(*schema)) {
      auto stats = catalog.Stats(catalog_keys::IndexStats(schema->table_id, index->index_id));
      if (stats) data.index_stats[index->index_id] = *stats;
    }
    data.schema = std::move(*schema);
    all.push_back(std::move(data));
  });
  catalog.ForEach(catalog_keys::kBackup, [&](std::string_view ns, std::string_view id,
                                             std::string_view value) {
    auto info = DecodeBackupInfo(value);
    if (!info.ok()) {
      AddFinding(report.findings, FindingKind::kCatalog, "backups that do not decode",
                 std::string(id));
      return;
    }
    Data data;
    data.check.ns = std::string(ns);
    data.check.name = info->schema.name;
    data.check.backup_name = info->name;
    data.check.backup_id = std::string(id);
    data.schema = std::move(info->schema);
    // A backup's keys carry its data id where the table's carried its id.
    data.schema.table_id = info->data_id;
    data.stats = info->stats;
    for (const auto& [index_id, stats] : info->index_stats) data.index_stats[index_id] = stats;
    all.push_back(std::move(data));
  });
  std::set<uint64_t> known;
  for (Data& data : all) {
    known.insert(data.schema.table_id);
    CheckTableData(store_, data.schema, data.stats, data.index_stats, data.check);
    report.tables.push_back(std::move(data.check));
  }
  FindStrayIds(store_, Family::kItems, "items", known, report);
  FindStrayIds(store_, Family::kIndexes, "index entries", known, report);
}

Result<IntegrityReport> CheckDataDir(const std::string& path) {
  IntegrityReport report;
  report.path = path;
  StoreOpenError error;
  std::unique_ptr<ReadOnlyStore> store = ReadOnlyStore::Open(path, &error);
  if (!store) {
    switch (error.kind) {
      case StoreOpenError::Kind::kNoDatabase:
        return Status::NotFound(error.message);
      case StoreOpenError::Kind::kUnreadable:
        return Status::Internal(error.message);
      case StoreOpenError::Kind::kDamaged:
        report.open_damage = error.message;
        report.files = VerifyTableFilesIn(path);
        return report;
    }
  }
  report.files = store->VerifyFiles();
  for (std::string line : store->open_warnings()) {
    if (!IsLoss(line)) continue;
    // "[db/db_impl/db_impl_open.cc:982] (ignoring error) <file>: dropping
    // N bytes; <why>": the source location goes.
    if (line.starts_with('[') && line.find("] ") != std::string::npos) {
      line.erase(0, line.find("] ") + 2);
    }
    report.warnings.push_back(line);
  }
  IntegrityCheck(*store).Run(report);
  return report;
}

}  // namespace ddb::engine
