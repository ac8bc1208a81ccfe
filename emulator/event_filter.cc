#include "emulator/event_filter.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "api/json_reader.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;
using api::ParseBounded;
using api::View;

namespace {

using rapidjson::Value;

ApiError BadPattern(std::string what) {
  return ApiError::Validation("Invalid filter pattern: " + std::move(what));
}

bool IsOperator(const Value& m, const char* name) {
  return m.IsObject() && m.MemberCount() == 1 && m.HasMember(name);
}

// Checks one matcher of a value list.
std::optional<ApiError> CheckMatcher(const Value& m) {
  if (!m.IsObject()) return std::nullopt;  // a literal
  if (m.MemberCount() != 1) return BadPattern("a matcher object has exactly one operator");
  const auto& op = *m.MemberBegin();
  std::string_view name = View(op.name);
  const Value& arg = op.value;
  if (name == "prefix" || name == "suffix" || name == "equals-ignore-case") {
    if (!arg.IsString()) return BadPattern(std::string(name) + " takes a string");
  } else if (name == "exists") {
    if (!arg.IsBool()) return BadPattern("exists takes true or false");
  } else if (name == "anything-but") {
    bool ok = arg.IsString() || arg.IsNumber() || (IsOperator(arg, "prefix") && arg["prefix"].IsString());
    if (arg.IsArray()) ok = std::all_of(arg.Begin(), arg.End(), [](const Value& v) {
      return v.IsString() || v.IsNumber();
    });
    if (!ok) return BadPattern("anything-but takes a value, a list of values or {\"prefix\": …}");
  } else if (name == "numeric") {
    bool ok = arg.IsArray() && (arg.Size() == 2 || arg.Size() == 4);
    for (rapidjson::SizeType i = 0; ok && i < arg.Size(); i += 2) {
      std::string_view cmp = arg[i].IsString() ? View(arg[i]) : "";
      ok = (cmp == "=" || cmp == "<" || cmp == "<=" || cmp == ">" || cmp == ">=") &&
           arg[i + 1].IsNumber();
    }
    if (!ok) return BadPattern("numeric takes [op, number] or [op, number, op, number]");
  } else {
    return BadPattern("unknown operator " + std::string(name));
  }
  return std::nullopt;
}

std::optional<ApiError> CheckPattern(const Value& pattern) {
  for (const auto& member : pattern.GetObject()) {
    const Value& sub = member.value;
    if (sub.IsObject()) {
      if (auto error = CheckPattern(sub)) return error;
    } else if (sub.IsArray()) {
      for (const Value& m : sub.GetArray()) {
        if (auto error = CheckMatcher(m)) return error;
      }
    } else {
      return BadPattern("the value of " + std::string(View(member.name)) +
                        " must be an object or a list");
    }
  }
  return std::nullopt;
}

std::optional<double> AsNumber(const Value& v) {
  if (v.IsNumber()) return v.GetDouble();
  if (!v.IsString() || v.GetStringLength() == 0) return std::nullopt;
  std::string text(View(v));
  char* end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return d;
}

bool Compare(std::string_view op, double value, double bound) {
  if (op == "=") return value == bound;
  if (op == "<") return value < bound;
  if (op == "<=") return value <= bound;
  if (op == ">") return value > bound;
  return value >= bound;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool LiteralEquals(const Value& literal, const Value& v) {
  if (literal.IsString()) return v.IsString() && View(literal) == View(v);
  if (literal.IsNumber()) return v.IsNumber() && literal.GetDouble() == v.GetDouble();
  if (literal.IsBool()) return v.IsBool() && literal.GetBool() == v.GetBool();
  if (literal.IsNull()) return v.IsNull();
  return false;
}

bool MatchLeaf(const Value& m, const Value& v) {
  if (!m.IsObject()) return LiteralEquals(m, v);
  const auto& op = *m.MemberBegin();
  std::string_view name = View(op.name);
  const Value& arg = op.value;
  if (name == "prefix") return v.IsString() && View(v).starts_with(View(arg));
  if (name == "suffix") return v.IsString() && View(v).ends_with(View(arg));
  if (name == "equals-ignore-case") return v.IsString() && EqualsIgnoreCase(View(v), View(arg));
  if (name == "anything-but") {
    if (arg.IsObject()) return v.IsString() && !View(v).starts_with(View(arg["prefix"]));
    if (arg.IsArray()) {
      return std::none_of(arg.Begin(), arg.End(),
                          [&](const Value& excluded) { return LiteralEquals(excluded, v); });
    }
    return !LiteralEquals(arg, v);
  }
  if (name == "numeric") {
    auto number = AsNumber(v);
    if (!number) return false;
    for (rapidjson::SizeType i = 0; i < arg.Size(); i += 2) {
      if (!Compare(View(arg[i]), *number, arg[i + 1].GetDouble())) return false;
    }
    return true;
  }
  return false;
}

bool MatchOne(const Value& m, const Value* field) {
  if (IsOperator(m, "exists")) {
    bool present = field != nullptr && !field->IsObject();
    return m["exists"].GetBool() == present;
  }
  if (!field) return false;
  if (field->IsArray()) {
    return std::any_of(field->Begin(), field->End(), [&](const Value& v) { return MatchLeaf(m, v); });
  }
  return MatchLeaf(m, *field);
}

bool MatchObject(const Value& pattern, const Value* event) {
  for (const auto& member : pattern.GetObject()) {
    const Value* field = nullptr;
    if (event && event->IsObject()) {
      auto it = event->FindMember(member.name);
      if (it != event->MemberEnd()) field = &it->value;
    }
    const Value& sub = member.value;
    if (sub.IsObject()) {
      if (!MatchObject(sub, field)) return false;
    } else if (std::none_of(sub.Begin(), sub.End(),
                            [&](const Value& m) { return MatchOne(m, field); })) {
      return false;
    }
  }
  return true;
}

}  // namespace

ApiResult<EventFilter> EventFilter::Parse(std::string_view pattern) {
  auto doc = std::make_shared<rapidjson::Document>();
  // Patterns follow a record's shape; nothing real nests this deep, and the
  // checks and the matching below recurse.
  constexpr int kMaxPatternDepth = 32;
  if (!ParseBounded(pattern, kMaxPatternDepth, doc.get()) || !doc->IsObject()) {
    return BadPattern("a pattern is a JSON object");
  }
  if (auto error = CheckPattern(*doc)) return *error;
  EventFilter filter;
  filter.pattern_ = std::move(doc);
  return filter;
}

bool EventFilter::Matches(const rapidjson::Value& record) const {
  return MatchObject(*pattern_, &record);
}

bool MatchesAny(const std::vector<EventFilter>& filters, const rapidjson::Value& record) {
  if (filters.empty()) return true;
  return std::any_of(filters.begin(), filters.end(),
                     [&](const EventFilter& f) { return f.Matches(record); });
}

}  // namespace ddb::emulator
