// The MCP tools: every DynamoDB operation an agent may call, each taking
// DynamoDB's own request JSON as its arguments (so the API reference is its
// manual), and the emulator's admin controls. Which tools change data is
// fixed here: a server started without --allow-writes neither lists nor
// runs those.
//
// Thread safety: immutable data.
#pragma once

#include <span>
#include <string_view>

namespace ddb::mcp {

enum class ToolKind {
  kDynamo,   // DynamoDB_20120810.<operation>
  kStreams,  // DynamoDBStreams_20120810.<operation>
  kAdmin,    // an admin API request (mcp_server.cc builds it from the arguments)
};

struct ToolSpec {
  std::string_view name;       // the DynamoDB operation's name, or the admin control's
  ToolKind kind;
  bool writes;                 // changes data or the server's state
  std::string_view description;
  std::string_view input_schema;  // JSON Schema of the arguments
};

std::span<const ToolSpec> Tools();
const ToolSpec* FindTool(std::string_view name);

}  // namespace ddb::mcp
