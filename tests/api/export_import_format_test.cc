// DynamoDB's export and import files without a server: ION text as the
// Developer Guide's example writes it, incremental lines per view, what
// each import format reads (and where it stops), and the compressions.
#include <gtest/gtest.h>

#include <zstd.h>

#include <string>

#include "api/transfer/compression.h"
#include "api/transfer/export_format.h"
#include "api/transfer/import_format.h"

namespace ddb::api {
namespace {

using engine::AttributeValue;
using engine::Item;

AttributeValue S(std::string s) { return AttributeValue(std::move(s)); }
AttributeValue N(std::string n) { return AttributeValue(*engine::Number::Parse(n)); }

TEST(IonExportTest, WritesTheGuidesExampleLine) {
  Item item;
  item["Authors"] = AttributeValue(engine::StringSet{{"Author1", "Author2"}});
  item["Dimensions"] = S("8.5 x 11.0 x 1.5");
  item["Id"] = N("103");
  item["InPublication"] = AttributeValue(false);
  item["PageCount"] = N("600");
  item["Price"] = N("2000");
  EXPECT_EQ(FullExportLine(item, ExportFormat::kIon),
            "$ion_1_0 {Item:{Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],"
            "Dimensions:\"8.5 x 11.0 x 1.5\",Id:103.,InPublication:false,PageCount:6d2,"
            "Price:2d3}}");
}

TEST(IonExportTest, NamesNumbersAndBinariesThatNeedCare) {
  engine::Map map;
  map["odd name"] = AttributeValue(engine::Null{});
  map["null"] = N("-1.5E-7");  // canonical: written plainly
  map["b"] = AttributeValue(engine::Binary{std::string("\x00\xff", 2)});
  map["s"] = S("tab\tquote\"\x01");
  EXPECT_EQ(IonText(AttributeValue(std::move(map))),
            "{b:{{AP8=}},\"null\":-0.00000015,\"odd name\":null,s:\"tab\\tquote\\\"\\x01\"}");
}

TEST(IncrementalExportTest, WritesTheImagesTheViewAsksFor) {
  Item keys{{"pk", S("k")}};
  engine::ItemChange update{Item{{"pk", S("k")}, {"v", S("old")}},
                            Item{{"pk", S("k")}, {"v", S("new")}}, 1700000000123};
  EXPECT_EQ(IncrementalExportLine(keys, update, true, ExportFormat::kDynamoDbJson),
            R"({"Metadata":{"WriteTimestampMicros":{"N":"1700000000123000"}},)"
            R"("Keys":{"pk":{"S":"k"}},"NewImage":{"pk":{"S":"k"},"v":{"S":"new"}},)"
            R"("OldImage":{"pk":{"S":"k"},"v":{"S":"old"}}})");
  EXPECT_EQ(IncrementalExportLine(keys, update, false, ExportFormat::kDynamoDbJson).find(
                "OldImage"),
            std::string::npos);
  engine::ItemChange deleted{Item{{"pk", S("k")}}, std::nullopt, 5};
  EXPECT_EQ(IncrementalExportLine(keys, deleted, false, ExportFormat::kDynamoDbJson),
            R"({"Metadata":{"WriteTimestampMicros":{"N":"5000"}},"Keys":{"pk":{"S":"k"}}})");
}

TEST(ImportFormatTest, IonReadsWhatTheExportWrites) {
  Item item;
  item["pk"] = S("k");
  item["n"] = N("600");
  item["f"] = N("-1.5E-7");
  item["ns"] = AttributeValue(engine::NumberSet{{*engine::Number::Parse("1"),
                                                 *engine::Number::Parse("20")}});
  item["bs"] = AttributeValue(engine::BinarySet{{"x"}});
  item["l"] = AttributeValue(engine::List{AttributeValue(true), AttributeValue(engine::Null{})});
  std::string text = FullExportLine(item, ExportFormat::kIon) + "\n// a comment\n" +
                     "$ion_1_0 [{Item:{pk:'quoted symbol', n:1_000}}]\n";
  ObjectItems read = ReadImportObject(text, InputFormat::kIon, {});
  ASSERT_FALSE(read.error) << *read.error << " in " << text;
  ASSERT_EQ(read.items.size(), 2u);
  EXPECT_EQ(read.items[0],
            R"({"bs":{"BS":["eA=="]},"f":{"N":"-0.00000015"},)"
            R"("l":{"L":[{"BOOL":true},{"NULL":true}]},)"
            R"("n":{"N":"6E2"},"ns":{"NS":["1","2E1"]},"pk":{"S":"k"}})");
  EXPECT_EQ(read.items[1], R"({"pk":{"S":"quoted symbol"},"n":{"N":"1000"}})");
}

TEST(ImportFormatTest, IonEscapesBecomeUtf8AndOnlyUnicodeCodePointsDo) {
  ObjectItems read = ReadImportObject(
      R"({Item:{pk:"\x41\u00e9\u20AC\U0001F600"}})", InputFormat::kIon, {});
  ASSERT_FALSE(read.error) << *read.error;
  ASSERT_EQ(read.items.size(), 1u);
  EXPECT_EQ(read.items[0], "{\"pk\":{\"S\":\"A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"}}");
  ObjectItems beyond =
      ReadImportObject(R"({Item:{pk:"\U00110000"}})", InputFormat::kIon, {});
  EXPECT_TRUE(beyond.error);
  EXPECT_TRUE(beyond.items.empty());
}

TEST(ImportFormatTest, TheFirstBadRecordEndsTheObject) {
  ObjectItems json = ReadImportObject(
      "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n\n{\"pk\":{\"S\":\"bare\"}}\n{\"Item\":{}}\n",
      InputFormat::kDynamoDbJson, {});
  EXPECT_EQ(json.items.size(), 1u);
  ASSERT_TRUE(json.error);
  EXPECT_EQ(json.error_index, 1u);
  ObjectItems ion = ReadImportObject("$ion_1_0 {Item:{pk:\"a\"}}\n{Item:{pk:", InputFormat::kIon,
                                     {});
  EXPECT_EQ(ion.items.size(), 1u);
  ASSERT_TRUE(ion.error);
}

TEST(ImportFormatTest, CsvQuotesKeyTypesAndEmptyColumns) {
  CsvOptions options;
  options.key_types = {{"id", "N"}};
  ObjectItems read = ReadImportObject(
      "id,name,note\r\n1,\"Smith, \"\"Al\"\"\",\"two\nlines\"\r\n2,,x\n\n", InputFormat::kCsv,
      options);
  ASSERT_FALSE(read.error) << *read.error;
  ASSERT_EQ(read.items.size(), 2u);
  EXPECT_EQ(read.items[0],
            R"({"id":{"N":"1"},"name":{"S":"Smith, \"Al\""},"note":{"S":"two\nlines"}})");
  EXPECT_EQ(read.items[1], R"({"id":{"N":"2"},"note":{"S":"x"}})");

  options.delimiter = '\t';
  options.header = {"id", "name"};
  read = ReadImportObject("7\tann\n8\tbob\textra\n", InputFormat::kCsv, options);
  EXPECT_EQ(read.items.size(), 1u);
  ASSERT_TRUE(read.error);
  EXPECT_EQ(read.error_index, 1u);
}

TEST(CompressionTest, GzipMembersAndZstdRoundTrip) {
  std::string text(200000, 'x');
  for (size_t i = 0; i < text.size(); i += 7) text[i] = static_cast<char>('a' + i % 26);
  GzipCompressor first;
  first.Add(text.substr(0, 1000));
  GzipCompressor second;
  second.Add(text.substr(1000));
  std::string joined = first.Finish() + second.Finish();  // `cat a.gz b.gz`
  auto unzipped = Decompress(joined, Compression::kGzip, 1 << 20);
  ASSERT_TRUE(unzipped.ok()) << unzipped.error().message;
  EXPECT_EQ(*unzipped, text);

  std::string zstd(ZSTD_compressBound(text.size()), '\0');
  zstd.resize(ZSTD_compress(zstd.data(), zstd.size(), text.data(), text.size(), 3));
  auto unzstd = Decompress(zstd, Compression::kZstd, 1 << 20);
  ASSERT_TRUE(unzstd.ok()) << unzstd.error().message;
  EXPECT_EQ(*unzstd, text);

  EXPECT_FALSE(Decompress(zstd, Compression::kZstd, 1000).ok());  // the bound holds
  EXPECT_FALSE(Decompress("plain text", Compression::kGzip, 1 << 20).ok());
  EXPECT_FALSE(Decompress(zstd.substr(0, zstd.size() / 2), Compression::kZstd, 1 << 20).ok());
}

}  // namespace
}  // namespace ddb::api
