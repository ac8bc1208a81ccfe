#include "engine/vector_store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/key_codec.h"
#include "engine/vector_index.h"

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
