#include "api/access_shape.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "api/access_record.h"

namespace ddb::api {
namespace {

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

const rapidjson::Value* Member(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::string_view StringOf(const rapidjson::Value* value) {
  return value && value->IsString() ? std::string_view(value->GetString(), value->GetStringLength())
                                    : std::string_view();
}

// Legacy conditions ({"attr": {"ComparisonOperator": "EQ", …}}), sorted by
// attribute so member order does not split a shape: "a EQ ? AND b GT ?".
std::string LegacyConditions(const rapidjson::Value* conditions, std::string_view joiner) {
  if (!conditions || !conditions->IsObject()) return "";
  std::vector<std::string> terms;
  for (const auto& member : conditions->GetObject()) {
    std::string term(member.name.GetString(), member.name.GetStringLength());
    std::string_view op;
    if (member.value.IsObject()) op = StringOf(Member(member.value, "ComparisonOperator"));
    term += " ";
    term += op.empty() ? "EQ" : op;  // Expected's {"Value": …} alone means EQ
    if (op != "NULL" && op != "NOT_NULL") term += " ?";
    terms.push_back(std::move(term));
  }
  std::sort(terms.begin(), terms.end());
  std::string joined;
  for (const std::string& term : terms) {
    if (!joined.empty()) joined += joiner;
    joined += term;
  }
  return joined;
}

std::string_view Joiner(const rapidjson::Value& request) {
  return StringOf(Member(request, "ConditionalOperator")) == "OR" ? " OR " : " AND ";
}

}  // namespace

std::string NormalizedExpression(std::string_view expression, const rapidjson::Value* names) {
  std::string out;
  out.reserve(expression.size());
  for (size_t i = 0; i < expression.size();) {
    char c = expression[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      while (i < expression.size() && std::isspace(static_cast<unsigned char>(expression[i]))) ++i;
      if (!out.empty() && i < expression.size()) out += ' ';
      continue;
    }
    if (c != ':' && c != '#') {
      out += c;
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < expression.size() && IsNameChar(expression[end])) ++end;
    std::string_view token = expression.substr(i, end - i);
    if (c == ':') {
      out += '?';
    } else if (const rapidjson::Value* name =
                   names && names->IsObject()
                       ? Member(*names, std::string(token).c_str())
                       : nullptr;
               name && name->IsString()) {
      out.append(name->GetString(), name->GetStringLength());
    } else {
      out += token;
    }
    i = end;
  }
  return out;
}

void DescribeShape(std::string_view operation, const rapidjson::Value& request,
                   AccessRecord& record) {
  static constexpr std::string_view kOneTable[] = {"GetItem", "PutItem",  "UpdateItem",
                                                   "DeleteItem", "Query", "Scan"};
  if (std::find(std::begin(kOneTable), std::end(kOneTable), operation) == std::end(kOneTable)) {
    return;
  }
  const rapidjson::Value* names = Member(request, "ExpressionAttributeNames");
  auto expression = [&](const char* member) -> std::optional<std::string> {
    std::string_view text = StringOf(Member(request, member));
    if (text.empty()) return std::nullopt;
    return NormalizedExpression(text, names);
  };
  if (auto key = expression("KeyConditionExpression")) {
    record.key_condition = std::move(*key);
  } else {
    record.key_condition = LegacyConditions(Member(request, "KeyConditions"), " AND ");
  }
  if (auto filter = expression("FilterExpression")) {
    record.filter = std::move(*filter);
  } else if (auto condition = expression("ConditionExpression")) {
    record.filter = std::move(*condition);
  } else {
    const rapidjson::Value* legacy = Member(request, "QueryFilter");
    if (!legacy) legacy = Member(request, "ScanFilter");
    if (!legacy) legacy = Member(request, "Expected");
    record.filter = LegacyConditions(legacy, Joiner(request));
  }
  if (auto projection = expression("ProjectionExpression")) {
    record.projection = std::move(*projection);
  } else if (const rapidjson::Value* attributes = Member(request, "AttributesToGet");
             attributes && attributes->IsArray()) {
    for (const auto& name : attributes->GetArray()) {
      if (!name.IsString()) continue;
      if (!record.projection.empty()) record.projection += ", ";
      record.projection.append(name.GetString(), name.GetStringLength());
    }
  } else if (std::string_view select = StringOf(Member(request, "Select")); select == "COUNT") {
    record.projection = "COUNT";
  }
}

}  // namespace ddb::api
