// Where the MCP server's tools send their requests: a running localdynamo
// over HTTP (http_backend) or a data directory opened in-process
// (local_backend). Both speak the same two things: DynamoDB's JSON
// protocol and the emulator's admin API.
//
// Thread safety: the MCP server calls a backend from one thread.
#pragma once

#include <string>
#include <string_view>

namespace ddb::mcp {

struct BackendReply {
  int status = 0;    // the HTTP status; 0 when the request could not be made
  std::string body;  // the answer (DynamoDB JSON), or why it could not be made
};

class Backend {
 public:
  virtual ~Backend() = default;
  // A DynamoDB (or DynamoDB Streams) request: `target` is the full
  // X-Amz-Target value, e.g. "DynamoDB_20120810.Query".
  virtual BackendReply Dynamo(std::string_view target, std::string_view body) = 0;
  // An admin API request; `path` follows the admin prefix ("/clock", "/snapshots/x/restore").
  virtual BackendReply Admin(std::string_view method, std::string_view path,
                             std::string_view body) = 0;
  // Where the requests go, for the agent: "http://localhost:8000" or "data directory ./d".
  virtual std::string Describe() const = 0;
};

}  // namespace ddb::mcp
