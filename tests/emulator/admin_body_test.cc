// An admin request's body: an object or nothing; anything else is one
// ValidationException with one text, whichever endpoint reads it.

#include "emulator/admin_body.h"

#include <gtest/gtest.h>

#include <string>

namespace ddb::emulator {
namespace {

void ExpectRefused(const std::string& body) {
  auto doc = ParseAdminBody(body);
  ASSERT_FALSE(doc.ok()) << body;
  EXPECT_EQ(doc.error().short_type(), "ValidationException") << body;
  EXPECT_EQ(doc.error().message, "The body must be a JSON object") << body;
}

TEST(AdminBody, NothingOrBlanksReadAsAnEmptyObject) {
  for (const char* body : {"", " ", "\r\n\t "}) {
    auto doc = ParseAdminBody(body);
    ASSERT_TRUE(doc.ok()) << '"' << body << '"';
    ASSERT_TRUE(doc->IsObject());
    EXPECT_EQ(doc->MemberCount(), 0u);
  }
}

TEST(AdminBody, AnObjectIsReadAsSent) {
  auto doc = ParseAdminBody(R"( {"Namespace": "k/us-east-1", "Models": false} )");
  ASSERT_TRUE(doc.ok());
  EXPECT_STREQ((*doc)["Namespace"].GetString(), "k/us-east-1");
  EXPECT_FALSE((*doc)["Models"].GetBool());
}

TEST(AdminBody, AnythingButAnObjectIsRefused) {
  for (const char* body : {"[]", "\"Reset\"", "1", "null", "{", "{\"a\": 1} x", "{'a': 1}"}) {
    ExpectRefused(body);
  }
}

TEST(AdminBody, NestingIsBounded) {
  auto nested = [](int depth) {
    return "{\"a\":" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
  };
  EXPECT_TRUE(ParseAdminBody(nested(64)).ok());
  ExpectRefused(nested(65));
  ExpectRefused(nested(100000));  // refused, not a stack overflow
}

}  // namespace
}  // namespace ddb::emulator
