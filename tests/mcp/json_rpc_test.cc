// The MCP server's JSON-RPC framing and its protocol methods, over a fake
// backend that records what it was asked: which lines get which answers,
// that write tools never reach the backend without --allow-writes, and how
// the caps cut an answer.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "mcp/json_rpc.h"
#include "mcp/mcp_server.h"
#include "mcp/result_limits.h"

namespace ddb::mcp {
namespace {

rapidjson::Document Parse(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  EXPECT_FALSE(doc.HasParseError()) << text;
  return doc;
}

TEST(JsonRpc, RequestsNotificationsAndResponses) {
  Message request = ParseMessage(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  EXPECT_EQ(request.kind, Message::Kind::kRequest);
  EXPECT_EQ(request.id, "7");
  EXPECT_EQ(request.method, "ping");
  EXPECT_TRUE(request.params.IsObject());

  Message string_id = ParseMessage(R"({"jsonrpc":"2.0","id":"a\"b","method":"x","params":{"k":1}})");
  EXPECT_EQ(string_id.id, R"("a\"b")");
  EXPECT_EQ(string_id.params["k"].GetInt(), 1);

  EXPECT_EQ(ParseMessage(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").kind,
            Message::Kind::kNotification);
  EXPECT_EQ(ParseMessage(R"({"jsonrpc":"2.0","id":1,"result":{}})").kind,
            Message::Kind::kResponse);
}

TEST(JsonRpc, InvalidMessagesCarryJsonRpcCodes) {
  EXPECT_EQ(ParseMessage("{oops").error_code, kParseError);
  EXPECT_EQ(ParseMessage("[]").error_code, kInvalidRequest);
  EXPECT_EQ(ParseMessage(R"({"id":1,"method":"ping"})").error_code, kInvalidRequest);
  EXPECT_EQ(ParseMessage(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})").error_code,
            kInvalidRequest);
  Message bad_params = ParseMessage(R"({"jsonrpc":"2.0","id":2,"method":"x","params":[1]})");
  EXPECT_EQ(bad_params.kind, Message::Kind::kInvalid);
  EXPECT_EQ(bad_params.error_code, kInvalidParams);
  EXPECT_EQ(bad_params.id, "2");
}

TEST(JsonRpc, LinesHaveNoRawNewlines) {
  std::string line = ErrorLine("1", kInternalError, "two\nlines");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  auto doc = Parse(line);
  EXPECT_EQ(std::string(doc["error"]["message"].GetString()), "two\nlines");
  EXPECT_EQ(ResultLine("\"x\"", "{}"), R"({"jsonrpc":"2.0","id":"x","result":{}})");
}

class FakeBackend : public Backend {
 public:
  BackendReply Dynamo(std::string_view target, std::string_view body) override {
    calls.push_back(std::string(target) + " " + std::string(body));
    return {200, answer};
  }
  BackendReply Admin(std::string_view method, std::string_view path,
                     std::string_view body) override {
    calls.push_back(std::string(method) + " " + std::string(path) + " " + std::string(body));
    return {200, "{}"};
  }
  std::string Describe() const override { return "fake"; }
  std::vector<std::string> calls;
  std::string answer = "{}";
};

std::string Call(McpServer& server, const std::string& tool, const std::string& arguments) {
  return server.HandleLine(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" +
                           tool + R"(","arguments":)" + arguments + "}}");
}

TEST(McpServer, NegotiatesTheProtocolVersion) {
  FakeBackend backend;
  McpServer server(backend, {});
  auto known = Parse(server.HandleLine(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})"));
  EXPECT_STREQ(known["result"]["protocolVersion"].GetString(), "2025-06-18");
  auto unknown = Parse(server.HandleLine(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2000-01-01"}})"));
  EXPECT_EQ(std::string(unknown["result"]["protocolVersion"].GetString()), kProtocolVersions[0]);
  EXPECT_EQ(server.HandleLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), "");
  EXPECT_EQ(Parse(server.HandleLine(R"({"jsonrpc":"2.0","id":1,"method":"nope"})"))["error"]["code"]
                .GetInt(),
            kMethodNotFound);
}

TEST(McpServer, ReadOnlyNeverSendsAWrite) {
  FakeBackend backend;
  McpServer server(backend, {});
  auto put = Parse(Call(server, "PutItem", R"({"TableName":"t","Item":{}})"));
  EXPECT_TRUE(put["result"]["isError"].GetBool());
  auto update = Parse(Call(server, "ExecuteStatement", R"({"Statement":"  update \"t\" SET a=1"})"));
  EXPECT_TRUE(update["result"]["isError"].GetBool());
  auto reset = Parse(Call(server, "ResetDatabase", "{}"));
  EXPECT_TRUE(reset["result"]["isError"].GetBool());
  EXPECT_TRUE(backend.calls.empty());
  auto select = Parse(Call(server, "ExecuteStatement", R"({"Statement":"select * from \"t\""})"));
  EXPECT_FALSE(select["result"]["isError"].GetBool());
  ASSERT_EQ(backend.calls.size(), 1u);
  EXPECT_EQ(backend.calls[0].rfind("DynamoDB_20120810.ExecuteStatement ", 0), 0u);
}

TEST(McpServer, LimitIsLoweredToTheItemCap) {
  FakeBackend backend;
  ServerOptions options;
  options.limits.max_items = 5;
  McpServer server(backend, options);
  Call(server, "Query", R"({"TableName":"t","Limit":50})");
  Call(server, "Scan", R"({"TableName":"t","Limit":3})");
  Call(server, "GetRecords", R"({"ShardIterator":"i"})");
  ASSERT_EQ(backend.calls.size(), 3u);
  EXPECT_NE(backend.calls[0].find(R"("Limit":5)"), std::string::npos) << backend.calls[0];
  EXPECT_NE(backend.calls[1].find(R"("Limit":3)"), std::string::npos) << backend.calls[1];
  EXPECT_EQ(backend.calls[2].rfind("DynamoDBStreams_20120810.GetRecords ", 0), 0u);
  EXPECT_NE(backend.calls[2].find(R"("Limit":5)"), std::string::npos) << backend.calls[2];
}

TEST(McpServer, AdminToolsMapToTheAdminApi) {
  FakeBackend backend;
  ServerOptions options;
  options.allow_writes = true;
  McpServer server(backend, options);
  Call(server, "RestoreSnapshot", R"({"Name":"a b/c","Namespace":"w1/us-east-1"})");
  Call(server, "DeleteSnapshot", R"({"Name":"s"})");
  Call(server, "MoveClock", R"({"AdvanceSeconds":10})");
  ASSERT_EQ(backend.calls.size(), 3u);
  EXPECT_EQ(backend.calls[0], R"(POST /snapshots/a%20b%2Fc/restore {"Namespace":"w1/us-east-1"})");
  EXPECT_EQ(backend.calls[1], "DELETE /snapshots/s ");
  EXPECT_EQ(backend.calls[2], R"(POST /clock {"AdvanceSeconds":10})");
}

TEST(ResultLimits, BatchGetTrimmedToTheItemCap) {
  rapidjson::Document answer;
  answer.Parse(R"({"Responses":{"a":[{"k":{"S":"1"}},{"k":{"S":"2"}}],"b":[{"k":{"S":"3"}}]}})");
  CappedAnswer capped = CapAnswer("BatchGetItem", answer, {.max_items = 2, .max_bytes = 100000},
                                  false, [] { return std::vector<std::string>{}; });
  auto doc = Parse(capped.json);
  EXPECT_EQ(doc["Responses"]["a"].Size() + doc["Responses"]["b"].Size(), 2u);
  EXPECT_NE(capped.note.find("2 of 3"), std::string::npos) << capped.note;
}

TEST(ResultLimits, CutTextKeepsWholeCharacters) {
  EXPECT_EQ(CutText("abc", 10), "abc");
  EXPECT_EQ(CutText("a\xC3\xA9", 2), "a");  // "é" is two bytes
}

}  // namespace
}  // namespace ddb::mcp
