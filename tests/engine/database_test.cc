#include "engine/database.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/key_validation.h"
#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using test::B;
using test::ExpectError;
using test::MakeTable;
using test::N;
using test::S;

constexpr std::string_view kNs = "";

// pk: S, sk: N.
TableSchema Composite(std::string name = "t") {
  return MakeTable(std::move(name), {"pk", ScalarType::kS}, KeyElement{"sk", ScalarType::kN});
}

// An index on the string attribute `hash`.
IndexSchema Index(std::string name, std::string hash) {
  IndexSchema index;
  index.name = std::move(name);
  index.key.hash.push_back({std::move(hash), ScalarType::kS});
  return index;
}

class DatabaseTest : public test::DatabaseModesTest {
 protected:
  std::optional<Item> Get(const Item& key, std::string_view table = "t") {
    auto item = db_->GetItem(kNs, table, key);
    EXPECT_OK(item);
    return item.ok() ? *item : std::nullopt;
  }

  TableStats Stats(std::string_view table = "t") {
    auto description = db_->DescribeTable(kNs, table);
    EXPECT_OK(description);
    return description.ok() ? description->stats : TableStats{};
  }

};

INSTANTIATE_TEST_SUITE_P(Modes, DatabaseTest, ::testing::Values(false, true), test::ModeName);

TEST_P(DatabaseTest, CreateDescribeAndDeleteTable) {
  TableSchema schema = Composite();
  schema.local_indexes = {Index("l", "x")};
  schema.local_indexes[0].is_local = true;
  schema.global_indexes = {Index("g", "x"), Index("g2", "x")};
  schema.stream.enabled = true;
  auto created = db_->CreateTable(kNs, schema);
  ASSERT_OK(created);
  const TableSchema& c = created->schema;
  EXPECT_GT(c.table_id, 0u);
  EXPECT_EQ(c.table_uuid.size(), 36u);
  EXPECT_EQ(c.creation_millis, clock_.NowMillis());
  EXPECT_EQ(c.status, "ACTIVE");
  EXPECT_EQ(c.local_indexes[0].index_id, 1u);
  EXPECT_EQ(c.global_indexes[0].index_id, 2u);
  EXPECT_EQ(c.global_indexes[1].index_id, 3u);
  EXPECT_EQ(c.next_index_id, 4u);
  EXPECT_EQ(c.stream.label, "2023-11-14T22:13:20.000");  // FakeClock's default start
  EXPECT_EQ(c.pay_per_request_since_millis, clock_.NowMillis());
  EXPECT_EQ(created->stats.item_count, 0);

  clock_.Advance(5000);
  auto described = db_->DescribeTable(kNs, "t");
  ASSERT_OK(described);
  EXPECT_EQ(described->schema.table_id, c.table_id);
  EXPECT_EQ(described->schema.table_uuid, c.table_uuid);
  EXPECT_EQ(described->schema.creation_millis, c.creation_millis);
  EXPECT_EQ(described->schema.range_key()->name, "sk");

  auto deleted = db_->DeleteTable(kNs, "t");
  ASSERT_OK(deleted);
  EXPECT_EQ(deleted->schema.status, "DELETING");
  EXPECT_EQ(deleted->schema.table_uuid, c.table_uuid);
  ExpectError(db_->DescribeTable(kNs, "t"), Status::Code::kNotFound,
              "Requested resource not found: Table: t not found");
  ExpectError(db_->DeleteTable(kNs, "t"), Status::Code::kNotFound,
              "Requested resource not found: Table: t not found");
}

TEST_P(DatabaseTest, CreateTableTwiceIsAlreadyExistsButOtherNamespacesAreSeparate) {
  ASSERT_OK(db_->CreateTable(kNs, Composite("dup")));
  ExpectError(db_->CreateTable(kNs, Composite("dup")), Status::Code::kAlreadyExists,
              "Table already exists: dup");
  auto other = db_->CreateTable("key/us-west-2", Composite("dup"));
  ASSERT_OK(other);
  EXPECT_NE(other->schema.table_id, db_->DescribeTable(kNs, "dup")->schema.table_id);
  ExpectError(db_->DescribeTable("key/eu-west-1", "dup"), Status::Code::kNotFound,
              "Requested resource not found: Table: dup not found");
}

TEST_P(DatabaseTest, TransientStatusesFollowTheClock) {
  options_.transient_status_millis = 1000;
  Open();
  auto created = db_->CreateTable(kNs, Composite());
  ASSERT_OK(created);
  EXPECT_EQ(created->schema.status, "CREATING");
  clock_.Advance(999);
  EXPECT_EQ(db_->DescribeTable(kNs, "t")->schema.status, "CREATING");
  clock_.Advance(1);
  EXPECT_EQ(db_->DescribeTable(kNs, "t")->schema.status, "ACTIVE");

  auto deleted = db_->DeleteTable(kNs, "t");
  ASSERT_OK(deleted);
  EXPECT_EQ(deleted->schema.status, "DELETING");
  clock_.Advance(999);
  EXPECT_EQ(db_->DescribeTable(kNs, "t")->schema.status, "DELETING");
  clock_.Advance(1);
  EXPECT_EQ(db_->DescribeTable(kNs, "t").status().code(), Status::Code::kNotFound);
}

TEST_P(DatabaseTest, ListTablesPagesInByteOrderWithinOneNamespace) {
  for (const char* name : {"c", "a", "E", "b", "d"}) ASSERT_OK(db_->CreateTable(kNs, Composite(name)));
  ASSERT_OK(db_->CreateTable("other", Composite("x")));
  ASSERT_OK(db_->CreateTable("o", Composite("y")));  // a prefix of "other"

  TableList page = db_->ListTables(kNs, "", 2);
  EXPECT_EQ(page.names, (std::vector<std::string>{"E", "a"}));
  EXPECT_EQ(page.last_evaluated, "a");
  page = db_->ListTables(kNs, *page.last_evaluated, 2);
  EXPECT_EQ(page.names, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(page.last_evaluated, "c");
  page = db_->ListTables(kNs, *page.last_evaluated, 2);
  EXPECT_EQ(page.names, (std::vector<std::string>{"d"}));
  EXPECT_FALSE(page.last_evaluated.has_value());

  // A start name that is not a table still starts after it.
  EXPECT_EQ(db_->ListTables(kNs, "bb", 100).names, (std::vector<std::string>{"c", "d"}));
  // Exactly `limit` names with none after: no LastEvaluatedTableName.
  EXPECT_FALSE(db_->ListTables(kNs, "", 5).last_evaluated.has_value());
  EXPECT_EQ(db_->ListTables(kNs, "", 100).names.size(), 5u);
  EXPECT_EQ(db_->ListTables("other", "", 100).names, (std::vector<std::string>{"x"}));
  EXPECT_EQ(db_->ListTables("o", "", 100).names, (std::vector<std::string>{"y"}));
  EXPECT_TRUE(db_->ListTables("nobody", "", 100).names.empty());
}

TEST_P(DatabaseTest, PutGetAndDeleteItems) {
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  Item key{{"pk", S("a")}, {"sk", N("1")}};
  Item v1{{"pk", S("a")}, {"sk", N("1")}, {"v", S("one")}};
  Item v2{{"pk", S("a")}, {"sk", N("1.0")}, {"v", S("two")}, {"l", AttributeValue(List{B("x")})}};

  auto old = db_->PutItem(kNs, "t", v1);
  ASSERT_OK(old);
  EXPECT_FALSE(old->has_value());
  EXPECT_EQ(Get(key), v1);
  EXPECT_FALSE(Get(Item{{"pk", S("a")}, {"sk", N("2")}}).has_value());

  old = db_->PutItem(kNs, "t", v2);  // same key: 1.0 == 1
  ASSERT_OK(old);
  EXPECT_EQ(*old, v1);
  EXPECT_EQ(Get(key), v2);

  old = db_->DeleteItem(kNs, "t", key);
  ASSERT_OK(old);
  EXPECT_EQ(*old, v2);
  EXPECT_FALSE(Get(key).has_value());
  old = db_->DeleteItem(kNs, "t", key);  // absent: not an error
  ASSERT_OK(old);
  EXPECT_FALSE(old->has_value());

  ExpectError(db_->GetItem(kNs, "missing", key), Status::Code::kNotFound,
              "Requested resource not found");
  ExpectError(db_->PutItem(kNs, "missing", v1), Status::Code::kNotFound,
              "Requested resource not found");
  ExpectError(db_->DeleteItem(kNs, "missing", key), Status::Code::kNotFound,
              "Requested resource not found");
}

// The sizes a write reports are the items' own, for the caller's billing.
TEST_P(DatabaseTest, WritesReportTheSizesOfTheItemsTheyReplacedAndWrote) {
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  Item key{{"pk", S("a")}, {"sk", N("1")}};
  Item v1{{"pk", S("a")}, {"sk", N("1")}, {"v", S("one")}};
  Item v2{{"pk", S("a")}, {"sk", N("1")}, {"v", S("a longer value")}};

  ItemSizes sizes;
  ASSERT_OK(db_->PutItem(kNs, "t", v1, nullptr, &sizes));
  EXPECT_TRUE(sizes.known);
  EXPECT_EQ(sizes.old_size, 0u);
  EXPECT_EQ(sizes.new_size, ItemSize(v1));

  sizes = {};
  ASSERT_OK(db_->PutItem(kNs, "t", v2, nullptr, &sizes));
  EXPECT_EQ(sizes.old_size, ItemSize(v1));
  EXPECT_EQ(sizes.new_size, ItemSize(v2));

  sizes = {};
  ASSERT_OK(db_->WriteItem(kNs, "t", key, [&](const Item*) -> Result<Mutation> {
    Mutation put{Mutation::Kind::kPut, v1};
    put.sizes = &sizes;
    return put;
  }));
  EXPECT_EQ(sizes.old_size, ItemSize(v2));
  EXPECT_EQ(sizes.new_size, ItemSize(v1));

  sizes = {};  // a refused write measures nothing
  EXPECT_FALSE(db_->PutItem(kNs, "t", v2,
                            [](const Item*) { return Status::ConditionFailed("no put"); }, &sizes)
                   .ok());
  EXPECT_FALSE(sizes.known);

  sizes = {};
  ASSERT_OK(db_->DeleteItem(kNs, "t", key, nullptr, &sizes));
  EXPECT_TRUE(sizes.known);
  EXPECT_EQ(sizes.old_size, ItemSize(v1));
  EXPECT_EQ(sizes.new_size, 0u);
}

TEST_P(DatabaseTest, FailedPlansAndPreconditionsLeaveTheItemUnchanged) {
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  Item key{{"pk", S("a")}, {"sk", N("1")}};
  Item item{{"pk", S("a")}, {"sk", N("1")}, {"v", S("kept")}};
  ASSERT_OK(db_->PutItem(kNs, "t", item));
  TableStats before = Stats();

  auto failed = db_->WriteItem(kNs, "t", key, [&](const Item* old) -> Result<Mutation> {
    EXPECT_TRUE(old && *old == item);
    return Status::ConditionFailed("The conditional request failed");
  });
  ExpectError(failed, Status::Code::kConditionFailed, "The conditional request failed");

  // A planned item whose key breaks the schema is refused.
  failed = db_->WriteItem(kNs, "t", key, [&](const Item*) -> Result<Mutation> {
    return Mutation{Mutation::Kind::kPut, Item{{"pk", S("a")}, {"sk", S("1")}}};
  });
  ExpectError(failed, Status::Code::kInvalidArgument,
              "One or more parameter values were invalid: Type mismatch for key sk expected: N "
              "actual: S");

  auto none = db_->WriteItem(kNs, "t", key,
                             [](const Item*) -> Result<Mutation> { return Mutation{}; });
  ASSERT_OK(none);
  EXPECT_EQ(**none, item);

  ExpectError(db_->PutItem(kNs, "t", Item{{"pk", S("a")}, {"sk", N("1")}},
                           [](const Item*) { return Status::ConditionFailed("no put"); }),
              Status::Code::kConditionFailed, "no put");
  ExpectError(db_->DeleteItem(kNs, "t", key,
                              [](const Item*) { return Status::ConditionFailed("no delete"); }),
              Status::Code::kConditionFailed, "no delete");

  EXPECT_EQ(Get(key), item);
  EXPECT_EQ(Stats().item_count, before.item_count);
  EXPECT_EQ(Stats().size_bytes, before.size_bytes);
}

TEST_P(DatabaseTest, StatsTrackPutsReplacesAndDeletes) {
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  Item a{{"pk", S("a")}, {"sk", N("1")}, {"v", S("12345")}};
  Item a_bigger{{"pk", S("a")}, {"sk", N("1")}, {"v", S(std::string(100, 'x'))}};
  Item b{{"pk", S("b")}, {"sk", N("-2.5")}};
  auto stats = [&] { return std::make_pair(Stats().item_count, Stats().size_bytes); };
  auto size = [](const Item& item) { return static_cast<int64_t>(ItemSize(item)); };

  ASSERT_OK(db_->PutItem(kNs, "t", a));
  EXPECT_EQ(stats(), std::make_pair(int64_t{1}, size(a)));
  ASSERT_OK(db_->PutItem(kNs, "t", a_bigger));
  EXPECT_EQ(stats(), std::make_pair(int64_t{1}, size(a_bigger)));
  ASSERT_OK(db_->PutItem(kNs, "t", b));
  EXPECT_EQ(stats(), std::make_pair(int64_t{2}, size(a_bigger) + size(b)));
  ASSERT_OK(db_->DeleteItem(kNs, "t", Item{{"pk", S("a")}, {"sk", N("1")}}));
  EXPECT_EQ(stats(), std::make_pair(int64_t{1}, size(b)));
  ASSERT_OK(db_->DeleteItem(kNs, "t", Item{{"pk", S("zzz")}, {"sk", N("1")}}));
  EXPECT_EQ(stats(), std::make_pair(int64_t{1}, size(b)));
  ASSERT_OK(db_->DeleteItem(kNs, "t", Item{{"pk", S("b")}, {"sk", N("-2.50")}}));
  EXPECT_EQ(stats(), std::make_pair(int64_t{0}, int64_t{0}));
}

TEST_P(DatabaseTest, DeletedTableItemsAreGoneWhenTheNameIsReused) {
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  Item key{{"pk", S("a")}, {"sk", N("1")}};
  ASSERT_OK(db_->PutItem(kNs, "t", Item{{"pk", S("a")}, {"sk", N("1")}, {"v", S("old")}}));
  ASSERT_OK(db_->DeleteTable(kNs, "t"));
  ExpectError(db_->GetItem(kNs, "t", key), Status::Code::kNotFound, "Requested resource not found");

  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  EXPECT_FALSE(Get(key).has_value());
  EXPECT_EQ(Stats().item_count, 0);
  EXPECT_EQ(Stats().size_bytes, 0);
}

TEST_P(DatabaseTest, KeysAreValidatedWithDynamoDbMessages) {
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  constexpr std::string_view kMismatch = "The provided key element does not match the schema";
  for (const Item& key : {Item{{"pk", S("a")}},                                      // missing sk
                          Item{{"pk", S("a")}, {"sk", N("1")}, {"x", S("extra")}},  // extra
                          Item{{"pk", S("a")}, {"sk", S("1")}},                     // wrong type
                          Item{{"pk", S("a")}, {"other", N("1")}}}) {
    ExpectError(db_->GetItem(kNs, "t", key), Status::Code::kInvalidArgument, kMismatch);
    ExpectError(db_->DeleteItem(kNs, "t", key), Status::Code::kInvalidArgument, kMismatch);
  }
  ExpectError(db_->PutItem(kNs, "t", Item{{"sk", N("1")}, {"v", S("x")}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values were invalid: Missing the key pk in the item");
  ExpectError(db_->PutItem(kNs, "t", Item{{"pk", N("1")}, {"sk", N("1")}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values were invalid: Type mismatch for key pk expected: S "
              "actual: N");
  ExpectError(db_->PutItem(kNs, "t", Item{{"pk", S("")}, {"sk", N("1")}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values are not valid. The AttributeValue for a key attribute "
              "cannot contain an empty string value. Key: pk");
  ExpectError(db_->GetItem(kNs, "t", Item{{"pk", S("")}, {"sk", N("1")}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values are not valid. The AttributeValue for a key attribute "
              "cannot contain an empty string value. Key: pk");
}

TEST(KeyValidationTest, ValidateKeyAndValidateItemKeyMessages) {
  TableSchema schema = MakeTable("t", {"pk", ScalarType::kS}, KeyElement{"bk", ScalarType::kB});
  EXPECT_OK(ValidateKey(schema, Item{{"pk", S("a")}, {"bk", B("b")}}));
  EXPECT_OK(ValidateItemKey(schema, Item{{"pk", S("a")}, {"bk", B("b")}, {"x", N("1")}}));
  ExpectError(ValidateKey(schema, Item{{"pk", S("a")}, {"bk", B("b")}, {"x", N("1")}}),
              Status::Code::kInvalidArgument, "The provided key element does not match the schema");
  ExpectError(ValidateKey(schema, Item{{"pk", S("a")}, {"bk", S("b")}}),
              Status::Code::kInvalidArgument, "The provided key element does not match the schema");
  ExpectError(ValidateItemKey(schema, Item{{"pk", S("a")}}), Status::Code::kInvalidArgument,
              "One or more parameter values were invalid: Missing the key bk in the item");
  ExpectError(ValidateItemKey(schema, Item{{"pk", S("a")}, {"bk", AttributeValue(Null{})}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values were invalid: Type mismatch for key bk expected: B "
              "actual: NULL");
  ExpectError(ValidateItemKey(schema, Item{{"pk", S("a")}, {"bk", B("")}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values are not valid. The AttributeValue for a key attribute "
              "cannot contain an empty binary value. Key: bk");
  ExpectError(ValidateKey(schema, Item{{"pk", S("")}, {"bk", B("")}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values are not valid. The AttributeValue for a key attribute "
              "cannot contain an empty string value. Key: pk");
  EXPECT_EQ(ExtractKey(schema, Item{{"pk", S("a")}, {"bk", B("b")}, {"x", N("1")}}),
            (Item{{"pk", S("a")}, {"bk", B("b")}}));
}

TEST(KeyValidationTest, KeySizeLimitsCountBytesAndAcceptTheLimits) {
  TableSchema schema = MakeTable("t", {"pk", ScalarType::kS}, KeyElement{"bk", ScalarType::kB});
  // 1024 two-byte characters are 2048 bytes: exactly the limit.
  std::string hash_at_limit;
  for (int i = 0; i < 1024; ++i) hash_at_limit += "\xc3\xa9";
  EXPECT_TRUE(ValidateKey(schema, Item{{"pk", S(hash_at_limit)}, {"bk", B(std::string(1024, 'b'))}})
                  .ok());
  ExpectError(ValidateKey(schema, Item{{"pk", S(hash_at_limit + "a")}, {"bk", B("b")}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values were invalid: Size of hashkey has exceeded the "
              "maximum size limit of2048 bytes");
  ExpectError(ValidateItemKey(schema, Item{{"pk", S("a")}, {"bk", B(std::string(1025, 'b'))}}),
              Status::Code::kInvalidArgument,
              "One or more parameter values were invalid: Aggregated size of all range keys has "
              "exceeded the size limit of 1024 bytes");
  // Sort key values of a multi-attribute key count together.
  AttributeValue half = S(std::string(513, 'r'));
  EXPECT_FALSE(CheckKeySizes({}, {&half, &half}).ok());
  EXPECT_OK(CheckKeySizes({}, {&half, nullptr}));
}

TEST_P(DatabaseTest, ItemsOver400KbAreRejected) {
  ASSERT_OK(db_->CreateTable(kNs, MakeTable("t", {"pk", ScalarType::kS})));
  // Size = len("pk") + len("k") + len("big") + payload.
  const size_t at_limit = kMaxItemBytes - 2 - 1 - 3;
  Item largest{{"pk", S("k")}, {"big", S(std::string(at_limit, 'x'))}};
  ASSERT_EQ(ItemSize(largest), kMaxItemBytes);
  ASSERT_OK(db_->PutItem(kNs, "t", largest));

  Item too_large{{"pk", S("k")}, {"big", S(std::string(at_limit + 1, 'y'))}};
  ExpectError(db_->PutItem(kNs, "t", too_large), Status::Code::kInvalidArgument,
              "Item size has exceeded the maximum allowed size");
  EXPECT_EQ(Get(Item{{"pk", S("k")}}), largest);
  EXPECT_EQ(Stats().size_bytes, static_cast<int64_t>(kMaxItemBytes));
}

TEST_P(DatabaseTest, ConcurrentPutsOnDistinctKeysAllLand) {
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  constexpr int kThreads = 8, kPerThread = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        Item item{{"pk", S("p" + std::to_string(t))},
                  {"sk", AttributeValue(Number::FromInt64(i))},
                  {"v", S("x")}};
        auto result = db_->PutItem(kNs, "t", std::move(item));
        EXPECT_OK(result);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  TableStats stats = Stats();
  EXPECT_EQ(stats.item_count, kThreads * kPerThread);
  int64_t expected_size = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kPerThread; ++i) {
      Item key{{"pk", S("p" + std::to_string(t))}, {"sk", AttributeValue(Number::FromInt64(i))}};
      auto item = Get(key);
      ASSERT_TRUE(item.has_value()) << t << "/" << i;
      expected_size += static_cast<int64_t>(ItemSize(*item));
    }
  }
  EXPECT_EQ(stats.size_bytes, expected_size);
}

// --- Persistence across reopening ------------------------------------------

class PersistentDatabaseTest : public DatabaseTest {};
INSTANTIATE_TEST_SUITE_P(Modes, PersistentDatabaseTest, ::testing::Values(true),
                         [](const auto&) { return "Persistent"; });

TEST_P(PersistentDatabaseTest, DataSchemaAndStatsSurviveReopening) {
  TableSchema schema = Composite();
  schema.global_indexes.push_back(Index("g", "pk"));
  schema.tags = {{"k", "v"}};
  auto created = db_->CreateTable(kNs, schema);
  ASSERT_OK(created);
  ASSERT_OK(db_->CreateTable("ns2", Composite("other")));
  Item item{{"pk", S("a")}, {"sk", N("1")}, {"m", AttributeValue(Map{{"n", N("2.5")}})}};
  ASSERT_OK(db_->PutItem(kNs, "t", item));
  ASSERT_OK(db_->PutItem(kNs, "t", Item{{"pk", S("b")}, {"sk", N("2")}}));
  ASSERT_OK(db_->DeleteItem(kNs, "t", Item{{"pk", S("b")}, {"sk", N("2")}}));
  TableStats before = Stats();

  clock_.Advance(60'000);
  Open();
  auto described = db_->DescribeTable(kNs, "t");
  ASSERT_OK(described);
  EXPECT_EQ(described->schema.table_id, created->schema.table_id);
  EXPECT_EQ(described->schema.table_uuid, created->schema.table_uuid);
  EXPECT_EQ(described->schema.creation_millis, created->schema.creation_millis);
  ASSERT_EQ(described->schema.global_indexes.size(), 1u);
  EXPECT_EQ(described->schema.global_indexes[0].index_id, 1u);
  EXPECT_EQ(described->schema.tags, schema.tags);
  EXPECT_EQ(described->stats.item_count, 1);
  EXPECT_EQ(described->stats.size_bytes, before.size_bytes);
  EXPECT_EQ(Get(Item{{"pk", S("a")}, {"sk", N("1")}}), item);
  EXPECT_FALSE(Get(Item{{"pk", S("b")}, {"sk", N("2")}}).has_value());
  EXPECT_EQ(db_->ListTables("ns2", "", 10).names, (std::vector<std::string>{"other"}));

  // Table ids are never reused after a restart.
  auto fresh = db_->CreateTable(kNs, Composite("fresh"));
  ASSERT_OK(fresh);
  EXPECT_GT(fresh->schema.table_id, db_->DescribeTable("ns2", "other")->schema.table_id);
}

TEST_P(PersistentDatabaseTest, DeletedTableStaysDeletedAfterReopening) {
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  Item key{{"pk", S("a")}, {"sk", N("1")}};
  ASSERT_OK(db_->PutItem(kNs, "t", Item{{"pk", S("a")}, {"sk", N("1")}}));
  ASSERT_OK(db_->DeleteTable(kNs, "t"));
  Open();
  ExpectError(db_->DescribeTable(kNs, "t"), Status::Code::kNotFound,
              "Requested resource not found: Table: t not found");
  ASSERT_OK(db_->CreateTable(kNs, Composite()));
  EXPECT_FALSE(Get(key).has_value());
  Open();
  EXPECT_FALSE(Get(key).has_value());
  EXPECT_EQ(Stats().item_count, 0);
}

TEST(EngineOpenTest, SecondOpenOfTheSameDirectoryFails) {
  test::TempDir dir;
  FakeClock clock;
  DatabaseOptions options;
  options.data_dir = dir.path();
  auto first = Engine::Open(options, clock);
  ASSERT_OK(first);
  auto second = Engine::Open(options, clock);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Status::Code::kInternal);
}

}  // namespace
}  // namespace ddb::engine
