// The Model Context Protocol server: answers one JSON-RPC line at a time
// (initialize with version negotiation, ping, tools/list, tools/call,
// resources/list, resources/read; notifications are taken silently). Tools
// and their rules are tool_catalog's, the caps result_limits', the
// resources the embedded model guides plus the live table list. Requests go
// to a Backend, so the server does not know whether it reaches a server over
// HTTP or a data directory in-process.
//
// Thread safety: one line at a time (stdio is sequential).
#pragma once

#include <string>
#include <string_view>

#include "mcp/backend.h"
#include "mcp/result_limits.h"

namespace ddb::mcp {

// The protocol revisions this server speaks, newest first: an initialize
// asking for one of them gets it, any other gets the newest.
inline constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18",
                                                         "2025-03-26", "2024-11-05"};

struct ServerOptions {
  bool allow_writes = false;  // --allow-writes: list and run the tools that change data
  ResultLimits limits;
  std::string version = "0";  // localdynamo's, for serverInfo
};

class McpServer {
 public:
  McpServer(Backend& backend, ServerOptions options);
  // The line to answer `line` with (no newline), or "" when none is due.
  std::string HandleLine(std::string_view line);

 private:
  std::string Initialize(const rapidjson::Value& params) const;
  std::string ListTools() const;
  // The tools/call result, or "" with `*error_code`/`*error` for a protocol error.
  std::string CallTool(const rapidjson::Value& params, int* error_code, std::string* error);
  std::string ListResources() const;
  std::string ReadResource(const rapidjson::Value& params, int* error_code, std::string* error);
  std::string LiveTables();
  std::vector<std::string> KeyNames(const rapidjson::Value& request);

  Backend& backend_;
  const ServerOptions options_;
};

}  // namespace ddb::mcp
