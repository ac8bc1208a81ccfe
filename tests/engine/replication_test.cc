// Global tables in the engine: a replica starts with the table's items,
// writes reach the other members only once their delay has passed,
// conflicts resolve last-writer-wins by write clock (a change stamped after
// what it changed, even on a clock that stands still), replicated writes are
// not sent back, and what is pending survives a reopen. A strongly
// consistent group's write is everywhere when answered, and, held, meets
// writes from other regions with ReplicatedWriteConflict.
#include <gtest/gtest.h>

#include <thread>

#include "engine/database.h"
#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using test::MakeTable;
using test::S;

constexpr std::string_view kEast = "";
constexpr std::string_view kWest = "eu-west-1";

class ReplicationTest : public test::DatabaseModesTest {
 protected:
  void MakeGlobal(bool strong = false) {
    TableSchema schema = MakeTable("t", {"pk", ScalarType::kS});
    schema.billing_mode = "PAY_PER_REQUEST";
    schema.stream = {true, "NEW_AND_OLD_IMAGES", ""};
    ASSERT_OK(db_->CreateTable(kEast, schema));
    Put(kEast, "before", "east");
    if (strong) {
      ASSERT_OK(db_->UpdateTable(kEast, "t", [](TableSchema& s) {
        s.strong_consistency = true;
        return Status::Ok();
      }));
    }
    auto source = db_->GetSchema(kEast, "t");
    ASSERT_OK(source);
    Replica self{"us-east-1", std::string(kEast), 0};
    Replica added{"eu-west-1", std::string(kWest), clock_.NowMillis()};
    ASSERT_OK(engine_->replication().AddReplica(kEast, "t", self, added, **source));
    // A region joins a group once.
    EXPECT_EQ(engine_->replication().AddReplica(kEast, "t", self, added, **source).status().code(),
              Status::Code::kAlreadyExists);
  }

  void Put(std::string_view ns, const std::string& pk, const std::string& by) {
    ASSERT_OK(db_->PutItem(ns, "t", Item{{"pk", S(pk)}, {"by", S(by)}}));
  }

  // "by" of the item in `ns`, or "" when it is absent.
  std::string By(std::string_view ns, const std::string& pk) {
    auto item = db_->GetItem(ns, "t", Item{{"pk", S(pk)}});
    EXPECT_TRUE(item.ok());
    if (!item.ok() || !*item) return "";
    return (*item)->at("by").as<std::string>();
  }

  size_t Replicate(int64_t delay) {
    auto applied = engine_->replication().Replicate([delay](std::string_view, std::string_view) { return delay; });
    EXPECT_TRUE(applied.ok()) << applied.status().message();
    return applied.ok() ? *applied : 0;
  }

  uint64_t Pending(std::string_view ns) {
    auto backlogs = engine_->replication().Backlogs();
    EXPECT_TRUE(backlogs.ok());
    for (const auto& backlog : *backlogs) {
      if (backlog.ns == ns) return backlog.pending;
    }
    return 0;
  }
};

TEST_P(ReplicationTest, AReplicaStartsWithTheItemsAndListsTheGroup) {
  MakeGlobal();
  EXPECT_EQ(By(kWest, "before"), "east");
  auto west = db_->DescribeTable(kWest, "t");
  ASSERT_OK(west);
  ASSERT_EQ(west->schema.replicas.size(), 2u);
  EXPECT_EQ(west->schema.replicas[1].ns, kWest);
  EXPECT_TRUE(west->schema.stream.enabled);
  EXPECT_EQ(db_->DescribeTable(kEast, "t")->schema.replicas.size(), 2u);
  // The copy is not a write to replicate.
  EXPECT_EQ(Replicate(0), 0u);
}

TEST_P(ReplicationTest, AWriteWaitsForItsDelayThenArrivesOnce) {
  MakeGlobal();
  Put(kEast, "k", "east");
  EXPECT_EQ(Pending(kEast), 1u);
  EXPECT_EQ(Replicate(1000), 0u);
  EXPECT_EQ(By(kWest, "k"), "");
  clock_.Advance(1000);
  EXPECT_EQ(Replicate(1000), 1u);
  EXPECT_EQ(By(kWest, "k"), "east");
  EXPECT_EQ(Pending(kEast), 0u);
  // The replicated write is in the replica's feed no more than its own:
  // nothing comes back.
  EXPECT_EQ(Pending(kWest), 0u);
  EXPECT_EQ(Replicate(0), 0u);
}

TEST_P(ReplicationTest, TheLaterWriteWinsWhicheverArrivesLast) {
  MakeGlobal();
  Put(kWest, "k", "west");
  clock_.Advance(5);
  Put(kEast, "k", "east");
  EXPECT_EQ(Replicate(0), 2u);
  EXPECT_EQ(By(kEast, "k"), "east");
  EXPECT_EQ(By(kWest, "k"), "east");
  // A deletion wins the same way and keeps its clock: the older put that
  // arrives after it does not bring the item back.
  Put(kWest, "d", "west");
  clock_.Advance(5);
  ASSERT_OK(db_->PutItem(kEast, "t", Item{{"pk", S("d")}, {"by", S("east")}}));
  ASSERT_OK(db_->DeleteItem(kEast, "t", Item{{"pk", S("d")}}));
  Replicate(0);
  EXPECT_EQ(By(kEast, "d"), "");
  EXPECT_EQ(By(kWest, "d"), "");
}

TEST_P(ReplicationTest, AChangeOnAStoppedClockFollowsTheVersionItChanges) {
  MakeGlobal();
  // The clock never moves: each change is still stamped after the one it
  // replaces, so a write made over a replicated one wins over it.
  Put(kEast, "k", "east");
  Replicate(0);
  Put(kWest, "k", "west over east");
  Replicate(0);
  EXPECT_EQ(By(kEast, "k"), "west over east");
  ASSERT_OK(db_->DeleteItem(kEast, "t", Item{{"pk", S("k")}}));
  Replicate(0);
  EXPECT_EQ(By(kWest, "k"), "");
}

TEST_P(ReplicationTest, PendingWritesAndTheGroupSurviveAReopen) {
  if (!GetParam()) GTEST_SKIP() << "an in-memory database does not outlive a reopen";
  MakeGlobal();
  Put(kEast, "k", "east");
  engine_.reset();
  Open();
  ASSERT_EQ(db_->DescribeTable(kWest, "t")->schema.replicas.size(), 2u);
  EXPECT_EQ(Pending(kEast), 1u);
  EXPECT_EQ(Replicate(0), 1u);
  EXPECT_EQ(By(kWest, "k"), "east");
  // Applied once: the position is kept.
  engine_.reset();
  Open();
  EXPECT_EQ(Replicate(0), 0u);
}

TEST_P(ReplicationTest, RemovingTheLastReplicaLeavesARegionalTable) {
  MakeGlobal();
  Put(kEast, "k", "east");
  ASSERT_OK(engine_->replication().RemoveReplica("t", kWest));
  EXPECT_FALSE(db_->GetSchema(kWest, "t").ok());
  auto east = db_->DescribeTable(kEast, "t");
  ASSERT_OK(east);
  EXPECT_TRUE(east->schema.replicas.empty());
  EXPECT_EQ(Replicate(0), 0u);
  EXPECT_EQ(By(kEast, "k"), "east");
}

TEST_P(ReplicationTest, AStrongWriteIsEverywhereWhenAnswered) {
  MakeGlobal(/*strong=*/true);
  Put(kWest, "k", "west");
  EXPECT_EQ(By(kEast, "k"), "west");
  EXPECT_EQ(Pending(kWest), 0u);
}

TEST_P(ReplicationTest, AHeldStrongWriteMeetsOtherRegionsWithAConflict) {
  // Long enough for the checks below to run inside the hold on a slow,
  // busy machine (a sanitized build): they take microseconds otherwise.
  options_.replication_hold_millis = 1000;
  Open();
  MakeGlobal(/*strong=*/true);
  std::thread holder([&] { Put(kEast, "k", "east"); });
  // A write whose condition never holds: refused by the claim once it is
  // there, and writing nothing before.
  auto never = [](const Item*) { return Status::ConditionFailed("never"); };
  Status probe;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  do {
    probe = db_->PutItem(kWest, "t", Item{{"pk", S("k")}}, never).status();
    if (probe.code() == Status::Code::kReplicatedWriteConflict) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  } while (std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(probe.code(), Status::Code::kReplicatedWriteConflict);
  EXPECT_EQ(probe.message(), kReplicatedWriteConflict);
  // A write from the holder's own region waits for it, then goes after it.
  Put(kEast, "k", "east again");
  EXPECT_OK(db_->PutItem(kWest, "t", Item{{"pk", S("other")}, {"by", S("west")}}));
  holder.join();
  EXPECT_EQ(By(kEast, "k"), "east again");
  EXPECT_EQ(By(kWest, "k"), "east again");
  // Claims are let go: the other region writes again.
  Put(kWest, "k", "west");
  EXPECT_EQ(By(kEast, "k"), "west");
}

INSTANTIATE_TEST_SUITE_P(Modes, ReplicationTest, ::testing::Bool(), test::ModeName);

}  // namespace
}  // namespace ddb::engine
