#include "emulator/profile/access_profile.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace ddb::emulator {
namespace {

api::AccessRecord Read(std::string table, std::string filter, std::string pk) {
  api::AccessRecord record;
  record.operation = "Query";
  record.filter = std::move(filter);
  api::Consumption consumed(table, false);
  consumed.table_units = 0.5;
  consumed.table_bytes = 100;
  record.consumed.push_back(consumed);
  record.accesses.push_back({.table = table, .items_read = 4, .items_returned = 1});
  record.StartPartitionKey(table, "") +=
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

// A request that repeats the one before is counted beside the memo and
// added into the tallies later: a read sees every request added before
// it, split by the second it was answered in, and a reset of one database
// keeps the counts of another's.
TEST(AccessProfileTest, RepeatedRequestsCountWhereverTheRunEnds) {
  AccessProfile profile;
  for (int64_t second : {1, 1, 1, 2, 2}) profile.Add("a", Read("t", "", "k"), second);
  for (int i = 0; i < 3; ++i) profile.Add("b", Read("t", "", "k"), 2);
  profile.Add("a", Read("t", "", "k"), 3);
  std::string b = "b";
  ProfileTallies before = profile.Tallies(&b);
  EXPECT_EQ(before.at("b").at("t").resources.at("").requests.at("Query"), 3u);
  profile.Add("a", Read("t", "", "k"), 3);
  profile.Reset(&b);
  profile.Add("a", Read("t", "", "k"), 3);
  ProfileTallies tallies = profile.Tallies();
  EXPECT_EQ(tallies.count("b"), 0u);
  const TableTally& t = tallies.at("a").at("t");
  const ResourceTally& table = t.resources.at("");
  EXPECT_EQ(table.requests.at("Query"), 8u);
  EXPECT_EQ(table.units.read_units, 4.0);
  EXPECT_EQ(table.units.read_bytes, 800u);
  EXPECT_EQ(table.items_read, 32u);
  EXPECT_EQ(table.items_returned, 8u);
  EXPECT_EQ(table.partition_keys.All().at(0).count, 8u);
  ASSERT_EQ(t.shapes.size(), 1u);
  EXPECT_EQ(t.shapes.begin()->second.count, 8u);
  EXPECT_EQ(t.shapes.begin()->second.read_units, 4.0);
  ASSERT_EQ(t.timeline.size(), 3u);
  EXPECT_EQ(t.timeline[0].read_units, 1.5);
  EXPECT_EQ(t.timeline[1].read_units, 1.0);
  EXPECT_EQ(t.timeline[2].read_units, 1.5);
  // Read twice, nothing is counted twice.
  EXPECT_EQ(profile.Tallies().at("a").at("t").resources.at("").requests.at("Query"), 8u);
  profile.Add("a", Read("t", "", "k"), 3);
  profile.Reset();
  EXPECT_TRUE(profile.Tallies().empty());
}

// A request that differs from the one before in its shape or table, or a
// Scan, is never taken for a repeat; one that differs in its key only is,
// and its key is counted as its own.
TEST(AccessProfileTest, ARequestDifferingInOnePartIsNoRepeat) {
  AccessProfile profile;
  profile.Add("", Read("t", "f", "k"), 1);
  profile.Add("", Read("t", "f", "k"), 1);
  profile.Add("", Read("t", "g", "k"), 1);  // another filter
  profile.Add("", Read("u", "g", "k"), 1);  // another table
  profile.Add("", Read("u", "g", "j"), 1);  // another key
  api::AccessRecord scan = Read("u", "g", "j");
  scan.operation = "Scan";
  scan.accesses[0].scan = true;
  scan.accesses[0].table_fraction = 0.5;
  profile.Add("", scan, 1);
  profile.Add("", scan, 1);
  ProfileTallies tallies = profile.Tallies();
  const TableTally& t = tallies.at("").at("t");
  EXPECT_EQ(t.resources.at("").requests.at("Query"), 3u);
  EXPECT_EQ(t.shapes.size(), 2u);
  const TableTally& u = tallies.at("").at("u");
  const ResourceTally& table = u.resources.at("");
  EXPECT_EQ(table.requests.at("Query"), 2u);
  EXPECT_EQ(table.requests.at("Scan"), 2u);
  EXPECT_EQ(table.scans, 2u);
  EXPECT_EQ(table.scan_fraction_sum, 1.0);
  EXPECT_EQ(u.shapes.size(), 2u);
  EXPECT_EQ(table.partition_keys.size(), 2u);
  EXPECT_EQ(table.partition_keys.CountOf(
                api::KeyText(engine::Item{{"pk", engine::AttributeValue(std::string("j"))}})),
            3u);
}

// A record of many keys counts each, beside the repeated ones before it.
TEST(AccessProfileTest, ARecordOfManyKeysCountsBesideTheRepeatedOnes) {
  AccessProfile profile;
  profile.Add("", Read("t", "", "k"), 1);
  profile.Add("", Read("t", "", "k"), 1);
  api::AccessRecord many = Read("t", "", "k");
  for (const char* pk : {"a", "b", "c"}) {
    many.StartPartitionKey("t", "") +=
        api::KeyText(engine::Item{{"pk", engine::AttributeValue(std::string(pk))}});
  }
  profile.Add("", many, 2);
  profile.Add("", Read("t", "", "a"), 2);
  ProfileTallies tallies = profile.Tallies();
  const ResourceTally& table = tallies.at("").at("t").resources.at("");
  EXPECT_EQ(table.requests.at("Query"), 4u);
  EXPECT_EQ(table.units.read_units, 2.0);
  auto count = [&](const char* pk) {
    return table.partition_keys.CountOf(
        api::KeyText(engine::Item{{"pk", engine::AttributeValue(std::string(pk))}}));
  };
  EXPECT_EQ(count("k"), 3u);
  EXPECT_EQ(count("a"), 2u);
  EXPECT_EQ(count("b"), 1u);
  ASSERT_EQ(tallies.at("").at("t").timeline.size(), 2u);
  EXPECT_EQ(tallies.at("").at("t").timeline[0].read_units, 1.0);
  EXPECT_EQ(tallies.at("").at("t").timeline[1].read_units, 1.0);
}

}  // namespace
}  // namespace ddb::emulator
