// Which namespace a request's access key and region reach, in each of the
// server's three ways of keeping databases, and the region a namespace's
// ARNs name.
#include "api/database_scope.h"

#include <gtest/gtest.h>

namespace ddb::api {
namespace {

TEST(DatabaseScopeTest, EachRegionIsItsOwnDatabaseAndTheDefaultKeepsTheOldOne) {
  EXPECT_EQ(NamespaceOf(DatabaseScope::kPerRegion, "alice", "us-east-1"), "");
  EXPECT_EQ(NamespaceOf(DatabaseScope::kPerRegion, "bob", "us-east-1"), "");
  EXPECT_EQ(NamespaceOf(DatabaseScope::kPerRegion, "alice", "eu-west-1"), "eu-west-1");
  EXPECT_EQ(NamespaceOf(DatabaseScope::kPerRegion, "alice", ""), "");  // unsigned
}

TEST(DatabaseScopeTest, SharedAndPerKeyDatabases) {
  EXPECT_EQ(NamespaceOf(DatabaseScope::kShared, "alice", "eu-west-1"), "");
  EXPECT_EQ(NamespaceOf(DatabaseScope::kPerKeyAndRegion, "alice", "eu-west-1"),
            "alice/eu-west-1");
  EXPECT_EQ(NamespaceOf(DatabaseScope::kPerKeyAndRegion, "alice", ""), "alice/us-east-1");
}

TEST(DatabaseScopeTest, TheRegionANamespaceNames) {
  EXPECT_EQ(RegionOfNamespace(""), "us-east-1");
  EXPECT_EQ(RegionOfNamespace("eu-west-1"), "eu-west-1");
  EXPECT_EQ(RegionOfNamespace("alice/ap-south-1"), "ap-south-1");
}

}  // namespace
}  // namespace ddb::api
