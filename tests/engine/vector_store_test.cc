#include "engine/vectors/vector_store.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "engine/key_codec.h"
#include "engine/vectors/vector_index.h"

namespace ddb::engine {
namespace {

// An item key as ItemKey builds it, for a table keyed by one string.
std::string Key(const std::string& pk) {
  return PartitionPrefix(1, AttributeValue(pk));
}

VectorRow Row(std::vector<float> vector, std::vector<std::string> filters = {}) {
  return VectorRow{std::move(vector), std::move(filters)};
}

std::vector<std::string> Order(const std::vector<VectorStore::Hit>& hits) {
  std::vector<std::string> keys;
  for (const auto& hit : hits) keys.push_back(hit.item_key);
  return keys;
}

TEST(VectorStoreTest, EuclideanNearestFirstTiesByKey) {
  VectorStore store(2, DistanceFunction::kEuclidean, 0);
  // Inserted out of key order, with equal distances to the query.
  store.Upsert(Key("c"), Row({1, 0}));
  store.Upsert(Key("a"), Row({-1, 0}));
  store.Upsert(Key("b"), Row({0, 1}));
  store.Upsert(Key("far"), Row({5, 5}));
  auto hits = store.Search({0, 0}, 3, {});
  EXPECT_EQ(Order(hits), (std::vector<std::string>{Key("a"), Key("b"), Key("c")}));
  EXPECT_DOUBLE_EQ(hits[0].score, 1.0);
}

TEST(VectorStoreTest, RemoveMovesTheLastRowIntoTheHole) {
  VectorStore store(1, DistanceFunction::kDotProduct, 0);
  for (int i = 0; i < 5; ++i) store.Upsert(Key(std::to_string(i)), Row({float(i)}));
  store.Remove(Key("1"));
  store.Remove(Key("missing"));
  store.Upsert(Key("3"), Row({-10}));  // replaced in place
  EXPECT_EQ(store.size(), 4u);
  auto hits = store.Search({1}, 10, {});
  EXPECT_EQ(Order(hits), (std::vector<std::string>{Key("4"), Key("2"), Key("0"), Key("3")}));
  EXPECT_DOUBLE_EQ(hits.back().score, -10);
}

TEST(VectorStoreTest, FiltersCompareEncodedValues) {
  VectorStore store(1, DistanceFunction::kCosine, 2);
  store.Upsert(Key("a"), Row({1}, {"x", "1"}));
  store.Upsert(Key("b"), Row({1}, {"x", ""}));
  store.Upsert(Key("c"), Row({1}, {"y", "1"}));
  EXPECT_EQ(Order(store.Search({1}, 10, {std::string("x"), std::nullopt})),
            (std::vector<std::string>{Key("a"), Key("b")}));
  EXPECT_EQ(Order(store.Search({1}, 10, {std::nullopt, std::string("1")})),
            (std::vector<std::string>{Key("a"), Key("c")}));
}

TEST(VectorStoreTest, LargeStoresSearchInTwoHalvesWithTheSameAnswer) {
  // Enough components to take the two-thread path; the merge must keep the
  // global order.
  const uint32_t dims = 512;
  VectorStore store(dims, DistanceFunction::kEuclidean, 0);
  for (int i = 0; i < 20000; ++i) {
    std::vector<float> v(dims, 0.0f);
    v[0] = float(i % 1000);
    store.Upsert(Key("k" + std::to_string(100000 + i)), Row(v));
  }
  std::vector<float> query(dims, 0.0f);
  query[0] = 500;
  auto hits = store.Search(query, 4, {});
  ASSERT_EQ(hits.size(), 4u);
  // i % 1000 == 500 for i = 500, 1500, ...; the smallest keys win the tie.
  EXPECT_EQ(Order(hits), (std::vector<std::string>{Key("k100500"), Key("k101500"),
                                                   Key("k102500"), Key("k103500")}));
  for (const auto& hit : hits) EXPECT_EQ(hit.score, 0.0);
}

// The first pass prunes with bounds from 8-bit copies; whatever it prunes,
// the top k must be exactly the first k of the full exact ranking (which the
// store gives when k covers every row, so nothing is pruned).
TEST(VectorStoreTest, PruningNeverChangesTheExactAnswer) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (DistanceFunction distance :
       {DistanceFunction::kCosine, DistanceFunction::kEuclidean, DistanceFunction::kDotProduct}) {
    const uint32_t dims = 24;
    VectorStore store(dims, distance, 1);
    std::vector<std::vector<float>> vectors;
    for (int i = 0; i < 1500; ++i) {
      std::vector<float> v(dims);
      int kind = i % 5;
      for (auto& x : v) {
        x = uniform(rng);
        if (kind == 1) x = std::round(x * 3);  // small integers: exact 8-bit copies
        if (kind == 2) x *= 1e6f;              // large magnitudes
        if (kind == 3) x *= 1e-6f;             // tiny ones
      }
      if (i % 97 == 0) v.assign(dims, 0.0f);               // zero vectors
      if (i % 13 == 0 && !vectors.empty()) v = vectors[i / 2];  // exact ties
      vectors.push_back(v);
      store.Upsert(Key("k" + std::to_string(10000 + i)), Row(v, {i % 3 ? "a" : "b"}));
    }
    for (int q = 0; q < 30; ++q) {
      std::vector<float> query = q % 4 == 0 ? vectors[q * 7] : std::vector<float>(dims);
      if (q % 4 != 0) {
        for (auto& x : query) x = uniform(rng) * (q % 3 == 0 ? 1e5f : 1.0f);
      }
      std::vector<std::optional<std::string>> filter = {q % 2 ? std::optional<std::string>("a")
                                                              : std::nullopt};
      auto full = store.Search(query, store.size(), filter);
      for (size_t k : {1, 10, 100}) {
        auto top = store.Search(query, k, filter);
        ASSERT_EQ(top.size(), std::min(k, full.size()));
        for (size_t i = 0; i < top.size(); ++i) {
          ASSERT_EQ(top[i].item_key, full[i].item_key) << "query " << q << " k " << k << " at " << i;
          ASSERT_EQ(top[i].score, full[i].score);
        }
      }
    }
  }
}

TEST(VectorIndexTest, FloatTextIsJavasFloatToString) {
  EXPECT_EQ(FloatText(1.0f), "1.0");
  EXPECT_EQ(FloatText(0.1f), "0.1");
  EXPECT_EQ(FloatText(-2.5f), "-2.5");
  EXPECT_EQ(FloatText(123456.0f), "123456.0");
  EXPECT_EQ(FloatText(1e7f), "1.0E7");
  EXPECT_EQ(FloatText(1e-5f), "1.0E-5");
  EXPECT_EQ(FloatText(0.001f), "0.001");
  EXPECT_EQ(FloatText(3.4028235e38f), "3.4028235E38");
  EXPECT_EQ(FloatText(0.0f), "0.0");
}

TEST(VectorIndexTest, RowsRoundTripThroughTheirEncoding) {
  VectorIndexSchema index;
  index.dimensions = 3;
  index.search_schema = {{"t", SearchSchemaType::kHash, ScalarType::kS},
                         {"f", SearchSchemaType::kInlineFilter, ScalarType::kN}};
  VectorRow row = Row({1.5f, -0.0f, 3e-40f}, {"abc", ""});
  auto decoded = DecodeVectorRow(index, EncodeVectorRow(row));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->vector, row.vector);
  EXPECT_EQ(decoded->filter_values, row.filter_values);
  EXPECT_FALSE(DecodeVectorRow(index, EncodeVectorRow(row).substr(0, 11)).has_value());
  EXPECT_FALSE(DecodeVectorRow(index, EncodeVectorRow(row) + "x").has_value());
}

}  // namespace
}  // namespace ddb::engine

namespace ddb::engine {
namespace {

// ToFloat reads short decimals by a quicker path than std::from_chars; both
// must give the correctly rounded float, so the stored vector never depends
// on which path read it.
TEST(ToFloatTest, ShortDecimalsRoundAsFromCharsDoes) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uniform(-2, 2);
  std::vector<std::string> texts = {"0", "1", "-1", "16777215", "16777216", "16777217",
                                    "0.1", "-0.3", "0.0000001", "0.0000012345", "3.4028235",
                                    "0.00000000001", "123456.7", "9999999", "0.9999999"};
  char buffer[32];
  for (int i = 0; i < 20000; ++i) {
    std::snprintf(buffer, sizeof buffer, "%.*f", i % 9, uniform(rng));
    texts.push_back(buffer);
  }
  for (const std::string& text : texts) {
    auto number = Number::Parse(text);
    ASSERT_TRUE(number.ok()) << text;
    const std::string& canonical = number->ToString();
    float expected = 0;
    std::from_chars(canonical.data(), canonical.data() + canonical.size(), expected);
    auto value = ToFloat(*number);
    ASSERT_TRUE(value.has_value()) << text;
    EXPECT_EQ(*value, expected) << text;
  }
}

}  // namespace
}  // namespace ddb::engine
