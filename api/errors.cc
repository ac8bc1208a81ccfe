#include "api/errors.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "api/attribute_json.h"

namespace ddb::api {
namespace {

constexpr std::string_view kDynamoDb = "com.amazonaws.dynamodb.v20120810#";
constexpr std::string_view kCoralService = "com.amazon.coral.service#";

ApiError Make(std::string_view prefix, std::string_view name, std::string message,
              int http_status = 400) {
  return ApiError{std::string(prefix) + std::string(name), std::move(message), http_status, {}};
}

}  // namespace

std::string_view ApiError::short_type() const {
  std::string_view t = type;
  return t.substr(t.find('#') + 1);
}

ApiError ApiError::Validation(std::string message) {
  return Make("com.amazon.coral.validate#", "ValidationException", std::move(message));
}
ApiError ApiError::Serialization(std::string message) {
  return Make(kCoralService, "SerializationException", std::move(message));
}
ApiError ApiError::UnknownOperation() {
  return Make(kCoralService, "UnknownOperationException", "");
}
ApiError ApiError::MissingAuthenticationToken() {
  return Make(kCoralService, "MissingAuthenticationTokenException",
              "Request is missing Authentication Token");
}
ApiError ApiError::ResourceNotFound(std::string message) {
  return Make(kDynamoDb, "ResourceNotFoundException", std::move(message));
}
ApiError ApiError::ResourceInUse(std::string message) {
  return Make(kDynamoDb, "ResourceInUseException", std::move(message));
}
ApiError ApiError::ConditionalCheckFailed(std::string message) {
  return Make(kDynamoDb, "ConditionalCheckFailedException", std::move(message));
}
ApiError ApiError::TransactionConflict(std::string message) {
  return Make(kDynamoDb, "TransactionConflictException", std::move(message));
}
ApiError ApiError::LimitExceeded(std::string message) {
  return Make(kDynamoDb, "LimitExceededException", std::move(message));
}
ApiError ApiError::RequestTooLarge(std::string message) {
  return Make(kCoralService, "RequestEntityTooLargeException", std::move(message), 413);
}
ApiError ApiError::Internal(std::string message) {
  return Make(kDynamoDb, "InternalServerError", std::move(message), 500);
}

ApiError FromStatus(const engine::Status& status) {
  using Code = engine::Status::Code;
  switch (status.code()) {
    case Code::kNotFound:
      return ApiError::ResourceNotFound(status.message());
    case Code::kAlreadyExists:
    case Code::kInUse:
      return ApiError::ResourceInUse(status.message());
    case Code::kInvalidArgument:
      return ApiError::Validation(status.message());
    case Code::kConditionFailed:
      return ApiError::ConditionalCheckFailed(status.message());
    case Code::kTransactionConflict:
      return ApiError::TransactionConflict(status.message());
    case Code::kLimitExceeded:
      return ApiError::LimitExceeded(status.message());
    case Code::kOk:
    case Code::kInternal:
      break;
  }
  return ApiError::Internal(status.message());
}

std::string RenderError(const ApiError& error) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("__type");
  writer.String(error.type.data(), static_cast<rapidjson::SizeType>(error.type.size()));
  // Protocol errors with nothing to add carry no message, as DynamoDB's.
  if (!error.message.empty()) {
    // DynamoDB spells the member "Message" for SerializationException alone.
    writer.Key(error.short_type() == "SerializationException" ? "Message" : "message");
    writer.String(error.message.data(), static_cast<rapidjson::SizeType>(error.message.size()));
  }
  if (error.item) {
    writer.Key("Item");
    WriteItem(writer, *error.item);
  }
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ddb::api
