// Query and Scan in the engine: key order, sort-key ranges, pagination and
// segments; and secondary index maintenance through every kind of write.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/database.h"
#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using test::B;
using test::MakeTable;
using test::N;
using test::S;
using Op = SortKeyCondition::Op;

constexpr std::string_view kNs = "";

class QueryIndexTest : public test::DatabaseModesTest {
 protected:
  // Table "t": pk (S) + sk of `sort_type`; GSI "g" on gpk (S) + gsk (N),
  // KEYS_ONLY; LSI "l" on pk + lsk (S), INCLUDE x.
  void CreateTable(ScalarType sort_type = ScalarType::kN) {
    TableSchema schema = MakeTable("t", {"pk", ScalarType::kS}, KeyElement{"sk", sort_type});
    IndexSchema gsi;
    gsi.name = "g";
    gsi.key.hash.push_back({"gpk", ScalarType::kS});
    gsi.key.range.push_back({"gsk", ScalarType::kN});
    gsi.projection.type = ProjectionType::kKeysOnly;
    IndexSchema lsi;
    lsi.name = "l";
    lsi.is_local = true;
    lsi.key.hash.push_back({"pk", ScalarType::kS});
    lsi.key.range.push_back({"lsk", ScalarType::kS});
    lsi.projection = {ProjectionType::kInclude, {"x"}};
    schema.global_indexes.push_back(gsi);
    schema.local_indexes.push_back(lsi);
    auto created = db_->CreateTable(kNs, schema);
    ASSERT_OK(created);
  }

  void Put(Item item) {
    auto result = db_->PutItem(kNs, "t", std::move(item));
    ASSERT_OK(result);
  }

  Page Query(QueryRequest request) {
    auto page = db_->Query(kNs, "t", request);
    EXPECT_OK(page);
    return page.ok() ? std::move(page).value() : Page{};
  }

  // The values of `attribute` in a page, in order, as DebugStrings.
  static std::vector<std::string> Column(const Page& page, const std::string& attribute) {
    std::vector<std::string> column;
    for (const Item& item : page.items) {
      auto it = item.find(attribute);
      column.push_back(it == item.end() ? "-" : DebugString(it->second));
    }
    return column;
  }

  QueryRequest Partition(std::string pk, std::string index = "") {
    QueryRequest request;
    request.index_name = std::move(index);
    request.partition.push_back(S(std::move(pk)));
    return request;
  }

  int64_t IndexCount(uint32_t index_id) {
    auto description = db_->DescribeTable(kNs, "t");
    EXPECT_OK(description);
    return description->index_stats[index_id].item_count;
  }

};

INSTANTIATE_TEST_SUITE_P(Modes, QueryIndexTest, ::testing::Values(false, true), test::ModeName);

TEST_P(QueryIndexTest, NumbersSortNumerically) {
  CreateTable(ScalarType::kN);
  for (const char* n : {"1e2", "-10", "0", "-2.5", "3", "0.001"}) {
    Put({{"pk", S("p")}, {"sk", N(n)}});
  }
  Put({{"pk", S("other")}, {"sk", N("1")}});
  EXPECT_EQ(Column(Query(Partition("p")), "sk"),
            (std::vector<std::string>{"N -10", "N -2.5", "N 0", "N 0.001", "N 3", "N 100"}));
  QueryRequest backwards = Partition("p");
  backwards.forward = false;
  EXPECT_EQ(Column(Query(backwards), "sk").front(), "N 100");
}

TEST_P(QueryIndexTest, StringsSortByUtf8Bytes) {
  CreateTable(ScalarType::kS);
  for (const char* s : {"a", "Z", "\xc3\xa9", "ab", "a\x01", ""}) {
    if (*s) Put({{"pk", S("p")}, {"sk", S(s)}});
  }
  EXPECT_EQ(Column(Query(Partition("p")), "sk"),
            (std::vector<std::string>{"S Z", "S a", "S a\x01", "S ab", "S \xc3\xa9"}));
}

TEST_P(QueryIndexTest, SortKeyConditions) {
  CreateTable(ScalarType::kS);
  for (const char* s : {"a", "ab", "abc", "b", "ba", "c"}) Put({{"pk", S("p")}, {"sk", S(s)}});
  auto with = [&](Op op, std::string low, std::string high = "") {
    QueryRequest request = Partition("p");
    request.sort.op = op;
    request.sort.low = S(low);
    request.sort.high = S(high);
    return Column(Query(request), "sk");
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(with(Op::kEq, "ab"), (V{"S ab"}));
  EXPECT_EQ(with(Op::kLt, "ab"), (V{"S a"}));
  EXPECT_EQ(with(Op::kLe, "ab"), (V{"S a", "S ab"}));
  EXPECT_EQ(with(Op::kGt, "b"), (V{"S ba", "S c"}));
  EXPECT_EQ(with(Op::kGe, "b"), (V{"S b", "S ba", "S c"}));
  EXPECT_EQ(with(Op::kBetween, "ab", "b"), (V{"S ab", "S abc", "S b"}));
  EXPECT_EQ(with(Op::kBeginsWith, "ab"), (V{"S ab", "S abc"}));
  EXPECT_EQ(with(Op::kBeginsWith, "x"), (V{}));
}

TEST_P(QueryIndexTest, PagesResumeAfterTheLastEvaluatedKey) {
  CreateTable(ScalarType::kN);
  for (int i = 0; i < 10; ++i) Put({{"pk", S("p")}, {"sk", N(std::to_string(i))}});
  for (bool forward : {true, false}) {
    std::vector<std::string> seen;
    QueryRequest request = Partition("p");
    request.forward = forward;
    request.limit = 3;
    int pages = 0;
    while (true) {
      Page page = Query(request);
      ++pages;
      for (const auto& v : Column(page, "sk")) seen.push_back(v);
      if (!page.last_evaluated_key) break;
      EXPECT_EQ(page.last_evaluated_key->size(), 2u);  // the table key only
      request.exclusive_start_key = page.last_evaluated_key;
    }
    EXPECT_EQ(seen.size(), 10u);
    EXPECT_EQ(pages, 4);
    EXPECT_EQ(seen.front(), forward ? "N 0" : "N 9");
    EXPECT_EQ(seen.back(), forward ? "N 9" : "N 0");
  }
}

TEST_P(QueryIndexTest, PagesStopAfterTheItemThatCrossesOneMegabyte) {
  CreateTable(ScalarType::kN);
  std::string big(300 * 1024, 'x');
  for (int i = 0; i < 5; ++i) Put({{"pk", S("p")}, {"sk", N(std::to_string(i))}, {"v", S(big)}});
  Page first = Query(Partition("p"));
  EXPECT_EQ(first.items.size(), 4u);  // 4 x 300 KB crosses 1 MB
  ASSERT_TRUE(first.last_evaluated_key.has_value());
  QueryRequest rest = Partition("p");
  rest.exclusive_start_key = first.last_evaluated_key;
  EXPECT_EQ(Query(rest).items.size(), 1u);
}

TEST_P(QueryIndexTest, ScanSegmentsAreDisjointAndComplete) {
  CreateTable(ScalarType::kN);
  for (int i = 0; i < 200; ++i) Put({{"pk", S("p" + std::to_string(i))}, {"sk", N("1")}});
  std::set<std::string> all;
  size_t total = 0;
  for (uint32_t segment = 0; segment < 4; ++segment) {
    ScanRequest request;
    request.segment = segment;
    request.total_segments = 4;
    auto page = db_->Scan(kNs, "t", request);
    ASSERT_OK(page);
    EXPECT_GT(page->items.size(), 20u);  // the hash spreads partitions evenly
    total += page->items.size();
    for (const auto& v : Column(*page, "pk")) all.insert(v);
  }
  EXPECT_EQ(total, 200u);
  EXPECT_EQ(all.size(), 200u);
}

TEST_P(QueryIndexTest, GlobalIndexFollowsEveryWrite) {
  CreateTable();
  auto in_index = [&](std::string gpk) { return Column(Query(Partition(gpk, "g")), "sk"); };
  using V = std::vector<std::string>;
  Put({{"pk", S("a")}, {"sk", N("1")}, {"x", S("no index key")}});
  EXPECT_EQ(in_index("g1"), (V{}));
  EXPECT_EQ(IndexCount(2), 0);  // sparse: absent without gpk/gsk
  Put({{"pk", S("a")}, {"sk", N("1")}, {"gpk", S("g1")}, {"gsk", N("5")}, {"x", S("v")}});
  Put({{"pk", S("b")}, {"sk", N("1")}, {"gpk", S("g1")}, {"gsk", N("5")}});
  EXPECT_EQ(in_index("g1"), (V{"N 1", "N 1"}));  // equal index keys: both, by table key
  EXPECT_EQ(IndexCount(2), 2);
  // KEYS_ONLY: table and index keys only.
  Page page = Query(Partition("g1", "g"));
  EXPECT_EQ(page.items[0], (Item{{"pk", S("a")}, {"sk", N("1")}, {"gpk", S("g1")}, {"gsk", N("5")}}));
  EXPECT_EQ(page.last_evaluated_key, std::nullopt);
  // An update moves the item to another index key.
  auto moved = db_->WriteItem(kNs, "t", {{"pk", S("a")}, {"sk", N("1")}},
                              [](const Item* old) -> Result<Mutation> {
                                Item next = *old;
                                next["gpk"] = S("g2");
                                return Mutation{Mutation::Kind::kPut, next};
                              });
  ASSERT_OK(moved);
  EXPECT_EQ(Column(Query(Partition("g1", "g")), "pk"), (V{"S b"}));
  EXPECT_EQ(Column(Query(Partition("g2", "g")), "pk"), (V{"S a"}));
  // Removing an index key attribute takes the item out.
  Put({{"pk", S("b")}, {"sk", N("1")}, {"gpk", S("g1")}});
  EXPECT_EQ(in_index("g1"), (V{}));
  ASSERT_OK(db_->DeleteItem(kNs, "t", {{"pk", S("a")}, {"sk", N("1")}}));
  EXPECT_EQ(in_index("g2"), (V{}));
  EXPECT_EQ(IndexCount(2), 0);
  if (GetParam()) {  // index entries and counts are durable
    Put({{"pk", S("c")}, {"sk", N("2")}, {"gpk", S("g3")}, {"gsk", N("1")}});
    Open();
    EXPECT_EQ(in_index("g3"), (V{"N 2"}));
    EXPECT_EQ(IndexCount(2), 1);
  }
}

TEST_P(QueryIndexTest, IndexKeyTypesAreChecked) {
  CreateTable();
  auto wrong = db_->PutItem(kNs, "t", {{"pk", S("a")}, {"sk", N("1")}, {"gsk", S("x")}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message(),
            "One or more parameter values were invalid: Type mismatch for Index Key gsk Expected: "
            "N Actual: S IndexName: g");
  auto empty = db_->PutItem(kNs, "t", {{"pk", S("a")}, {"sk", N("1")}, {"lsk", S("")}});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().message(),
            "One or more parameter values are not valid. A value specified for a secondary index "
            "key is not supported. The AttributeValue for a key attribute cannot contain an empty "
            "string value. IndexName: l, IndexKey: lsk");
  auto item = db_->GetItem(kNs, "t", {{"pk", S("a")}, {"sk", N("1")}});
  EXPECT_FALSE(item->has_value());  // nothing written
}

TEST_P(QueryIndexTest, LocalIndexProjectsIncludedAttributesOrFetchesTheItem) {
  CreateTable();
  Put({{"pk", S("p")}, {"sk", N("1")}, {"lsk", S("b")}, {"x", S("kept")}, {"y", S("dropped")}});
  Put({{"pk", S("p")}, {"sk", N("2")}, {"lsk", S("a")}, {"x", S("kept")}});
  Page page = Query(Partition("p", "l"));
  EXPECT_EQ(Column(page, "sk"), (std::vector<std::string>{"N 2", "N 1"}));  // by lsk
  EXPECT_EQ(Column(page, "y"), (std::vector<std::string>{"-", "-"}));
  QueryRequest whole = Partition("p", "l");
  whole.fetch_table_items = true;
  EXPECT_EQ(Column(Query(whole), "y"), (std::vector<std::string>{"-", "S dropped"}));
}

TEST_P(QueryIndexTest, MultiAttributeGlobalIndexKeys) {
  TableSchema schema = MakeTable("t", {"pk", ScalarType::kS});
  IndexSchema gsi;
  gsi.name = "m";
  gsi.key.hash = {{"tenant", ScalarType::kS}, {"region", ScalarType::kS}};
  gsi.key.range = {{"year", ScalarType::kN}, {"name", ScalarType::kS}};
  schema.global_indexes.push_back(gsi);
  ASSERT_OK(db_->CreateTable(kNs, schema));
  auto put = [&](std::string pk, std::string region, std::string year, std::string name) {
    Item item{{"pk", S(pk)}, {"tenant", S("t1")}, {"region", S(region)}, {"year", N(year)}};
    if (!name.empty()) item["name"] = S(name);
    Put(item);
  };
  put("1", "eu", "2024", "b");
  put("2", "eu", "2024", "a");
  put("3", "eu", "2023", "z");
  put("4", "us", "2024", "a");
  put("5", "eu", "2025", "");  // lacks `name`: not indexed
  QueryRequest request;
  request.index_name = "m";
  request.partition = {S("t1"), S("eu")};
  EXPECT_EQ(Column(Query(request), "pk"), (std::vector<std::string>{"S 3", "S 2", "S 1"}));
  request.sort.equal = {N("2024")};
  request.sort.op = Op::kGe;
  request.sort.low = S("b");
  EXPECT_EQ(Column(Query(request), "pk"), (std::vector<std::string>{"S 1"}));
}

TEST_P(QueryIndexTest, UpdateTableBackfillsAndDropsIndexes) {
  TableSchema schema = MakeTable("t", {"pk", ScalarType::kS});
  ASSERT_OK(db_->CreateTable(kNs, schema));
  for (int i = 0; i < 2500; ++i) {  // more than one backfill batch
    Item item{{"pk", S("p" + std::to_string(i))}};
    if (i % 2 == 0) item["c"] = S("even");
    Put(item);
  }
  auto created = db_->UpdateTable(kNs, "t", [](TableSchema& s) {
    IndexSchema index;
    index.name = "byC";
    index.key.hash.push_back({"c", ScalarType::kS});
    s.global_indexes.push_back(index);
    return Status::Ok();
  });
  ASSERT_OK(created);
  uint32_t id = created->schema.global_indexes[0].index_id;
  EXPECT_GT(id, 0u);
  EXPECT_EQ(created->index_stats[id].item_count, 1250);
  QueryRequest request = Partition("even", "byC");
  EXPECT_EQ(Query(request).items.size(), 1250u);
  auto dropped = db_->UpdateTable(kNs, "t", [](TableSchema& s) {
    s.global_indexes.clear();
    return Status::Ok();
  });
  ASSERT_OK(dropped);
  EXPECT_TRUE(dropped->index_stats.empty());
  EXPECT_FALSE(db_->Query(kNs, "t", request).ok());  // no such index any more
}

}  // namespace
}  // namespace ddb::engine
