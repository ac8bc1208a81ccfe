#include "api/resources/resource_policy.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <vector>

#include "api/json_reader.h"

namespace ddb::api {
namespace {

using rapidjson::Value;

ApiError InvalidDocument(std::string_view why) {
  return ApiError::InvalidParameters("Invalid policy document: " + std::string(why));
}

// A statement's keys in the order DynamoDB writes them back; others follow
// in the order given.
constexpr std::string_view kStatementOrder[] = {"Sid",          "Effect",      "Principal",
                                                "NotPrincipal", "Action",      "NotAction",
                                                "Resource",     "NotResource", "Condition"};

bool IsAccountId(std::string_view text) {
  return text.size() == 12 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Text(const Value& v) { return {v.GetString(), v.GetStringLength()}; }

// A one-element list as its element; other values as they are.
void WriteCollapsed(rapidjson::Writer<rapidjson::StringBuffer>& w, const Value& v) {
  if (v.IsArray() && v.Size() == 1) {
    v[0].Accept(w);
  } else {
    v.Accept(w);
  }
}

// An AWS principal: an account id becomes the account's root ARN.
void WriteAwsPrincipal(rapidjson::Writer<rapidjson::StringBuffer>& w, const Value& v) {
  auto one = [&](const Value& p) {
    if (p.IsString() && IsAccountId(Text(p))) {
      std::string root = "arn:aws:iam::" + std::string(Text(p)) + ":root";
      w.String(root.data(), static_cast<rapidjson::SizeType>(root.size()));
    } else {
      p.Accept(w);
    }
  };
  if (v.IsArray() && v.Size() != 1) {
    w.StartArray();
    for (const Value& p : v.GetArray()) one(p);
    w.EndArray();
  } else {
    one(v.IsArray() ? v[0] : v);
  }
}

void WritePrincipal(rapidjson::Writer<rapidjson::StringBuffer>& w, const Value& v) {
  if (!v.IsObject()) {
    v.Accept(w);
    return;
  }
  w.StartObject();
  for (const auto& member : v.GetObject()) {
    w.Key(member.name.GetString(), member.name.GetStringLength());
    if (Text(member.name) == "AWS") {
      WriteAwsPrincipal(w, member.value);
    } else {
      WriteCollapsed(w, member.value);
    }
  }
  w.EndObject();
}

void WriteStatement(rapidjson::Writer<rapidjson::StringBuffer>& w, const Value& statement) {
  w.StartObject();
  auto write_member = [&](std::string_view key, const Value& value) {
    w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    if (key == "Effect" && value.IsString()) {
      std::string effect = EqualsIgnoringCase(Text(value), "allow")  ? "Allow"
                           : EqualsIgnoringCase(Text(value), "deny") ? "Deny"
                                                                     : std::string(Text(value));
      w.String(effect.data(), static_cast<rapidjson::SizeType>(effect.size()));
    } else if (key == "Principal" || key == "NotPrincipal") {
      WritePrincipal(w, value);
    } else if (key == "Condition") {
      value.Accept(w);
    } else {
      WriteCollapsed(w, value);
    }
  };
  for (std::string_view key : kStatementOrder) {
    auto it = statement.FindMember(Value(rapidjson::StringRef(key.data(), key.size())));
    if (it != statement.MemberEnd()) write_member(key, it->value);
  }
  for (const auto& member : statement.GetObject()) {
    std::string_view key = Text(member.name);
    if (std::find(std::begin(kStatementOrder), std::end(kStatementOrder), key) ==
        std::end(kStatementOrder)) {
      write_member(key, member.value);
    }
  }
  w.EndObject();
}

// The statements of a parsed document: an object is a list of one.
std::vector<const Value*> Statements(const Value& document) {
  std::vector<const Value*> out;
  auto it = document.FindMember("Statement");
  if (it == document.MemberEnd()) return out;
  if (it->value.IsArray()) {
    for (const Value& s : it->value.GetArray()) out.push_back(&s);
  } else {
    out.push_back(&it->value);
  }
  return out;
}

// Whether a (canonical) principal names everyone.
bool NamesEveryone(const Value& principal) {
  auto star = [](const Value& v) {
    if (v.IsString()) return Text(v) == "*";
    if (v.IsArray()) {
      for (const Value& e : v.GetArray()) {
        if (e.IsString() && Text(e) == "*") return true;
      }
    }
    return false;
  };
  if (star(principal)) return true;
  if (principal.IsObject()) {
    auto aws = principal.FindMember("AWS");
    return aws != principal.MemberEnd() && star(aws->value);
  }
  return false;
}

bool Mentions(const Value& v, const std::function<bool(std::string_view)>& matches) {
  if (v.IsString()) return matches(Text(v));
  if (v.IsArray()) {
    for (const Value& e : v.GetArray()) {
      if (Mentions(e, matches)) return true;
    }
  }
  if (v.IsObject()) {
    for (const auto& m : v.GetObject()) {
      if (Mentions(m.value, matches)) return true;
    }
  }
  return false;
}

const Value* Member(const Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

// An IAM policy nests a few levels; the parser refuses deeper ones, which
// keeps the recursive writer below shallow.
constexpr int kMaxPolicyNesting = 32;

}  // namespace

ApiResult<std::string> CanonicalPolicy(std::string_view document) {
  if (document.size() > kMaxPolicyBytes) {
    return ApiError::InvalidParameters("Maximum policy size of " + std::to_string(kMaxPolicyBytes) +
                                       " bytes exceeded");
  }
  rapidjson::Document parsed;
  if (!ParseBounded(document, kMaxPolicyNesting, &parsed) || !parsed.IsObject()) {
    return InvalidDocument("This policy contains invalid Json");
  }
  const Value* statement_json = Member(parsed, "Statement");
  if (!statement_json) return InvalidDocument("Missing required field Statement");
  if (statement_json->IsArray() && statement_json->Empty()) {
    return InvalidDocument("Could not parse the policy: Statement is empty!");
  }
  std::vector<const Value*> statements = Statements(parsed);
  std::set<std::string_view> sids;
  for (const Value* statement : statements) {
    if (!statement->IsObject()) return InvalidDocument("This policy contains invalid Json");
    if (!Member(*statement, "Resource") && !Member(*statement, "NotResource")) {
      return InvalidDocument("Missing required field Resource");
    }
    const Value* sid = Member(*statement, "Sid");
    if (sid && sid->IsString() && !sids.insert(Text(*sid)).second) {
      return InvalidDocument("The Statement Ids in the policy are not unique");
    }
    const Value* effect = Member(*statement, "Effect");
    const Value* principal = Member(*statement, "Principal");
    bool allow = effect && effect->IsString() && EqualsIgnoringCase(Text(*effect), "allow");
    if (allow && principal && NamesEveryone(*principal) && !Member(*statement, "Condition")) {
      return ApiError::Validation(
          "Resource-based policy grants unbounded access in one or more elements. Please revise "
          "the policy to ensure least-privilege form of access");
    }
  }

  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  if (const Value* version = Member(parsed, "Version")) {
    w.Key("Version");
    version->Accept(w);
  }
  w.Key("Statement");
  w.StartArray();
  for (const Value* statement : statements) WriteStatement(w, *statement);
  w.EndArray();
  for (const auto& member : parsed.GetObject()) {
    if (Text(member.name) == "Version" || Text(member.name) == "Statement") continue;
    member.name.Accept(w);
    member.value.Accept(w);
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string PolicyAsRead(std::string_view canonical) {
  if (canonical.starts_with("{\"Version\"")) return std::string(canonical);
  return "{\"Version\":\"2008-10-17\"," + std::string(canonical.substr(1));
}

bool DeniesPolicyChanges(std::string_view canonical, std::string_view account_id) {
  rapidjson::Document parsed;
  parsed.Parse(canonical.data(), canonical.size());
  if (parsed.HasParseError() || !parsed.IsObject()) return false;
  for (const Value* statement : Statements(parsed)) {
    const Value* effect = Member(*statement, "Effect");
    const Value* principal = Member(*statement, "Principal");
    const Value* action = Member(*statement, "Action");
    if (!effect || !effect->IsString() || Text(*effect) != "Deny") continue;
    if (!principal || !action || Member(*statement, "Condition")) continue;
    bool caller = NamesEveryone(*principal) || Mentions(*principal, [&](std::string_view p) {
                    return p.find(account_id) != std::string_view::npos;
                  });
    bool puts = Mentions(*action, [](std::string_view a) {
      return a == "*" || EqualsIgnoringCase(a, "dynamodb:*") ||
             EqualsIgnoringCase(a, "dynamodb:PutResourcePolicy");
    });
    if (caller && puts) return true;
  }
  return false;
}

}  // namespace ddb::api
