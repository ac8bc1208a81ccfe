#include "api/value_layers.h"

#include <algorithm>
#include <array>

#include "api/attribute_json.h"

namespace ddb::api {
namespace {

constexpr std::string_view kEnvelope = "1 validation error detected: ";
constexpr std::array<std::string_view, 3> kEnveloped = {"DeleteItem", "PutItem", "UpdateItem"};
constexpr std::array<std::string_view, 3> kBare = {"BatchGetItem", "GetItem", "Query"};

bool In(const auto& names, std::string_view operation) {
  return std::find(names.begin(), names.end(), operation) != names.end();
}

}  // namespace

ApiError InLayerOf(std::string_view operation, ApiError error) {
  using Envelope = ApiError::Envelope;
  const bool put_or_delete = operation == "PutItem" || operation == "DeleteItem";
  if ((error.envelope == Envelope::kPutAndDelete && put_or_delete) ||
      (error.envelope == Envelope::kItemWrites && In(kEnveloped, operation)) ||
      (error.envelope == Envelope::kQuery && operation == "Query")) {
    error.message = std::string(kEnvelope) + error.message;
  }
  error.envelope = Envelope::kNone;
  // The nesting text carries the envelope everywhere but in transactions
  // (captured 2026-10).
  if (operation == "TransactWriteItems" && error.message == kNestingTooDeep) {
    error.message.erase(0, kEnvelope.size());
  }
  if (!error.value_wording) return error;
  ApiError::ValueWording wording = std::move(*error.value_wording);
  error.value_wording.reset();
  if (In(kEnveloped, operation)) {
    error.message = std::string(kEnvelope) + error.message;
  } else if (!In(kBare, operation)) {
    error.message = wording.placeholder.empty()
                        ? std::move(wording.older)
                        : "ExpressionAttributeValues contains invalid value: " + wording.older +
                              " for key " + wording.placeholder;
  }
  return error;
}

}  // namespace ddb::api
