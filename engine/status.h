// Status and Result<T>: how every engine operation reports failure.
//
// The engine never throws for an expected outcome (a missing table, a failed
// condition, a validation error). It returns a Status: a code naming what
// happened plus a message written in DynamoDB's own words, because clients
// and tests match on those words. api/errors.cc maps codes to DynamoDB error
// types in one switch.
//
// Thread safety: Status and Result are plain values; distinct objects may be
// used from distinct threads without synchronization.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace ddb::engine {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk,
    kNotFound,             // ResourceNotFoundException
    kAlreadyExists,        // ResourceInUseException (table exists)
    kInUse,                // ResourceInUseException (table busy, protected)
    kInvalidArgument,      // ValidationException
    kConditionFailed,      // ConditionalCheckFailedException
    kTransactionConflict,  // TransactionConflictException
    kReplicatedWriteConflict,  // ReplicatedWriteConflictException
    kLimitExceeded,        // LimitExceededException
    kTrimmedData,          // TrimmedDataAccessException (streams)
    kInternal,             // InternalServerError
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status AlreadyExists(std::string msg) {
    return Status(Code::kAlreadyExists, std::move(msg));
  }
  static Status InUse(std::string msg) { return Status(Code::kInUse, std::move(msg)); }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status ConditionFailed(std::string msg) {
    return Status(Code::kConditionFailed, std::move(msg));
  }
  static Status TransactionConflict(std::string msg) {
    return Status(Code::kTransactionConflict, std::move(msg));
  }
  static Status ReplicatedWriteConflict(std::string msg) {
    return Status(Code::kReplicatedWriteConflict, std::move(msg));
  }
  static Status LimitExceeded(std::string msg) {
    return Status(Code::kLimitExceeded, std::move(msg));
  }
  static Status TrimmedData(std::string msg) {
    return Status(Code::kTrimmedData, std::move(msg));
  }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

// Holds either a value or a non-ok Status.
template <class T>
class [[nodiscard]] Result {
 public:
  // NOLINTBEGIN: implicit by design
  Result(T&& value) : value_(std::move(value)) {}
  Result(const T& value) : value_(value) {}
  // NOLINTEND
  Result(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    assert(!status_.ok());
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  // REQUIRES: ok()
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace ddb::engine

namespace ddb::engine {
// DynamoDB's text for a request that meets an item a transaction holds.
inline constexpr std::string_view kTransactionOngoing = "Transaction is ongoing for the item";
// DynamoDB's documented text for a write that meets an item a strongly
// consistent global table's write from another region holds.
inline constexpr std::string_view kReplicatedWriteConflict =
    "The request was rejected because one or more items in the request are being modified by a "
    "request in another Region.";
}  // namespace ddb::engine

// Returns early from the enclosing function when `expr` yields a non-ok Status.
#define DDB_RETURN_IF_ERROR(expr)                   \
  do {                                              \
    ::ddb::engine::Status ddb_status_ = (expr);     \
    if (!ddb_status_.ok()) return ddb_status_;      \
  } while (0)
