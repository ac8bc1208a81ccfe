#include "engine/key_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using test::B;
using test::MakeTable;
using test::N;
using test::S;

// Unsigned bytewise order, as RocksDB's default comparator sees keys.
int ByteOrder(const std::string& a, const std::string& b) {
  int c = a.compare(b);  // char_traits<char> compares as unsigned char
  return (c > 0) - (c < 0);
}

// The item key of range key `sk` in partition "p" of a table whose range key
// has type `type`.
std::string RangeItemKey(ScalarType type, const AttributeValue& sk) {
  TableSchema schema = MakeTable("t", {"pk", ScalarType::kS}, KeyElement{"sk", type});
  return ItemKey(7, schema, Item{{"pk", S("p")}, {"sk", sk}});
}

// Checks that `values`, listed in strictly ascending order, encode to
// strictly ascending item keys.
void ExpectAscending(ScalarType type, const std::vector<AttributeValue>& values) {
  for (size_t i = 1; i < values.size(); ++i) {
    EXPECT_LT(ByteOrder(RangeItemKey(type, values[i - 1]), RangeItemKey(type, values[i])), 0)
        << DebugString(values[i - 1]) << " should sort before " << DebugString(values[i]);
  }
}

TEST(KeyCodecTest, StringsSortByUtf8BytesWithEmbeddedNul) {
  using namespace std::string_literals;
  ExpectAscending(ScalarType::kS, {S(""), S("a"), S("a\0"s), S("a\0\0"s), S("a\0b"s),
                                   S("a\x01"s), S("ab"), S("b"), S("z"), S("\u00e9"),
                                   S("\U0001F600")});
}

TEST(KeyCodecTest, BinariesSortByUnsignedBytes) {
  using namespace std::string_literals;
  ExpectAscending(ScalarType::kB, {B(""), B("\x00"s), B("\x00\x00"s), B("\x00\xff"s), B("\x01"s),
                                   B("\x7f"s), B("\x80"s), B("\xfe\xff"s), B("\xff"s),
                                   B("\xff\x00"s), B("\xff\xff"s)});
}

TEST(KeyCodecTest, NumbersSortNumericallyNotLexically) {
  std::vector<std::string> texts = {
      "-9.9999999999999999999999999999999999999E+125",
      "-1e125", "-123.45", "-100", "-99", "-10", "-9", "-1.5", "-1", "-0.123", "-0.12",
      "-1e-130", "0", "1e-130", "0.001", "0.12", "0.123", "0.5", "1", "1.05", "1.5", "2", "9",
      "10", "11", "99", "100", "123.45", "12345678901234567890123456789012345678", "1e38",
      "9.9999999999999999999999999999999999999E+125"};
  std::vector<AttributeValue> numbers;
  for (const auto& text : texts) numbers.push_back(N(text));
  ExpectAscending(ScalarType::kN, numbers);
  // Every pair, not only neighbours, agrees with Number::Compare.
  for (const auto& a : numbers) {
    for (const auto& b : numbers) {
      int expected = a.as<Number>().Compare(b.as<Number>());
      EXPECT_EQ(ByteOrder(RangeItemKey(ScalarType::kN, a), RangeItemKey(ScalarType::kN, b)),
                (expected > 0) - (expected < 0))
          << DebugString(a) << " vs " << DebugString(b);
    }
  }
}

TEST(KeyCodecTest, EqualNumbersWrittenDifferentlyHaveOneKey) {
  EXPECT_EQ(RangeItemKey(ScalarType::kN, N("1.50")), RangeItemKey(ScalarType::kN, N("15e-1")));
  EXPECT_EQ(RangeItemKey(ScalarType::kN, N("-0.0")), RangeItemKey(ScalarType::kN, N("0")));
}

TEST(KeyCodecTest, PartitionPrefixIsPrefixOfItemKeysInThatPartitionOnly) {
  TableSchema schema = MakeTable("t", {"pk", ScalarType::kN}, KeyElement{"sk", ScalarType::kS});
  std::string prefix = PartitionPrefix(3, N("42"));
  EXPECT_TRUE(prefix.starts_with(TablePrefix(3)));
  for (const char* sk : {"", "a", "zzz"}) {
    std::string key = ItemKey(3, schema, Item{{"pk", N("42")}, {"sk", S(sk)}});
    EXPECT_TRUE(key.starts_with(prefix)) << sk;
    EXPECT_LT(ByteOrder(key, PrefixSuccessor(prefix)), 0) << sk;
  }
  // Another partition, and the same partition in another table, lie outside.
  EXPECT_FALSE(ItemKey(3, schema, Item{{"pk", N("420")}, {"sk", S("a")}}).starts_with(prefix));
  EXPECT_FALSE(ItemKey(4, schema, Item{{"pk", N("42")}, {"sk", S("a")}}).starts_with(prefix));

  // Without a range key the item key is the partition prefix itself.
  TableSchema hash_only = MakeTable("h", {"pk", ScalarType::kB});
  EXPECT_EQ(ItemKey(9, hash_only, Item{{"pk", B("x")}}), PartitionPrefix(9, B("x")));
}

TEST(KeyCodecTest, TablePrefixesSortByTableIdAndNeverNest) {
  EXPECT_LT(ByteOrder(TablePrefix(255), TablePrefix(256)), 0);
  EXPECT_LT(ByteOrder(TablePrefix(1), TablePrefix(1ull << 40)), 0);
  TableSchema schema = MakeTable("t", {"pk", ScalarType::kS});
  std::string key_in_1 = ItemKey(1, schema, Item{{"pk", S("\xff\xff")}});
  EXPECT_LT(ByteOrder(key_in_1, PrefixSuccessor(TablePrefix(1))), 0);
  EXPECT_LE(ByteOrder(PrefixSuccessor(TablePrefix(1)), TablePrefix(2)), 0);
}

TEST(KeyCodecTest, PrefixSuccessorIsTheSmallestStringAfterThePrefixRange) {
  using namespace std::string_literals;
  EXPECT_EQ(PrefixSuccessor("abc"), "abd");
  EXPECT_EQ(PrefixSuccessor("a\xff\xff"s), "b");
  EXPECT_EQ(PrefixSuccessor("\x00"s), "\x01"s);
  EXPECT_EQ(PrefixSuccessor("a\x7f"s), "a\x80"s);
  EXPECT_EQ(PrefixSuccessor("\xff\xff"s), "");  // no upper bound exists
  EXPECT_EQ(PrefixSuccessor(""), "");
  std::string prefix = "k\xfe\xff"s;
  std::string successor = PrefixSuccessor(prefix);
  EXPECT_EQ(successor, "k\xff"s);
  for (const std::string& inside : {prefix, prefix + "\xff\xff\xff"s, prefix + "\x00"s}) {
    EXPECT_LT(ByteOrder(inside, successor), 0);
  }
}

}  // namespace
}  // namespace ddb::engine
