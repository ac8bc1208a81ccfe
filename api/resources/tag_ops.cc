// TagResource, UntagResource, ListTagsOfResource: tags live in the table's
// schema and are changed through Database::UpdateTable.
#include <algorithm>

#include "api/json_reader.h"
#include "api/operations.h"
#include "api/tables/create_table_request.h"

namespace ddb::api {
namespace {

// The table named by a table ARN, or the error DynamoDB gives for the ARN.
ApiResult<std::string> TableFromArn(std::optional<std::string_view> arn) {
  if (!arn) return ApiError::Validation("Invalid TableArn");
  constexpr std::string_view kMarker = ":table/";
  size_t pos = arn->find(kMarker);
  if (!arn->starts_with("arn:")) {
    return ApiError::Validation(
        "One or more parameter values were invalid: ARNs must start with 'arn:': " +
        std::string(*arn));
  }
  if (pos == std::string_view::npos) {
    return ApiError::Validation("Invalid TableArn: Invalid ResourceArn provided as input " +
                                std::string(*arn));
  }
  std::string name(arn->substr(pos + kMarker.size()));
  Constraints constraints;
  constraints.TableName(name);
  if (!constraints.empty() || name.find('/') != std::string::npos) {
    return ApiError::Validation("Invalid TableArn: Invalid ResourceArn provided as input " +
                                std::string(*arn));
  }
  return name;
}

}  // namespace

ApiResult<std::string> TagResource(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = r.String("ResourceArn");
  const rapidjson::Value* tags_json = r.Array("Tags");
  if (r.failed()) return r.error();
  auto table = TableFromArn(arn);
  if (!table.ok()) return table.take_error();
  if (!tags_json) {
    Constraints c;
    c.NotNull(false, "tags");
    return c.ToError();
  }
  if (tags_json->Empty()) return ApiError::Validation("Atleast one Tag needs to be provided as Input.");
  auto tags = ParseTags(*tags_json);
  if (!tags.ok()) return tags.take_error();
  auto result = ctx.db.UpdateTable(ctx.caller.ns, *table, [&](engine::TableSchema& schema) {
    for (auto& [key, value] : *tags) {
      auto it = std::find_if(schema.tags.begin(), schema.tags.end(),
                             [&name = key](const auto& t) { return t.first == name; });
      if (it != schema.tags.end()) {
        it->second = value;
      } else {
        schema.tags.emplace_back(key, value);
      }
    }
    if (schema.tags.size() > 50) {
      return engine::Status::InvalidArgument(
          "Number of Tags exceed the current limit for the provided ResourceArn");
    }
    return engine::Status::Ok();
  });
  if (!result.ok()) {
    if (result.status().code() == engine::Status::Code::kNotFound) {
      return ApiError::ResourceNotFound("Requested resource not found: ResourcArn: " +
                                        std::string(*arn) + " not found");
    }
    return result.status();
  }
  return std::string();
}

ApiResult<std::string> UntagResource(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = r.String("ResourceArn");
  const rapidjson::Value* keys_json = r.Array("TagKeys");
  if (r.failed()) return r.error();
  auto table = TableFromArn(arn);
  if (!table.ok()) return table.take_error();
  if (!keys_json) {
    Constraints c;
    c.NotNull(false, "tagKeys");
    return c.ToError();
  }
  if (keys_json->Empty()) return ApiError::Validation("Atleast one Tag Key needs to be provided as Input.");
  std::vector<std::string> keys;
  for (const auto& key : keys_json->GetArray()) {
    if (!key.IsString()) return WrongType(key, "String");
    keys.emplace_back(View(key));
  }
  auto result = ctx.db.UpdateTable(ctx.caller.ns, *table, [&](engine::TableSchema& schema) {
    std::erase_if(schema.tags, [&](const auto& tag) {
      return std::find(keys.begin(), keys.end(), tag.first) != keys.end();
    });
    return engine::Status::Ok();
  });
  if (!result.ok()) {
    if (result.status().code() == engine::Status::Code::kNotFound) {
      return ApiError::ResourceNotFound("Requested resource not found");
    }
    return result.status();
  }
  return std::string();
}

ApiResult<std::string> ListTagsOfResource(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = r.String("ResourceArn");
  if (r.failed()) return r.error();
  auto table = TableFromArn(arn);
  if (!table.ok()) return table.take_error();
  auto description = ctx.db.DescribeTable(ctx.caller.ns, *table);
  if (!description.ok()) {
    return ApiError::ResourceNotFound("Requested resource not found: ResourcArn: " +
                                      std::string(*arn) + " not found");
  }
  return RenderObject([&](JsonWriter& w) {
    w.Key("Tags");
    w.StartArray();
    for (const auto& [key, value] : description->schema.tags) {
      w.StartObject();
      w.Key("Key");
      WriteString(w, key);
      w.Key("Value");
      WriteString(w, value);
      w.EndObject();
    }
    w.EndArray();
  });
}

}  // namespace ddb::api
