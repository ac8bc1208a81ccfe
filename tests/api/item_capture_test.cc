// CapturedItems against the general parser: whenever the one-pass reader
// accepts a request, the document and the items must be exactly what
// ParseUntrustedJson and ParseItem make of it; whatever it declines, the
// general path answers.
#include "api/items/item_capture.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "api/attribute_json.h"
#include "api/json_reader.h"

namespace ddb::api {
namespace {

using engine::DebugString;

std::span<const std::string_view> BatchPath() { return ItemPathFor("BatchWriteItem"); }

bool IsPlaceholder(const rapidjson::Value& value) {
  return value.IsObject() && value.MemberCount() == 1 &&
         View(value.MemberBegin()->name).starts_with(std::string_view("\0", 1));
}

// Walks the captured document and the general one together: equal but for
// placeholders, whose items must be what ParseItem makes of the general
// document's value there.
void ExpectSame(const rapidjson::Value& fast, const rapidjson::Value& slow, CapturedItems& captured,
                int* items_seen) {
  if (IsPlaceholder(fast)) {
    ++*items_seen;
    auto expected = ParseItem(slow);
    ASSERT_TRUE(expected.ok()) << "captured an item the general path refuses: "
                               << expected.error().message;
    auto got = captured.TakeOrParse(fast);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(DebugString(*got), DebugString(*expected));
    return;
  }
  ASSERT_EQ(fast.GetType(), slow.GetType());
  if (fast.IsString()) {
    EXPECT_EQ(View(fast), View(slow));
  } else if (fast.IsObject()) {
    ASSERT_EQ(fast.MemberCount(), slow.MemberCount());
    for (auto f = fast.MemberBegin(), s = slow.MemberBegin(); f != fast.MemberEnd(); ++f, ++s) {
      EXPECT_EQ(View(f->name), View(s->name));
      ExpectSame(f->value, s->value, captured, items_seen);
    }
  } else if (fast.IsArray()) {
    ASSERT_EQ(fast.Size(), slow.Size());
    for (rapidjson::SizeType i = 0; i < fast.Size(); ++i) {
      ExpectSame(fast[i], slow[i], captured, items_seen);
    }
  } else {
    EXPECT_TRUE(fast == slow);
  }
}

// Parses `body` both ways; returns how many items were captured (-1: the
// reader declined).
int CaptureAndCompare(std::string_view body) {
  rapidjson::Document fast;
  CapturedItems captured;
  if (!captured.Parse(body, BatchPath(), &fast)) {
    EXPECT_EQ(captured.size(), 0u);
    return -1;
  }
  rapidjson::Document slow;
  EXPECT_TRUE(ParseUntrustedJson(body, slow)) << "captured text the general parser refuses: " << body;
  if (slow.HasParseError() || !slow.IsObject()) return -1;
  int seen = 0;
  ExpectSame(fast, slow, captured, &seen);
  EXPECT_EQ(seen, static_cast<int>(captured.size())) << body;
  return seen;
}

std::string Batch(std::string_view item) {
  return R"({"RequestItems":{"t":[{"PutRequest":{"Item":)" + std::string(item) + "}}]}}";
}

TEST(ItemCaptureTest, CapturesEveryKindOfValueItReads) {
  EXPECT_EQ(CaptureAndCompare(Batch(
                R"({"pk":{"S":"a"},"n":{"N":"-0.125"},"z":{"N":"0.500"},"i":{"N":"1200"},)"
                R"("e":{"N":"1.5E3"},"zero":{"N":"-0.0"},"b":{"BOOL":false},"t":{"BOOL":true},)"
                R"("nul":{"NULL":true},"m":{"M":{"x":{"L":[]},"":{"S":""}}},)"
                R"("l":{"L":[{"N":"1"},{"S":"x"},{"M":{}},{"L":[{"N":"2.50"}]}]}})")),
            1);
  // Whitespace wherever JSON allows it, other members and tables around.
  EXPECT_EQ(CaptureAndCompare(
                " {\n\"ReturnConsumedCapacity\" : \"TOTAL\",\t\"RequestItems\":{ \"t\" : [ "
                "{ \"PutRequest\" : { \"Item\" : { \"pk\" : { \"S\" : \"a\" } , \"v\" : { \"L\" : [ "
                "{ \"N\" : \"1\" } , { \"N\" : \"2\" } ] } } } } ,"
                "{\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"b\"}}}}],"
                "\"u\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"c\"}}}}]},"
                "\"ReturnItemCollectionMetrics\":null, \"x\": [true, false, {}] } \r\n"),
            2);
  // A duplicated member: the document keeps both, ParseItem the last value.
  EXPECT_EQ(CaptureAndCompare(Batch(R"({"pk":{"S":"a"},"pk":{"S":"b"}})")), 1);
}

TEST(ItemCaptureTest, LeavesEverythingElseToTheGeneralPath) {
  const std::vector<std::string> declined = {
      "",
      "[]",
      "{",
      R"({"RequestItems":{}} x)",
      R"({"Limit":5})",                                        // a number outside items
      R"({"RequestItems":{"t\u0041":[]}})",                    // an escape
      "{\"RequestItems\":{\"t\xc3\xa9\":[]}}",                 // not ASCII
      Batch(R"({})"),                                          // an empty item
      Batch(R"({"":{"S":"a"}})"),                              // an empty name
      Batch(R"({"a":{"S":"x","N":"1"}})"),                     // two types
      Batch(R"({"a":{"S":null}})"),
      Batch(R"({"a":{"X":"1"}})"),
      Batch(R"({"a":{"N":"1e999"}})"),                         // an invalid number
      Batch(R"({"a":{"N":1}})"),
      Batch(R"({"a":{"NULL":false}})"),
      Batch(R"({"a":{"B":"AA=="}})"),                          // binary and sets
      Batch(R"({"a":{"SS":["x"]}})"),
      Batch(R"({"a":{"S":"x\"y"}})"),
      Batch("{\"a\":{\"S\":\"x\ty\"}}"),                       // a raw control character
      Batch("null"),
      Batch(R"("text")"),
  };
  for (const std::string& body : declined) {
    EXPECT_EQ(CaptureAndCompare(body), -1) << body;
  }
  // 31 levels of lists below an attribute are read; 32 are the general
  // path's nesting error.
  auto nested = [](int levels) {
    std::string value = R"({"S":"x"})";
    for (int i = 0; i < levels; ++i) value = R"({"L":[)" + value + "]}";
    return Batch(R"({"pk":{"S":"a"},"deep":)" + value + "}");
  };
  EXPECT_EQ(CaptureAndCompare(nested(31)), 1);
  EXPECT_EQ(CaptureAndCompare(nested(32)), -1);
}

TEST(ItemCaptureTest, OtherOperationsAreNotCaptured) {
  EXPECT_TRUE(ItemPathFor("PutItem").empty());
  rapidjson::Document doc;
  CapturedItems captured;
  EXPECT_FALSE(captured.Parse(R"({"Item":{"pk":{"S":"a"}}})", ItemPathFor("GetItem"), &doc));
}

TEST(ItemCaptureTest, AgreesWithTheGeneralPathOnMutatedRequests) {
  const std::string base = R"({"RequestItems":{"t":[{"PutRequest":{"Item":{"pk":{"S":"k1"},)"
                           R"("v":{"L":[{"N":"0.25"},{"N":"-1.50"},{"M":{"a":{"BOOL":true}}}]},)"
                           R"("n":{"NULL":true}}}},{"DeleteRequest":{"Key":{"pk":{"S":"k2"}}}}]},)"
                           R"("ReturnConsumedCapacity":"TOTAL"})";
  ASSERT_EQ(CaptureAndCompare(base), 1);
  const std::string alphabet = "{}[]:,\" \\0123456789.-eENSLMtruefalsn";
  std::mt19937 rng(19);
  int captured = 0;
  for (int round = 0; round < 5000; ++round) {
    std::string body = base;
    for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
      size_t at = rng() % body.size();
      switch (rng() % 3) {
        case 0: body.erase(at, 1); break;
        case 1: body.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        default: body[at] = alphabet[rng() % alphabet.size()]; break;
      }
    }
    if (CaptureAndCompare(body) >= 0) ++captured;
    if (::testing::Test::HasFailure()) FAIL() << "after: " << body;
  }
  // Some mutations keep the request readable (a digit for a digit).
  EXPECT_GT(captured, 50);
}

}  // namespace
}  // namespace ddb::api
