// JSON-RPC 2.0 as MCP's stdio transport uses it: one message per line of
// UTF-8 JSON, no embedded newlines. Parses an incoming line into a request,
// a notification or a response (which this server never expects), and
// renders the lines it answers with.
//
// Thread safety: free functions over their arguments only.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

namespace ddb::mcp {

// JSON-RPC's own error codes, and MCP's for a resource it does not know.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kResourceNotFound = -32002;

struct Message {
  enum class Kind {
    kRequest,       // has a method and an id: must be answered
    kNotification,  // has a method, no id: never answered
    kResponse,      // an answer to a request of ours (we send none): ignored
    kInvalid,       // answered with `error_code` / `error_message`
  };
  Kind kind = Kind::kInvalid;
  std::string id;  // the id as JSON text, echoed verbatim ("7", "\"a\""); "null" if unknown
  std::string method;
  rapidjson::Document params;  // an object (empty when the message had none)
  int error_code = 0;
  std::string error_message;
};

Message ParseMessage(std::string_view line);

// {"jsonrpc":"2.0","id":<id>,"result":<result_json>} on one line.
std::string ResultLine(std::string_view id, std::string_view result_json);
// {"jsonrpc":"2.0","id":<id>,"error":{"code":<code>,"message":<message>}}.
std::string ErrorLine(std::string_view id, int code, std::string_view message);

// `value` as compact JSON text (never contains a raw newline).
std::string ToJson(const rapidjson::Value& value);
// `text` as a JSON string literal, quotes included.
std::string Quote(std::string_view text);

}  // namespace ddb::mcp
