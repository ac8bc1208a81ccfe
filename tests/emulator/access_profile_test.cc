#include "emulator/profile/access_profile.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

namespace ddb::emulator {
namespace {

std::unique_ptr<api::AccessRecord> Read(std::string table, std::string filter, std::string pk) {
  auto record = std::make_unique<api::AccessRecord>();
  record->operation = "Query";
  record->filter = std::move(filter);
  api::Consumption consumed(table, false);
  consumed.table_units = 0.5;
  consumed.table_bytes = 100;
  record->consumed.push_back(consumed);
  record->accesses.push_back({.table = table, .items_read = 4, .items_returned = 1});
  record->StartPartitionKey(table, "") +=
      api::KeyText(engine::Item{{"pk", engine::AttributeValue(std::move(pk))}});
  return record;
}

TEST(AccessProfileTest, AddsUnitsItemsAndKeysPerTable) {
  AccessProfile profile;
  profile.Add("", Read("orders", "a > ?", "k1"), 100);
  profile.Add("", Read("arn:aws:dynamodb:us-east-1:000000000000:table/orders", "a > ?", "k1"),
              100);
  profile.Add("", Read("orders", "b > ?", "k2"), 101);
  ProfileTallies tallies = profile.Tallies();
  const TableTally& orders = tallies.at("").at("orders");
  const ResourceTally& table = orders.resources.at("");
  EXPECT_EQ(table.requests.at("Query"), 3u);
  EXPECT_EQ(table.units.read_units, 1.5);
  EXPECT_EQ(table.units.read_bytes, 300u);
  EXPECT_EQ(table.items_read, 12u);
  EXPECT_EQ(table.items_returned, 3u);
  EXPECT_EQ(orders.shapes.size(), 2u);
  EXPECT_EQ(table.partition_keys.CountOf(
                api::KeyText(engine::Item{{"pk", engine::AttributeValue(std::string("k1"))}})),
            2u);
  ASSERT_EQ(orders.timeline.size(), 2u);
  EXPECT_EQ(orders.timeline[0].second, 100);
  EXPECT_EQ(orders.timeline[0].read_units, 1.0);
}

TEST(AccessProfileTest, NewShapesPastTheCapGoToOther) {
  AccessProfile profile;
  for (size_t i = 0; i < AccessProfile::kMaxShapes + 5; ++i) {
    profile.Add("", Read("t", "f" + std::to_string(i), "k"), 1);
  }
  ProfileTallies tallies = profile.Tallies();
  const TableTally& table = tallies.at("").at("t");
  EXPECT_EQ(table.shapes.size(), AccessProfile::kMaxShapes + 1);
  EXPECT_EQ(table.shapes.at("(other)").count, 5u);
  EXPECT_EQ(table.shapes.at("(other)").read_units, 2.5);
}

TEST(AccessProfileTest, KeysPastTheCapAreNotCountedAndTheTimelineIsBounded) {
  AccessProfile profile;
  for (int64_t i = 0; i < static_cast<int64_t>(AccessProfile::kMaxKeys) + 10; ++i) {
    profile.Add("", Read("t", "", "k" + std::to_string(i)), i);
  }
  ProfileTallies tallies = profile.Tallies();
  const TableTally& table = tallies.at("").at("t");
  EXPECT_EQ(table.resources.at("").partition_keys.size(), AccessProfile::kMaxKeys);
  EXPECT_EQ(table.timeline.size(), AccessProfile::kTimelineSeconds);
  EXPECT_EQ(table.timeline.back().second, static_cast<int64_t>(AccessProfile::kMaxKeys) + 9);
}

TEST(AccessProfileTest, ResetsOneDatabaseOrAll) {
  AccessProfile profile;
  profile.Add("a", Read("t", "", "k"), 1);
  profile.Add("b", Read("t", "", "k"), 1);
  std::string a = "a";
  profile.Reset(&a);
  EXPECT_EQ(profile.Tallies().count("a"), 0u);
  EXPECT_EQ(profile.Tallies(&a).size(), 0u);
  EXPECT_EQ(profile.Tallies().count("b"), 1u);
  profile.Reset();
  EXPECT_TRUE(profile.Tallies().empty());
}

// A shard remembers where its last record was tallied (its memo): a Reset,
// or a request to another profile in between, must not leave it counting
// into tallies that are gone or belong to someone else.
TEST(AccessProfileTest, CountsAfreshAfterAResetAndApartFromAnotherProfile) {
  AccessProfile profile;
  AccessProfile other;
  profile.Add("", Read("t", "", "k"), 1);
  profile.Reset();
  profile.Add("", Read("t", "", "k"), 1);
  other.Add("", Read("t", "", "k"), 1);
  profile.Add("", Read("t", "", "k"), 1);
  for (auto [tallied, count] : {std::pair{&profile, 2u}, std::pair{&other, 1u}}) {
    ProfileTallies tallies = tallied->Tallies();
    const TableTally& table = tallies.at("").at("t");
    EXPECT_EQ(table.resources.at("").requests.at("Query"), count);
    EXPECT_EQ(table.shapes.begin()->second.count, count);
    EXPECT_EQ(table.resources.at("").partition_keys.All().at(0).count, count);
  }
}

// Records are tallied a batch at a time: whatever the count, a read sees
// every record added before it, and a reset of one database keeps the
// others' waiting records.
TEST(AccessProfileTest, EveryRecordCountsWhereverABatchEnds) {
  AccessProfile profile;
  const size_t added = AccessProfile::kBatch * 2 + 3;
  for (size_t i = 0; i < added; ++i) profile.Add(i % 2 ? "a" : "b", Read("t", "", "k"), 1);
  EXPECT_EQ(profile.Tallies().at("a").at("t").resources.at("").requests.at("Query"), added / 2);
  profile.Add("a", Read("t", "", "k"), 1);
  profile.Add("b", Read("t", "", "k"), 1);
  std::string b = "b";
  profile.Reset(&b);
  ProfileTallies tallies = profile.Tallies();
  EXPECT_EQ(tallies.count("b"), 0u);
  EXPECT_EQ(tallies.at("a").at("t").resources.at("").requests.at("Query"), added / 2 + 1);
  profile.Add("a", Read("t", "", "k"), 1);
  profile.Reset();
  EXPECT_TRUE(profile.Tallies().empty());
}

// Add gives back an empty record to be filled again, whether or not its
// batch was tallied.
TEST(AccessProfileTest, AddGivesBackAnEmptyRecord) {
  AccessProfile profile;
  for (size_t i = 0; i < AccessProfile::kBatch * 2; ++i) {
    std::unique_ptr<api::AccessRecord> record = profile.Add("", Read("t", "f", "k"), 1);
    ASSERT_TRUE(record);
    EXPECT_TRUE(record->operation.empty());
    EXPECT_TRUE(record->consumed.empty());
    EXPECT_TRUE(record->accesses.empty());
    EXPECT_EQ(record->partition_key_count(), 0u);
    EXPECT_TRUE(record->filter.empty());
  }
}

// A record of many keys is tallied at once, after the records waiting.
TEST(AccessProfileTest, ARecordOfManyKeysCountsBesideTheWaitingOnes) {
  AccessProfile profile;
  profile.Add("", Read("t", "", "k"), 1);
  std::unique_ptr<api::AccessRecord> many = Read("t", "", "k");
  for (const char* pk : {"a", "b", "c"}) {
    many->StartPartitionKey("t", "") +=
        api::KeyText(engine::Item{{"pk", engine::AttributeValue(std::string(pk))}});
  }
  ASSERT_GT(many->partition_key_count(), AccessProfile::kBatchedKeys);
  profile.Add("", std::move(many), 2);
  profile.Add("", Read("t", "", "a"), 2);
  ProfileTallies tallies = profile.Tallies();
  const ResourceTally& table = tallies.at("").at("t").resources.at("");
  EXPECT_EQ(table.requests.at("Query"), 3u);
  EXPECT_EQ(table.units.read_units, 1.5);
  auto count = [&](const char* pk) {
    return table.partition_keys.CountOf(
        api::KeyText(engine::Item{{"pk", engine::AttributeValue(std::string(pk))}}));
  };
  EXPECT_EQ(count("k"), 2u);
  EXPECT_EQ(count("a"), 2u);
  EXPECT_EQ(count("b"), 1u);
  ASSERT_EQ(tallies.at("").at("t").timeline.size(), 2u);
  EXPECT_EQ(tallies.at("").at("t").timeline[1].read_units, 1.0);
}

}  // namespace
}  // namespace ddb::emulator
