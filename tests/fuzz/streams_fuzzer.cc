// libFuzzer target: the DynamoDB Streams request path through api::Dispatch
// against an in-memory database holding a table with a stream and records.
//
// The first byte picks the operation (DescribeStream, GetShardIterator,
// GetRecords, ListStreams) or "GetRecords on a mangled iterator"; the rest
// is the request body, in which $ARN, $SHARD and $ITERATOR are replaced by
// the live stream's ARN, shard id and a valid iterator so that inputs reach
// past the lookups. Errors are expected; crashes, hangs, sanitizer reports,
// 5xx answers and bodies that are not a JSON object are not.
#include <rapidjson/document.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "api/dispatch.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "tests/fuzz/request_path.h"

namespace {

using ddb::api::Caller;
using ddb::api::Dispatch;
using ddb::api::Response;

struct Fixture {
  ddb::engine::FakeClock clock;
  std::unique_ptr<ddb::engine::Engine> engine;
  Caller caller{.ns = "", .region = "us-east-1"};
  std::string arn;
  std::string shard;
  std::string iterator;

  Response Call(std::string_view target, std::string_view body) {
    return Dispatch(*engine, caller, target, body);
  }
  rapidjson::Document CallOk(std::string_view target, std::string_view body) {
    Response response = Call(target, body);
    if (response.http_status != 200) abort();
    rapidjson::Document doc;
    doc.Parse(response.body.c_str(), response.body.size());
    if (doc.HasParseError()) abort();
    return doc;
  }
};

Fixture& Setup() {
  static Fixture* fixture = [] {
    auto* f = new Fixture;
    f->engine = ddb::fuzz::OpenInMemoryEngine(f->clock);
    f->CallOk("DynamoDB_20120810.CreateTable", R"({"TableName":"Fuzz",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                                {"AttributeName":"sk","AttributeType":"N"}],
        "BillingMode":"PAY_PER_REQUEST",
        "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}})");
    for (int i = 0; i < 5; ++i) {
      std::string n = std::to_string(i);
      f->CallOk("DynamoDB_20120810.PutItem",
                R"({"TableName":"Fuzz","Item":{"pk":{"S":"p)" + n + R"("},"sk":{"N":")" + n +
                    R"("},"b":{"B":"AAEC"},"l":{"L":[{"NULL":true},{"SS":["x","y"]}]}}})");
    }
    f->CallOk("DynamoDB_20120810.DeleteItem",
              R"({"TableName":"Fuzz","Key":{"pk":{"S":"p0"},"sk":{"N":"0"}}})");
    auto table = f->CallOk("DynamoDB_20120810.DescribeTable", R"({"TableName":"Fuzz"})");
    f->arn = table["Table"]["LatestStreamArn"].GetString();
    auto stream = f->CallOk("DynamoDBStreams_20120810.DescribeStream",
                            R"({"StreamArn":")" + f->arn + R"("})");
    f->shard = stream["StreamDescription"]["Shards"][0]["ShardId"].GetString();
    auto it = f->CallOk("DynamoDBStreams_20120810.GetShardIterator",
                        R"({"StreamArn":")" + f->arn + R"(","ShardId":")" + f->shard +
                            R"(","ShardIteratorType":"TRIM_HORIZON"})");
    f->iterator = it["ShardIterator"].GetString();
    return f;
  }();
  return *fixture;
}

void ReplaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// The iterator with the input's bytes written over part of it (or appended),
// so the decoder sees near-valid tokens rather than only noise.
std::string MangledIterator(const std::string& valid, std::string_view bytes) {
  std::string out = valid;
  size_t at = bytes.empty() ? 0 : static_cast<unsigned char>(bytes[0]) * out.size() / 256;
  std::string_view patch = bytes.empty() ? bytes : bytes.substr(1);
  out.replace(at, std::min(patch.size(), out.size() - at), patch);
  return R"({"ShardIterator":)" + ddb::fuzz::JsonString(out) + "}";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  Fixture& f = Setup();
  static constexpr std::string_view kTargets[] = {
      "DynamoDBStreams_20120810.DescribeStream", "DynamoDBStreams_20120810.GetShardIterator",
      "DynamoDBStreams_20120810.GetRecords", "DynamoDBStreams_20120810.ListStreams"};
  unsigned choice = data[0] % 5;
  std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string_view target;
  if (choice == 4) {
    target = kTargets[2];
    body = MangledIterator(f.iterator, body);
  } else {
    target = kTargets[choice];
    ReplaceAll(body, "$ARN", f.arn);
    ReplaceAll(body, "$SHARD", f.shard);
    ReplaceAll(body, "$ITERATOR", f.iterator);
  }
  Response response = f.Call(target, body);
  if (response.http_status != 200 && response.http_status != 400) abort();
  rapidjson::Document doc;
  doc.Parse(response.body.c_str(), response.body.size());
  if (doc.HasParseError() || !doc.IsObject()) abort();
  if (response.http_status == 400 && !doc.HasMember("__type")) abort();
  return 0;
}
