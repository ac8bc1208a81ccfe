// The command line (ParseOptions) where it meets DynamoDB Local's signals:
// -cors's value, --root-answer and $LOCALDYNAMO_ROOT_ANSWER; the start-up
// banner built from the options; and which answers the health probe counts
// as healthy. The running binary is tested end to end in
// tests/e2e/test_dynamodb_local_signals.py.
#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "server/dynamodb_local_banner.h"
#include "server/healthcheck.h"
#include "server/options.h"

namespace ddb::server {
namespace {

// Parses a command line given without the program name.
std::optional<Options> Parse(std::initializer_list<const char*> args, int* exit_code) {
  std::vector<std::string> storage = {"localdynamo"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : storage) argv.push_back(arg.data());
  testing::internal::CaptureStderr();
  auto options = ParseOptions(static_cast<int>(argv.size()), argv.data(), exit_code);
  testing::internal::GetCapturedStderr();
  return options;
}

class OptionsTest : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv("LOCALDYNAMO_ROOT_ANSWER"); }
  void TearDown() override { unsetenv("LOCALDYNAMO_ROOT_ANSWER"); }
  int exit_code_ = -1;
};

TEST_F(OptionsTest, RootAnswersAsDynamoDbByDefault) {
  auto options = Parse({}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_FALSE(options->dynamodb_local_root);
}

TEST_F(OptionsTest, RootAnswerFlagSelectsDynamoDbLocal) {
  auto options = Parse({"--root-answer", "dynamodb-local"}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_TRUE(options->dynamodb_local_root);
  // DynamoDB Local's single-dash spelling style works too.
  options = Parse({"-root-answer", "dynamodb-local", "-inMemory"}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_TRUE(options->dynamodb_local_root);
  EXPECT_TRUE(options->in_memory);
}

TEST_F(OptionsTest, EnvironmentSetsTheRootAnswerAndTheFlagWins) {
  setenv("LOCALDYNAMO_ROOT_ANSWER", "dynamodb-local", 1);
  auto options = Parse({}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_TRUE(options->dynamodb_local_root);
  options = Parse({"--root-answer=dynamodb"}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_FALSE(options->dynamodb_local_root);
}

TEST_F(OptionsTest, UnknownRootAnswersAreRefused) {
  EXPECT_FALSE(Parse({"--root-answer", "dynamo"}, &exit_code_).has_value());
  EXPECT_EQ(exit_code_, 2);
  setenv("LOCALDYNAMO_ROOT_ANSWER", "400", 1);
  exit_code_ = -1;
  EXPECT_FALSE(Parse({}, &exit_code_).has_value());
  EXPECT_EQ(exit_code_, 2);
}

TEST_F(OptionsTest, CorsValueIsKeptForTheBanner) {
  auto options = Parse({}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(options->cors_params, "");
  options = Parse({"-cors", "http://a.example,http://b.example"}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(options->cors_params, "http://a.example,http://b.example");
}

TEST_F(OptionsTest, AdminTokenFromTheFlagOrTheEnvironment) {
  unsetenv("LOCALDYNAMO_ADMIN_TOKEN");
  auto options = Parse({}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(options->admin_token, "");
  EXPECT_FALSE(options->admin_open);
  setenv("LOCALDYNAMO_ADMIN_TOKEN", "from-env", 1);
  options = Parse({}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(options->admin_token, "from-env");
  options = Parse({"--admin-token", "from-flag", "--admin-open"}, &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(options->admin_token, "from-flag");
  EXPECT_TRUE(options->admin_open);
  unsetenv("LOCALDYNAMO_ADMIN_TOKEN");
}

TEST_F(OptionsTest, HostListsAreRepeatable) {
  auto options = Parse({"--allowed-hosts", "a.example,b.example", "--allowed-hosts", "c",
                        "--trigger-hosts", "lambda"},
                       &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(options->allowed_hosts, (std::vector<std::string>{"a.example,b.example", "c"}));
  EXPECT_EQ(options->trigger_hosts, (std::vector<std::string>{"lambda"}));
}

TEST_F(OptionsTest, BannerIsDynamoDbLocalsWithThisRunsValues) {
  auto options = Parse({"-jar", "DynamoDBLocal.jar", "-sharedDb", "-inMemory", "-port", "8123"},
                       &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(DynamoDbLocalBanner(*options, 8123, "1.2.3"),
            "Initializing DynamoDB Local with the following configuration:\n"
            "Port:\t8123\n"
            "InMemory:\ttrue\n"
            "Version:\t1.2.3\n"
            "DbPath:\tnull\n"
            "SharedDb:\ttrue\n"
            "shouldDelayTransientStatuses:\tfalse\n"
            "CorsParams:\tnull\n"
            "\n");
  options = Parse({"-dbPath", "/data", "--per-key-databases", "-delayTransientStatuses", "-cors",
                   "*"},
                  &exit_code_);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(DynamoDbLocalBanner(*options, 8000, "dev"),
            "Initializing DynamoDB Local with the following configuration:\n"
            "Port:\t8000\n"
            "InMemory:\tfalse\n"
            "Version:\tdev\n"
            "DbPath:\t/data\n"
            "SharedDb:\tfalse\n"
            "shouldDelayTransientStatuses:\ttrue\n"
            "CorsParams:\t*\n"
            "\n");
}

TEST(HealthyAnswerTest, DynamoDbsAndDynamoDbLocalsRootAnswersAreHealthy) {
  EXPECT_TRUE(IsHealthyAnswer(200, "healthy: localhost "));
  EXPECT_TRUE(IsHealthyAnswer(
      400, R"({"__type":"com.amazonaws.dynamodb.v20120810#MissingAuthenticationToken",)"
           R"("Message":"Request must contain either a valid (registered) AWS access key ID )"
           R"(or X.509 certificate."})"));
  EXPECT_FALSE(IsHealthyAnswer(400, R"({"__type":"x#ValidationException"})"));
  EXPECT_FALSE(IsHealthyAnswer(503, ""));
  EXPECT_FALSE(IsHealthyAnswer(404, "<UnknownOperationException/>\n"));
}

}  // namespace
}  // namespace ddb::server
