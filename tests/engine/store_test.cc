#include "engine/storage/store.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace ddb::engine {
namespace {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Store::Options options;
    options.in_memory = true;
    auto store = Store::Open(options);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(*store);
  }

  void PutKeys(const std::string& prefix, int count) {
    Store::Batch batch(*store_);
    for (int i = 0; i < count; ++i) batch.Put(Family::kItems, prefix + std::to_string(i), "v");
    ASSERT_TRUE(store_->Write(batch).ok());
  }

  std::vector<std::string> Keys() {
    std::vector<std::string> keys;
    auto it = store_->NewIterator(Family::kItems, "", "");
    for (it->SeekToFirst(); it->Valid(); it->Next()) keys.emplace_back(it->key());
    return keys;
  }

  void Clear(std::string_view begin, std::string_view end) {
    Store::Batch batch(*store_);
    batch.Clear(Family::kItems, begin, end);
    ASSERT_TRUE(store_->Write(batch).ok());
  }

  std::unique_ptr<Store> store_;
};

TEST_F(StoreTest, ClearOfAFewKeysDeletesExactlyTheRange) {
  PutKeys("a", 3);
  PutKeys("b", 5);
  PutKeys("c", 2);
  Clear("b", "c");
  EXPECT_EQ(Keys(), (std::vector<std::string>{"a0", "a1", "a2", "c0", "c1"}));
  Clear("b", "c");  // nothing left there
  EXPECT_EQ(Keys().size(), 5u);
}

TEST_F(StoreTest, ClearOfManyKeysDeletesExactlyTheRange) {
  PutKeys("a", 1);
  PutKeys("b", 2500);  // more than are deleted one by one
  PutKeys("c", 1);
  Clear("b", "c");
  EXPECT_EQ(Keys(), (std::vector<std::string>{"a0", "c0"}));
  EXPECT_FALSE(store_->Get(Family::kItems, "b1234")->has_value());
}

}  // namespace
}  // namespace ddb::engine
