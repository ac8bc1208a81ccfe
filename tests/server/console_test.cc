// The console's routing without sockets: which requests get the page, its
// files, or nothing from the console at all.
#include "server/console.h"

#include <gtest/gtest.h>

#include <string>

#include "server/console_assets.h"

namespace ddb::server {
namespace {

HttpRequest Get(std::string target, std::string accept = "") {
  HttpRequest request;
  request.method = "GET";
  request.target = std::move(target);
  request.accept = std::move(accept);
  return request;
}

std::string Header(const HttpResponse& response, std::string_view name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "";
}

TEST(ConsoleTest, EmbedsTheConsoleFiles) {
  bool has_page = false;
  for (const ConsoleAsset& asset : ConsoleAssets()) {
    EXPECT_FALSE(asset.body.empty()) << asset.name;
    if (asset.name == "index.html") has_page = true;
  }
  EXPECT_TRUE(has_page);
}

TEST(ConsoleTest, ABrowserAskingForTheRootGetsThePage) {
  auto response = ServeConsole(Get("/", "text/html,application/xhtml+xml,*/*;q=0.8"));
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(Header(*response, "Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(response->body.find("/_localdynamo/console/app.js"), std::string::npos);
}

TEST(ConsoleTest, OtherRequestsAreNotTheConsolesBusiness) {
  EXPECT_FALSE(ServeConsole(Get("/")).has_value());
  EXPECT_FALSE(ServeConsole(Get("/", "*/*")).has_value());
  EXPECT_FALSE(ServeConsole(Get("/_localdynamo/clock", "text/html")).has_value());
  HttpRequest post = Get("/", "text/html");
  post.method = "POST";
  EXPECT_FALSE(ServeConsole(post).has_value());
}

TEST(ConsoleTest, ServesFilesByNameWithTheirTypes) {
  auto script = ServeConsole(Get("/_localdynamo/console/app.js?v=1"));
  ASSERT_TRUE(script.has_value());
  EXPECT_EQ(script->status, 200);
  EXPECT_EQ(Header(*script, "Content-Type"), "text/javascript; charset=utf-8");
  auto missing = ServeConsole(Get("/_localdynamo/console/missing.js"));
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(missing->status, 404);
  HttpRequest put = Get("/_localdynamo/console/app.js");
  put.method = "PUT";
  EXPECT_EQ(ServeConsole(put)->status, 405);
}

}  // namespace
}  // namespace ddb::server
