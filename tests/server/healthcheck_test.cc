// The --healthcheck URL reader (the probe itself is tested end to end in
// tests/e2e/test_command_line.py against the real binary).
#include "server/healthcheck.h"

#include <gtest/gtest.h>

namespace ddb::server {
namespace {

void ExpectTarget(const std::string& url, const std::string& host, const std::string& port,
                  const std::string& path) {
  auto target = ParseHealthCheckUrl(url);
  ASSERT_TRUE(target.has_value()) << url;
  EXPECT_EQ(target->host, host) << url;
  EXPECT_EQ(target->port, port) << url;
  EXPECT_EQ(target->path, path) << url;
}

TEST(HealthCheckUrlTest, ReadsHostPortAndPath) {
  ExpectTarget(kDefaultHealthCheckUrl, "127.0.0.1", "8000", "/");
  ExpectTarget("http://localhost:9000/_localdynamo/clock", "localhost", "9000",
               "/_localdynamo/clock");
  ExpectTarget("http://[::1]:8001/", "::1", "8001", "/");
}

TEST(HealthCheckUrlTest, DefaultsThePortTo80WithASchemeAnd8000Without) {
  ExpectTarget("http://example.internal", "example.internal", "80", "/");
  ExpectTarget("localhost", "localhost", "8000", "/");
  ExpectTarget("127.0.0.1:8123", "127.0.0.1", "8123", "/");
}

TEST(HealthCheckUrlTest, RefusesWhatItCannotProbe) {
  EXPECT_FALSE(ParseHealthCheckUrl("https://localhost:8000/"));
  EXPECT_FALSE(ParseHealthCheckUrl("http://localhost:/"));
  EXPECT_FALSE(ParseHealthCheckUrl("http://localhost:80a/"));
  EXPECT_FALSE(ParseHealthCheckUrl("http:///"));
  EXPECT_FALSE(ParseHealthCheckUrl(""));
}

}  // namespace
}  // namespace ddb::server
