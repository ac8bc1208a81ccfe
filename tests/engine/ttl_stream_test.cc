// TTL expiry and streams in the engine: the schedule follows every write,
// the sweep deletes only what is due (and re-checks it), every change
// appends exactly one record in the same batch, shards roll over and are
// trimmed by the clock, and all of it survives a reopen.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

#include "engine/database.h"
#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using test::MakeTable;
using test::N;
using test::S;

constexpr std::string_view kNs = "";
constexpr int64_t kStart = 1'700'000'000'000;  // FakeClock's start, millis
constexpr int64_t kStartSeconds = kStart / 1000;

class TtlStreamTest : public test::DatabaseFixture {
 protected:
  void Open(const std::string& dir = "") {
    DatabaseOptions options;
    options.in_memory = dir.empty();
    options.data_dir = dir;
    options.shard_rollover_millis = 60'000;
    DatabaseFixture::Open(options);
  }

  // Table "t" (pk S) with a KEYS_ONLY…NEW_AND_OLD stream and TTL on "ttl".
  void CreateTable(const std::string& view_type = "NEW_AND_OLD_IMAGES") {
    TableSchema schema = MakeTable("t", {"pk", ScalarType::kS});
    IndexSchema gsi;
    gsi.name = "byG";
    gsi.key.hash.push_back({"g", ScalarType::kS});
    schema.global_indexes.push_back(gsi);
    schema.stream.enabled = true;
    schema.stream.view_type = view_type;
    ASSERT_OK(db_->CreateTable(kNs, schema));
    SetTtl("ttl");
  }

  void SetTtl(const std::string& attribute) {
    auto updated = db_->UpdateTable(kNs, "t", [&](TableSchema& s) {
      s.ttl_attribute = attribute;
      return Status::Ok();
    });
    ASSERT_OK(updated);
  }

  void Put(Item item) { ASSERT_OK(db_->PutItem(kNs, "t", std::move(item))); }

  std::string Label() { return db_->DescribeTable(kNs, "t")->schema.stream.label; }

  std::vector<StreamRecord> Records(const std::string& label = "") {
    auto read = engine_->streams().Read(kNs, "t", label.empty() ? Label() : label, "", 1, 1000, 1 << 20);
    EXPECT_OK(read);
    return read.ok() ? read->records : std::vector<StreamRecord>{};
  }

  int64_t ItemCount() { return db_->DescribeTable(kNs, "t")->stats.item_count; }
  int64_t IndexCount() {
    auto d = db_->DescribeTable(kNs, "t");
    return d->index_stats.at(d->schema.global_indexes[0].index_id).item_count;
  }
};

TEST_F(TtlStreamTest, SweepDeletesOnlyDueNumbersAndKeepsIndexesAndCounts) {
  Open();
  CreateTable();
  Put({{"pk", S("due")}, {"g", S("x")}, {"ttl", N(std::to_string(kStartSeconds + 10))}});
  Put({{"pk", S("later")}, {"g", S("x")}, {"ttl", N(std::to_string(kStartSeconds + 100))}});
  Put({{"pk", S("string")}, {"ttl", S(std::to_string(kStartSeconds - 10))}});
  Put({{"pk", S("none")}});
  Put({{"pk", S("ancient")}, {"ttl", N(std::to_string(kStartSeconds - 6 * 365 * 86400))}});
  Put({{"pk", S("fraction")}, {"ttl", N(std::to_string(kStartSeconds + 10) + ".9")}});

  auto swept = engine_->housekeeping().SweepExpired();
  ASSERT_OK(swept);
  EXPECT_TRUE(swept->empty());  // nothing due yet; the ancient one is ignored

  clock_.Advance(11'000);
  swept = engine_->housekeeping().SweepExpired();
  ASSERT_OK(swept);
  ASSERT_EQ(swept->size(), 2u);
  std::set<std::string> deleted;
  for (const auto& expired : *swept) deleted.insert(expired.key.at("pk").as<std::string>());
  EXPECT_EQ(deleted, (std::set<std::string>{"due", "fraction"}));
  EXPECT_FALSE(*db_->GetItem(kNs, "t", {{"pk", S("due")}}));
  EXPECT_TRUE(*db_->GetItem(kNs, "t", {{"pk", S("later")}}));
  EXPECT_TRUE(*db_->GetItem(kNs, "t", {{"pk", S("string")}}));
  EXPECT_TRUE(*db_->GetItem(kNs, "t", {{"pk", S("ancient")}}));
  EXPECT_EQ(ItemCount(), 4);
  EXPECT_EQ(IndexCount(), 1);

  auto records = Records();
  ASSERT_EQ(records.size(), 8u);  // 6 inserts, 2 TTL removes
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].by_ttl, i >= 6);
    EXPECT_EQ(records[i].event, i >= 6 ? StreamEventName::kRemove : StreamEventName::kInsert);
  }
  const StreamRecord& remove = records[6].keys.at("pk") == S("due") ? records[6] : records[7];
  EXPECT_EQ(remove.old_image->at("g"), S("x"));

  clock_.Advance(1000LL * 3600 * 24);
  swept = engine_->housekeeping().SweepExpired();
  ASSERT_EQ(swept->size(), 1u);  // "later"; "ancient" never
  EXPECT_TRUE(*db_->GetItem(kNs, "t", {{"pk", S("ancient")}}));
}

TEST_F(TtlStreamTest, ChangingTheAttributeOrDisablingTtlTakesItemsOffTheSchedule) {
  Open();
  CreateTable();
  Put({{"pk", S("a")}, {"ttl", N(std::to_string(kStartSeconds + 10))}});
  Put({{"pk", S("b")}, {"ttl", N(std::to_string(kStartSeconds + 10))}});
  // Moved to later, and removed: neither is due at +11 s.
  Put({{"pk", S("a")}, {"ttl", N(std::to_string(kStartSeconds + 1000))}});
  Put({{"pk", S("b")}});
  clock_.Advance(11'000);
  EXPECT_TRUE(engine_->housekeeping().SweepExpired()->empty());

  SetTtl("");
  clock_.Advance(2'000'000);
  EXPECT_TRUE(engine_->housekeeping().SweepExpired()->empty());
  // Enabling again schedules the items already in the table.
  SetTtl("ttl");
  auto swept = engine_->housekeeping().SweepExpired();
  ASSERT_EQ(swept->size(), 1u);
  EXPECT_EQ((*swept)[0].key.at("pk"), S("a"));
}

TEST_F(TtlStreamTest, ItemsScheduledInThePastOfEarlierSweepsAreStillFound) {
  Open();
  CreateTable();
  clock_.Advance(100'000);
  ASSERT_TRUE(engine_->housekeeping().SweepExpired()->empty());
  // A sweep starts where the last one ended; an entry due before that must
  // pull the start back.
  Put({{"pk", S("past")}, {"ttl", N(std::to_string(kStartSeconds + 50))}});
  std::vector<TransactWriteItem> tx{{"t", {{"pk", S("tx")}}, [](const Item*) -> Result<Mutation> {
    return Mutation{Mutation::Kind::kPut, {{"pk", S("tx")}, {"ttl", N(std::to_string(kStartSeconds + 60))}}};
  }}};
  ASSERT_TRUE(db_->TransactWrite(kNs, tx)->committed);
  auto swept = engine_->housekeeping().SweepExpired();
  ASSERT_OK(swept);
  EXPECT_EQ(swept->size(), 2u);
  EXPECT_TRUE(engine_->housekeeping().SweepExpired()->empty());
}

TEST_F(TtlStreamTest, ASweepLimitLeavesTheRestForTheNext) {
  Open();
  CreateTable();
  for (int i = 0; i < 5; ++i) {
    Put({{"pk", S("i" + std::to_string(i))}, {"ttl", N(std::to_string(kStartSeconds + i))}});
  }
  clock_.Advance(10'000);
  EXPECT_EQ(engine_->housekeeping().SweepExpired(2)->size(), 2u);
  EXPECT_EQ(engine_->housekeeping().SweepExpired(2)->size(), 2u);
  EXPECT_EQ(engine_->housekeeping().SweepExpired()->size(), 1u);
  EXPECT_EQ(ItemCount(), 0);
}

TEST_F(TtlStreamTest, EveryChangeAppendsOneRecordAndNoChangeNone) {
  Open();
  CreateTable();
  Item item{{"pk", S("a")}, {"v", N("1")}};
  Put(item);
  Put(item);  // the same item again: no record
  Put({{"pk", S("a")}, {"v", N("2")}});
  ASSERT_OK(db_->DeleteItem(kNs, "t", {{"pk", S("a")}}));
  ASSERT_OK(db_->DeleteItem(kNs, "t", {{"pk", S("a")}}));  // absent: no record
  std::vector<TransactWriteItem> tx;
  for (const char* pk : {"x", "y"}) {
    tx.push_back({"t", {{"pk", S(pk)}}, [pk](const Item*) -> Result<Mutation> {
                    return Mutation{Mutation::Kind::kPut, {{"pk", S(pk)}}};
                  }});
  }
  ASSERT_TRUE(db_->TransactWrite(kNs, tx)->committed);

  auto records = Records();
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records[0].event, StreamEventName::kInsert);
  EXPECT_FALSE(records[0].old_image);
  EXPECT_EQ(records[1].event, StreamEventName::kModify);
  EXPECT_EQ(records[1].old_image->at("v"), N("1"));
  EXPECT_EQ(records[1].new_image->at("v"), N("2"));
  EXPECT_EQ(records[2].event, StreamEventName::kRemove);
  EXPECT_FALSE(records[2].new_image);
  for (size_t i = 0; i < records.size(); ++i) EXPECT_EQ(records[i].sequence, i + 1);
}

TEST_F(TtlStreamTest, ViewTypesKeepTheirImages) {
  struct Case {
    std::string view;
    bool old_image, new_image;
  };
  for (const Case& c : {Case{"KEYS_ONLY", false, false}, Case{"NEW_IMAGE", false, true},
                        Case{"OLD_IMAGE", true, false}, Case{"NEW_AND_OLD_IMAGES", true, true}}) {
    Open();
    CreateTable(c.view);
    Put({{"pk", S("a")}, {"v", N("1")}});
    Put({{"pk", S("a")}, {"v", N("2")}});
    auto records = Records();
    ASSERT_EQ(records.size(), 2u) << c.view;
    EXPECT_EQ(records[1].keys, (Item{{"pk", S("a")}})) << c.view;
    EXPECT_EQ(records[1].old_image.has_value(), c.old_image) << c.view;
    EXPECT_EQ(records[1].new_image.has_value(), c.new_image) << c.view;
  }
}

TEST_F(TtlStreamTest, ShardsRollOverIntoChildrenAndRecordsAreTrimmedAfterADay) {
  Open();
  CreateTable();
  Put({{"pk", S("a")}});
  clock_.Advance(61'000);
  ASSERT_OK(engine_->housekeeping().MaintainStreams());
  Put({{"pk", S("b")}});
  auto stream = engine_->streams().Describe(kNs, "t", Label());
  ASSERT_OK(stream);
  const auto& shards = stream->info.shards;
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_TRUE(shards[0].closed);
  EXPECT_EQ(shards[0].last_sequence, 1u);
  EXPECT_EQ(shards[1].parent_shard_id, shards[0].shard_id);
  EXPECT_EQ(shards[1].first_sequence, 2u);
  auto first = engine_->streams().Read(kNs, "t", Label(), shards[0].shard_id, 0, 100, 1 << 20);
  ASSERT_EQ(first->records.size(), 1u);
  EXPECT_TRUE(first->drained);
  auto second = engine_->streams().Read(kNs, "t", Label(), shards[1].shard_id, 0, 100, 1 << 20);
  ASSERT_EQ(second->records.size(), 1u);
  EXPECT_FALSE(second->drained);

  // An idle open shard does not roll over into an empty one.
  clock_.Advance(61'000);
  ASSERT_OK(engine_->housekeeping().MaintainStreams());
  clock_.Advance(61'000);
  ASSERT_OK(engine_->housekeeping().MaintainStreams());
  EXPECT_EQ(engine_->streams().Describe(kNs, "t", Label())->info.shards.size(), 3u);

  clock_.Advance(24LL * 3600 * 1000);
  ASSERT_OK(engine_->housekeeping().MaintainStreams());
  stream = engine_->streams().Describe(kNs, "t", Label());
  EXPECT_EQ(stream->info.trim_horizon, 3u);
  ASSERT_EQ(stream->info.shards.size(), 1u);  // the emptied closed shards are gone
  auto trimmed = engine_->streams().Read(kNs, "t", Label(), "", 1, 100, 1 << 20);
  EXPECT_EQ(trimmed.status().code(), Status::Code::kTrimmedData);
}

TEST_F(TtlStreamTest, ReenablingStartsANewStreamAndTheOldOneStaysADay) {
  Open();
  CreateTable();
  Put({{"pk", S("a")}});
  std::string old_label = Label();
  auto set_stream = [&](bool enabled) {
    ASSERT_TRUE(db_->UpdateTable(kNs, "t", [&](TableSchema& s) {
                     s.stream.enabled = enabled;
                     return Status::Ok();
                   }).ok());
  };
  set_stream(false);
  Put({{"pk", S("b")}});  // no stream: no record anywhere
  set_stream(true);
  Put({{"pk", S("c")}});
  EXPECT_NE(Label(), old_label);
  EXPECT_EQ(Records().size(), 1u);
  auto old_stream = engine_->streams().Describe(kNs, "t", old_label);
  ASSERT_OK(old_stream);
  EXPECT_FALSE(old_stream->info.enabled());
  EXPECT_TRUE(old_stream->info.shards.back().closed);
  EXPECT_EQ(Records(old_label).size(), 1u);
  EXPECT_EQ(engine_->streams().List(kNs, "t").size(), 2u);

  clock_.Advance(24LL * 3600 * 1000 + 1);
  ASSERT_OK(engine_->housekeeping().MaintainStreams());
  EXPECT_FALSE(engine_->streams().Describe(kNs, "t", old_label).ok());
  EXPECT_EQ(engine_->streams().List(kNs, "").size(), 1u);
}

TEST_F(TtlStreamTest, ARecreatedTableGetsANewLabelEvenWithTheClockMovedBack) {
  Open();
  CreateTable();
  Put({{"pk", S("old")}});
  std::string old_label = Label();
  ASSERT_OK(db_->DeleteTable(kNs, "t"));
  clock_.Set(kStart - 3600'000);
  CreateTable();
  Put({{"pk", S("new")}});
  EXPECT_GT(Label(), old_label);
  auto records = Records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].keys.at("pk"), S("new"));
  EXPECT_EQ(Records(old_label).at(0).keys.at("pk"), S("old"));
}

TEST_F(TtlStreamTest, ScheduleStreamAndSequenceNumbersSurviveAReopen) {
  test::TempDir dir;
  Open(dir.path());
  CreateTable();
  Put({{"pk", S("a")}, {"ttl", N(std::to_string(kStartSeconds + 5))}});
  Put({{"pk", S("b")}});
  std::string label = Label();
  Open(dir.path());
  Put({{"pk", S("c")}});
  auto records = Records(label);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[2].sequence, 3u);
  clock_.Advance(6'000);
  auto swept = engine_->housekeeping().SweepExpired();
  ASSERT_EQ(swept->size(), 1u);
  EXPECT_EQ(Records(label).back().event, StreamEventName::kRemove);
}

TEST_F(TtlStreamTest, ExpiredItemsOfADeletedTableLeaveTheSchedule) {
  Open();
  CreateTable();
  Put({{"pk", S("a")}, {"ttl", N(std::to_string(kStartSeconds + 5))}});
  std::string label = Label();
  ASSERT_OK(db_->DeleteTable(kNs, "t"));
  clock_.Advance(6'000);
  EXPECT_TRUE(engine_->housekeeping().SweepExpired()->empty());
  // The deleted table's stream is readable, DISABLED, with its record.
  auto stream = engine_->streams().Describe(kNs, "t", label);
  ASSERT_OK(stream);
  EXPECT_FALSE(stream->info.enabled());
  EXPECT_EQ(Records(label).size(), 1u);
}

TEST_F(TtlStreamTest, AKinesisDestinationFeedsAHiddenStreamOfBothImages) {
  test::TempDir dir;
  Open(dir.path());
  CreateTable("KEYS_ONLY");
  auto set_destination = [&](bool enabled) {
    ASSERT_OK(db_->UpdateTable(kNs, "t", [&](TableSchema& s) {
      KinesisDestination destination;
      destination.stream_arn = "arn:aws:kinesis:us-east-1:000000000000:stream/s";
      destination.enabled = enabled;
      s.kinesis_destinations = {destination};
      return Status::Ok();
    }));
  };
  auto feed_records = [&](const std::string& label) {
    auto read = engine_->streams().Read(kNs, "t", label, "", 1, 1000, 1 << 20, StreamKind::kKinesisFeed);
    EXPECT_OK(read);
    return read.ok() ? read->records : std::vector<StreamRecord>{};
  };
  Put({{"pk", S("before")}});
  EXPECT_EQ(*engine_->streams().KinesisFeedLabel(kNs, "t"), "");
  set_destination(true);
  std::string feed = *engine_->streams().KinesisFeedLabel(kNs, "t");
  ASSERT_NE(feed, "");
  EXPECT_NE(feed, Label());
  Put({{"pk", S("a")}, {"v", N("1")}});
  Put({{"pk", S("a")}, {"v", N("2")}});
  // Both images, whatever the table's own stream keeps; and only there.
  auto records = feed_records(feed);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1].old_image->at("v"), N("1"));
  EXPECT_EQ(records[1].new_image->at("v"), N("2"));
  EXPECT_FALSE(Records().back().new_image.has_value());
  // Hidden from the Streams API, and not a stream by its label.
  EXPECT_EQ(engine_->streams().List(kNs, "t").size(), 1u);
  EXPECT_FALSE(engine_->streams().Describe(kNs, "t", feed).ok());

  // Kept across a reopen, numbering on.
  Open(dir.path());
  EXPECT_EQ(*engine_->streams().KinesisFeedLabel(kNs, "t"), feed);
  Put({{"pk", S("b")}});
  ASSERT_EQ(feed_records(feed).size(), 3u);
  EXPECT_EQ(feed_records(feed).back().sequence, 3u);

  // Disabled: the feed closes and a later write goes nowhere; enabled
  // again, a new feed starts.
  set_destination(false);
  EXPECT_EQ(*engine_->streams().KinesisFeedLabel(kNs, "t"), "");
  Put({{"pk", S("c")}});
  EXPECT_EQ(feed_records(feed).size(), 3u);
  EXPECT_FALSE(engine_->streams().Describe(kNs, "t", feed, StreamKind::kKinesisFeed)->info.enabled());
  set_destination(true);
  std::string second = *engine_->streams().KinesisFeedLabel(kNs, "t");
  EXPECT_GT(second, feed);
  Put({{"pk", S("d")}});
  ASSERT_EQ(feed_records(second).size(), 1u);

  // Deleting the table stops the feed; it is forgotten a day later.
  ASSERT_OK(db_->DeleteTable(kNs, "t"));
  EXPECT_FALSE(engine_->streams().Describe(kNs, "t", second, StreamKind::kKinesisFeed)->info.enabled());
  clock_.Advance(24LL * 3600 * 1000 + 1);
  ASSERT_OK(engine_->housekeeping().MaintainStreams());
  EXPECT_FALSE(engine_->streams().Describe(kNs, "t", second, StreamKind::kKinesisFeed).ok());
}

}  // namespace
}  // namespace ddb::engine
