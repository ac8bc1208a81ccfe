#include "api/items/expression_request.h"

#include <string>
#include <type_traits>
#include <vector>

#include "api/attribute_json.h"
#include "api/items/legacy_expressions.h"
#include "api/json_reader.h"
#include "engine/expression/parser.h"
#include "engine/expression/resolve.h"

namespace ddb::api {
namespace {

namespace expr = engine::expr;

// Members in the order DynamoDB lists them in the "Can not use both" message.
constexpr const char* kLegacyMembers[] = {"AttributesToGet", "AttributeUpdates", "Expected",
                                          "QueryFilter", "ScanFilter", "ConditionalOperator",
                                          "KeyConditions"};
constexpr const char* kExpressionMembers[] = {"ProjectionExpression", "UpdateExpression",
                                              "ConditionExpression", "FilterExpression",
                                              "KeyConditionExpression"};

bool Present(const rapidjson::Value& request, const char* member) {
  auto it = request.FindMember(member);
  return it != request.MemberEnd() && !it->value.IsNull();
}

// "A, B": the members of `members` present in `request`.
template <size_t N>
std::string JoinPresent(const rapidjson::Value& request, const char* const (&members)[N]) {
  std::string joined;
  for (const char* member : members) {
    if (Present(request, member)) joined += (joined.empty() ? "" : ", ") + std::string(member);
  }
  return joined;
}

ApiResult<bool> CheckNotMixed(const rapidjson::Value& request) {
  std::string legacy = JoinPresent(request, kLegacyMembers);
  std::string modern = JoinPresent(request, kExpressionMembers);
  // KeyConditions may go with the other expressions; only with a
  // KeyConditionExpression is it a mix.
  if (legacy == "KeyConditions" && !Present(request, "KeyConditionExpression")) return true;
  if (legacy.empty() || modern.empty()) return true;
  return ApiError::Validation(
      "Can not use both expression and non-expression parameters in the same request: "
      "Non-expression parameters: {" + legacy + "} Expression parameters: {" + modern + "}");
}

bool ValidPlaceholder(std::string_view key, char sigil) {
  if (key.size() < 2 || key[0] != sigil) return false;
  for (char c : key.substr(1)) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_';
    if (!ok) return false;
  }
  return true;
}

// ExpressionAttributeNames or ExpressionAttributeValues (`member`): not
// empty, every key `sigil` followed by [A-Za-z0-9_]+, each value read by
// `read_value` (which returns the stored value or the error to answer).
// An empty map is refused inside the envelope `empty_envelope` names.
template <class Map, class ReadValue>
ApiResult<Map> ReadPlaceholders(const rapidjson::Value& json, std::string_view member, char sigil,
                                ApiError::Envelope empty_envelope, ReadValue read_value) {
  if (json.ObjectEmpty()) {
    return ApiError::Validation(std::string(member) + " must not be empty")
        .EnvelopedIn(empty_envelope);
  }
  Map map;
  for (const auto& entry : json.GetObject()) {
    std::string_view key = View(entry.name);
    if (!ValidPlaceholder(key, sigil)) {
      return ApiError::Validation(std::string(member) +
                                  " contains invalid key: Syntax error; key: \"" +
                                  std::string(key) + "\"");
    }
    auto value = read_value(key, entry.value);
    if (!value.ok()) return value.take_error();
    map.emplace(std::string(key), std::move(value).value());
  }
  return map;
}

ApiResult<expr::AttributeNames> ReadNames(const rapidjson::Value& json) {
  return ReadPlaceholders<expr::AttributeNames>(
      json, "ExpressionAttributeNames", '#', ApiError::Envelope::kPutAndDelete,
      [](std::string_view key, const rapidjson::Value& value) -> ApiResult<std::string> {
        if (!value.IsString()) return WrongType(value, "String");
        if (auto problem = CheckAttributeName(View(value))) {
          return ApiError::Validation("ExpressionAttributeNames contains invalid value: " +
                                      *problem + " for key " + std::string(key));
        }
        return std::string(View(value));
      });
}

ApiResult<expr::AttributeValues> ReadValues(const rapidjson::Value& json) {
  return ReadPlaceholders<expr::AttributeValues>(
      json, "ExpressionAttributeValues", ':', ApiError::Envelope::kItemWrites,
      [](std::string_view key,
         const rapidjson::Value& json_value) -> ApiResult<engine::AttributeValue> {
        auto value = ParseAttributeValue(json_value);
        if (value.ok()) return value;
        // The operation's layer decides whether the placeholder is named
        // (api/value_layers.h).
        ApiError error = value.take_error();
        if (error.value_wording) error.value_wording->placeholder = std::string(key);
        return error;
      });
}

// The legacy parameters, when the request uses them.
ApiResult<bool> ReadLegacy(RequestReader& r, const ExpressionSpec& spec, RequestExpressions& out) {
  const rapidjson::Value* attributes = spec.projection ? r.Array("AttributesToGet") : nullptr;
  const rapidjson::Value* updates = spec.update ? r.Object("AttributeUpdates") : nullptr;
  const char* filter_member = spec.condition ? "Expected" : spec.filter;
  const rapidjson::Value* filter = filter_member ? r.Object(filter_member) : nullptr;
  auto conditional_operator = filter_member ? r.String("ConditionalOperator") : std::nullopt;
  out.key_conditions = spec.key_condition ? r.Object("KeyConditions") : nullptr;
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.Enum(conditional_operator, "conditionalOperator", {"OR", "AND"});
  if (attributes && attributes->Empty()) {
    constraints.Violation("'[]'", "attributesToGet",
                          "Member must have length greater than or equal to 1");
  }
  if (!constraints.empty()) return constraints.ToError();
  if (conditional_operator && !filter) {
    return ApiError::Validation("ConditionalOperator cannot be used without Filter or Expected");
  }
  if (conditional_operator && filter->MemberCount() < 2) {
    return ApiError::Validation(
        "ConditionalOperator can only be used when Filter or Expected has two or more elements");
  }
  // An empty AttributeUpdates is no update at all: the item is created with
  // its key alone, as by an UpdateItem without updates.
  if (updates && !updates->ObjectEmpty()) {
    auto update = AttributeUpdatesToUpdate(*updates);
    if (!update.ok()) return update.take_error();
    out.update = std::move(update).value();
    out.legacy_update = true;
  }
  if (filter) {
    auto condition = ExpectedToCondition(*filter, conditional_operator.value_or("AND"));
    if (!condition.ok()) return condition.take_error();
    (spec.condition ? out.condition : out.filter) = std::move(condition).value();
    out.legacy_filter = !spec.condition;
  }
  if (attributes) {
    auto projection = AttributesToGetToProjection(*attributes);
    if (!projection.ok()) return projection.take_error();
    out.projection = std::move(projection).value();
  }
  return true;
}

// One expression member: its text, parsed and resolved into *out.
template <class Tree, class ParseFn>
ApiResult<bool> ReadOne(const std::optional<std::string_view>& text, ParseFn parse,
                        expr::Placeholders& placeholders, std::string_view parameter,
                        std::optional<Tree>& out) {
  if (!text) return true;
  auto parsed = parse(*text);
  if (!parsed.ok()) return parsed.status();
  engine::Status resolved;
  if constexpr (std::is_same_v<Tree, expr::Condition>) {
    resolved = placeholders.Resolve(*parsed, parameter);
  } else {
    resolved = placeholders.Resolve(*parsed);
  }
  if (!resolved.ok()) return resolved;
  out = std::move(parsed).value();
  return true;
}

// Which ConditionExpression errors the item writes envelope: an empty
// expression (PutItem, DeleteItem) and an undefined value beside defined
// ones (UpdateItem too).
ApiError EnvelopeConditionError(ApiError error, std::string_view text,
                                const rapidjson::Value* values_json) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return std::move(error).EnvelopedIn(ApiError::Envelope::kPutAndDelete);
  }
  if (values_json && error.message.find(expr::kUndefinedValue) != std::string::npos) {
    return std::move(error).EnvelopedIn(ApiError::Envelope::kItemWrites);
  }
  return error;
}

}  // namespace

ApiResult<RequestExpressions> ReadExpressions(const rapidjson::Value& request,
                                              const ExpressionSpec& spec) {
  auto not_mixed = CheckNotMixed(request);
  if (!not_mixed.ok()) return not_mixed.take_error();

  RequestReader r(request);
  auto update_text = spec.update ? r.String("UpdateExpression") : std::nullopt;
  auto condition_text = spec.condition ? r.String("ConditionExpression") : std::nullopt;
  auto key_text = spec.key_condition ? r.String("KeyConditionExpression") : std::nullopt;
  auto filter_text = spec.filter ? r.String("FilterExpression") : std::nullopt;
  auto search_text = spec.search_condition ? r.String("SearchConditionExpression") : std::nullopt;
  auto projection_text = spec.projection ? r.String("ProjectionExpression") : std::nullopt;
  const rapidjson::Value* names_json = r.Object("ExpressionAttributeNames");
  bool takes_values =
      spec.update || spec.condition || spec.key_condition || spec.filter || spec.search_condition;
  const rapidjson::Value* values_json =
      takes_values ? r.Object("ExpressionAttributeValues") : nullptr;
  if (r.failed()) return r.error();

  RequestExpressions out;
  bool value_expressions = update_text || condition_text || key_text || filter_text || search_text;
  if (!value_expressions && !projection_text && names_json) {
    return ApiError::Validation(
               "ExpressionAttributeNames can only be specified when using expressions")
        .EnvelopedIn(ApiError::Envelope::kPutAndDelete);
  }
  if (!value_expressions && values_json) {
    // DynamoDB's current text names no expression (the ": ConditionExpression
    // is null" tail of its older one is gone).
    return ApiError::Validation(
               "ExpressionAttributeValues can only be specified when using expressions")
        .EnvelopedIn(ApiError::Envelope::kPutAndDelete);
  }
  auto legacy = ReadLegacy(r, spec, out);
  if (!legacy.ok()) return legacy.take_error();
  if (!value_expressions && !projection_text) return out;

  expr::AttributeNames names;
  expr::AttributeValues values;
  if (names_json) {
    auto read = ReadNames(*names_json);
    if (!read.ok()) return read.take_error();
    names = std::move(read).value();
  }
  if (values_json) {
    auto read = ReadValues(*values_json);
    if (!read.ok()) return read.take_error();
    values = std::move(read).value();
  }
  expr::Placeholders placeholders(std::move(names), std::move(values));
  auto condition_parser = [](std::string_view parameter) {
    return [parameter](std::string_view text) { return expr::ParseCondition(text, parameter); };
  };
  // DynamoDB's order: update, condition, key condition, filter, projection.
  ApiResult<bool> done =
      ReadOne(update_text, expr::ParseUpdate, placeholders, "UpdateExpression", out.update);
  if (!done.ok()) done = done.take_error().EnvelopedIn(ApiError::Envelope::kItemWrites);
  if (done.ok()) {
    done = ReadOne(condition_text, condition_parser("ConditionExpression"), placeholders,
                   "ConditionExpression", out.condition);
    if (!done.ok()) done = EnvelopeConditionError(done.take_error(), *condition_text, values_json);
  }
  if (done.ok()) {
    done = ReadOne(key_text, condition_parser("KeyConditionExpression"), placeholders,
                   "KeyConditionExpression", out.key_condition);
  }
  if (done.ok()) {
    done = ReadOne(filter_text, condition_parser("FilterExpression"), placeholders,
                   "FilterExpression", out.filter);
  }
  if (done.ok()) {
    done = ReadOne(search_text, condition_parser("SearchConditionExpression"), placeholders,
                   "SearchConditionExpression", out.search_condition);
  }
  if (done.ok()) {
    done = ReadOne(projection_text, expr::ParseProjection, placeholders, "ProjectionExpression",
                   out.projection);
  }
  if (!done.ok()) return done.take_error();
  if (auto status = placeholders.CheckAllUsed(); !status.ok()) {
    return FromStatus(status).EnvelopedIn(ApiError::Envelope::kItemWrites);
  }
  return out;
}

}  // namespace ddb::api
