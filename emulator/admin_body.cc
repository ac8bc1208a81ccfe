#include "emulator/admin_body.h"

#include "api/json_reader.h"

namespace ddb::emulator {

namespace {
constexpr int kMaxBodyDepth = 64;
}  // namespace

api::ApiResult<rapidjson::Document> ParseAdminBody(std::string_view body) {
  rapidjson::Document doc;
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    doc.SetObject();
    return doc;
  }
  if (!api::ParseBounded(body, kMaxBodyDepth, &doc) || !doc.IsObject()) {
    return api::ApiError::Validation("The body must be a JSON object");
  }
  return doc;
}

}  // namespace ddb::emulator
