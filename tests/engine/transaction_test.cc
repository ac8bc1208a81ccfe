// Database::TransactWrite and Database::GetItems: all or nothing across
// tables, indexes and statistics; serializable under concurrency; conflicts
// when transactions hold their items.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using test::MakeTable;
using test::N;
using test::S;

constexpr std::string_view kNs = "";

class TransactionTest : public test::DatabaseFixture {
 protected:
  void Open(int64_t hold_millis = 0) {
    DatabaseOptions options;
    options.in_memory = true;
    options.transaction_hold_millis = hold_millis;
    DatabaseFixture::Open(options);
    for (const char* name : {"a", "b"}) {
      TableSchema schema = MakeTable(name, {"pk", ScalarType::kS});
      IndexSchema gsi;
      gsi.name = "byG";
      gsi.key.hash.push_back({"g", ScalarType::kS});
      schema.global_indexes.push_back(gsi);
      ASSERT_OK(db_->CreateTable(kNs, schema));
    }
  }

  static Planner Put(Item item) {
    return [item](const Item*) -> Result<Mutation> {
      return Mutation{Mutation::Kind::kPut, item};
    };
  }
  static Planner FailIfPresent() {
    return [](const Item* current) -> Result<Mutation> {
      if (current) return Status::ConditionFailed("The conditional request failed");
      return Mutation{};
    };
  }
  // Adds `delta` to the number `n` of an existing item, refusing to go below 0.
  static Planner AddTo(int64_t delta) {
    return [delta](const Item* current) -> Result<Mutation> {
      Item next = *current;
      auto sum = Number::Add(next["n"].as<Number>(), Number::FromInt64(delta));
      if (sum->is_negative()) return Status::ConditionFailed("The conditional request failed");
      next["n"] = AttributeValue(*sum);
      return Mutation{Mutation::Kind::kPut, next};
    };
  }

  std::optional<Item> Get(std::string table, std::string pk) {
    auto item = db_->GetItem(kNs, table, {{"pk", S(pk)}});
    EXPECT_OK(item);
    return item.ok() ? *item : std::nullopt;
  }

  // Returns once a transaction holds `ref` (TransactGet meets its claim),
  // rather than guessing how long the transaction's thread takes to start.
  void WaitUntilClaimed(const ItemRef& ref) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      std::vector<bool> conflicts;
      ASSERT_OK(db_->TransactGet(kNs, {ref}, &conflicts));
      if (conflicts[0]) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    FAIL() << "no transaction claimed the item";
  }

  int64_t IndexCount(std::string table) {
    auto d = db_->DescribeTable(kNs, table);
    uint32_t id = d->schema.global_indexes[0].index_id;
    return d->index_stats.contains(id) ? d->index_stats.at(id).item_count : 0;
  }
};

TEST_F(TransactionTest, CommitsEveryTableAndIndexAtOnce) {
  Open();
  auto outcome = db_->TransactWrite(
      kNs, {{"a", {{"pk", S("1")}}, Put({{"pk", S("1")}, {"g", S("x")}})},
            {"b", {{"pk", S("2")}}, Put({{"pk", S("2")}, {"g", S("y")}})}});
  ASSERT_OK(outcome);
  EXPECT_TRUE(outcome->committed);
  EXPECT_TRUE(Get("a", "1").has_value());
  EXPECT_TRUE(Get("b", "2").has_value());
  EXPECT_EQ(IndexCount("a"), 1);
  EXPECT_EQ(IndexCount("b"), 1);
  EXPECT_EQ(db_->DescribeTable(kNs, "a")->stats.item_count, 1);
}

TEST_F(TransactionTest, OneFailedConditionCancelsEverything) {
  Open();
  ASSERT_OK(db_->PutItem(kNs, "b", {{"pk", S("taken")}}));
  auto outcome = db_->TransactWrite(
      kNs, {{"a", {{"pk", S("1")}}, Put({{"pk", S("1")}, {"g", S("x")}})},
            {"b", {{"pk", S("taken")}}, FailIfPresent()}});
  ASSERT_OK(outcome);
  EXPECT_FALSE(outcome->committed);
  EXPECT_TRUE(outcome->reasons[0].ok());
  EXPECT_EQ(outcome->reasons[1].code(), Status::Code::kConditionFailed);
  ASSERT_TRUE(outcome->before[1].has_value());
  EXPECT_FALSE(Get("a", "1").has_value());
  EXPECT_EQ(IndexCount("a"), 0);
  EXPECT_EQ(db_->DescribeTable(kNs, "a")->stats.item_count, 0);
}

TEST_F(TransactionTest, ALimitBrokenByOneActionCancelsEverything) {
  Open();
  auto outcome = db_->TransactWrite(
      kNs, {{"a", {{"pk", S("1")}}, Put({{"pk", S("1")}})},
            {"b", {{"pk", S("2")}}, Put({{"pk", S("2")}, {"g", N("1")}})}});  // g must be S
  ASSERT_OK(outcome);
  EXPECT_FALSE(outcome->committed);
  EXPECT_EQ(outcome->reasons[1].code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(Get("a", "1").has_value());
}

TEST_F(TransactionTest, ConcurrentTransfersKeepTheSum) {
  Open();
  constexpr int kAccounts = 8;
  for (int i = 0; i < kAccounts; ++i) {
    ASSERT_TRUE(db_->PutItem(kNs, i % 2 ? "a" : "b",
                             {{"pk", S(std::to_string(i))}, {"n", N("100")}})
                    .ok());
  }
  auto ref = [](int i) { return ItemRef{i % 2 ? "a" : "b", {{"pk", S(std::to_string(i))}}}; };
  std::atomic<bool> stop = false;
  std::atomic<int> committed = 0, reads = 0, bad_reads = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int k = 0; k < 300; ++k) {
        int from = rng() % kAccounts, to = (from + 1 + rng() % (kAccounts - 1)) % kAccounts;
        int64_t amount = 1 + rng() % 30;
        auto outcome = db_->TransactWrite(
            kNs, {{ref(from).table, ref(from).key, AddTo(-amount)},
                  {ref(to).table, ref(to).key, AddTo(amount)}});
        if (outcome.ok() && outcome->committed) ++committed;
      }
    });
  }
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      std::vector<ItemRef> all;
      for (int i = 0; i < kAccounts; ++i) all.push_back(ref(i));
      while (!stop) {
        auto items = db_->GetItems(kNs, all);
        int64_t sum = 0;
        for (const auto& item : *items) sum += std::stoll(item->at("n").as<Number>().ToString());
        ++reads;
        if (sum != 100 * kAccounts) ++bad_reads;
      }
    });
  }
  for (int t = 0; t < 4; ++t) threads[t].join();
  stop = true;
  for (size_t t = 4; t < threads.size(); ++t) threads[t].join();
  EXPECT_GT(committed, 600);
  EXPECT_GT(reads, 0);
  EXPECT_EQ(bad_reads, 0);
}

TEST_F(TransactionTest, HeldItemsMeetConflicts) {
  // Long enough for the checks below to run inside the hold on a slow,
  // busy machine (a sanitized build): they take microseconds otherwise.
  Open(/*hold_millis=*/1000);
  ASSERT_OK(db_->PutItem(kNs, "a", {{"pk", S("1")}, {"n", N("5")}}));
  std::thread holder([&] {
    auto outcome = db_->TransactWrite(kNs, {{"a", {{"pk", S("1")}}, AddTo(1)}});
    EXPECT_TRUE(outcome.ok() && outcome->committed);
  });
  WaitUntilClaimed({"a", {{"pk", S("1")}}});
  auto single = db_->PutItem(kNs, "a", {{"pk", S("1")}});
  ASSERT_FALSE(single.ok());
  EXPECT_EQ(single.status().code(), Status::Code::kTransactionConflict);
  EXPECT_EQ(single.status().message(), "Transaction is ongoing for the item");
  auto other = db_->TransactWrite(kNs, {{"a", {{"pk", S("1")}}, AddTo(1)}});
  ASSERT_OK(other);
  EXPECT_FALSE(other->committed);
  EXPECT_EQ(other->reasons[0].code(), Status::Code::kTransactionConflict);
  EXPECT_OK(db_->PutItem(kNs, "a", {{"pk", S("2")}}));  // other items are free
  holder.join();
  EXPECT_EQ(Get("a", "1")->at("n"), N("6"));
}

}  // namespace
}  // namespace ddb::engine
