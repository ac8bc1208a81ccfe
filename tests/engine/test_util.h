// Shared helpers for the engine tests: ASSERT_OK / EXPECT_OK and
// ExpectError for Status and Result, terse AttributeValue builders, a
// temporary directory, a schema builder and fixtures that open a Database
// on a FakeClock.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/database.h"
#include "engine/engine.h"

namespace ddb::engine {

// gtest failure messages show values as DebugString renders them.
inline void PrintTo(const AttributeValue& value, std::ostream* os) { *os << DebugString(value); }
inline void PrintTo(const Item& item, std::ostream* os) { *os << DebugString(item); }

}  // namespace ddb::engine

namespace ddb::engine::test {

// For ASSERT_OK and EXPECT_OK: success, or a failure that shows the message.
inline ::testing::AssertionResult IsOk(const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.message();
}
template <class T>
::testing::AssertionResult IsOk(const Result<T>& result) {
  return IsOk(result.status());
}

// ASSERT_OK(x), EXPECT_OK(x): the Status or Result x is OK.
#define ASSERT_OK(expr) ASSERT_TRUE(::ddb::engine::test::IsOk(expr))
#define EXPECT_OK(expr) EXPECT_TRUE(::ddb::engine::test::IsOk(expr))

// The Status or Result failed with `code` and exactly `message`.
inline void ExpectError(const Status& status, Status::Code code, std::string_view message) {
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), code);
  EXPECT_EQ(status.message(), message);
}
template <class T>
void ExpectError(const Result<T>& result, Status::Code code, std::string_view message) {
  ExpectError(result.status(), code, message);
}

inline AttributeValue S(std::string text) { return AttributeValue(std::move(text)); }

// A number from text that must parse.
inline AttributeValue N(std::string_view text) {
  Result<Number> parsed = Number::Parse(text);
  EXPECT_TRUE(parsed.ok()) << "Number::Parse(\"" << text << "\"): " << parsed.status().message();
  return AttributeValue(parsed.ok() ? *parsed : Number::Zero());
}

inline AttributeValue B(std::string bytes) { return AttributeValue(Binary{std::move(bytes)}); }

// A fresh directory under /tmp, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir() {
    char path[] = "/tmp/localdynamo-test-XXXXXX";
    if (mkdtemp(path) == nullptr) {
      ADD_FAILURE() << "mkdtemp failed";
      return;
    }
    path_ = path;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// An on-demand table keyed by `hash` and optionally `range`, whose attribute
// definitions are exactly its key attributes.
inline TableSchema MakeTable(std::string name, KeyElement hash,
                             std::optional<KeyElement> range = std::nullopt) {
  TableSchema schema;
  schema.name = std::move(name);
  schema.billing_mode = "PAY_PER_REQUEST";
  schema.key.hash.push_back(hash);
  schema.attribute_definitions.push_back(hash);
  if (range) {
    schema.key.range.push_back(*range);
    schema.attribute_definitions.push_back(*range);
  }
  return schema;
}

// (Re)opens *engine with `options` on `clock`, and points *db at its data
// plane; a failure fails the test.
inline void OpenEngine(const DatabaseOptions& options, const Clock& clock,
                       std::unique_ptr<Engine>* engine, Database** db) {
  *db = nullptr;
  engine->reset();  // closes the old one first: a directory is open in one Engine at a time
  auto opened = Engine::Open(options, clock);
  ASSERT_OK(opened);
  *engine = std::move(opened).value();
  *db = &(*engine)->database();
}

// One database on a FakeClock, opened by the test (Open) with the options
// it needs.
class DatabaseFixture : public ::testing::Test {
 protected:
  void Open(const DatabaseOptions& options) { OpenEngine(options, clock_, &engine_, &db_); }

  FakeClock clock_;
  std::unique_ptr<Engine> engine_;
  Database* db_ = nullptr;  // engine_'s data plane
};

// Runs each test over an in-memory database (parameter false) and one in a
// temporary directory (parameter true). Open() (re)opens it with options_.
class DatabaseModesTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { Open(); }

  void Open() {
    DatabaseOptions options = options_;
    options.in_memory = !GetParam();
    options.data_dir = dir_.path();
    OpenEngine(options, clock_, &engine_, &db_);
  }

  FakeClock clock_;
  TempDir dir_;
  DatabaseOptions options_;  // settings for Open beyond the mode
  std::unique_ptr<Engine> engine_;
  Database* db_ = nullptr;  // engine_'s data plane
};

// Test names for INSTANTIATE_TEST_SUITE_P over DatabaseModesTest.
inline std::string ModeName(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "Persistent" : "InMemory";
}

}  // namespace ddb::engine::test
