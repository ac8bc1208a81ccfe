#include "engine/storage/store_check.h"

#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/metadata.h>
#include <rocksdb/options.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>

#include "engine/storage/rocks_iterator.h"
#include "engine/storage/stored_options.h"

namespace ddb::engine {
namespace {

// A scan reads every block once: caching them would only evict each other.
rocksdb::ReadOptions ScanOptions() {
  rocksdb::ReadOptions options;
  options.verify_checksums = true;
  options.fill_cache = false;
  return options;
}

// The check reports RocksDB's own words for what it met.
Status RocksWords(const rocksdb::Status& s) {
  return s.ok() ? Status::Ok() : Status::Internal(s.ToString());
}

// A family the directory does not have.
class EmptyIterator final : public Store::Iterator {
 public:
  void Seek(std::string_view) override {}
  void SeekForPrev(std::string_view) override {}
  void SeekToFirst() override {}
  void SeekToLast() override {}
  bool Valid() const override { return false; }
  void Next() override {}
  void Prev() override {}
  std::string_view key() const override { return {}; }
  std::string_view value() const override { return {}; }
  Status status() const override { return Status::Ok(); }
};

// Checks one table file; `options` are its family's.
std::optional<DamagedFile> VerifyFile(const rocksdb::Options& options, const std::string& dir,
                                      const std::string& name, const std::string& family) {
  rocksdb::Status s = rocksdb::VerifySstFileChecksum(options, rocksdb::EnvOptions(),
                                                     ScanOptions(), dir + "/" + name);
  if (s.ok()) return std::nullopt;
  return DamagedFile{name, family, s.ToString()};
}

StoreOpenError::Kind KindOf(const rocksdb::Status& s) {
  // A file the MANIFEST names that is gone is damage too, not a wrong path.
  if (s.IsCorruption() || s.IsPathNotFound()) return StoreOpenError::Kind::kDamaged;
  return StoreOpenError::Kind::kUnreadable;
}

}  // namespace

struct ReadOnlyStore::Rep {
  std::string path;
  StoredOptions options;
  std::shared_ptr<WarningLog> log = std::make_shared<WarningLog>();
  std::vector<std::string> open_warnings;
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;  // owned; destroyed before db
  std::map<Family, rocksdb::ColumnFamilyHandle*> families;

  ~Rep() {
    if (!db) return;
    for (auto* handle : handles) db->DestroyColumnFamilyHandle(handle);
    db->Close().PermitUncheckedError();
  }
};

ReadOnlyStore::ReadOnlyStore(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
ReadOnlyStore::~ReadOnlyStore() = default;

std::unique_ptr<ReadOnlyStore> ReadOnlyStore::Open(const std::string& path,
                                                   StoreOpenError* error) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(path) / "CURRENT", ec)) {
    *error = {StoreOpenError::Kind::kNoDatabase, "no database in " + path};
    return nullptr;
  }
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  rep->options = LoadStoredOptions(path);
  rocksdb::DBOptions db_options = rep->options.db;
  db_options.info_log = rep->log;
  db_options.create_if_missing = false;
  // A damaged table file must not keep the others from being read: with
  // paranoid checks, opening fails on the first file whose index or
  // filter block does not match its checksum.
  db_options.paranoid_checks = false;
  // The OPTIONS file may name families the MANIFEST lacks (a repair drops
  // empty ones), which a read-only open refuses: open those it has.
  std::vector<std::string> present;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  if (rocksdb::DB::ListColumnFamilies(db_options, path, &present).ok()) {
    for (const auto& family : rep->options.families) {
      if (std::find(present.begin(), present.end(), family.name) != present.end()) {
        families.push_back(family);
      }
    }
  } else {
    families = rep->options.families;
  }
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s =
      rocksdb::DB::OpenForReadOnly(db_options, path, families, &rep->handles, &raw);
  if (!s.ok()) {
    *error = {KindOf(s), s.ToString()};
    return nullptr;
  }
  rep->db.reset(raw);
  for (auto* handle : rep->handles) {
    for (int f = 0; f < kFamilyCount; ++f) {
      if (handle->GetName() == kStoredFamilyNames[f]) {
        rep->families[static_cast<Family>(f)] = handle;
      }
    }
  }
  rep->open_warnings = rep->log->lines();
  return std::unique_ptr<ReadOnlyStore>(new ReadOnlyStore(std::move(rep)));
}

std::unique_ptr<Store::Iterator> ReadOnlyStore::NewIterator(Family family, std::string lower,
                                                           std::string upper) const {
  auto it = rep_->families.find(family);
  if (it == rep_->families.end()) return std::make_unique<EmptyIterator>();
  return std::make_unique<RocksIterator>(rep_->db.get(), it->second, std::move(lower),
                                         std::move(upper), ScanOptions(), RocksWords);
}

Result<std::optional<std::string>> ReadOnlyStore::Get(Family family, std::string_view key) const {
  auto it = rep_->families.find(family);
  if (it == rep_->families.end()) return std::optional<std::string>();
  std::string value;
  rocksdb::Status s = rep_->db->Get(ScanOptions(), it->second, ToSlice(key), &value);
  if (s.IsNotFound()) return std::optional<std::string>();
  if (!s.ok()) return RocksWords(s);
  return std::optional<std::string>(std::move(value));
}

FileVerification ReadOnlyStore::VerifyFiles() const {
  std::vector<rocksdb::LiveFileMetaData> files;
  rep_->db->GetLiveFilesMetaData(&files);
  FileVerification verification;
  for (const auto& file : files) {
    rocksdb::Options options(rep_->options.db,
                             FamilyOptions(rep_->options, file.column_family_name));
    ++verification.files_checked;
    if (auto damaged =
            VerifyFile(options, file.directory, file.relative_filename, file.column_family_name)) {
      verification.damaged.push_back(std::move(*damaged));
    }
  }
  return verification;
}

const std::vector<std::string>& ReadOnlyStore::open_warnings() const {
  return rep_->open_warnings;
}

FileVerification VerifyTableFilesIn(const std::string& path) {
  StoredOptions stored = LoadStoredOptions(path);
  rocksdb::Options options(stored.db, stored.families.front().options);
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    if (entry.path().extension() == ".sst") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  FileVerification verification;
  for (const std::string& name : names) {
    ++verification.files_checked;
    if (auto damaged = VerifyFile(options, path, name, "")) {
      verification.damaged.push_back(std::move(*damaged));
    }
  }
  return verification;
}

}  // namespace ddb::engine
