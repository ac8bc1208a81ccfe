// Snapshots in the engine: a restore puts back exactly the tables, items,
// index entries, statistics and TTL schedule a snapshot saw — in the same
// namespace or another — drops what was made since, gives streams a fresh
// start, and is as durable as any write (it survives a reopen).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "engine/database.h"
#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using test::MakeTable;
using test::N;
using test::S;

constexpr int64_t kStartSeconds = 1'700'000'000;  // FakeClock's start

class SnapshotTest : public test::DatabaseModesTest {
 protected:
  // Table "t" (pk S) with GSI "byG" on "g", TTL on "ttl" and a stream.
  void CreateTable(std::string_view ns) {
    TableSchema schema = MakeTable("t", {"pk", ScalarType::kS});
    IndexSchema gsi;
    gsi.name = "byG";
    gsi.key.hash.push_back({"g", ScalarType::kS});
    schema.global_indexes.push_back(gsi);
    schema.stream.enabled = true;
    schema.stream.view_type = "NEW_IMAGE";
    ASSERT_OK(db_->CreateTable(ns, schema));
    ASSERT_OK(db_->UpdateTable(ns, "t", [](TableSchema& s) {
      s.ttl_attribute = "ttl";
      return Status::Ok();
    }));
  }

  void Put(std::string_view ns, const std::string& pk, const std::string& g) {
    ASSERT_OK(db_->PutItem(ns, "t", {{"pk", S(pk)}, {"g", S(g)}}));
  }

  // The partition keys of a Scan of the table or of one of its indexes.
  std::set<std::string> Keys(std::string_view ns, const std::string& index = "") {
    ScanRequest request;
    request.index_name = index;
    auto page = db_->Scan(ns, "t", request);
    EXPECT_OK(page);
    std::set<std::string> keys;
    if (page.ok()) {
      for (const Item& item : page->items) keys.insert(item.at("pk").as<std::string>());
    }
    return keys;
  }

  int64_t ItemCount(std::string_view ns) { return db_->DescribeTable(ns, "t")->stats.item_count; }
  int64_t IndexCount(std::string_view ns) {
    auto d = db_->DescribeTable(ns, "t");
    return d->index_stats.at(d->schema.global_indexes[0].index_id).item_count;
  }
};

TEST_P(SnapshotTest, RestorePutsBackItemsIndexesAndCountsAndDropsNewerTables) {
  CreateTable("a");
  Put("a", "1", "x");
  Put("a", "2", "y");
  auto snapshot = engine_->snapshots().Take("a");
  ASSERT_OK(snapshot);
  EXPECT_EQ((*snapshot)->item_count, 2);
  EXPECT_GT((*snapshot)->bytes, 0);

  Put("a", "3", "z");
  ASSERT_OK(db_->DeleteItem("a", "t", {{"pk", S("1")}}));
  ASSERT_OK(db_->CreateTable("a", MakeTable("later", {"pk", ScalarType::kS})));

  auto summary = engine_->snapshots().Restore(**snapshot, std::nullopt);
  ASSERT_OK(summary);
  EXPECT_EQ(summary->tables, 1);
  EXPECT_EQ(summary->items, 2);
  EXPECT_EQ(Keys("a"), (std::set<std::string>{"1", "2"}));
  EXPECT_EQ(Keys("a", "byG"), (std::set<std::string>{"1", "2"}));
  EXPECT_EQ(ItemCount("a"), 2);
  EXPECT_EQ(IndexCount("a"), 2);
  EXPECT_EQ(db_->ListTables("a", "", 10).names, std::vector<std::string>{"t"});

  // Restoring twice gives the same state again: the snapshot is unchanged.
  Put("a", "4", "w");
  ASSERT_OK(engine_->snapshots().Restore(**snapshot, std::nullopt));
  EXPECT_EQ(Keys("a"), (std::set<std::string>{"1", "2"}));

  if (!GetParam()) return;  // in memory: nothing to reopen
  Open();  // reopen: the restore is stored like any write
  EXPECT_EQ(Keys("a"), (std::set<std::string>{"1", "2"}));
  EXPECT_EQ(Keys("a", "byG"), (std::set<std::string>{"1", "2"}));
  EXPECT_EQ(ItemCount("a"), 2);
  EXPECT_EQ(IndexCount("a"), 2);
}

TEST_P(SnapshotTest, RestoreIntoAnotherNamespaceLeavesTheSourceAlone) {
  CreateTable("seed");
  Put("seed", "1", "x");
  auto snapshot = engine_->snapshots().Take("seed");
  ASSERT_OK(snapshot);
  ASSERT_OK(engine_->snapshots().Restore(**snapshot, "w1"));
  ASSERT_OK(engine_->snapshots().Restore(**snapshot, "w2"));
  Put("w1", "only-w1", "x");
  EXPECT_EQ(Keys("w1"), (std::set<std::string>{"1", "only-w1"}));
  EXPECT_EQ(Keys("w2"), (std::set<std::string>{"1"}));
  EXPECT_EQ(Keys("seed"), (std::set<std::string>{"1"}));
  EXPECT_EQ(Keys("w1", "byG"), (std::set<std::string>{"1", "only-w1"}));

  ASSERT_OK(engine_->snapshots().DropNamespace("w1"));
  EXPECT_TRUE(db_->ListTables("w1", "", 10).names.empty());
  EXPECT_EQ(Keys("w2"), (std::set<std::string>{"1"}));
}

TEST_P(SnapshotTest, RestoredItemsKeepTheirTtlSchedule) {
  CreateTable("a");
  ASSERT_OK(db_->PutItem(
      "a", "t", {{"pk", S("due")}, {"ttl", N(std::to_string(kStartSeconds + 10))}}));
  auto snapshot = engine_->snapshots().Take("a");
  ASSERT_OK(snapshot);
  ASSERT_OK(engine_->snapshots().Restore(**snapshot, "b"));
  clock_.Advance(11'000);
  auto swept = engine_->housekeeping().SweepExpired();
  ASSERT_OK(swept);
  std::set<std::string> namespaces;
  for (const ExpiredItem& expired : *swept) namespaces.insert(expired.ns);
  EXPECT_EQ(namespaces, (std::set<std::string>{"a", "b"}));
  EXPECT_TRUE(Keys("b").empty());
}

TEST_P(SnapshotTest, ARestoredTableGetsAFreshStream) {
  CreateTable("a");
  Put("a", "1", "x");
  std::string old_label = db_->DescribeTable("a", "t")->schema.stream.label;
  auto snapshot = engine_->snapshots().Take("a");
  ASSERT_OK(snapshot);
  clock_.Advance(1'000);
  ASSERT_OK(engine_->snapshots().Restore(**snapshot, std::nullopt));
  std::string label = db_->DescribeTable("a", "t")->schema.stream.label;
  EXPECT_NE(label, old_label);
  auto read = engine_->streams().Read("a", "t", label, "", 1, 100, 1 << 20);
  ASSERT_OK(read);
  EXPECT_TRUE(read->records.empty());
  Put("a", "2", "y");
  read = engine_->streams().Read("a", "t", label, "", 1, 100, 1 << 20);
  ASSERT_OK(read);
  EXPECT_EQ(read->records.size(), 1u);
}

TEST_P(SnapshotTest, AWholeDatabaseSnapshotRestoresEveryNamespace) {
  CreateTable("a");
  Put("a", "1", "x");
  auto snapshot = engine_->snapshots().Take(std::nullopt);
  ASSERT_OK(snapshot);
  CreateTable("b");
  ASSERT_OK(db_->DeleteTable("a", "t"));
  test::ExpectError(engine_->snapshots().Restore(**snapshot, "b"), Status::Code::kInvalidArgument,
                    "A snapshot of every database restores every database: give no namespace");
  ASSERT_OK(engine_->snapshots().Restore(**snapshot, std::nullopt));
  EXPECT_EQ(Keys("a"), (std::set<std::string>{"1"}));
  EXPECT_TRUE(db_->ListTables("b", "", 10).names.empty());
}

// On-demand backups (backups.h) copy tables the same way.

// The backup's schema as a restore under its own name would take it.
TableSchema RestoreTarget(const BackupInfo& backup) {
  TableSchema target = backup.schema;
  target.stream = {};
  target.ttl_attribute.clear();
  return target;
}

TEST_P(SnapshotTest, ABackupOutlivesItsTableAndRestoresWithItsIndex) {
  CreateTable("a");
  Put("a", "1", "x");
  Put("a", "2", "y");
  auto backup = engine_->backups().Create("a", "t", "nightly");
  ASSERT_OK(backup);
  EXPECT_EQ(backup->stats.item_count, 2);
  Put("a", "3", "z");
  ASSERT_OK(db_->DeleteTable("a", "t"));
  if (GetParam()) Open();  // a backup is stored like any write

  auto found = engine_->backups().Find("a", backup->backup_id);
  ASSERT_OK(found);
  EXPECT_EQ((*found)->name, "nightly");
  EXPECT_EQ(engine_->backups().Find("b", backup->backup_id).status().code(), Status::Code::kNotFound);
  ASSERT_OK(engine_->backups().Restore("a", backup->backup_id, RestoreTarget(**found)));
  EXPECT_EQ(Keys("a"), (std::set<std::string>{"1", "2"}));
  EXPECT_EQ(Keys("a", "byG"), (std::set<std::string>{"1", "2"}));
  EXPECT_EQ(ItemCount("a"), 2);
  EXPECT_EQ(IndexCount("a"), 2);
  EXPECT_EQ(engine_->backups().Restore("a", backup->backup_id, RestoreTarget(**found)).status().code(),
            Status::Code::kAlreadyExists);

  // The restored table is independent of the backup: writing it changes
  // neither the backup nor a second restore of it.
  Put("a", "4", "w");
  ASSERT_OK(db_->DeleteTable("a", "t"));
  ASSERT_OK(engine_->backups().Restore("a", backup->backup_id, RestoreTarget(**found)));
  EXPECT_EQ(Keys("a"), (std::set<std::string>{"1", "2"}));
}

TEST_P(SnapshotTest, ARestoreLeavesOutTheIndexesItsTargetDrops) {
  CreateTable("a");
  Put("a", "1", "x");
  auto backup = engine_->backups().Create("a", "t", "no-index");
  ASSERT_OK(backup);
  ASSERT_OK(db_->DeleteTable("a", "t"));
  TableSchema target = RestoreTarget(*backup);
  target.global_indexes.clear();
  auto restored = engine_->backups().Restore("a", backup->backup_id, target);
  ASSERT_OK(restored);
  EXPECT_TRUE(restored->index_stats.empty());
  EXPECT_EQ(Keys("a"), std::set<std::string>{"1"});
  ScanRequest on_index;
  on_index.index_name = "byG";
  EXPECT_EQ(db_->Scan("a", "t", on_index).status().code(), Status::Code::kInvalidArgument);
}

TEST_P(SnapshotTest, DeleteBackupAndResetForgetBackups) {
  CreateTable("a");
  Put("a", "1", "x");
  auto first = engine_->backups().Create("a", "t", "first");
  auto second = engine_->backups().Create("a", "t", "second");
  ASSERT_OK(first);
  ASSERT_OK(second);
  EXPECT_NE(first->data_id, second->data_id);
  EXPECT_EQ(engine_->backups().List("a").size(), 2u);
  ASSERT_OK(engine_->backups().Delete("a", first->backup_id));
  EXPECT_EQ(engine_->backups().Find("a", first->backup_id).status().code(), Status::Code::kNotFound);
  if (GetParam()) Open();
  ASSERT_EQ(engine_->backups().List("a").size(), 1u);
  ASSERT_OK(db_->DeleteTable("a", "t"));
  // Deleting the first backup's data left the second's whole.
  ASSERT_OK(engine_->backups().Restore("a", second->backup_id, RestoreTarget(*second)));
  EXPECT_EQ(Keys("a"), std::set<std::string>{"1"});

  ASSERT_OK(engine_->snapshots().Reset());
  EXPECT_TRUE(engine_->backups().List("a").empty());
  if (GetParam()) Open();
  EXPECT_TRUE(engine_->backups().List("a").empty());
}

INSTANTIATE_TEST_SUITE_P(Modes, SnapshotTest, ::testing::Values(false, true), test::ModeName);

}  // namespace
}  // namespace ddb::engine
