#include "mcp/mcp_server.h"

#include <algorithm>
#include <cctype>

#include "mcp/json_rpc.h"
#include "mcp/model_guides.h"
#include "mcp/tool_catalog.h"

namespace ddb::mcp {
namespace {

constexpr std::string_view kModelUriPrefix = "localdynamo://models/";
constexpr std::string_view kTablesUri = "localdynamo://tables";

std::string TextContent(std::string_view text) {
  return "{\"type\":\"text\",\"text\":" + Quote(text) + "}";
}

// A tools/call result: the answer's text, then any note about it.
std::string ToolResult(std::string_view text, std::string_view note, bool is_error) {
  std::string result = "{\"content\":[" + TextContent(text);
  if (!note.empty()) result += "," + TextContent(note);
  result += std::string("],\"isError\":") + (is_error ? "true" : "false") + "}";
  return result;
}

std::string ToolError(std::string_view text) { return ToolResult(text, "", true); }

std::string StringMember(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return "";
  auto found = object.FindMember(name);
  return found != object.MemberEnd() && found->value.IsString() ? found->value.GetString() : "";
}

// A PartiQL statement that only reads: SELECT (DynamoDB's PartiQL has no
// other read statement outside transactions).
bool IsSelect(std::string_view statement) {
  size_t start = statement.find_first_not_of(" \t\r\n(");
  if (start == std::string_view::npos) return false;
  std::string word;
  for (size_t i = start; i < statement.size() && std::isalpha(static_cast<unsigned char>(statement[i])); ++i) {
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(statement[i])));
  }
  return word == "SELECT";
}

// A path segment: everything but unreserved characters percent-encoded.
std::string EncodeSegment(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

struct AdminRequest {
  std::string method;
  std::string path;
  std::string body;
};

// The admin API request behind an admin tool (emulator/admin.h and the
// snapshot endpoints).
AdminRequest BuildAdminRequest(std::string_view tool, const rapidjson::Value& arguments) {
  std::string name = EncodeSegment(StringMember(arguments, "Name"));
  if (tool == "GetClock") return {"GET", "/clock", ""};
  if (tool == "ListSnapshots") return {"GET", "/snapshots", ""};
  if (tool == "MoveClock") return {"POST", "/clock", ToJson(arguments)};
  if (tool == "Sweep") return {"POST", "/sweep", "{}"};
  if (tool == "ResetDatabase") return {"POST", "/reset", ToJson(arguments)};
  if (tool == "SaveSnapshot") return {"POST", "/snapshots", ToJson(arguments)};
  if (tool == "RestoreSnapshot") {
    std::string body = "{}";
    if (arguments.HasMember("Namespace")) {
      body = "{\"Namespace\":" + ToJson(arguments["Namespace"]) + "}";
    }
    return {"POST", "/snapshots/" + name + "/restore", body};
  }
  return {"DELETE", "/snapshots/" + name, ""};  // DeleteSnapshot
}

}  // namespace

McpServer::McpServer(Backend& backend, ServerOptions options)
    : backend_(backend), options_(std::move(options)) {}

std::string McpServer::HandleLine(std::string_view line) {
  Message message = ParseMessage(line);
  switch (message.kind) {
    case Message::Kind::kInvalid:
      return ErrorLine(message.id, message.error_code, message.error_message);
    case Message::Kind::kNotification:  // notifications/initialized, cancelled, …
    case Message::Kind::kResponse:
      return "";
    case Message::Kind::kRequest:
      break;
  }
  const std::string& method = message.method;
  int code = 0;
  std::string error;
  std::string result;
  if (method == "initialize") {
    result = Initialize(message.params);
  } else if (method == "ping") {
    result = "{}";
  } else if (method == "tools/list") {
    result = ListTools();
  } else if (method == "tools/call") {
    result = CallTool(message.params, &code, &error);
  } else if (method == "resources/list") {
    result = ListResources();
  } else if (method == "resources/templates/list") {
    result = "{\"resourceTemplates\":[]}";
  } else if (method == "resources/read") {
    result = ReadResource(message.params, &code, &error);
  } else if (method == "prompts/list") {
    result = "{\"prompts\":[]}";
  } else {
    code = kMethodNotFound;
    error = "Method not found: " + method;
  }
  if (code != 0) return ErrorLine(message.id, code, error);
  return ResultLine(message.id, result);
}

std::string McpServer::Initialize(const rapidjson::Value& params) const {
  std::string requested = StringMember(params, "protocolVersion");
  std::string_view version = kProtocolVersions[0];
  for (std::string_view known : kProtocolVersions) {
    if (known == requested) version = known;
  }
  std::string instructions =
      "localdynamo is a local DynamoDB emulator; these tools reach it at " + backend_.Describe() +
      ". Each DynamoDB tool takes that operation's request JSON exactly as in the DynamoDB API "
      "reference (attribute values in DynamoDB JSON, e.g. {\"S\": \"x\"}). Answers are capped at " +
      std::to_string(options_.limits.max_items) + " items and " +
      std::to_string(options_.limits.max_bytes) +
      " bytes; a note says when one was cut and how to page. The resources "
      "localdynamo://models/<model> describe the preloaded models' tables and access patterns "
      "(read one before querying its tables); localdynamo://tables describes the live tables. " +
      (options_.allow_writes
           ? "Writes are allowed."
           : "This server is read-only: tools that change data are not offered (the user can "
             "restart it with --allow-writes).");
  return "{\"protocolVersion\":" + Quote(version) +
         ",\"capabilities\":{\"tools\":{\"listChanged\":false},\"resources\":{\"subscribe\":false,"
         "\"listChanged\":false}},\"serverInfo\":{\"name\":\"localdynamo\",\"title\":"
         "\"localdynamo (local DynamoDB)\",\"version\":" +
         Quote(options_.version) + "},\"instructions\":" + Quote(instructions) + "}";
}

std::string McpServer::ListTools() const {
  std::string tools;
  for (const ToolSpec& tool : Tools()) {
    if (tool.writes && !options_.allow_writes) continue;
    if (!tools.empty()) tools += ",";
    bool reads_only =
        !tool.writes && (tool.name != "ExecuteStatement" || !options_.allow_writes);
    bool destructive = tool.writes && tool.name != "PutItem" && tool.name != "SaveSnapshot" &&
                       tool.name != "CreateTable";
    tools += "{\"name\":" + Quote(tool.name) + ",\"description\":" + Quote(tool.description) +
             ",\"inputSchema\":" + std::string(tool.input_schema) +
             ",\"annotations\":{\"readOnlyHint\":" + (reads_only ? "true" : "false") +
             ",\"destructiveHint\":" + (destructive ? "true" : "false") +
             ",\"openWorldHint\":false}}";
  }
  return "{\"tools\":[" + tools + "]}";
}

std::vector<std::string> McpServer::KeyNames(const rapidjson::Value& request) {
  std::vector<std::string> names;
  std::string table = StringMember(request, "TableName");
  std::string index = StringMember(request, "IndexName");
  BackendReply described =
      backend_.Dynamo("DynamoDB_20120810.DescribeTable", "{\"TableName\":" + Quote(table) + "}");
  rapidjson::Document doc;
  if (described.status != 200 || doc.Parse(described.body.c_str()).HasParseError() ||
      !doc.IsObject() || !doc.HasMember("Table")) {
    return names;
  }
  auto add_keys = [&names](const rapidjson::Value& owner) {
    auto schema = owner.FindMember("KeySchema");
    if (schema == owner.MemberEnd() || !schema->value.IsArray()) return;
    for (const auto& element : schema->value.GetArray()) {
      std::string name = StringMember(element, "AttributeName");
      if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
  };
  const rapidjson::Value& description = doc["Table"];
  add_keys(description);
  if (!index.empty()) {
    for (const char* kind : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
      auto indexes = description.FindMember(kind);
      if (indexes == description.MemberEnd() || !indexes->value.IsArray()) continue;
      for (const auto& entry : indexes->value.GetArray()) {
        if (StringMember(entry, "IndexName") == index) add_keys(entry);
      }
    }
  }
  return names;
}

std::string McpServer::CallTool(const rapidjson::Value& params, int* error_code,
                                std::string* error) {
  std::string name = StringMember(params, "name");
  const ToolSpec* tool = FindTool(name);
  if (tool == nullptr) {
    *error_code = kInvalidParams;
    *error = "Unknown tool: " + name;
    return "";
  }
  if (tool->writes && !options_.allow_writes) {
    return ToolError(name + " changes data, and this localdynamo MCP server is read-only. To "
                            "allow writes, restart it with --allow-writes (in the agent's MCP "
                            "configuration: `localdynamo mcp --allow-writes ...`).");
  }
  rapidjson::Document arguments;
  arguments.SetObject();
  auto given = params.FindMember("arguments");
  if (given != params.MemberEnd() && !given->value.IsNull()) {
    if (!given->value.IsObject()) {
      return ToolError("arguments must be a JSON object: the " + name + " request");
    }
    arguments.CopyFrom(given->value, arguments.GetAllocator());
  }

  BackendReply reply;
  bool limit_capped = false;
  if (tool->kind == ToolKind::kAdmin) {
    if (arguments.HasMember("Name") && StringMember(arguments, "Name").empty()) {
      return ToolError("Name must be a non-empty string");
    }
    AdminRequest request = BuildAdminRequest(tool->name, arguments);
    reply = backend_.Admin(request.method, request.path, request.body);
  } else {
    if (tool->name == "ExecuteStatement" && !options_.allow_writes &&
        !IsSelect(StringMember(arguments, "Statement"))) {
      return ToolError("Only SELECT statements run on this read-only localdynamo MCP server. To "
                       "allow INSERT, UPDATE and DELETE, restart it with --allow-writes.");
    }
    limit_capped = CapRequestLimit(tool->name, arguments, options_.limits.max_items);
    std::string target = tool->kind == ToolKind::kStreams ? "DynamoDBStreams_20120810."
                                                          : "DynamoDB_20120810.";
    target += tool->name;
    reply = backend_.Dynamo(target, ToJson(arguments));
  }
  if (reply.status == 0) return ToolError(reply.body);
  if (reply.status != 200) {
    return ToolError(name + " failed (HTTP " + std::to_string(reply.status) +
                     "): " + CutText(reply.body, options_.limits.max_bytes));
  }
  rapidjson::Document answer;
  if (answer.Parse(reply.body.c_str()).HasParseError()) {
    return ToolResult(CutText(reply.body, options_.limits.max_bytes), "", false);
  }
  CappedAnswer capped =
      CapAnswer(tool->name, answer, options_.limits, limit_capped,
                [this, &arguments] { return KeyNames(arguments); });
  return ToolResult(capped.json, capped.note, false);
}

std::string McpServer::ListResources() const {
  std::string resources =
      "{\"uri\":" + Quote(kTablesUri) +
      ",\"name\":\"tables\",\"title\":\"Live tables\",\"description\":\"Every table in the "
      "database with its DescribeTable answer (keys, indexes, streams, item counts)\","
      "\"mimeType\":\"application/json\"}";
  for (const ModelGuide& guide : ModelGuides()) {
    resources += ",{\"uri\":" + Quote(std::string(kModelUriPrefix) + std::string(guide.model)) +
                 ",\"name\":" + Quote(guide.model) + ",\"title\":" +
                 Quote("Model " + std::string(guide.model) + ": tables and access patterns") +
                 ",\"description\":" +
                 Quote("The preloaded " + std::string(guide.model) +
                       " model: its tables, key schemas, indexes and the request that serves "
                       "each documented access pattern") +
                 ",\"mimeType\":\"text/markdown\",\"size\":" +
                 std::to_string(guide.text.size()) + "}";
  }
  return "{\"resources\":[" + resources + "]}";
}

std::string McpServer::ReadResource(const rapidjson::Value& params, int* error_code,
                                    std::string* error) {
  std::string uri = StringMember(params, "uri");
  auto contents = [&uri](std::string_view mime, std::string_view text) {
    return "{\"contents\":[{\"uri\":" + Quote(uri) + ",\"mimeType\":" + Quote(mime) +
           ",\"text\":" + Quote(text) + "}]}";
  };
  if (uri == kTablesUri) return contents("application/json", LiveTables());
  if (uri.rfind(kModelUriPrefix, 0) == 0) {
    std::string_view model = std::string_view(uri).substr(kModelUriPrefix.size());
    for (const ModelGuide& guide : ModelGuides()) {
      if (guide.model == model) return contents("text/markdown", guide.text);
    }
  }
  *error_code = kResourceNotFound;
  *error = "Resource not found: " + uri;
  return "";
}

std::string McpServer::LiveTables() {
  rapidjson::Document out;
  out.SetObject();
  auto& alloc = out.GetAllocator();
  out.AddMember("Endpoint", rapidjson::Value(backend_.Describe().c_str(), alloc), alloc);
  rapidjson::Value tables(rapidjson::kArrayType);
  std::string start;
  do {
    std::string body = start.empty() ? "{}" : "{\"ExclusiveStartTableName\":" + Quote(start) + "}";
    BackendReply listed = backend_.Dynamo("DynamoDB_20120810.ListTables", body);
    rapidjson::Document page;
    if (listed.status != 200 || page.Parse(listed.body.c_str()).HasParseError() ||
        !page.IsObject() || !page.HasMember("TableNames")) {
      out.AddMember("Error", rapidjson::Value(listed.body.c_str(), alloc), alloc);
      break;
    }
    start = StringMember(page, "LastEvaluatedTableName");
    for (const auto& name : page["TableNames"].GetArray()) {
      if (!name.IsString()) continue;
      BackendReply described = backend_.Dynamo(
          "DynamoDB_20120810.DescribeTable",
          "{\"TableName\":" + Quote(name.GetString()) + "}");
      rapidjson::Document table;
      if (described.status == 200 && !table.Parse(described.body.c_str()).HasParseError() &&
          table.IsObject() && table.HasMember("Table")) {
        tables.PushBack(rapidjson::Value(table["Table"], alloc), alloc);
      }
    }
  } while (!start.empty());
  // Over the byte cap: whole tables dropped from the end, and a note, rather
  // than JSON cut mid-way.
  size_t total = tables.Size();
  std::string json;
  while (true) {
    rapidjson::Document page;
    page.CopyFrom(out, page.GetAllocator());
    page.AddMember("Tables", rapidjson::Value(tables, page.GetAllocator()), page.GetAllocator());
    if (tables.Size() < total) {
      std::string note = std::to_string(tables.Size()) + " of " + std::to_string(total) +
                         " tables shown (the --max-bytes cap of " +
                         std::to_string(options_.limits.max_bytes) +
                         " bytes): call ListTables and DescribeTable for the rest";
      page.AddMember("Truncated", rapidjson::Value(note.c_str(), page.GetAllocator()),
                     page.GetAllocator());
    }
    json = ToJson(page);
    if (json.size() <= options_.limits.max_bytes || tables.Empty()) break;
    tables.PopBack();
  }
  return CutText(std::move(json), options_.limits.max_bytes);
}

}  // namespace ddb::mcp
