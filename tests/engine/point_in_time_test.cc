// Point-in-time recovery in the engine (history.h): a restore to an instant
// holds exactly the items acknowledged by then. A long randomized history of
// puts, deletes and two-item transactions, several per millisecond, is
// checked against a model at many instants — in memory and on disk, across
// a reopen in the middle of the history — with the restored table's index
// and statistics rebuilt to match.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/items/item_codec.h"
#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using test::MakeTable;
using test::N;
using test::S;

constexpr std::string_view kNs = "";

class PointInTimeTest : public test::DatabaseModesTest {
 protected:
  // Table "t" (pk S) with GSI "byG" on g, recovery enabled from now.
  void CreateTable() {
    TableSchema schema = MakeTable("t", {"pk", ScalarType::kS});
    IndexSchema gsi;
    gsi.name = "byG";
    gsi.key.hash.push_back({"g", ScalarType::kS});
    schema.global_indexes.push_back(gsi);
    ASSERT_OK(db_->CreateTable(kNs, schema));
    SetRecovery(true);
  }

  void SetRecovery(bool enabled) {
    int64_t now = clock_.NowMillis();
    ASSERT_OK(db_->UpdateTable(kNs, "t", [&](TableSchema& s) {
      s.point_in_time_recovery.enabled = enabled;
      s.point_in_time_recovery.enabled_since_millis = now;
      return Status::Ok();
    }));
  }

  // The restore's target: the source's schema under `name`, recovery off.
  TableSchema Target(const std::string& name) {
    TableSchema target = **db_->GetSchema(kNs, "t");
    target.name = name;
    target.point_in_time_recovery = {};
    return target;
  }

  // Every item of `table` (or of its index), by pk.
  std::map<std::string, Item> Items(const std::string& table, const std::string& index = "") {
    std::map<std::string, Item> out;
    ScanRequest request;
    request.index_name = index;
    for (;;) {
      auto page = db_->Scan(kNs, table, request);
      EXPECT_OK(page);
      if (!page.ok()) return out;
      for (Item& item : page->items) out[item.at("pk").as<std::string>()] = std::move(item);
      if (!page->last_evaluated_key) return out;
      request.exclusive_start_key = *page->last_evaluated_key;
    }
  }

  // Restores "t" at `millis` as `name` and checks it against `expected`.
  void ExpectRestoredAt(int64_t millis, const std::map<std::string, Item>& expected,
                        const std::string& name) {
    SCOPED_TRACE(name);
    auto restored = engine_->point_in_time().Restore(kNs, "t", millis, Target(name));
    ASSERT_OK(restored);
    EXPECT_EQ(restored->stats.item_count, static_cast<int64_t>(expected.size()));
    std::map<std::string, Item> got = Items(name);
    ASSERT_EQ(got.size(), expected.size());
    size_t with_g = 0;
    for (const auto& [pk, item] : expected) {
      ASSERT_TRUE(got.count(pk)) << pk;
      EXPECT_EQ(EncodeItem(got.at(pk)), EncodeItem(item)) << pk;
      with_g += item.count("g");
    }
    EXPECT_EQ(Items(name, "byG").size(), with_g);
    ASSERT_OK(db_->DeleteTable(kNs, name));
  }
};

TEST_P(PointInTimeTest, ARestoreHoldsExactlyTheWritesMadeByItsInstant) {
  CreateTable();
  std::mt19937 rng(20261127);
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  std::map<std::string, Item> model;
  // The model after each write, with the write's time.
  std::vector<std::pair<int64_t, std::map<std::string, Item>>> history = {
      {clock_.NowMillis(), model}};
  auto make = [&](const std::string& pk) {
    Item item{{"pk", S(pk)}, {"v", N(std::to_string(pick(1000)))}};
    if (pick(3)) item["g"] = S("g" + std::to_string(pick(4)));
    return item;
  };
  for (int step = 0; step < 600; ++step) {
    clock_.Advance(pick(3));  // several writes share a millisecond
    std::string pk = "k" + std::to_string(pick(25));
    switch (pick(4)) {
      case 0:
      case 1: {
        Item item = make(pk);
        ASSERT_OK(db_->PutItem(kNs, "t", item));
        model[pk] = item;
        break;
      }
      case 2:
        ASSERT_OK(db_->DeleteItem(kNs, "t", {{"pk", S(pk)}}));
        model.erase(pk);
        break;
      case 3: {  // two items at once
        std::string other = "k" + std::to_string((pick(24) + 1 + std::stoi(pk.substr(1))) % 25);
        Item a = make(pk), b = make(other);
        std::vector<TransactWriteItem> writes = {
            {"t",
             {{"pk", S(pk)}},
             [a](const Item*) -> Result<Mutation> {
               return Mutation{Mutation::Kind::kPut, a};
             }},
            {"t", {{"pk", S(other)}}, [](const Item*) -> Result<Mutation> {
               return Mutation{Mutation::Kind::kDelete};
             }}};
        auto outcome = db_->TransactWrite(kNs, writes);
        ASSERT_OK(outcome);
        ASSERT_TRUE(outcome->committed);
        model[pk] = a;
        model.erase(other);
        break;
      }
    }
    history.emplace_back(clock_.NowMillis(), model);
    if (step == 300 && GetParam()) Open();  // the history goes on after a restart
  }

  // The state at an instant is the one after the last write made by then.
  auto at = [&](int64_t millis) {
    const std::map<std::string, Item>* state = &history.front().second;
    for (const auto& [time, items] : history) {
      if (time <= millis) state = &items;
    }
    return *state;
  };
  const int64_t first = history.front().first, last = history.back().first;
  std::vector<int64_t> instants = {first, first + 1, last, (first + last) / 2};
  for (int i = 0; i < 24; ++i) instants.push_back(first + pick(static_cast<int>(last - first + 1)));
  for (size_t i = 0; i < instants.size(); ++i) {
    ExpectRestoredAt(instants[i], at(instants[i]), "r" + std::to_string(i));
  }
  // The source itself is as the last write left it.
  EXPECT_EQ(Items("t").size(), model.size());
}

TEST_P(PointInTimeTest, TurningRecoveryOffForgetsTheHistory) {
  CreateTable();
  ASSERT_OK(db_->PutItem(kNs, "t", {{"pk", S("early")}}));
  int64_t before = clock_.NowMillis();
  clock_.Advance(1000);
  ASSERT_OK(db_->PutItem(kNs, "t", {{"pk", S("late")}}));
  ExpectRestoredAt(before, {{"early", {{"pk", S("early")}}}}, "kept");

  SetRecovery(false);
  SetRecovery(true);
  // Nothing older than the new start is kept: undoing starts from now.
  ExpectRestoredAt(before, {{"early", {{"pk", S("early")}}}, {"late", {{"pk", S("late")}}}},
                   "forgotten");
}

TEST_P(PointInTimeTest, HistoryPastTheRecoveryPeriodIsTrimmed) {
  CreateTable();
  ASSERT_OK(db_->PutItem(kNs, "t", {{"pk", S("a")}}));
  int64_t written = clock_.NowMillis();
  clock_.Advance(36LL * 86'400'000);  // past the 35-day default
  ASSERT_OK(db_->PutItem(kNs, "t", {{"pk", S("b")}}));
  ASSERT_OK(engine_->housekeeping().TrimHistory());
  // The first write's record is gone, the second's kept: a restore to just
  // before the second undoes it alone.
  ExpectRestoredAt(clock_.NowMillis() - 1, {{"a", {{"pk", S("a")}}}}, "trimmed");
  ExpectRestoredAt(written - 1, {{"a", {{"pk", S("a")}}}}, "too-old");
}

INSTANTIATE_TEST_SUITE_P(Modes, PointInTimeTest, ::testing::Values(false, true), test::ModeName);

}  // namespace
}  // namespace ddb::engine
