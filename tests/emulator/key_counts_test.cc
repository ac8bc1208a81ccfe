#include "emulator/profile/key_counts.h"

#include <gtest/gtest.h>

#include <string>

namespace ddb::emulator {
namespace {

std::string Key(int i) { return "key-" + std::to_string(i); }

TEST(KeyCountsTest, CountsEachKeyThroughEveryGrowth) {
  KeyCounts counts;
  EXPECT_EQ(counts.CountOf("never"), 0u);
  // Key i is added i % 7 + 1 times, in rounds, so that the table grows
  // between additions of one key.
  for (int round = 0; round < 7; ++round) {
    for (int i = 0; i < 900; ++i) {
      if (round <= i % 7) counts.Add(Key(i));
    }
  }
  ASSERT_EQ(counts.size(), 900u);
  for (int i = 0; i < 900; ++i) EXPECT_EQ(counts.CountOf(Key(i)), static_cast<uint64_t>(i % 7 + 1));
  EXPECT_EQ(counts.CountOf("key-900"), 0u);
  std::vector<KeyCounts::Counted> all = counts.All();
  ASSERT_EQ(all.size(), 900u);
  EXPECT_EQ(all[5].text, Key(5));  // in the order first counted
  EXPECT_EQ(all[5].count, 6u);
}

TEST(KeyCountsTest, NewKeysPastTheCapAreNotCounted) {
  KeyCounts counts;
  for (size_t i = 0; i < KeyCounts::kMax + 10; ++i) counts.Add(Key(static_cast<int>(i)));
  counts.Add(Key(0), 4);
  EXPECT_EQ(counts.size(), KeyCounts::kMax);
  EXPECT_EQ(counts.CountOf(Key(0)), 5u);
  EXPECT_EQ(counts.CountOf(Key(static_cast<int>(KeyCounts::kMax))), 0u);
}

TEST(KeyCountsTest, MergesCountsKeyByKey) {
  KeyCounts a;
  KeyCounts b;
  a.Add("x", 2);
  a.Add("", 1);  // an empty text is a key like any other
  b.Add("x", 3);
  b.Add("y", 1);
  a.Merge(b);
  EXPECT_EQ(a.CountOf("x"), 5u);
  EXPECT_EQ(a.CountOf("y"), 1u);
  EXPECT_EQ(a.CountOf(""), 1u);
  EXPECT_EQ(a.size(), 3u);
}

}  // namespace
}  // namespace ddb::emulator
