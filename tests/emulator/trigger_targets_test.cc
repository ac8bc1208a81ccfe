// Where HTTP triggers may send records (emulator/trigger_targets.h): by
// name at creation. Delivery's check by address is tested end to end in
// tests/e2e/test_security.py.
#include "emulator/trigger_targets.h"

#include <gtest/gtest.h>

namespace ddb::emulator {
namespace {

TEST(TriggerTargetsTest, LoopbackOnlyByDefault) {
  TriggerTargets targets;
  for (const char* url : {"http://127.0.0.1:9000/2015-03-31/functions/function/invocations",
                          "http://localhost:3000/", "http://[::1]:80/x", "http://127.0.0.2"}) {
    EXPECT_FALSE(targets.Refusal(url).has_value()) << url;
  }
  for (const char* url : {"http://169.254.169.254/latest/meta-data", "http://lambda:8080/",
                          "http://10.0.0.1/", "http://localhost.evil.example/", "http://"}) {
    EXPECT_TRUE(targets.Refusal(url).has_value()) << url;
  }
  EXPECT_NE(targets.Refusal("http://lambda:8080/")->find("--trigger-hosts lambda"),
            std::string::npos);
}

TEST(TriggerTargetsTest, ListedHostsAndAStar) {
  TriggerTargets targets({"lambda", "Receiver.CI:9000"});
  EXPECT_FALSE(targets.Refusal("http://lambda:8080/").has_value());
  EXPECT_FALSE(targets.Refusal("http://receiver.ci/").has_value());
  EXPECT_TRUE(targets.Refusal("http://other:8080/").has_value());
  EXPECT_TRUE(targets.Listed("LAMBDA"));
  EXPECT_FALSE(targets.Listed("localhost"));
  EXPECT_FALSE(TriggerTargets({"*"}).Refusal("http://anywhere.example/").has_value());
  // Each entry is a list, as --trigger-hosts takes it.
  EXPECT_TRUE(TriggerTargets({"a.test, b.test"}).Listed("b.test"));
}

}  // namespace
}  // namespace ddb::emulator
