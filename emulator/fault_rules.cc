#include "emulator/fault_rules.h"

#include <algorithm>

#include "api/json_reader.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;
using api::JsonWriter;
using api::RequestReader;

namespace {

constexpr int kMaxRulesDepth = 16;
constexpr int64_t kMaxDelayMillis = 10 * 60 * 1000;

// A list of strings, or the error naming the member.
ApiResult<std::vector<std::string>> Strings(const rapidjson::Value& rule, const char* name) {
  std::vector<std::string> out;
  auto it = rule.FindMember(name);
  if (it == rule.MemberEnd() || it->value.IsNull()) return out;
  if (!it->value.IsArray()) return ApiError::Validation(std::string(name) + " must be a list of strings");
  for (const auto& v : it->value.GetArray()) {
    if (!v.IsString() || v.GetStringLength() == 0) {
      return ApiError::Validation(std::string(name) + " must be a list of non-empty strings");
    }
    out.emplace_back(api::View(v));
  }
  return out;
}

void WriteStrings(JsonWriter& w, const char* name, const std::vector<std::string>& values) {
  if (values.empty()) return;
  w.Key(name);
  w.StartArray();
  for (const auto& v : values) api::WriteString(w, v);
  w.EndArray();
}

bool Contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

ApiResult<FaultRules::Rule> FaultRules::Parse(const rapidjson::Value& json) {
  if (!json.IsObject()) return ApiError::Validation("A fault rule must be a JSON object");
  static constexpr std::string_view kKnown[] = {"Namespace", "Operations", "Tables", "Error",
                                                "DelayMillis", "DropConnection", "DropAnswer",
                                                "Count", "Probability", "Seed"};
  for (const auto& member : json.GetObject()) {
    if (std::find(std::begin(kKnown), std::end(kKnown), api::View(member.name)) == std::end(kKnown)) {
      return ApiError::Validation("Unknown member of a fault rule: " + std::string(api::View(member.name)));
    }
  }
  Rule rule;
  RequestReader r(json);
  auto ns = r.String("Namespace");
  auto delay = r.Long("DelayMillis");
  auto drop = r.Bool("DropConnection");
  auto drop_answer = r.Bool("DropAnswer");
  auto count = r.Long("Count");
  auto seed = r.Long("Seed");
  const rapidjson::Value* error = r.Object("Error");
  if (r.failed()) return r.error();
  auto operations = Strings(json, "Operations");
  if (!operations.ok()) return operations.take_error();
  auto tables = Strings(json, "Tables");
  if (!tables.ok()) return tables.take_error();
  rule.ns = std::string(ns.value_or(""));
  rule.operations = std::move(operations).value();
  rule.fault.tables = std::move(tables).value();
  int actions = (error != nullptr) + delay.has_value() + drop.value_or(false) +
                drop_answer.value_or(false);
  if (actions != 1) {
    return ApiError::Validation(
        "Give exactly one action: Error, DelayMillis, DropConnection: true or DropAnswer: true");
  }
  if (error) {
    RequestReader e(*error);
    auto type = e.String("Type");
    auto status = e.Long("Status");
    auto message = e.String("Message");
    auto code = e.String("CancellationCode");
    if (e.failed()) return e.error();
    if (!type || type->empty() || type->find_first_of("#\" ") != std::string_view::npos) {
      return ApiError::Validation("Error.Type must name an error, e.g. ThrottlingException");
    }
    if (status && (*status < 400 || *status > 599)) {
      return ApiError::Validation("Error.Status must be between 400 and 599");
    }
    rule.fault.kind = Fault::Kind::kError;
    rule.fault.type = std::string(*type);
    rule.fault.status = status ? static_cast<int>(*status) : ApiError::StatusFor(*type);
    rule.fault.message = std::string(message.value_or(""));
    rule.fault.cancellation_code = std::string(code.value_or(""));
  } else if (delay) {
    if (*delay < 0 || *delay > kMaxDelayMillis) {
      return ApiError::Validation("DelayMillis must be between 0 and 600000");
    }
    rule.fault.kind = Fault::Kind::kDelay;
    rule.fault.delay_millis = *delay;
  } else if (drop.value_or(false)) {
    rule.fault.kind = Fault::Kind::kDrop;
  } else {
    rule.fault.kind = Fault::Kind::kDropAnswer;
  }
  if (count) {
    if (*count < 1) return ApiError::Validation("Count must be at least 1");
    rule.remaining = *count;
  }
  if (auto p = json.FindMember("Probability"); p != json.MemberEnd() && !p->value.IsNull()) {
    if (!p->value.IsNumber() || p->value.GetDouble() < 0 || p->value.GetDouble() > 1) {
      return ApiError::Validation("Probability must be a number from 0 to 1");
    }
    rule.probability = p->value.GetDouble();
  }
  rule.seed = static_cast<uint64_t>(seed.value_or(0));
  rule.random.seed(rule.seed);
  return rule;
}

void FaultRules::WriteRule(JsonWriter& w, const Rule& rule) {
  w.StartObject();
  w.Key("Id");
  w.Int64(rule.id);
  if (!rule.ns.empty()) {
    w.Key("Namespace");
    api::WriteString(w, rule.ns);
  }
  WriteStrings(w, "Operations", rule.operations);
  WriteStrings(w, "Tables", rule.fault.tables);
  const Fault& f = rule.fault;
  if (f.kind == Fault::Kind::kError) {
    w.Key("Error");
    w.StartObject();
    w.Key("Type");
    api::WriteString(w, f.type);
    w.Key("Status");
    w.Int(f.status);
    if (!f.message.empty()) {
      w.Key("Message");
      api::WriteString(w, f.message);
    }
    if (!f.cancellation_code.empty()) {
      w.Key("CancellationCode");
      api::WriteString(w, f.cancellation_code);
    }
    w.EndObject();
  } else if (f.kind == Fault::Kind::kDelay) {
    w.Key("DelayMillis");
    w.Int64(f.delay_millis);
  } else if (f.kind == Fault::Kind::kDrop) {
    w.Key("DropConnection");
    w.Bool(true);
  } else {
    w.Key("DropAnswer");
    w.Bool(true);
  }
  if (rule.remaining) {
    w.Key("Remaining");
    w.Int64(*rule.remaining);
  }
  if (rule.probability) {
    w.Key("Probability");
    w.Double(*rule.probability);
    w.Key("Seed");
    w.Uint64(rule.seed);
  }
  w.Key("Applied");
  w.Uint64(rule.applied);
  w.EndObject();
}

std::string FaultRules::AddLocked(Rule rule) {
  rule.id = next_id_++;
  rules_.push_back(std::move(rule));
  count_ = rules_.size();
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteRule(w, rules_.back());
  return std::string(buffer.GetString(), buffer.GetSize());
}

ApiResult<std::string> FaultRules::Add(std::string_view json) {
  rapidjson::Document doc;
  if (!api::ParseBounded(json, kMaxRulesDepth, &doc)) {
    return ApiError::Validation("The body must be a JSON object");
  }
  auto rule = Parse(doc);
  if (!rule.ok()) return rule.take_error();
  std::lock_guard lock(mu_);
  return AddLocked(std::move(rule).value());
}

ApiResult<size_t> FaultRules::AddAll(std::string_view json) {
  rapidjson::Document doc;
  if (!api::ParseBounded(json, kMaxRulesDepth, &doc) || !doc.IsArray()) {
    return ApiError::Validation("A faults file must hold a JSON list of rules");
  }
  std::vector<Rule> parsed;
  for (const auto& entry : doc.GetArray()) {
    auto rule = Parse(entry);
    if (!rule.ok()) return rule.take_error();
    parsed.push_back(std::move(rule).value());
  }
  std::lock_guard lock(mu_);
  for (auto& rule : parsed) AddLocked(std::move(rule));
  return parsed.size();
}

std::string FaultRules::ListJson() const {
  std::lock_guard lock(mu_);
  return api::RenderObject([&](JsonWriter& w) {
    w.Key("Rules");
    w.StartArray();
    for (const auto& rule : rules_) WriteRule(w, rule);
    w.EndArray();
  });
}

size_t FaultRules::Clear(const std::optional<std::string>& ns) {
  std::lock_guard lock(mu_);
  size_t before = rules_.size();
  rules_.remove_if([&](const Rule& rule) { return !ns || rule.ns == *ns; });
  count_ = rules_.size();
  return before - rules_.size();
}

bool FaultRules::Remove(int64_t id) {
  std::lock_guard lock(mu_);
  size_t before = rules_.size();
  rules_.remove_if([&](const Rule& rule) { return rule.id == id; });
  count_ = rules_.size();
  return rules_.size() != before;
}

std::optional<Fault> FaultRules::Match(std::string_view ns, const RequestShape& shape) {
  std::lock_guard lock(mu_);
  for (auto it = rules_.begin(); it != rules_.end(); ++it) {
    Rule& rule = *it;
    if (rule.ns != ns) continue;
    if (!rule.operations.empty() && !Contains(rule.operations, shape.operation)) continue;
    if (!rule.fault.tables.empty() &&
        std::none_of(shape.tables.begin(), shape.tables.end(),
                     [&](const std::string& t) { return Contains(rule.fault.tables, t); })) {
      continue;
    }
    if (rule.probability) {
      // The draw is made for every matching request, fired or not, so a
      // seeded run fires on the same requests every time.
      double draw = std::uniform_real_distribution<double>(0.0, 1.0)(rule.random);
      if (draw >= *rule.probability) continue;
    }
    ++rule.applied;
    Fault fault = rule.fault;
    if (rule.remaining && --*rule.remaining == 0) {
      rules_.erase(it);
      count_ = rules_.size();
    }
    return fault;
  }
  return std::nullopt;
}

}  // namespace ddb::emulator
