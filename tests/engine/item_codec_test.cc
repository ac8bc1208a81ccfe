#include "engine/items/item_codec.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using namespace std::string_literals;
using test::B;
using test::N;
using test::S;

AttributeValue Bool(bool b) { return AttributeValue(b); }

NumberSet Numbers(std::initializer_list<const char*> texts) {
  NumberSet set;
  for (const char* text : texts) set.values.push_back(N(text).as<Number>());
  return set;
}

// An item using all ten types, nesting and empty values.
Item EveryType() {
  Map inner{{"deep", AttributeValue(List{N("-0.001"), AttributeValue(Map{})})},
            {"", S("empty name")}};
  return Item{
      {"s", S("text with \0 nul"s)},
      {"empty_s", S("")},
      {"n", N("-123.4500")},
      {"b", B("\x00\x01\xff"s)},
      {"empty_b", B("")},
      {"t", Bool(true)},
      {"f", Bool(false)},
      {"null", AttributeValue(Null{})},
      {"m", AttributeValue(Map{{"inner", AttributeValue(inner)}, {"x", N("1e100")}})},
      {"l", AttributeValue(List{S("a"), AttributeValue(List{}), AttributeValue(Numbers({"3"})),
                                AttributeValue(Map{{"k", B("v")}})})},
      {"ss", AttributeValue(StringSet{{"b", "a", ""}})},
      {"ns", AttributeValue(Numbers({"10", "-2.5", "0"}))},
      {"bs", AttributeValue(BinarySet{{"\xff"s, "\x00"s}})},
  };
}

TEST(ItemCodecTest, RoundTripsAllTenTypesIncludingNestedAndEmptyValues) {
  Item item = EveryType();
  Result<Item> decoded = DecodeItem(EncodeItem(item));
  ASSERT_OK(decoded);
  EXPECT_EQ(*decoded, item);
  // DebugString is order-sensitive, so set element order is preserved too.
  EXPECT_EQ(DebugString(*decoded), DebugString(item));
  EXPECT_EQ(decoded->at("n").as<Number>().ToString(), "-123.45");
  EXPECT_EQ(decoded->at("b").as<Binary>().bytes, "\x00\x01\xff"s);
  EXPECT_TRUE(decoded->at("empty_b").as<Binary>().bytes.empty());
}

TEST(ItemCodecTest, RoundTripsEmptyItem) {
  Result<Item> decoded = DecodeItem(EncodeItem(Item{}));
  ASSERT_OK(decoded);
  EXPECT_TRUE(decoded->empty());
}

void ExpectCorrupt(std::string_view bytes, const std::string& what) {
  Result<Item> decoded = DecodeItem(bytes);
  ASSERT_FALSE(decoded.ok()) << what << " decoded as " << DebugString(*decoded);
  EXPECT_EQ(decoded.status().code(), Status::Code::kInternal) << what;
}

TEST(ItemCodecTest, RejectsEveryTruncationAndTrailingBytes) {
  std::string bytes = EncodeItem(EveryType());
  for (size_t n = 0; n < bytes.size(); ++n) {
    ExpectCorrupt(bytes.substr(0, n), "prefix of " + std::to_string(n) + " bytes");
  }
  ExpectCorrupt(bytes + "\x00"s, "trailing byte");
}

TEST(ItemCodecTest, RejectsMalformedInputWithInternal) {
  ExpectCorrupt("\x02\x00"s, "unknown format version");
  // version 1, one attribute "a" of type ...
  ExpectCorrupt("\x01\x01\x01" "a" "\x0a"s, "unknown type 10");
  ExpectCorrupt("\x01\x01\x01" "a" "\x01\x03" "abc"s, "N that is not a number");
  ExpectCorrupt("\x01\x01\x01" "a" "\x00\x05" "ab"s, "S longer than the input");
  ExpectCorrupt("\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"s, "varint over 64 bits");
  // Element counts far beyond the input must fail, not allocate.
  const std::string huge = "\xff\xff\xff\xff\xff\xff\xff\xff\x3f"s;  // 2^62 - 1
  const std::string large = "\xff\xff\xff\xff\xff\xff\x0f"s;          // 2^48 - 1
  for (char type : {'\x05', '\x06', '\x07', '\x08', '\x09'}) {  // M, L, SS, NS, BS
    for (const std::string& count : {huge, large}) {
      ExpectCorrupt("\x01\x01\x01" "a"s + type + count, "type " + std::to_string(type));
    }
  }
}

TEST(ItemCodecTest, DecodesDeepDocumentsButRejectsRunawayNesting) {
  AttributeValue deep = S("leaf");
  for (int i = 0; i < kMaxNestingDepth + 1; ++i) {
    deep = i % 2 ? AttributeValue(List{deep}) : AttributeValue(Map{{"m", deep}});
  }
  Item item{{"deep", deep}};
  Result<Item> decoded = DecodeItem(EncodeItem(item));
  ASSERT_OK(decoded);
  EXPECT_EQ(*decoded, item);

  // 200,000 nested one-element lists: corrupt, and must not overflow the stack.
  std::string bytes = "\x01\x01\x01" "a"s;
  for (int i = 0; i < 200'000; ++i) bytes += "\x06\x01"s;
  bytes += "\x04"s;
  ExpectCorrupt(bytes, "runaway nesting");
}

TEST(ItemCodecTest, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  std::string valid = EncodeItem(EveryType());
  for (int i = 0; i < 20000; ++i) {
    std::string bytes;
    if (i % 2 == 0) {
      bytes = valid;  // flip a few bytes of a valid encoding
      for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips) {
        bytes[rng() % bytes.size()] = static_cast<char>(rng());
      }
    } else {
      bytes.push_back('\x01');
      for (size_t n = rng() % 40; n > 0; --n) bytes.push_back(static_cast<char>(rng()));
    }
    Result<Item> decoded = DecodeItem(bytes);
    if (!decoded.ok()) {
      ASSERT_EQ(decoded.status().code(), Status::Code::kInternal);
    }
  }
}

TEST(AttributeValueTest, ItemSizeCountsNamesAndValuesAsDynamoDbDocuments) {
  EXPECT_EQ(ItemSize(Item{{"a", S("xyz")}}), 1u + 3u);
  EXPECT_EQ(ItemSize(Item{{"abcde", S("")}}), 5u);
  EXPECT_EQ(ItemSize(Item{{"\u00e9", S("\u00e9")}}), 4u);  // UTF-8 bytes, not characters
  EXPECT_EQ(ItemSize(Item{{"bin", B("\x00\x01"s)}}), 3u + 2u);
  EXPECT_EQ(ItemSize(Item{{"ok", Bool(false)}}), 2u + 1u);
  EXPECT_EQ(ItemSize(Item{{"n", AttributeValue(Null{})}}), 1u + 1u);
  EXPECT_EQ(ItemSize(Item{{"m", AttributeValue(Map{})}}), 1u + 3u);
  EXPECT_EQ(ItemSize(Item{{"l", AttributeValue(List{})}}), 1u + 3u);
  // M: 3 + per element (name + value + 1).
  EXPECT_EQ(ItemSize(Item{{"m", AttributeValue(Map{{"k", S("v")}, {"kk", Bool(true)}})}}),
            1u + 3u + (1u + 1u + 1u) + (2u + 1u + 1u));
  // L: 3 + per element (value + 1), nested lists included.
  EXPECT_EQ(ItemSize(Item{{"l", AttributeValue(List{S("xy"), N("7"),
                                                    AttributeValue(List{Bool(true)})})}}),
            1u + 3u + (2u + 1u) + (2u + 1u) + (3u + 2u + 1u));
  // Sets: the sum of their elements.
  EXPECT_EQ(ItemSize(Item{{"ss", AttributeValue(StringSet{{"x", "yz"}})}}), 2u + 3u);
  EXPECT_EQ(ItemSize(Item{{"ns", AttributeValue(Numbers({"1", "1.5"}))}}), 2u + 2u + 3u);
  EXPECT_EQ(ItemSize(Item{{"bs", AttributeValue(BinarySet{{"abc"s}})}}), 2u + 3u);
  // Several attributes add up.
  EXPECT_EQ(ItemSize(Item{{"a", S("xyz")}, {"ok", Bool(true)}}), 4u + 3u);
}

TEST(AttributeValueTest, NumberSizesFollowNumberSizeInBytes) {
  for (const char* text : {"0", "7", "123", "1.5", "-42", "1e100", "0.000001",
                           "12345678901234567890123456789012345678"}) {
    AttributeValue n = N(text);
    EXPECT_EQ(ItemSize(Item{{"n", n}}), 1u + n.as<Number>().SizeInBytes()) << text;
  }
  EXPECT_EQ(N("0").as<Number>().SizeInBytes(), 1u);
  EXPECT_EQ(N("7").as<Number>().SizeInBytes(), 2u);
  EXPECT_EQ(N("123").as<Number>().SizeInBytes(), 3u);
  EXPECT_EQ(N("1.5").as<Number>().SizeInBytes(), 3u);
  EXPECT_EQ(N("-42").as<Number>().SizeInBytes(), 3u);
}

}  // namespace
}  // namespace ddb::engine
