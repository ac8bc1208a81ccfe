#include "api/access_shape.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "api/access_record.h"

namespace ddb::api {
namespace {

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

const rapidjson::Value* Member(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

// The value `token` ("#name") stands for in ExpressionAttributeNames, found
// without a string made for the lookup.
const rapidjson::Value* NamedBy(const rapidjson::Value* names, std::string_view token) {
  if (!names || !names->IsObject()) return nullptr;
  rapidjson::Value key(rapidjson::StringRef(token.data(), token.size()));
  auto it = names->FindMember(key);
  return it == names->MemberEnd() ? nullptr : &it->value;
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

}  // namespace

void AppendNormalizedExpression(std::string_view expression, const rapidjson::Value* names,
                                std::string& out) {
  const size_t start = out.size();
  out.reserve(start + expression.size());
  for (size_t i = 0; i < expression.size();) {
    char c = expression[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      while (i < expression.size() && std::isspace(static_cast<unsigned char>(expression[i]))) ++i;
      if (out.size() > start && i < expression.size()) out += ' ';
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
    } else if (const rapidjson::Value* name = NamedBy(names, token); name && name->IsString()) {
      out.append(name->GetString(), name->GetStringLength());
    } else {
      out += token;
    }
    i = end;
  }
}

std::string NormalizedExpression(std::string_view expression, const rapidjson::Value* names) {
  std::string out;
  AppendNormalizedExpression(expression, names, out);
  return out;
}

namespace {

// The members of a request that make its shape; null when absent.
struct ShapeMembers {
  const rapidjson::Value *names = nullptr, *key_expression = nullptr, *key_conditions = nullptr,
                         *filter = nullptr, *condition = nullptr, *query_filter = nullptr,
                         *scan_filter = nullptr, *expected = nullptr, *projection = nullptr,
                         *attributes = nullptr, *select = nullptr, *conditional_operator = nullptr;
};

// The shape of a request that has some of those members. Out of line: a
// GetItem, PutItem or UpdateItem by key alone has none, and DescribeShape's
// code then stays a few cache lines.
[[gnu::noinline]] void DescribeMembers(const ShapeMembers& m, AccessRecord& record) {
  // Appended to the record's strings (empty: AccessRecord::Clear), which
  // keep their room from request to request: a string of its own per
  // expression cost a malloc and a free.
  auto expression = [&](const rapidjson::Value* value, std::string& into) {
    std::string_view text = StringOf(value);
    if (text.empty()) return false;
    AppendNormalizedExpression(text, m.names, into);
    return true;
  };
  if (!expression(m.key_expression, record.key_condition) && m.key_conditions) {
    record.key_condition = LegacyConditions(m.key_conditions, " AND ");
  }
  const rapidjson::Value* legacy =
      m.query_filter ? m.query_filter : m.scan_filter ? m.scan_filter : m.expected;
  if (!expression(m.filter, record.filter) && !expression(m.condition, record.filter) && legacy) {
    record.filter =
        LegacyConditions(legacy, StringOf(m.conditional_operator) == "OR" ? " OR " : " AND ");
  }
  if (expression(m.projection, record.projection)) return;
  if (m.attributes && m.attributes->IsArray()) {
    for (const auto& name : m.attributes->GetArray()) {
      if (!name.IsString()) continue;
      if (!record.projection.empty()) record.projection += ", ";
      record.projection.append(name.GetString(), name.GetStringLength());
    }
  } else if (StringOf(m.select) == "COUNT") {
    record.projection = "COUNT";
  }
}

}  // namespace

void DescribeShape(std::string_view operation, const rapidjson::Value& request,
                   AccessRecord& record) {
  static constexpr std::string_view kOneTable[] = {"GetItem", "PutItem",  "UpdateItem",
                                                   "DeleteItem", "Query", "Scan"};
  if (std::find(std::begin(kOneTable), std::end(kOneTable), operation) == std::end(kOneTable) ||
      !request.IsObject()) {
    return;
  }
  // The members a shape reads, found in one pass over the request: this runs
  // on every request the profile records, so a member is told apart by its
  // name's size first, and most members (TableName, Key, Item) by that alone.
  ShapeMembers m;
  bool any = false;
  for (const auto& member : request.GetObject()) {
    const char* name = member.name.GetString();
    // `known` has the name's size: the switch below decided that.
    auto is = [&](std::string_view known) {
      return std::memcmp(name, known.data(), known.size()) == 0;
    };
    const rapidjson::Value** slot = nullptr;
    switch (member.name.GetStringLength()) {
      case 6: slot = is("Select") ? &m.select : nullptr; break;
      case 8: slot = is("Expected") ? &m.expected : nullptr; break;
      case 10: slot = is("ScanFilter") ? &m.scan_filter : nullptr; break;
      case 11: slot = is("QueryFilter") ? &m.query_filter : nullptr; break;
      case 13: slot = is("KeyConditions") ? &m.key_conditions : nullptr; break;
      case 15: slot = is("AttributesToGet") ? &m.attributes : nullptr; break;
      case 16: slot = is("FilterExpression") ? &m.filter : nullptr; break;
      case 19:
        slot = is("ConditionExpression")   ? &m.condition
               : is("ConditionalOperator") ? &m.conditional_operator
                                           : nullptr;
        break;
      case 20: slot = is("ProjectionExpression") ? &m.projection : nullptr; break;
      case 22: slot = is("KeyConditionExpression") ? &m.key_expression : nullptr; break;
      case 24: slot = is("ExpressionAttributeNames") ? &m.names : nullptr; break;
      default: break;
    }
    if (slot) {
      *slot = &member.value;
      any = true;
    }
  }
  if (any) DescribeMembers(m, record);
}

}  // namespace ddb::api
