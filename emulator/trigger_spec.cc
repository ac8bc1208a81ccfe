#include "emulator/trigger_spec.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>

#include "api/json_reader.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;
using api::JsonWriter;
using api::ParseBounded;
using api::RequestReader;
using api::View;

namespace {

constexpr int kMaxDefinitionDepth = 40;  // filter patterns nest a record's depth, no more

ApiError Invalid(std::string message) { return ApiError::Validation(std::move(message)); }

std::string Compact(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  value.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

bool ValidName(std::string_view name) {
  return !name.empty() && name.size() <= 128 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

ApiResult<std::vector<EventFilter>> ParseFilters(const rapidjson::Value& criteria) {
  std::vector<EventFilter> filters;
  if (!criteria.IsObject()) return Invalid("FilterCriteria must be an object");
  auto list = criteria.FindMember("Filters");
  if (list == criteria.MemberEnd()) return filters;
  if (!list->value.IsArray() || list->value.Size() > 5) {
    return Invalid("FilterCriteria.Filters must be a list of at most 5 filters");
  }
  for (const auto& filter : list->value.GetArray()) {
    auto pattern = filter.IsObject() ? filter.FindMember("Pattern") : filter.MemberEnd();
    if (!filter.IsObject() || pattern == filter.MemberEnd()) {
      return Invalid("Each filter needs a Pattern");
    }
    std::string text = pattern->value.IsString() ? std::string(View(pattern->value))
                                                 : Compact(pattern->value);
    auto parsed = EventFilter::Parse(text);
    if (!parsed.ok()) return parsed.take_error();
    filters.push_back(std::move(parsed).value());
  }
  return filters;
}

}  // namespace

ApiResult<TriggerSpec> ParseTriggerSpec(std::string_view json) {
  rapidjson::Document doc;
  if (!ParseBounded(json, kMaxDefinitionDepth, &doc) || !doc.IsObject()) {
    return Invalid("A trigger is a JSON object");
  }
  RequestReader r(doc);
  TriggerSpec spec;
  auto name = r.String("Name");
  auto table = r.String("TableName");
  auto url = r.String("Url");
  auto command = r.String("Command");
  auto batch_size = r.Integer("BatchSize");
  auto window = r.Integer("MaximumBatchingWindowInSeconds");
  auto start = r.String("StartingPosition");
  const rapidjson::Value* criteria = r.Object("FilterCriteria");
  auto retries = r.Integer("MaximumRetryAttempts");
  auto on_failure = r.String("OnFailure");
  auto timeout = r.Integer("TimeoutSeconds");
  auto region = r.String("Region");
  auto access_key = r.String("AccessKeyId");
  auto kinesis_arn = r.String("KinesisStreamArn");
  if (r.failed()) return r.error();
  if (!name || !ValidName(*name)) {
    return Invalid("Name is required: 1 to 128 letters, digits, '_', '-' or '.'");
  }
  if (!table || table->empty()) return Invalid("TableName is required");
  if (url.has_value() == command.has_value()) {
    return Invalid("Exactly one of Url and Command is required");
  }
  if (url && !url->starts_with("http://")) return Invalid("Url must start with http://");
  if (start && *start != "LATEST" && *start != "TRIM_HORIZON") {
    return Invalid("StartingPosition must be LATEST or TRIM_HORIZON");
  }
  if (batch_size && (*batch_size < 1 || *batch_size > 10000)) {
    return Invalid("BatchSize must be between 1 and 10000");
  }
  if (window && (*window < 0 || *window > 300)) {
    return Invalid("MaximumBatchingWindowInSeconds must be between 0 and 300");
  }
  if (retries && (*retries < -1 || *retries > 10000)) {
    return Invalid("MaximumRetryAttempts must be between -1 and 10000");
  }
  if (timeout && (*timeout < 1 || *timeout > 900)) {
    return Invalid("TimeoutSeconds must be between 1 and 900");
  }
  if (kinesis_arn &&
      (!kinesis_arn->starts_with("arn:aws:kinesis:") || kinesis_arn->find(":stream/") ==
                                                            std::string_view::npos)) {
    return Invalid("KinesisStreamArn must be a Kinesis data stream's ARN "
                   "(arn:aws:kinesis:<region>:<account>:stream/<name>)");
  }
  if (criteria) {
    auto filters = ParseFilters(*criteria);
    if (!filters.ok()) return filters.take_error();
    spec.filters = std::move(filters).value();
  }
  spec.name = std::string(*name);
  spec.table = std::string(*table);
  spec.url = std::string(url.value_or(""));
  spec.command = std::string(command.value_or(""));
  spec.batch_size = static_cast<int>(batch_size.value_or(100));
  spec.batching_window_seconds = static_cast<int>(window.value_or(0));
  spec.from_trim_horizon = start && *start == "TRIM_HORIZON";
  spec.max_retry_attempts = static_cast<int>(retries.value_or(-1));
  spec.on_failure_file = std::string(on_failure.value_or(""));
  spec.timeout_seconds = static_cast<int>(timeout.value_or(30));
  spec.kinesis_stream_arn = std::string(kinesis_arn.value_or(""));
  if (region) spec.region = std::string(*region);
  if (access_key) spec.access_key = std::string(*access_key);
  spec.definition = std::string(json);
  return spec;
}

ApiResult<std::vector<std::string>> ParseTriggerFile(std::string_view json) {
  rapidjson::Document doc;
  if (!ParseBounded(json, kMaxDefinitionDepth + 2, &doc)) {
    return Invalid("The triggers file must hold a JSON list of trigger definitions");
  }
  const rapidjson::Value* list = &doc;
  if (doc.IsObject() && doc.HasMember("Triggers")) list = &doc["Triggers"];
  if (!list->IsArray()) {
    return Invalid("The triggers file must hold a JSON list of trigger definitions");
  }
  std::vector<std::string> definitions;
  for (const auto& entry : list->GetArray()) {
    definitions.push_back(Compact(entry));
    auto spec = ParseTriggerSpec(definitions.back());
    if (!spec.ok()) {
      return Invalid("trigger " + std::to_string(definitions.size()) + ": " +
                     spec.error().message);
    }
  }
  return definitions;
}

}  // namespace ddb::emulator
