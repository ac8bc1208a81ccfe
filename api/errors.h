// The DynamoDB error vocabulary: every error type the service answers with,
// how engine Status codes map onto them, and how they are rendered.
//
// Wire form (DynamoDB's JSON 1.0 protocol):
//   {"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
//    "message":"Requested resource not found"}
// Validation errors use "com.amazon.coral.validate#ValidationException";
// protocol-level errors use "com.amazon.coral.service#…". No other file
// spells an error type.
//
// Thread safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/status.h"

namespace ddb::api {

// One entry of TransactionCanceledException's CancellationReasons.
struct CancellationReason {
  std::string code;     // "None", "ConditionalCheckFailed", "ValidationError", ...
  std::string message;  // empty for "None"
  std::optional<engine::Item> item;

  static CancellationReason None();  // the action was fine
  // `item` with ReturnValuesOnConditionCheckFailure ALL_OLD.
  static CancellationReason ConditionalCheckFailed(std::string message,
                                                   std::optional<engine::Item> item);
  static CancellationReason DuplicateItem(std::string message);  // PartiQL INSERT
  static CancellationReason TransactionConflict(std::string message);
  static CancellationReason ValidationError(std::string message);
  // The reason for an action whose table an injected fault or the throttle
  // hit: `code` from CancellationCodeFor().
  static CancellationReason Injected(std::string code, std::string message);
  bool is_validation_error() const;
};

// One entry of the ThrottlingReasons DynamoDB added to its throttling
// errors in 2025: `reason` is ResourceType+OperationType+LimitType
// ("TableWriteProvisionedThroughputExceeded"), `resource` the table's or
// index's ARN.
struct ThrottlingReason {
  std::string reason;
  std::string resource;
};

struct ApiError {
  std::string type;  // full __type, namespace included
  std::string message;
  int http_status = 400;
  std::optional<engine::Item> item;  // ConditionalCheckFailed with ALL_OLD
  std::vector<CancellationReason> cancellation_reasons;  // TransactionCanceled only
  std::vector<ThrottlingReason> throttling_reasons;      // throttling errors only

  // A bad attribute value, which DynamoDB words by the layer that checks it
  // (api/value_layers.h): `message` is the current layer's text, bare, and
  // this the rest, until the operation's layer decides the message.
  struct ValueWording {
    std::string older;        // the older layer's text
    std::string placeholder;  // the ExpressionAttributeValues key it came from, if any
  };
  std::optional<ValueWording> value_wording;

  // Request-level checks that some operations answer inside the
  // `1 validation error detected: ` envelope (captured 2026-10 and 2026-08;
  // applied by api/value_layers.h): kPutAndDelete for expression parameters
  // without an expression, an empty ExpressionAttributeNames, an empty
  // ConditionExpression and a malformed Expected entry; kItemWrites (Update
  // too) for a condition's undefined value beside defined ones, an
  // UpdateExpression's errors, an empty ExpressionAttributeValues and unused
  // placeholders; kQuery for Query's Select checks (Scan's are bare).
  enum class Envelope : uint8_t { kNone, kPutAndDelete, kItemWrites, kQuery };
  Envelope envelope = Envelope::kNone;
  ApiError&& EnvelopedIn(Envelope which) && {
    envelope = which;
    return std::move(*this);
  }

  // The short name after '#', e.g. "ValidationException".
  std::string_view short_type() const;

  static ApiError Validation(std::string message);
  // A ValidationException for a bad attribute value, in the current layer's
  // and the older layer's words (the same text when they agree).
  static ApiError InvalidValue(std::string current, std::string older);
  // A ValidationException reading "One or more parameter values were
  // invalid: <detail>", DynamoDB's form for schema-level problems.
  static ApiError InvalidParameters(const std::string& detail);
  // A Query's (or a keyed PartiQL SELECT's) filter on attributes `missing`
  // (UnprojectedNames) that the index `index` does not hold.
  static ApiError FilterNotProjected(std::string_view index, const std::string& missing);
  static ApiError Serialization(std::string message);
  static ApiError UnknownOperation();
  static ApiError MissingAuthenticationToken();
  static ApiError AccessDenied(std::string message);
  static ApiError ResourceNotFound(std::string message);
  static ApiError ResourceInUse(std::string message);
  // The backup operations' own "Table not found: <name>".
  static ApiError TableNotFound(std::string message);
  static ApiError BackupNotFound(std::string message);
  static ApiError TableAlreadyExists(std::string message);  // a restore's target
  static ApiError PolicyNotFound(std::string message);
  static ApiError PointInTimeRecoveryUnavailable(std::string message);
  static ApiError InvalidRestoreTime(std::string message);
  static ApiError InvalidExportTime(std::string message);
  static ApiError ExportConflict();  // the same ClientToken with other parameters
  static ApiError ExportNotFound(std::string message);
  static ApiError GlobalTableNotFound(std::string message);
  static ApiError ImportConflict();
  static ApiError ImportNotFound(std::string message);
  static ApiError ConditionalCheckFailed(std::string message);
  static ApiError DuplicateItem(std::string message);  // PartiQL INSERT over an existing item
  static ApiError TransactionConflict(std::string message);
  static ApiError ReplicatedWriteConflict(std::string message);
  // "Transaction cancelled, please refer cancellation reasons for specific
  // reasons [A, B]", built from `reasons`.
  static ApiError TransactionCanceled(std::vector<CancellationReason> reasons);
  static ApiError IdempotentParameterMismatch(std::string message);
  static ApiError TransactionInProgress(std::string message);
  static ApiError LimitExceeded(std::string message);
  static ApiError RequestTooLarge(std::string message);
  static ApiError Internal(std::string message);
  // Provisioned capacity ran out: on the table itself, or (`index`) on one of
  // its global secondary indexes; DynamoDB's message for each.
  static ApiError ProvisionedThroughputExceeded(bool index, std::vector<ThrottlingReason> reasons);
  // An on-demand table or index past its OnDemandThroughput maximum.
  static ApiError OnDemandMaximumExceeded(std::vector<ThrottlingReason> reasons);
  // Any error a test asked the emulator to inject (emulator/fault_rules.h):
  // `short_type` in the namespace DynamoDB answers it from, with the given
  // status and message (empty: DynamoDB's usual text for the type, if any).
  static ApiError Injected(std::string_view short_type, int http_status, std::string message);
  // The HTTP status DynamoDB answers `short_type` with (500 for
  // InternalServerError, 503 for ServiceUnavailable, else 400).
  static int StatusFor(std::string_view short_type);
  // Request signing (SigV4), checked only with --verify-signatures.
  static ApiError UnrecognizedClient();
  // A signature that does not match the one computed with the key's secret.
  static ApiError InvalidSignature();
  // X-Amz-Date more than `minutes` before `now` (both "20240101T000000Z").
  static ApiError SignatureExpired(std::string_view signed_at, std::string_view earliest,
                                   std::string_view now, int minutes);
  // X-Amz-Date more than `minutes` after `now`.
  static ApiError SignatureNotYetCurrent(std::string_view signed_at, std::string_view latest,
                                         std::string_view now, int minutes);
  // The credential scope names another service than DynamoDB's.
  static ApiError CredentialWrongService(std::string_view expected);
  // An Authorization header that lacks the parts flagged missing (or a
  // request without a date to check the signature against); the message
  // quotes the header.
  struct MissingSignatureParts {
    bool credential = false;
    bool signature = false;
    bool signed_headers = false;
    bool date = false;
  };
  static ApiError IncompleteSignature(const MissingSignatureParts& missing,
                                      std::string_view authorization);
  // An X-Amz-Date that is not "yyyymmddThhmmssZ".
  static ApiError MalformedSignatureDate(std::string_view date);
  // DynamoDB Streams.
  static ApiError ExpiredIterator(std::string message);
  static ApiError TrimmedDataAccess(std::string message);
  // The admin API (emulator/admin.h): not DynamoDB's, so in a namespace of ours.
  static ApiError AdminDisabled();
  static ApiError AdminNotFound(std::string message);
  static ApiError AdminMethodNotAllowed(std::string message);
  // Who may reach the server (server/access_policy.h): a browser page of an
  // origin not allowed (any path), a Host that is not a loopback name nor
  // one of --allowed-hosts (the admin API's and console's GETs), an admin
  // request without the --admin-token, and a change through an admin API
  // that is read-only because the server listens beyond loopback.
  static ApiError CrossOrigin(std::string_view origin);
  static ApiError HostNotAllowed(std::string_view host_name);  // without the port
  static ApiError AdminUnauthorized(std::string message);
  static ApiError AdminReadOnly(std::string_view listening_on);
};

// Either a value or the ApiError to answer with.
template <class T>
class [[nodiscard]] ApiResult {
 public:
  ApiResult(T value) : value_(std::move(value)) {}            // NOLINT: implicit by design
  ApiResult(ApiError error) : error_(std::move(error)) {}     // NOLINT: implicit by design
  ApiResult(const engine::Status& status) : error_(FromStatusImpl(status)) {}  // NOLINT

  bool ok() const { return value_.has_value(); }
  // REQUIRES: !ok()
  const ApiError& error() const { return *error_; }
  ApiError&& take_error() { return std::move(*error_); }
  // REQUIRES: ok()
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  T& operator*() { return *value_; }

 private:
  static ApiError FromStatusImpl(const engine::Status& status);
  std::optional<T> value_;
  std::optional<ApiError> error_;
};

// The single mapping from engine codes to DynamoDB error types.
// REQUIRES: !status.ok()
ApiError FromStatus(const engine::Status& status);

template <class T>
ApiError ApiResult<T>::FromStatusImpl(const engine::Status& status) {
  return FromStatus(status);
}

// Whether a short error type (ApiError::short_type(), or the part of an
// error response's __type after '#') is the one named.
bool IsValidation(std::string_view short_type);
bool IsResourceNotFound(std::string_view short_type);

// The CancellationReasons code DynamoDB uses for an error type inside a
// transaction ("ConditionalCheckFailedException" -> "ConditionalCheckFailed",
// "ThrottlingException" -> "ThrottlingError", …); empty when the error is not
// one a transaction reports per action (it then answers as itself).
std::string CancellationCodeFor(std::string_view short_type);
// DynamoDB's message for a cancellation code ("TransactionConflict" ->
// "Transaction is ongoing for the item"); empty when it has none of its own.
std::string CancellationMessageFor(std::string_view code);

// Whether an error type is a throttling one, which a batch reports per item
// as UnprocessedItems/UnprocessedKeys rather than failing.
bool IsThrottling(std::string_view short_type);

// The JSON body of an error response.
std::string RenderError(const ApiError& error);

// The Code of a BatchExecuteStatement member's Error for `error`:
// ConditionalCheckFailed, DuplicateItem, ResourceNotFound,
// TransactionConflict, ValidationError, else InternalServerError.
std::string BatchStatementErrorCode(const ApiError& error);

}  // namespace ddb::api
