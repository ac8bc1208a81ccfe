#include "mcp/json_rpc.h"

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ddb::mcp {

std::string ToJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

std::string Quote(std::string_view text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return {buffer.GetString(), buffer.GetSize()};
}

Message ParseMessage(std::string_view line) {
  Message message;
  message.id = "null";
  message.params.SetObject();
  rapidjson::Document doc;
  doc.Parse(line.data(), line.size());
  if (doc.HasParseError()) {
    message.error_code = kParseError;
    message.error_message = std::string("Parse error: ") +
                            rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                            std::to_string(doc.GetErrorOffset());
    return message;
  }
  if (doc.IsArray()) {
    // JSON-RPC batches were part of MCP 2025-03-26 only; no client sends them now.
    message.error_code = kInvalidRequest;
    message.error_message = "Invalid Request: batches are not supported";
    return message;
  }
  if (!doc.IsObject()) {
    message.error_code = kInvalidRequest;
    message.error_message = "Invalid Request: a message is a JSON object";
    return message;
  }
  auto id = doc.FindMember("id");
  bool has_id = id != doc.MemberEnd();
  if (has_id) {
    if (!id->value.IsString() && !id->value.IsInt64() && !id->value.IsUint64()) {
      message.error_code = kInvalidRequest;
      message.error_message = "Invalid Request: id must be a string or an integer";
      return message;
    }
    message.id = ToJson(id->value);
  }
  auto version = doc.FindMember("jsonrpc");
  if (version == doc.MemberEnd() || !version->value.IsString() ||
      std::string_view(version->value.GetString()) != "2.0") {
    message.error_code = kInvalidRequest;
    message.error_message = "Invalid Request: jsonrpc must be \"2.0\"";
    return message;
  }
  auto method = doc.FindMember("method");
  if (method == doc.MemberEnd()) {
    if (has_id && (doc.HasMember("result") || doc.HasMember("error"))) {
      message.kind = Message::Kind::kResponse;
      return message;
    }
    message.error_code = kInvalidRequest;
    message.error_message = "Invalid Request: no method";
    return message;
  }
  if (!method->value.IsString()) {
    message.error_code = kInvalidRequest;
    message.error_message = "Invalid Request: method must be a string";
    return message;
  }
  message.method = method->value.GetString();
  auto params = doc.FindMember("params");
  if (params != doc.MemberEnd()) {
    if (!params->value.IsObject()) {
      message.kind = has_id ? Message::Kind::kInvalid : Message::Kind::kNotification;
      message.error_code = kInvalidParams;
      message.error_message = "Invalid params: params must be an object";
      if (has_id) return message;
    } else {
      message.params.CopyFrom(params->value, message.params.GetAllocator());
    }
  }
  message.kind = has_id ? Message::Kind::kRequest : Message::Kind::kNotification;
  return message;
}

std::string ResultLine(std::string_view id, std::string_view result_json) {
  std::string line = "{\"jsonrpc\":\"2.0\",\"id\":";
  line.append(id).append(",\"result\":").append(result_json).append("}");
  return line;
}

std::string ErrorLine(std::string_view id, int code, std::string_view message) {
  std::string line = "{\"jsonrpc\":\"2.0\",\"id\":";
  line.append(id)
      .append(",\"error\":{\"code\":")
      .append(std::to_string(code))
      .append(",\"message\":")
      .append(Quote(message))
      .append("}}");
  return line;
}

}  // namespace ddb::mcp
