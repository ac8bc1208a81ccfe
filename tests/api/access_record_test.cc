#include "api/access_record.h"

#include <gtest/gtest.h>

#include <string>

namespace ddb::api {
namespace {

TEST(KeyTextTest, GivesBackTheKeyItWasMadeFrom) {
  engine::Item key{
      {"pk", engine::AttributeValue(std::string("user#1"))},
      {"n", engine::AttributeValue(*engine::Number::Parse("-12.50"))},
      {"b", engine::AttributeValue(engine::Binary{std::string("\x00\x01", 2)})},
  };
  EXPECT_EQ(KeyFromText(KeyText(key)), key);
}

TEST(KeyTextTest, KeepsValuesThatHoldAnyBytes) {
  engine::Item key{
      {"pk:1", engine::AttributeValue(std::string("a:3:b\x1e\x1f"))},
      {"sk", engine::AttributeValue(engine::Binary{std::string("\x1e\x1f:9", 4)})},
  };
  EXPECT_EQ(KeyFromText(KeyText(key)), key);
  EXPECT_NE(KeyText({{"a", engine::AttributeValue(std::string("b1:c"))}}),
            KeyText({{"a", engine::AttributeValue(std::string("b"))},
                     {"c", engine::AttributeValue(std::string(""))}}));
}

TEST(KeyTextTest, EqualNumbersGiveOneText) {
  auto text = [](const char* number) {
    return KeyText({{"n", engine::AttributeValue(*engine::Number::Parse(number))}});
  };
  EXPECT_EQ(text("1.50"), text("1.5"));
  EXPECT_NE(text("1.5"), text("15"));
}

TEST(KeyTextTest, AStringAndANumberDiffer) {
  EXPECT_NE(KeyText({{"k", engine::AttributeValue(std::string("1"))}}),
            KeyText({{"k", engine::AttributeValue(*engine::Number::Parse("1"))}}));
}

}  // namespace
}  // namespace ddb::api
