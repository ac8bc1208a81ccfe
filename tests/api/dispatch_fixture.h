// The fixture of the suites that send DynamoDB requests through
// api::Dispatch, as the server would, without sockets: a fresh database in
// memory on a fake clock, the shared namespace, region us-east-1.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "api/dispatch.h"
#include "engine/clock.h"
#include "engine/engine.h"

namespace ddb::api {

class DispatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine::DatabaseOptions options;
    options.in_memory = true;
    auto opened = engine::Engine::Open(options, clock_);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    engine_ = std::move(opened).value();
  }

  // Sends "DynamoDB_20120810.<op>" with `json`.
  Response Call(std::string_view op, std::string_view json) {
    return Dispatch(*engine_, caller_, "DynamoDB_20120810." + std::string(op), json);
  }

  // Calls an operation that must succeed (HTTP 200) and returns its answer.
  std::string CallOkBody(std::string_view op, std::string_view json) {
    Response response = Call(op, json);
    EXPECT_EQ(response.http_status, 200) << op << ": " << response.body;
    return response.body;
  }

  engine::FakeClock clock_;
  std::unique_ptr<engine::Engine> engine_;
  Caller caller_{.ns = "", .region = "us-east-1"};
};

}  // namespace ddb::api
