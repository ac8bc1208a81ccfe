#include "api/value_layers.h"

#include <array>
#include <algorithm>

namespace ddb::api {
namespace {

constexpr std::array<std::string_view, 3> kEnveloped = {"DeleteItem", "PutItem", "UpdateItem"};
constexpr std::array<std::string_view, 3> kBare = {"BatchGetItem", "GetItem", "Query"};

bool In(const auto& names, std::string_view operation) {
  return std::find(names.begin(), names.end(), operation) != names.end();
}

}  // namespace

ApiError InLayerOf(std::string_view operation, ApiError error) {
  if (!error.value_wording) return error;
  ApiError::ValueWording wording = std::move(*error.value_wording);
  error.value_wording.reset();
  if (In(kEnveloped, operation)) {
    error.message = "1 validation error detected: " + error.message;
  } else if (!In(kBare, operation)) {
    error.message = wording.placeholder.empty()
                        ? std::move(wording.older)
                        : "ExpressionAttributeValues contains invalid value: " + wording.older +
                              " for key " + wording.placeholder;
  }
  return error;
}

}  // namespace ddb::api
