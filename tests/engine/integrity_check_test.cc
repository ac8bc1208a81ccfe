// `localdynamo check` and `repair` below the command line: a database
// built through the engine, closed, then damaged — a flipped byte inside a
// table file's data block, index entries written wrong through the store —
// and checked (integrity_check.h) and repaired (data_repair.h).
#include "engine/integrity/integrity_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "engine/integrity/data_repair.h"
#include "engine/items/item_codec.h"
#include "engine/secondary_index.h"
#include "engine/storage/store.h"
#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

namespace fs = std::filesystem;
using test::B;
using test::MakeTable;
using test::S;

constexpr std::string_view kNs = "";

class IntegrityCheckTest : public ::testing::Test {
 protected:
  DatabaseOptions Options() const {
    DatabaseOptions options;
    options.data_dir = dir_.path();
    return options;
  }

  void Open() { test::OpenEngine(Options(), clock_, &engine_, &db_); }

  // Closes the engine, then opens and closes it once more: opening flushes
  // what the write-ahead log holds into table files, which a test damages.
  void CloseAndFlush() {
    Open();
    db_ = nullptr;
    engine_.reset();
  }

  // Table "Orders": pk (S), GSI "ByG" on g (S), KEYS_ONLY, so that the
  // items' table file is the largest by far.
  void CreateOrders() {
    TableSchema schema = MakeTable("Orders", {"pk", ScalarType::kS});
    IndexSchema gsi;
    gsi.name = "ByG";
    gsi.key.hash.push_back({"g", ScalarType::kS});
    gsi.projection.type = ProjectionType::kKeysOnly;
    schema.global_indexes.push_back(gsi);
    schema.attribute_definitions.push_back({"g", ScalarType::kS});
    ASSERT_OK(db_->CreateTable(kNs, schema));
  }

  // `count` items "<prefix><i>" with a payload of `bytes` random bytes
  // (incompressible, so the file sizes follow the payloads).
  void PutItems(const std::string& prefix, int count, size_t bytes) {
    std::mt19937 random(7);
    for (int i = 0; i < count; ++i) {
      std::string payload(bytes, '\0');
      for (char& c : payload) c = static_cast<char>(random());
      ASSERT_OK(db_->PutItem(kNs, "Orders",
                             {{"pk", S(prefix + std::to_string(i))},
                              {"g", S("g" + std::to_string(i % 5))},
                              {"payload", B(payload)}}));
    }
  }

  // 40 large items, flushed to their own table files, then 10 small ones
  // in later files.
  void BuildTwoRounds() {
    Open();
    CreateOrders();
    PutItems("a", 40, 4000);
    CloseAndFlush();
    Open();
    PutItems("b", 10, 100);
    CloseAndFlush();
  }

  std::string LargestTableFile() const {
    std::string largest;
    uintmax_t size = 0;
    for (const auto& entry : fs::directory_iterator(dir_.path())) {
      if (entry.path().extension() == ".sst" && entry.file_size() > size) {
        size = entry.file_size();
        largest = entry.path().filename().string();
      }
    }
    return largest;
  }

  // Inverts one byte inside the file's first data block (table files begin
  // with their data blocks).
  void FlipByte(const std::string& file, std::streamoff offset = 100) {
    std::fstream f(dir_.path() + "/" + file, std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(f);
    f.seekg(offset);
    char byte = 0;
    f.read(&byte, 1);
    byte = static_cast<char>(~byte);
    f.seekp(offset);
    f.write(&byte, 1);
  }

  IntegrityReport Check() {
    auto report = CheckDataDir(dir_.path());
    EXPECT_OK(report);
    return report.ok() ? std::move(report).value() : IntegrityReport{};
  }

  static const Finding* FindingAbout(const TableCheck& table, const std::string& what) {
    for (const Finding& finding : table.findings) {
      if (finding.what.find(what) != std::string::npos) return &finding;
    }
    return nullptr;
  }

  int64_t ScanCount() {
    ScanRequest request;
    auto page = db_->Scan(kNs, "Orders", request);
    EXPECT_OK(page);
    return page.ok() ? static_cast<int64_t>(page->items.size()) : -1;
  }

  test::TempDir dir_;
  FakeClock clock_;
  std::unique_ptr<Engine> engine_;
  Database* db_ = nullptr;
};

TEST_F(IntegrityCheckTest, CleanDatabaseChecksCleanAndChangesNothing) {
  Open();
  CreateOrders();
  PutItems("a", 20, 50);
  ASSERT_OK(db_->PutItem(kNs, "Orders", {{"pk", S("no-g")}}));  // in no index
  TableSchema other = MakeTable("Other", {"id", ScalarType::kS});
  ASSERT_OK(db_->CreateTable("eu-west-1", other));
  ASSERT_OK(db_->PutItem("eu-west-1", "Other", {{"id", S("x")}}));
  ASSERT_OK(engine_->backups().Create(kNs, "Orders", "nightly"));
  CloseAndFlush();
  std::map<std::string, fs::file_time_type> before;
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    before[entry.path().filename().string()] = entry.last_write_time();
  }

  IntegrityReport report = Check();
  EXPECT_TRUE(report.clean()) << report.problem_count();
  EXPECT_GT(report.files.files_checked, 0u);
  EXPECT_TRUE(report.files.damaged.empty());
  EXPECT_TRUE(report.findings.empty());
  ASSERT_EQ(report.tables.size(), 3u);  // Orders, Other, then the backup
  const TableCheck& orders = report.tables[0];
  EXPECT_EQ(orders.name, "Orders");
  EXPECT_EQ(orders.items_read, 21);
  EXPECT_EQ(orders.recorded_items, 21);
  EXPECT_TRUE(orders.items_whole);
  EXPECT_EQ(orders.indexes, 1u);
  EXPECT_EQ(orders.index_entries, 20);
  EXPECT_EQ(report.tables[1].ns, "eu-west-1");
  EXPECT_EQ(report.tables[1].items_read, 1);
  EXPECT_TRUE(report.tables[2].is_backup());
  EXPECT_EQ(report.tables[2].backup_name, "nightly");
  EXPECT_EQ(report.tables[2].items_read, 21);
  EXPECT_EQ(report.tables[2].index_entries, 20);

  std::map<std::string, fs::file_time_type> after;
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    after[entry.path().filename().string()] = entry.last_write_time();
  }
  EXPECT_EQ(after, before);
}

TEST_F(IntegrityCheckTest, NoDatabaseIsNotFound) {
  auto report = CheckDataDir(dir_.path() + "/missing");
  EXPECT_EQ(report.status().code(), Status::Code::kNotFound);
}

TEST_F(IntegrityCheckTest, FlippedByteIsFoundAndRepairSaysWhatWasLost) {
  BuildTwoRounds();
  const std::string damaged = LargestTableFile();
  FlipByte(damaged);

  IntegrityReport report = Check();
  EXPECT_FALSE(report.clean());
  ASSERT_EQ(report.files.damaged.size(), 1u);
  EXPECT_EQ(report.files.damaged[0].file, damaged);
  EXPECT_EQ(report.files.damaged[0].family, "items");
  EXPECT_NE(report.files.damaged[0].message.find("Corruption"), std::string::npos);
  ASSERT_EQ(report.tables.size(), 1u);
  const TableCheck& orders = report.tables[0];
  EXPECT_TRUE(orders.damaged());
  EXPECT_FALSE(orders.items_whole);
  EXPECT_EQ(orders.recorded_items, 50);
  // One 4 KB block holds about one large item: the scan reads past it.
  EXPECT_GE(orders.items_read, 45);
  EXPECT_LT(orders.items_read, 50);
  const Finding* items = FindingAbout(orders, "items: Corruption");
  ASSERT_NE(items, nullptr);
  EXPECT_EQ(items->kind, Finding::Kind::kDamage);
  EXPECT_EQ(items->count, 1);  // one damaged stretch, read past once
  EXPECT_NE(items->what.find(damaged), std::string::npos);

  auto repaired = RepairDataDir(dir_.path());
  ASSERT_OK(repaired);
  const std::vector<std::string>& moved = repaired->store.moved_aside;
  EXPECT_NE(std::find(moved.begin(), moved.end(), damaged), moved.end());
  EXPECT_TRUE(fs::exists(dir_.path() + "/lost/" + damaged));
  ASSERT_EQ(repaired->tables.size(), 1u);
  const TableRepair& table = repaired->tables[0];
  EXPECT_EQ(table.recorded, 50);
  EXPECT_EQ(table.read_before, orders.items_read);
  EXPECT_FALSE(table.whole_before);
  // RocksDB sets the whole file aside, with the 40 large items: those read
  // before are put back, and only the damaged block's are lost.
  EXPECT_EQ(table.restore.written_back, orders.items_read - 10);
  EXPECT_EQ(table.restore.deleted, 0);
  EXPECT_EQ(table.items_after, orders.items_read);
  EXPECT_EQ(table.lost(), 50 - orders.items_read);
  EXPECT_TRUE(table.rebuilt);  // the GSI's entries of the lost items
  EXPECT_TRUE(repaired->salvage_error.empty());
  EXPECT_TRUE(repaired->salvage_file.empty());  // removed once put back
  EXPECT_TRUE(repaired->rebuild_errors.empty());
  EXPECT_TRUE(repaired->after.clean()) << repaired->after.problem_count();

  // The engine opens what the repair left, and agrees with it.
  Open();
  EXPECT_EQ(ScanCount(), orders.items_read);
  auto described = db_->DescribeTable(kNs, "Orders");
  ASSERT_OK(described);
  EXPECT_EQ(described->stats.item_count, orders.items_read);
  EXPECT_EQ(described->index_stats.begin()->second.item_count, orders.items_read);
}

TEST_F(IntegrityCheckTest, RepairDeletesAgainWhatALostFileHadDeleted) {
  Open();
  CreateOrders();
  ASSERT_OK(db_->PutItem(kNs, "Orders", {{"pk", S("x")}, {"g", S("g")}}));
  CloseAndFlush();
  Open();
  PutItems("c", 20, 4000);
  ASSERT_OK(db_->DeleteItem(kNs, "Orders", {{"pk", S("x")}}));
  CloseAndFlush();
  // The second round's file holds x's deletion; RocksDB's repair sets it
  // aside, and x comes back from the first round's file.
  FlipByte(LargestTableFile());
  IntegrityReport report = Check();
  ASSERT_EQ(report.tables.size(), 1u);
  const int64_t read = report.tables[0].items_read;

  auto repaired = RepairDataDir(dir_.path());
  ASSERT_OK(repaired);
  ASSERT_EQ(repaired->tables.size(), 1u);
  EXPECT_EQ(repaired->tables[0].restore.deleted, 1);
  EXPECT_EQ(repaired->tables[0].restore.written_back, read);
  EXPECT_EQ(repaired->tables[0].items_after, read);
  EXPECT_TRUE(repaired->after.clean()) << repaired->after.problem_count();
  Open();
  auto x = db_->GetItem(kNs, "Orders", {{"pk", S("x")}});
  ASSERT_OK(x);
  EXPECT_FALSE(x->has_value());
  EXPECT_EQ(ScanCount(), read);
}

TEST_F(IntegrityCheckTest, WrongIndexEntriesAreFoundAndRebuilt) {
  Open();
  CreateOrders();
  PutItems("a", 5, 10);
  auto schema = db_->GetSchema(kNs, "Orders");
  ASSERT_OK(schema);
  const TableSchema table = **schema;
  auto backup = engine_->backups().Create(kNs, "Orders", "nightly");
  ASSERT_OK(backup);
  TableSchema backed_up = table;  // a backup's keys begin with its data id
  backed_up.table_id = backup->data_id;
  engine_.reset();
  db_ = nullptr;
  {
    // The store itself, as only a bug or a lost file could write it: an
    // entry of an item that does not exist, and an item's entry deleted.
    Store::Options options;
    options.path = dir_.path();
    auto store = Store::Open(options);
    ASSERT_OK(store);
    const IndexSchema& gsi = table.global_indexes[0];
    Item ghost = {{"pk", S("ghost")}, {"g", S("g1")}};
    Item kept = {{"pk", S("a3")}, {"g", S("g3")}};
    Store::Batch batch(**store);
    batch.Put(Family::kIndexes, *IndexEntryKey(table, gsi, ghost),
              EncodeItem(ProjectForIndex(table, gsi, ghost)));
    batch.Delete(Family::kIndexes, *IndexEntryKey(table, gsi, kept));
    batch.Put(Family::kIndexes, *IndexEntryKey(backed_up, gsi, ghost),
              EncodeItem(ProjectForIndex(backed_up, gsi, ghost)));
    ASSERT_OK((*store)->Write(batch));
  }

  IntegrityReport report = Check();
  EXPECT_FALSE(report.clean());
  EXPECT_TRUE(report.files.damaged.empty());
  ASSERT_EQ(report.tables.size(), 2u);
  const TableCheck& orders = report.tables[0];
  EXPECT_FALSE(orders.damaged());
  EXPECT_TRUE(orders.rebuildable());
  ASSERT_TRUE(report.tables[1].is_backup());
  EXPECT_NE(FindingAbout(report.tables[1], "GSI ByG: entries whose item is missing"), nullptr);
  const Finding* orphan = FindingAbout(orders, "GSI ByG: entries whose item is missing");
  ASSERT_NE(orphan, nullptr);
  EXPECT_EQ(orphan->count, 1);
  ASSERT_EQ(orphan->examples.size(), 1u);
  EXPECT_NE(orphan->examples[0].find("ghost"), std::string::npos);
  const Finding* missing = FindingAbout(orders, "GSI ByG: items without their entry");
  ASSERT_NE(missing, nullptr);
  EXPECT_NE(missing->examples[0].find("a3"), std::string::npos);

  auto repaired = RepairDataDir(dir_.path());
  ASSERT_OK(repaired);
  for (const std::string& name : repaired->store.moved_aside) {
    EXPECT_FALSE(IsLostTableFile(name)) << name;  // logs and MANIFESTs only
  }
  ASSERT_EQ(repaired->tables.size(), 2u);
  EXPECT_TRUE(repaired->tables[0].rebuilt);
  EXPECT_EQ(repaired->tables[0].lost(), 0);
  EXPECT_TRUE(repaired->tables[1].rebuilt);  // the backup
  EXPECT_TRUE(repaired->rebuild_errors.empty());
  EXPECT_TRUE(repaired->after.clean()) << repaired->after.problem_count();
  // The backup restores into a table whose index agrees with its items.
  Open();
  TableSchema target = backup->schema;
  target.name = "Restored";
  ASSERT_OK(engine_->backups().Restore(kNs, backup->backup_id, target));
  engine_.reset();
  db_ = nullptr;
  IntegrityReport restored = Check();
  EXPECT_TRUE(restored.clean()) << restored.problem_count();
  EXPECT_EQ(restored.tables.size(), 3u);  // Orders, Restored, the backup
}

TEST_F(IntegrityCheckTest, RepairOfACleanDatabaseLosesNothing) {
  BuildTwoRounds();
  auto repaired = RepairDataDir(dir_.path());
  ASSERT_OK(repaired);
  EXPECT_TRUE(repaired->before.clean());
  ASSERT_EQ(repaired->tables.size(), 1u);
  EXPECT_EQ(repaired->tables[0].items_after, 50);
  EXPECT_EQ(repaired->tables[0].lost(), 0);
  EXPECT_FALSE(repaired->tables[0].rebuilt);
  EXPECT_TRUE(repaired->after.clean());
  Open();
  EXPECT_EQ(ScanCount(), 50);
}

TEST_F(IntegrityCheckTest, RepairKeepsWhatOnlyTheLogHolds) {
  // Closed without a restart: every write is still in the write-ahead log
  // only, which RocksDB's repair alone would mostly drop (it keeps the log's
  // records only for families that have table files already).
  Open();
  CreateOrders();
  PutItems("a", 12, 100);
  engine_.reset();
  db_ = nullptr;
  auto repaired = RepairDataDir(dir_.path());
  ASSERT_OK(repaired);
  EXPECT_TRUE(repaired->log_flushed);
  ASSERT_EQ(repaired->tables.size(), 1u);
  EXPECT_EQ(repaired->tables[0].items_after, 12);
  EXPECT_EQ(repaired->tables[0].lost(), 0);
  EXPECT_TRUE(repaired->after.clean()) << repaired->after.problem_count();
  Open();
  EXPECT_EQ(ScanCount(), 12);
}

}  // namespace
}  // namespace ddb::engine
