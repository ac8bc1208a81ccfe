// Who may reach the server (server/access_policy.h): web pages by their
// Origin, the admin API's and console's GETs by their Host, and admin calls
// by their token or the read-only rule beyond loopback. The running server
// is tested through browsers in tests/browser/security.test.js and through
// HTTP in tests/e2e/test_security.py.
#include "server/access_policy.h"

#include <gtest/gtest.h>

namespace ddb::server {
namespace {

TEST(AccessPolicyTest, ByDefaultOnlyLoopbackPagesMayCall) {
  AccessPolicy policy;
  for (const char* origin : {"http://localhost:3000", "http://127.0.0.1:8000", "http://[::1]:5173",
                             "https://localhost", "http://app.localhost:3000", "http://127.1.2.3",
                             "HTTP://LOCALHOST:3000"}) {
    EXPECT_TRUE(policy.AllowsOrigin(origin)) << origin;
  }
  for (const char* origin : {"http://evil.example", "http://evil.example:8000", "null",
                             "http://localhost.evil.example", "http://127.0.0.1.nip.io",
                             "http://[::2]:80", "file://", "http://10.0.0.5:3000"}) {
    EXPECT_FALSE(policy.AllowsOrigin(origin)) << origin;
  }
  EXPECT_EQ(policy.AllowOriginHeader("http://localhost:3000"), "http://localhost:3000");
}

TEST(AccessPolicyTest, CorsListsOriginsOrHostNamesBesideLoopback) {
  AccessPolicy policy({.cors = "https://app.example:8443, partner.example"});
  EXPECT_TRUE(policy.AllowsOrigin("https://app.example:8443"));
  EXPECT_FALSE(policy.AllowsOrigin("http://app.example:8443"));  // another scheme: another origin
  EXPECT_FALSE(policy.AllowsOrigin("https://app.example"));
  EXPECT_TRUE(policy.AllowsOrigin("http://partner.example:9000"));
  EXPECT_TRUE(policy.AllowsOrigin("http://localhost:3000"));
  EXPECT_FALSE(policy.AllowsOrigin("http://evil.example"));
  EXPECT_FALSE(policy.any_origin());
}

TEST(AccessPolicyTest, CorsStarAllowsEveryPageWithAStar) {
  AccessPolicy policy({.cors = "*"});
  EXPECT_TRUE(policy.any_origin());
  EXPECT_TRUE(policy.AllowsOrigin("http://evil.example"));
  EXPECT_EQ(policy.AllowOriginHeader("http://evil.example"), "*");
}

TEST(AccessPolicyTest, HostsAreLoopbackNamesOrAllowedOnes) {
  AccessPolicy policy({.allowed_hosts = {"dynamo.internal, Console.Example"}});
  for (const char* host : {"localhost:8000", "127.0.0.1:8000", "[::1]:8000", "localhost",
                           "dynamo.internal:8000", "console.example", ""}) {
    EXPECT_TRUE(policy.AllowsHost(host)) << host;
  }
  for (const char* host : {"evil.example:8000", "10.0.0.5:8000", "localdynamo:8000"}) {
    EXPECT_FALSE(policy.AllowsHost(host)) << host;
  }
  // Pages served under an allowed name are the console itself.
  EXPECT_TRUE(policy.AllowsOrigin("http://console.example:8000"));
}

TEST(AccessPolicyTest, AdminGetsNeedALoopbackHostWithoutAToken) {
  AccessPolicy policy;
  EXPECT_FALSE(policy.admin_read_only());
  EXPECT_FALSE(policy.CheckAdmin("GET", "localhost:8000", "", "").has_value());
  EXPECT_FALSE(policy.CheckAdmin("POST", "localdynamo:8000", "", "").has_value());
  auto refused = policy.CheckAdmin("GET", "evil.example:8000", "", "");
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->type, "localdynamo#HostNotAllowedException");
  EXPECT_EQ(refused->http_status, 403);
}

TEST(AccessPolicyTest, BeyondLoopbackWithoutATokenTheAdminApiIsReadOnly) {
  AccessPolicy policy({.listen_host = "0.0.0.0"});
  EXPECT_TRUE(policy.admin_read_only());
  EXPECT_FALSE(policy.CheckAdmin("GET", "localhost:8000", "", "").has_value());
  auto refused = policy.CheckAdmin("POST", "localhost:8000", "", "");
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->type, "localdynamo#AdminApiReadOnlyException");
  EXPECT_NE(refused->message.find("0.0.0.0"), std::string::npos);

  AccessPolicy open({.listen_host = "0.0.0.0", .admin_open = true});
  EXPECT_FALSE(open.admin_read_only());
  EXPECT_FALSE(open.CheckAdmin("POST", "localdynamo:8000", "", "").has_value());
  EXPECT_FALSE(AccessPolicy({.listen_host = "::1"}).admin_read_only());
  EXPECT_FALSE(AccessPolicy({.listen_host = "localhost"}).admin_read_only());
}

TEST(AccessPolicyTest, ATokenIsNeededOnEveryAdminCall) {
  AccessPolicy policy({.admin_token = "s3cret", .listen_host = "0.0.0.0"});
  EXPECT_FALSE(policy.admin_read_only());
  for (const char* method : {"GET", "POST", "DELETE"}) {
    auto missing = policy.CheckAdmin(method, "localhost:8000", "", "");
    ASSERT_TRUE(missing.has_value());
    EXPECT_EQ(missing->type, "localdynamo#UnauthorizedException");
    EXPECT_EQ(missing->http_status, 401);
    EXPECT_TRUE(policy.CheckAdmin(method, "localhost:8000", "", "Bearer s3cre").has_value());
    EXPECT_TRUE(policy.CheckAdmin(method, "localhost:8000", "", "Bearer s3cret2").has_value());
    EXPECT_TRUE(policy.CheckAdmin(method, "localhost:8000", "", "s3cret").has_value());
    // With the token, any Host: a page cannot know it.
    EXPECT_FALSE(policy.CheckAdmin(method, "localdynamo:8000", "", "Bearer s3cret").has_value());
  }
}

TEST(AccessPolicyTest, CorsNeverOpensTheAdminApiToOtherPages) {
  AccessPolicy policy({.cors = "*", .allowed_hosts = {"devbox"}});
  auto refused = policy.CheckAdmin("POST", "localhost:8000", "http://evil.example", "");
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->type, "localdynamo#CrossOriginRequestException");
  EXPECT_FALSE(policy.CheckAdmin("POST", "localhost:8000", "http://localhost:8000", "").has_value());
  EXPECT_FALSE(policy.CheckAdmin("POST", "devbox:8000", "http://devbox:8000", "").has_value());
  // Not even with the token: a page that has it is still another site's.
  AccessPolicy locked({.cors = "*", .admin_token = "t"});
  EXPECT_TRUE(
      locked.CheckAdmin("POST", "localhost:8000", "http://evil.example", "Bearer t").has_value());
}

}  // namespace
}  // namespace ddb::server
