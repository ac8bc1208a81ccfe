// The emulator's failure paths below HTTP: fault rules (parsing, matching,
// counts, seeded probabilities, databases) and the throttle's arithmetic on
// a fake clock (refill, burst, GSIs, UpdateTable), through RequestControls
// as the server calls it.

#include "emulator/request_controls.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "tests/api/dispatch_fixture.h"

namespace ddb::emulator {
namespace {

class RequestControlsTest : public api::DispatchTest {
 protected:
  void SetUp() override {
    DispatchTest::SetUp();
    controls_ = std::make_unique<RequestControls>(*engine_, clock_);
  }

  ControlledResponse Send(std::string_view op, std::string_view json,
                          const api::Caller* caller = nullptr) {
    return controls_->Dispatch(caller ? *caller : caller_, "DynamoDB_20120810." + std::string(op),
                               json);
  }

  void CreateTable(std::string_view name, int read, int write, std::string_view gsi_write = "") {
    std::string gsi;
    if (!gsi_write.empty()) {
      gsi = R"(,"GlobalSecondaryIndexes":[{"IndexName":"by-g","Projection":{"ProjectionType":"ALL"},
               "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
               "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":)" +
            std::string(gsi_write) + "}}]";
    }
    CallOkBody("CreateTable", R"({"TableName":")" + std::string(name) +
                                  R"(","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"})" +
                                  std::string(gsi.empty() ? "" : R"(,{"AttributeName":"g","AttributeType":"S"})") +
                                  R"(],
        "ProvisionedThroughput":{"ReadCapacityUnits":)" + std::to_string(read) +
                                  R"(,"WriteCapacityUnits":)" + std::to_string(write) + "}" + gsi +
                                  "}");
  }

  // Whether a 1-unit PutItem (with the GSI key when `g`) is admitted.
  bool Put(std::string_view table, std::string_view pk, bool g = false) {
    auto answer = Send("PutItem", R"({"TableName":")" + std::string(table) +
                                      R"(","Item":{"pk":{"S":")" + std::string(pk) + "\"}" +
                                      (g ? R"(,"g":{"S":"x"})" : "") + "}}");
    if (answer.response.http_status == 200) return true;
    EXPECT_NE(answer.response.body.find("ProvisionedThroughputExceededException"), std::string::npos)
        << answer.response.body;
    return false;
  }

  std::unique_ptr<RequestControls> controls_;
};

TEST_F(RequestControlsTest, InactiveUntilAskedAndThenDispatchesUnchanged) {
  EXPECT_FALSE(controls_->active());
  ASSERT_TRUE(controls_->faults().Add(R"({"Operations":["Scan"],"DelayMillis":5})").ok());
  EXPECT_TRUE(controls_->active());
  auto answer = Send("ListTables", "{}");
  EXPECT_EQ(answer.response.http_status, 200);
  EXPECT_EQ(answer.delay_millis, 0);
  EXPECT_EQ(answer.response.body, R"({"TableNames":[]})");
  controls_->faults().Clear(std::nullopt);
  EXPECT_FALSE(controls_->active());
}

TEST_F(RequestControlsTest, AnErrorRuleFiresForItsCountOnItsTablesOnly) {
  CreateTable("hit", 100, 100);
  CreateTable("spared", 100, 100);
  ASSERT_TRUE(controls_->faults()
                  .Add(R"({"Tables":["hit"],"Count":2,"Error":{"Type":"InternalServerError"}})")
                  .ok());
  EXPECT_TRUE(Put("spared", "a"));
  for (int i = 0; i < 2; ++i) {
    auto answer = Send("PutItem", R"({"TableName":"hit","Item":{"pk":{"S":"a"}}})");
    EXPECT_EQ(answer.response.http_status, 500);
    EXPECT_EQ(answer.response.body,
              R"({"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"})");
  }
  EXPECT_TRUE(Put("hit", "a"));
  EXPECT_FALSE(controls_->active());
}

TEST_F(RequestControlsTest, ASeededProbabilityFiresOnTheSameRequestsEveryRun) {
  auto run = [&] {
    controls_->faults().Clear(std::nullopt);
    EXPECT_TRUE(controls_->faults()
                    .Add(R"({"Probability":0.5,"Seed":3,"Error":{"Type":"ThrottlingException"}})")
                    .ok());
    std::string pattern;
    for (int i = 0; i < 40; ++i) pattern += Send("ListTables", "{}").response.http_status == 200 ? '.' : 'X';
    return pattern;
  };
  std::string first = run();
  EXPECT_EQ(run(), first);
  EXPECT_NE(first.find('X'), std::string::npos);
  EXPECT_NE(first.find('.'), std::string::npos);
}

TEST_F(RequestControlsTest, RulesKeepToTheirDatabase) {
  ASSERT_TRUE(controls_->faults().Add(R"({"Namespace":"a/us-east-1","DropConnection":true})").ok());
  api::Caller other{.ns = "b/us-east-1", .region = "us-east-1"};
  api::Caller owner{.ns = "a/us-east-1", .region = "us-east-1"};
  EXPECT_FALSE(Send("ListTables", "{}", &other).drop_connection);
  EXPECT_FALSE(Send("ListTables", "{}").drop_connection);
  EXPECT_TRUE(Send("ListTables", "{}", &owner).drop_connection);
  EXPECT_EQ(controls_->faults().Clear(std::string("b/us-east-1")), 0u);
  EXPECT_EQ(controls_->faults().Clear(std::string("a/us-east-1")), 1u);
}

// Both drop the connection; only DropAnswer runs the request first.
TEST_F(RequestControlsTest, DropAnswerAppliesTheWriteAndDropConnectionDoesNot) {
  CreateTable("orders", 100, 100);
  ASSERT_TRUE(controls_->faults().Add(R"({"Count":1,"DropConnection":true})").ok());
  auto dropped = Send("PutItem", R"({"TableName":"orders","Item":{"pk":{"S":"dropped"}}})");
  EXPECT_TRUE(dropped.drop_connection);
  auto added = controls_->faults().Add(R"({"Count":1,"DropAnswer":true})");
  ASSERT_TRUE(added.ok());
  EXPECT_NE(added->find(R"("DropAnswer":true)"), std::string::npos) << *added;
  auto answered = Send("PutItem", R"({"TableName":"orders","Item":{"pk":{"S":"applied"}}})");
  EXPECT_TRUE(answered.drop_connection);
  EXPECT_EQ(answered.response.http_status, 200);  // what ran; the server sends none of it
  EXPECT_FALSE(controls_->active());
  EXPECT_EQ(CallOkBody("GetItem", R"({"TableName":"orders","Key":{"pk":{"S":"dropped"}}})"), "{}");
  EXPECT_EQ(CallOkBody("GetItem", R"({"TableName":"orders","Key":{"pk":{"S":"applied"}}})"),
            R"({"Item":{"pk":{"S":"applied"}}})");
}

TEST_F(RequestControlsTest, ARuleHasExactlyOneAction) {
  for (std::string_view rule :
       {R"({"DropAnswer":true,"DropConnection":true})", R"({"DropAnswer":true,"DelayMillis":1})",
        R"({"DropAnswer":false})"}) {
    auto added = controls_->faults().Add(rule);
    ASSERT_FALSE(added.ok()) << rule;
    EXPECT_NE(added.error().message.find("DropAnswer: true"), std::string::npos)
        << added.error().message;
  }
}

TEST_F(RequestControlsTest, TheThrottleRefillsAtTheProvisionedRateWithinA300SecondBurst) {
  controls_->throttle().set_enabled(true);
  CreateTable("tight", 1, 2);
  EXPECT_TRUE(Put("tight", "1"));
  EXPECT_TRUE(Put("tight", "2"));
  EXPECT_FALSE(Put("tight", "3"));
  clock_.Advance(500);  // one unit
  EXPECT_TRUE(Put("tight", "3"));
  EXPECT_FALSE(Put("tight", "4"));
  clock_.Advance(1000 * 1000);  // far more than 300 s
  int admitted = 0;
  while (Put("tight", "k") && admitted < 1000) ++admitted;
  EXPECT_EQ(admitted, 600);
}

TEST_F(RequestControlsTest, AFullIndexThrottlesWritesAndUpdateTableTakesEffect) {
  controls_->throttle().set_enabled(true);
  CreateTable("indexed", 5, 100, "1");
  EXPECT_TRUE(Put("indexed", "1", true));
  auto refused = Send("PutItem", R"({"TableName":"indexed","Item":{"pk":{"S":"2"},"g":{"S":"x"}}})");
  EXPECT_NE(refused.response.body.find(R"("reason":"IndexWriteProvisionedThroughputExceeded")"),
            std::string::npos)
      << refused.response.body;
  EXPECT_NE(refused.response.body.find(":table/indexed/index/by-g\""), std::string::npos);
  CallOkBody("UpdateTable", R"({"TableName":"indexed","GlobalSecondaryIndexUpdates":[{"Update":{
      "IndexName":"by-g","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":4}}}]})");
  clock_.Advance(1000);
  int admitted = 0;
  while (Put("indexed", "k" + std::to_string(admitted), true) && admitted < 100) ++admitted;
  EXPECT_EQ(admitted, 4);
}

TEST_F(RequestControlsTest, TheClientGetsTheConsumedCapacityItAskedFor) {
  controls_->throttle().set_enabled(true);
  CreateTable("roomy", 100, 100);
  auto none = Send("PutItem", R"({"TableName":"roomy","Item":{"pk":{"S":"1"}}})");
  EXPECT_EQ(none.response.body, "{}");
  auto total = Send("PutItem", R"({"TableName":"roomy","Item":{"pk":{"S":"1"}},"ReturnConsumedCapacity":"TOTAL"})");
  EXPECT_EQ(total.response.body, R"({"ConsumedCapacity":{"TableName":"roomy","CapacityUnits":1.0}})");
}

TEST_F(RequestControlsTest, AnInvalidReturnConsumedCapacityStillGetsDynamoDBsValidationError) {
  controls_->throttle().set_enabled(true);
  CreateTable("roomy", 100, 100);
  std::string request = R"({"TableName":"roomy","Item":{"pk":{"S":"1"}},"ReturnConsumedCapacity":"ALL"})";
  EXPECT_EQ(Send("PutItem", request).response.body, Call("PutItem", request).body);
  EXPECT_EQ(Call("PutItem", request).http_status, 400);
}

}  // namespace
}  // namespace ddb::emulator
