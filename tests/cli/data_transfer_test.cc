// The JSON shapes of the offline data commands (cli/data_transfer.h,
// emulator/model_dump.h): import lines, request bodies accepted by Dispatch, the
// export manifests, and a table's CreateTable request rebuilt from its
// description.
#include "cli/data_transfer.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>

#include "api/transfer/export_format.h"
#include "emulator/model_dump.h"
#include "tests/api/dispatch_fixture.h"

namespace ddb::cli {

using api::ExportDataFile;
using api::ExportSummary;
using api::ItemFromImportLine;
using api::ParseManifestFileLine;
using api::ParseManifestSummary;
using api::RenderManifestFileLine;
using api::RenderManifestSummary;
using api::Response;

namespace {

rapidjson::Document Parse(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str(), text.size());
  EXPECT_FALSE(doc.HasParseError()) << text;
  return doc;
}

TEST(ImportLineTest, ExportLineGivesTheItem) {
  auto item = ItemFromImportLine(R"({"Item": {"pk": {"S": "a"}, "n": {"N": "1"}}})");
  ASSERT_TRUE(item.ok()) << item.error().message;
  ASSERT_TRUE(item->has_value());
  EXPECT_EQ(**item, R"({"pk":{"S":"a"},"n":{"N":"1"}})");
}

TEST(ImportLineTest, BareItemAsFixturesHoldIt) {
  auto item = ItemFromImportLine(R"({"pk": {"S": "a"}, "Item": {"S": "x"}})");
  ASSERT_TRUE(item.ok());
  EXPECT_EQ(**item, R"({"pk":{"S":"a"},"Item":{"S":"x"}})");
}

TEST(ImportLineTest, BlankAndCommentLinesAreSkipped) {
  for (const char* line : {"", "   ", "\r", "// a comment", "  // indented"}) {
    auto item = ItemFromImportLine(line);
    ASSERT_TRUE(item.ok()) << line;
    EXPECT_FALSE(item->has_value()) << line;
  }
}

TEST(ImportLineTest, BadLinesSayWhatIsWrong) {
  auto broken = ItemFromImportLine(R"({"Item": {"pk": {"S": "a"})");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("not valid JSON"), std::string::npos)
      << broken.error().message;
  auto array = ItemFromImportLine("[1, 2]");
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.error().message, "the line is not a JSON object");
  auto not_object = ItemFromImportLine(R"({"Item": "x"})");
  ASSERT_FALSE(not_object.ok());
  EXPECT_EQ(not_object.error().message, "\"Item\" is not a JSON object");
}

TEST(DescribeErrorBodyTest, TypeAndMessage) {
  EXPECT_EQ(DescribeErrorBody(
                R"({"__type":"com.amazon.coral.validate#ValidationException","message":"bad"})"),
            "ValidationException: bad");
  EXPECT_EQ(DescribeErrorBody(
                R"({"__type":"com.amazon.coral.service#SerializationException","Message":"x"})"),
            "SerializationException: x");
}

TEST(ManifestTest, FileLineRoundTrip) {
  ExportDataFile file{"T/AWSDynamoDB/01-ab/data/x.json.gz", 3, "bWQ1", "6d6435"};
  std::string line = RenderManifestFileLine(file);
  EXPECT_EQ(line,
            R"({"itemCount":3,"md5Checksum":"bWQ1","etag":"6d6435",)"
            R"("dataFileS3Key":"T/AWSDynamoDB/01-ab/data/x.json.gz"})");
  auto parsed = ParseManifestFileLine(line);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->data_file_key, file.data_file_key);
  EXPECT_EQ(parsed->item_count, 3u);
  EXPECT_FALSE(ParseManifestFileLine(R"({"itemCount":3})").ok());
}

TEST(ManifestTest, SummaryHasEveryMemberOfAwsFullExport) {
  ExportSummary summary;
  summary.export_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/T/export/01-ab";
  summary.table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/T";
  summary.item_count = 7;
  summary.billed_size_bytes = 70;
  summary.manifest_files_key = "T/AWSDynamoDB/01-ab/manifest-files.json";
  rapidjson::Document doc = Parse(RenderManifestSummary(summary));
  for (const char* member :
       {"version", "exportArn", "startTime", "endTime", "tableArn", "tableId", "exportTime",
        "s3Bucket", "s3Prefix", "s3SseAlgorithm", "s3SseKmsKeyId", "manifestFilesS3Key",
        "billedSizeBytes", "itemCount", "outputFormat", "exportType"}) {
    EXPECT_TRUE(doc.HasMember(member)) << member;
  }
  EXPECT_STREQ(doc["version"].GetString(), "2020-06-30");
  EXPECT_STREQ(doc["outputFormat"].GetString(), "DYNAMODB_JSON");
  EXPECT_STREQ(doc["exportType"].GetString(), "FULL_EXPORT");
  auto parsed = ParseManifestSummary(RenderManifestSummary(summary));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->table_arn, summary.table_arn);
  EXPECT_EQ(parsed->item_count, 7u);
  EXPECT_EQ(parsed->manifest_files_key, summary.manifest_files_key);
}

TEST(CreateRequestTest, NameReadAndReplaced) {
  std::string request = R"({"TableName":"Music","BillingMode":"PAY_PER_REQUEST"})";
  auto name = TableNameOfCreateRequest(request);
  ASSERT_TRUE(name.ok());
  EXPECT_EQ(*name, "Music");
  auto renamed = WithTableName(request, "Other");
  ASSERT_TRUE(renamed.ok());
  EXPECT_EQ(*renamed, R"({"TableName":"Other","BillingMode":"PAY_PER_REQUEST"})");
  EXPECT_FALSE(TableNameOfCreateRequest("{}").ok());
}

class OfflineRequestsTest : public api::DispatchTest {
 protected:
  void CreateTableForTtl() {
    CallOkBody("CreateTable", R"({"TableName":"Items","BillingMode":"PAY_PER_REQUEST",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]})");
  }
};

constexpr const char* kMusic = R"({
  "TableName": "Music", "BillingMode": "PROVISIONED",
  "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 4},
  "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"},
                {"AttributeName": "SongTitle", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "Artist", "AttributeType": "S"},
                           {"AttributeName": "SongTitle", "AttributeType": "S"},
                           {"AttributeName": "Album", "AttributeType": "S"},
                           {"AttributeName": "Year", "AttributeType": "N"}],
  "LocalSecondaryIndexes": [{"IndexName": "ByYear",
      "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"},
                    {"AttributeName": "Year", "KeyType": "RANGE"}],
      "Projection": {"ProjectionType": "KEYS_ONLY"}}],
  "GlobalSecondaryIndexes": [{"IndexName": "ByAlbum",
      "KeySchema": [{"AttributeName": "Album", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["Genre"]},
      "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 1}}],
  "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
  "TableClass": "STANDARD_INFREQUENT_ACCESS",
  "DeletionProtectionEnabled": true,
  "Tags": [{"Key": "team", "Value": "audio"}]})";

TEST_F(OfflineRequestsTest, BatchWriteAndScanBodiesRoundTrip) {
  std::vector<std::string> items;
  for (int i = 0; i < 25; ++i) {
    items.push_back(R"({"pk":{"S":"k)" + std::to_string(i) + R"("},"b":{"B":"AAE="}})");
  }
  // A table name that needs escaping is refused by DynamoDB's name rules,
  // but the body must still be valid JSON that says so.
  Response refused = Call("BatchWriteItem", BatchWriteItemBody("T\"q", items));
  EXPECT_EQ(refused.http_status, 400);
  EXPECT_EQ(DescribeErrorBody(refused.body).rfind("ValidationException", 0), 0u) << refused.body;

  CallOkBody("CreateTable", R"({"TableName":"Items","BillingMode":"PAY_PER_REQUEST",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]})");
  EXPECT_FALSE(
      HasUnprocessedItems(CallOkBody("BatchWriteItem", BatchWriteItemBody("Items", items))));
  CallOkBody("PutItem", PutItemBody("Items", R"({"pk":{"S":"extra"}})"));
  size_t seen = 0;
  int pages = 0;
  // The first page stops at Limit, so the next page starts from its key.
  auto first = ParseScanPage(CallOkBody("Scan", R"({"TableName":"Items","Limit":10})"));
  ASSERT_TRUE(first.ok());
  seen += first->items.size();
  std::string start = first->last_evaluated_key;
  ASSERT_FALSE(start.empty());
  while (!start.empty() && ++pages < 10) {
    auto page = ParseScanPage(CallOkBody("Scan", ScanBody("Items", start)));
    ASSERT_TRUE(page.ok());
    seen += page->items.size();
    start = page->last_evaluated_key;
  }
  EXPECT_EQ(seen, 26u);
  EXPECT_EQ(pages, 1);  // the rest fits one page
}

TEST_F(OfflineRequestsTest, CreateTableInputRebuildsTheTable) {
  CallOkBody("CreateTable", kMusic);
  std::string described = CallOkBody("DescribeTable", TableNameBody("Music"));
  auto facts = ParseTableFacts(described);
  ASSERT_TRUE(facts.ok());
  EXPECT_EQ(facts->name, "Music");
  std::string tags = CallOkBody("ListTagsOfResource", ListTagsBody(facts->arn));
  auto input = emulator::CreateTableInputFromDescription(described, tags);
  ASSERT_TRUE(input.ok()) << input.error().message;
  rapidjson::Document rebuilt = Parse(*input);
  rapidjson::Document original = Parse(kMusic);
  // Every member of the original request comes back, with the same value.
  for (const auto& member : original.GetObject()) {
    ASSERT_TRUE(rebuilt.HasMember(member.name)) << member.name.GetString() << "\n" << *input;
    EXPECT_TRUE(rebuilt[member.name] == member.value) << member.name.GetString() << "\n" << *input;
  }
  EXPECT_EQ(rebuilt.MemberCount(), original.MemberCount()) << *input;

  // It is a request DynamoDB accepts: the table is created again under a new name.
  auto renamed = WithTableName(*input, "Music2");
  ASSERT_TRUE(renamed.ok());
  CallOkBody("CreateTable", *renamed);
}

TEST_F(OfflineRequestsTest, OnDemandTableHasNoThroughput) {
  CallOkBody("CreateTable", R"({"TableName":"Items","BillingMode":"PAY_PER_REQUEST",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                              {"AttributeName":"g","AttributeType":"S"}],
      "GlobalSecondaryIndexes":[{"IndexName":"ByG",
          "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
          "Projection":{"ProjectionType":"ALL"}}]})");
  auto input = emulator::CreateTableInputFromDescription(
      CallOkBody("DescribeTable", TableNameBody("Items")), "");
  ASSERT_TRUE(input.ok());
  rapidjson::Document rebuilt = Parse(*input);
  EXPECT_STREQ(rebuilt["BillingMode"].GetString(), "PAY_PER_REQUEST");
  EXPECT_FALSE(rebuilt.HasMember("ProvisionedThroughput"));
  EXPECT_FALSE(rebuilt["GlobalSecondaryIndexes"][0].HasMember("ProvisionedThroughput"));
  EXPECT_FALSE(rebuilt.HasMember("StreamSpecification"));
  EXPECT_FALSE(rebuilt.HasMember("Tags"));
  EXPECT_FALSE(rebuilt.HasMember("DeletionProtectionEnabled"));
}

TEST_F(OfflineRequestsTest, TimeToLiveInputOnlyWhenEnabled) {
  CreateTableForTtl();
  auto off = emulator::TimeToLiveInputFromDescription(
      "Items", CallOkBody("DescribeTimeToLive", TableNameBody("Items")));
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->has_value());
  CallOkBody("UpdateTimeToLive", R"({"TableName":"Items",
      "TimeToLiveSpecification":{"Enabled":true,"AttributeName":"expires"}})");
  auto on = emulator::TimeToLiveInputFromDescription(
      "Items", CallOkBody("DescribeTimeToLive", TableNameBody("Items")));
  ASSERT_TRUE(on.ok());
  ASSERT_TRUE(on->has_value());
  rapidjson::Document request = Parse(**on);
  EXPECT_STREQ(request["TableName"].GetString(), "Items");
  EXPECT_TRUE(request["TimeToLiveSpecification"]["Enabled"].GetBool());
  EXPECT_STREQ(request["TimeToLiveSpecification"]["AttributeName"].GetString(), "expires");
}

}  // namespace
}  // namespace ddb::cli
