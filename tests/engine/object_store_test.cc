// The object stores behind exports and imports: folder and memory alike for
// what S3 does (missing buckets and keys, listing by prefix in key order),
// and a folder's refusal of keys that would leave the bucket's folder.
#include "engine/object_store.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

// REQUIRES: "bucket" exists (a memory store makes it on the first Put).
void ExpectS3Behaviour(ObjectStore& store) {
  EXPECT_EQ(store.Get("bucket", "a").status().code(), Status::Code::kNotFound);
  ASSERT_TRUE(store.Put("bucket", "p/2.json", "two").ok());
  ASSERT_TRUE(store.Put("bucket", "p/1.json", "one").ok());
  ASSERT_TRUE(store.Put("bucket", "q", "").ok());
  ASSERT_TRUE(store.Put("bucket", "p/1.json", "ONE").ok());  // replaced
  EXPECT_EQ(*store.Get("bucket", "p/1.json"), "ONE");
  EXPECT_EQ(*store.Get("bucket", "q"), "");
  EXPECT_EQ(store.Get("bucket", "p/3.json").status().message(),
            "The specified key does not exist.");
  EXPECT_EQ(*store.List("bucket", "p/"), (std::vector<std::string>{"p/1.json", "p/2.json"}));
  EXPECT_EQ(*store.List("bucket", ""), (std::vector<std::string>{"p/1.json", "p/2.json", "q"}));
  EXPECT_TRUE(store.List("bucket", "none")->empty());
}

TEST(ObjectStoreTest, MemoryBehavesAsS3) {
  MemoryObjectStore store;
  EXPECT_EQ(store.List("bucket", "").status().code(), Status::Code::kNotFound);
  ExpectS3Behaviour(store);
}

TEST(ObjectStoreTest, FolderBehavesAsS3AndStaysInItsFolder) {
  test::TempDir dir;
  FolderObjectStore store(dir.path() + "/s3");
  // A bucket is a folder that exists: none is made by a write.
  EXPECT_EQ(store.Put("bucket", "p/0.json", "zero").message(),
            "The specified bucket does not exist");
  EXPECT_EQ(store.List("bucket", "").status().code(), Status::Code::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/s3/bucket"));
  std::filesystem::create_directories(dir.path() + "/s3/bucket");
  ExpectS3Behaviour(store);
  EXPECT_TRUE(std::filesystem::is_regular_file(dir.path() + "/s3/bucket/p/1.json"));
  for (const char* key : {"../escape", "a/../../b", "/abs", "a//b", "./a"}) {
    EXPECT_FALSE(store.Put("bucket", key, "x").ok()) << key;
  }
  EXPECT_FALSE(store.Put("..", "a", "x").ok());
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/escape"));
}

}  // namespace
}  // namespace ddb::engine
