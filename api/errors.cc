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
  ApiError error;
  error.type = std::string(prefix) + std::string(name);
  error.message = std::move(message);
  error.http_status = http_status;
  return error;
}

constexpr std::string_view kValidationException = "ValidationException";
constexpr std::string_view kResourceNotFoundException = "ResourceNotFoundException";
constexpr std::string_view kValidationError = "ValidationError";  // a cancellation reason

}  // namespace

CancellationReason CancellationReason::None() { return {"None", "", std::nullopt}; }
CancellationReason CancellationReason::ConditionalCheckFailed(std::string message,
                                                              std::optional<engine::Item> item) {
  return {"ConditionalCheckFailed", std::move(message), std::move(item)};
}
CancellationReason CancellationReason::DuplicateItem(std::string message) {
  return {"DuplicateItem", std::move(message), std::nullopt};
}
CancellationReason CancellationReason::TransactionConflict(std::string message) {
  return {"TransactionConflict", std::move(message), std::nullopt};
}
CancellationReason CancellationReason::ValidationError(std::string message) {
  return {std::string(kValidationError), std::move(message), std::nullopt};
}
CancellationReason CancellationReason::Injected(std::string code, std::string message) {
  return {std::move(code), std::move(message), std::nullopt};
}
bool CancellationReason::is_validation_error() const { return code == kValidationError; }

bool IsValidation(std::string_view short_type) { return short_type == kValidationException; }
bool IsResourceNotFound(std::string_view short_type) {
  return short_type == kResourceNotFoundException;
}

std::string_view ApiError::short_type() const {
  std::string_view t = type;
  return t.substr(t.find('#') + 1);
}

ApiError ApiError::Validation(std::string message) {
  return Make("com.amazon.coral.validate#", kValidationException, std::move(message));
}

ApiError ApiError::InvalidValue(std::string current, std::string older) {
  ApiError error = Validation(std::move(current));
  error.value_wording = ValueWording{std::move(older), {}};
  return error;
}

ApiError ApiError::InvalidParameters(const std::string& detail) {
  return Validation("One or more parameter values were invalid: " + detail);
}
ApiError ApiError::FilterNotProjected(std::string_view index, const std::string& missing) {
  return InvalidParameters("Secondary index " + std::string(index) +
                           " does not project one or more filter attributes: [" + missing + "]");
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
ApiError ApiError::AccessDenied(std::string message) {
  return Make(kCoralService, "AccessDeniedException", std::move(message));
}
ApiError ApiError::ResourceNotFound(std::string message) {
  return Make(kDynamoDb, kResourceNotFoundException, std::move(message));
}
ApiError ApiError::ResourceInUse(std::string message) {
  return Make(kDynamoDb, "ResourceInUseException", std::move(message));
}
ApiError ApiError::TableNotFound(std::string message) {
  return Make(kDynamoDb, "TableNotFoundException", std::move(message));
}
ApiError ApiError::BackupNotFound(std::string message) {
  return Make(kDynamoDb, "BackupNotFoundException", std::move(message));
}
ApiError ApiError::TableAlreadyExists(std::string message) {
  return Make(kDynamoDb, "TableAlreadyExistsException", std::move(message));
}
ApiError ApiError::PointInTimeRecoveryUnavailable(std::string message) {
  return Make(kDynamoDb, "PointInTimeRecoveryUnavailableException", std::move(message));
}
ApiError ApiError::InvalidRestoreTime(std::string message) {
  return Make(kDynamoDb, "InvalidRestoreTimeException", std::move(message));
}
ApiError ApiError::InvalidExportTime(std::string message) {
  return Make(kDynamoDb, "InvalidExportTimeException", std::move(message));
}
ApiError ApiError::ExportConflict() {
  return Make(kDynamoDb, "ExportConflictException",
              "Export conflict: Duplicate request detected with conflicting parameters");
}
ApiError ApiError::GlobalTableNotFound(std::string message) {
  return Make(kDynamoDb, "GlobalTableNotFoundException", std::move(message));
}
ApiError ApiError::ExportNotFound(std::string message) {
  return Make(kDynamoDb, "ExportNotFoundException", std::move(message));
}
ApiError ApiError::ImportConflict() {
  return Make(kDynamoDb, "ImportConflictException",
              "Import conflict: Duplicate request detected with conflicting parameters");
}
ApiError ApiError::ImportNotFound(std::string message) {
  return Make(kDynamoDb, "ImportNotFoundException", std::move(message));
}
ApiError ApiError::PolicyNotFound(std::string message) {
  return Make(kDynamoDb, "PolicyNotFoundException", std::move(message));
}
ApiError ApiError::ConditionalCheckFailed(std::string message) {
  return Make(kDynamoDb, "ConditionalCheckFailedException", std::move(message));
}
ApiError ApiError::DuplicateItem(std::string message) {
  return Make(kDynamoDb, "DuplicateItemException", std::move(message));
}
ApiError ApiError::TransactionConflict(std::string message) {
  return Make(kDynamoDb, "TransactionConflictException", std::move(message));
}
ApiError ApiError::ReplicatedWriteConflict(std::string message) {
  return Make(kDynamoDb, "ReplicatedWriteConflictException", std::move(message));
}
ApiError ApiError::TransactionCanceled(std::vector<CancellationReason> reasons) {
  std::string codes;
  for (const auto& reason : reasons) codes += (codes.empty() ? "" : ", ") + reason.code;
  ApiError error = Make(kDynamoDb, "TransactionCanceledException",
                        "Transaction cancelled, please refer cancellation reasons for specific "
                        "reasons [" + codes + "]");
  error.cancellation_reasons = std::move(reasons);
  return error;
}
ApiError ApiError::IdempotentParameterMismatch(std::string message) {
  return Make(kDynamoDb, "IdempotentParameterMismatchException", std::move(message));
}
ApiError ApiError::TransactionInProgress(std::string message) {
  return Make(kDynamoDb, "TransactionInProgressException", std::move(message));
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

ApiError ApiError::ProvisionedThroughputExceeded(bool index, std::vector<ThrottlingReason> reasons) {
  ApiError error = Make(
      kDynamoDb, "ProvisionedThroughputExceededException",
      index ? "The level of configured provisioned throughput for one or more global secondary "
              "indexes of the table was exceeded. Consider increasing your provisioning level "
              "for the under-provisioned global secondary indexes with the UpdateTable API"
            : "The level of configured provisioned throughput for the table was exceeded. "
              "Consider increasing your provisioning level with the UpdateTable API.");
  error.throttling_reasons = std::move(reasons);
  return error;
}

ApiError ApiError::OnDemandMaximumExceeded(std::vector<ThrottlingReason> reasons) {
  ApiError error = Make("com.amazon.coral.availability#", "ThrottlingException",
                        "Rate of requests exceeds the allowed throughput.");
  error.throttling_reasons = std::move(reasons);
  return error;
}

int ApiError::StatusFor(std::string_view short_type) {
  if (short_type == "InternalServerError") return 500;
  if (short_type == "ServiceUnavailable") return 503;
  return 400;
}

ApiError ApiError::Injected(std::string_view short_type, int http_status, std::string message) {
  // The namespaces DynamoDB answers these from; the rest are its own.
  static constexpr std::string_view kCoralTypes[] = {
      "AccessDeniedException", "IncompleteSignatureException", "MissingAuthenticationTokenException",
      "RequestEntityTooLargeException", "SerializationException", "UnknownOperationException",
      "UnrecognizedClientException", "InvalidSignatureException", "ServiceUnavailable"};
  std::string_view prefix = kDynamoDb;
  if (short_type == kValidationException) prefix = "com.amazon.coral.validate#";
  if (short_type == "ThrottlingException") prefix = "com.amazon.coral.availability#";
  for (std::string_view coral : kCoralTypes) {
    if (short_type == coral) prefix = kCoralService;
  }
  if (message.empty()) {
    if (short_type == "ProvisionedThroughputExceededException") {
      message = ProvisionedThroughputExceeded(false, {}).message;
    } else if (short_type == "ReplicatedWriteConflictException") {
      message = std::string(engine::kReplicatedWriteConflict);
    } else if (short_type == "ThrottlingException") {
      message = "Rate of requests exceeds the allowed throughput.";
    } else if (short_type == "InternalServerError") {
      message = "Internal server error";
    } else if (short_type == "ServiceUnavailable") {
      message = "Service unavailable";
    } else if (short_type == "RequestLimitExceeded") {
      message = "Throughput exceeds the current throughput limit for your account. Please contact "
                "AWS Support at https://aws.amazon.com/support request a limit increase";
    } else {
      message = "Injected by localdynamo";
    }
  }
  return Make(prefix, short_type, std::move(message), http_status);
}

std::string CancellationCodeFor(std::string_view short_type) {
  if (short_type == "ConditionalCheckFailedException") return "ConditionalCheckFailed";
  if (short_type == "TransactionConflictException" || short_type == "TransactionCanceledException") {
    return "TransactionConflict";
  }
  if (short_type == "ProvisionedThroughputExceededException") return "ProvisionedThroughputExceeded";
  if (short_type == "ThrottlingException" || short_type == "RequestLimitExceeded") {
    return "ThrottlingError";
  }
  if (short_type == kValidationException) return std::string(kValidationError);
  if (short_type == "ItemCollectionSizeLimitExceededException") {
    return "ItemCollectionSizeLimitExceeded";
  }
  return "";
}

std::string CancellationMessageFor(std::string_view code) {
  if (code == "ConditionalCheckFailed") return "The conditional request failed";
  if (code == "TransactionConflict") return "Transaction is ongoing for the item";
  if (code == "ProvisionedThroughputExceeded") {
    return ApiError::ProvisionedThroughputExceeded(false, {}).message;
  }
  if (code == "ThrottlingError") {
    return "Throughput exceeds the current capacity of your table or index. DynamoDB is "
           "automatically scaling your table or index so please try again shortly. If exceptions "
           "persist, check if you have a hot key: "
           "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
  }
  return "";
}

bool IsThrottling(std::string_view short_type) {
  return short_type == "ProvisionedThroughputExceededException" ||
         short_type == "ThrottlingException" || short_type == "RequestLimitExceeded";
}

ApiError ApiError::UnrecognizedClient() {
  return Make(kCoralService, "UnrecognizedClientException",
              "The security token included in the request is invalid.");
}
ApiError ApiError::InvalidSignature() {
  return Make(kCoralService, "InvalidSignatureException",
              "The request signature we calculated does not match the signature you provided. "
              "Check your AWS Secret Access Key and signing method. Consult the service "
              "documentation for details.");
}
ApiError ApiError::SignatureExpired(std::string_view signed_at, std::string_view earliest,
                                    std::string_view now, int minutes) {
  return Make(kCoralService, "InvalidSignatureException",
              "Signature expired: " + std::string(signed_at) + " is now earlier than " +
                  std::string(earliest) + " (" + std::string(now) + " - " +
                  std::to_string(minutes) + " min.)");
}
ApiError ApiError::SignatureNotYetCurrent(std::string_view signed_at, std::string_view latest,
                                          std::string_view now, int minutes) {
  return Make(kCoralService, "InvalidSignatureException",
              "Signature not yet current: " + std::string(signed_at) + " is still later than " +
                  std::string(latest) + " (" + std::string(now) + " + " +
                  std::to_string(minutes) + " min.)");
}
ApiError ApiError::CredentialWrongService(std::string_view expected) {
  return Make(kCoralService, "InvalidSignatureException",
              "Credential should be scoped to correct service: '" + std::string(expected) +
                  "'. ");
}
ApiError ApiError::IncompleteSignature(const MissingSignatureParts& missing,
                                       std::string_view authorization) {
  std::string message;
  auto require = [&](bool absent, std::string_view part) {
    if (absent) message += "Authorization header requires '" + std::string(part) + "' parameter. ";
  };
  require(missing.credential, "Credential");
  require(missing.signature, "Signature");
  require(missing.signed_headers, "SignedHeaders");
  if (missing.date) {
    message += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' "
               "header. ";
  }
  message += "Authorization=" + std::string(authorization);
  return Make(kCoralService, "IncompleteSignatureException", std::move(message));
}
ApiError ApiError::MalformedSignatureDate(std::string_view date) {
  return Make(kCoralService, "IncompleteSignatureException",
              "Date must be in ISO-8601 'basic format'. Got '" + std::string(date) +
                  "'. See http://en.wikipedia.org/wiki/ISO_8601");
}

ApiError ApiError::ExpiredIterator(std::string message) {
  return Make(kDynamoDb, "ExpiredIteratorException", std::move(message));
}
ApiError ApiError::TrimmedDataAccess(std::string message) {
  return Make(kDynamoDb, "TrimmedDataAccessException", std::move(message));
}

constexpr std::string_view kLocalDynamo = "localdynamo#";
ApiError ApiError::AdminDisabled() {
  return Make(kLocalDynamo, "AdminApiDisabledException",
              "The admin API is turned off (the server was started with --no-admin)", 403);
}
ApiError ApiError::CrossOrigin(std::string_view origin) {
  return Make(kLocalDynamo, "CrossOriginRequestException",
              "Requests from web pages of origin " + std::string(origin) +
                  " are refused: localdynamo answers pages of loopback origins only "
                  "(http://localhost:*, http://127.0.0.1:*, http://[::1]:*). Start it with -cors " +
                  std::string(origin) + " to allow this one (docs/security.md)",
              403);
}
ApiError ApiError::HostNotAllowed(std::string_view host_name) {
  return Make(kLocalDynamo, "HostNotAllowedException",
              "The admin API and the console answer requests for loopback host names only, not '" +
                  std::string(host_name) + "'. Start the server with --allowed-hosts " +
                  std::string(host_name) + " to allow it, or send the --admin-token "
                  "(docs/security.md)",
              403);
}
ApiError ApiError::AdminUnauthorized(std::string message) {
  return Make(kLocalDynamo, "UnauthorizedException", std::move(message), 401);
}
ApiError ApiError::AdminReadOnly(std::string_view listening_on) {
  return Make(kLocalDynamo, "AdminApiReadOnlyException",
              "The admin API is read-only: the server listens on " + std::string(listening_on) +
                  ", beyond loopback, without an admin token. Start it with --admin-token "
                  "(or LOCALDYNAMO_ADMIN_TOKEN) and send 'Authorization: Bearer <token>', or "
                  "with --admin-open to let anyone who reaches it change it (docs/security.md)",
              403);
}
ApiError ApiError::AdminNotFound(std::string message) {
  return Make(kLocalDynamo, "NotFoundException", std::move(message), 404);
}
ApiError ApiError::AdminMethodNotAllowed(std::string message) {
  return Make(kLocalDynamo, "MethodNotAllowedException", std::move(message), 405);
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
    case Code::kReplicatedWriteConflict:
      return ApiError::ReplicatedWriteConflict(status.message());
    case Code::kLimitExceeded:
      return ApiError::LimitExceeded(status.message());
    case Code::kTrimmedData:
      return ApiError::TrimmedDataAccess(status.message());
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
    // DynamoDB spells the member "Message" for these two alone.
    bool capital = error.short_type() == "SerializationException" ||
                   error.short_type() == "TransactionCanceledException";
    writer.Key(capital ? "Message" : "message");
    writer.String(error.message.data(), static_cast<rapidjson::SizeType>(error.message.size()));
  }
  if (error.item) {
    writer.Key("Item");
    WriteItem(writer, *error.item);
  }
  if (!error.cancellation_reasons.empty()) {
    writer.Key("CancellationReasons");
    writer.StartArray();
    for (const auto& reason : error.cancellation_reasons) {
      writer.StartObject();
      writer.Key("Code");
      WriteString(writer, reason.code);
      if (!reason.message.empty()) {
        writer.Key("Message");
        WriteString(writer, reason.message);
      }
      if (reason.item) {
        writer.Key("Item");
        WriteItem(writer, *reason.item);
      }
      writer.EndObject();
    }
    writer.EndArray();
  }
  if (!error.throttling_reasons.empty()) {
    writer.Key("ThrottlingReasons");
    writer.StartArray();
    for (const auto& reason : error.throttling_reasons) {
      writer.StartObject();
      writer.Key("reason");
      WriteString(writer, reason.reason);
      writer.Key("resource");
      WriteString(writer, reason.resource);
      writer.EndObject();
    }
    writer.EndArray();
  }
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string BatchStatementErrorCode(const ApiError& error) {
  std::string_view type = error.short_type();
  if (type == kValidationException) return std::string(kValidationError);
  if (type == "ConditionalCheckFailedException") return "ConditionalCheckFailed";
  if (type == "DuplicateItemException") return "DuplicateItem";
  if (type == kResourceNotFoundException) return "ResourceNotFound";
  if (type == "TransactionConflictException") return "TransactionConflict";
  return "InternalServerError";
}

}  // namespace ddb::api
