// The body of an admin request (emulator/admin.h): a JSON object, or
// nothing at all, which reads as an empty object so that a bare POST means
// "the defaults".
#pragma once

#include <rapidjson/document.h>

#include <string_view>

#include "api/errors.h"

namespace ddb::emulator {

// "The body must be a JSON object" (a ValidationException) for anything
// else, including JSON nested deeper than any admin body needs.
api::ApiResult<rapidjson::Document> ParseAdminBody(std::string_view body);

}  // namespace ddb::emulator
