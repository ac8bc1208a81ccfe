#include "api/json_reader.h"

#include <rapidjson/error/en.h>

#include <algorithm>
#include <cstring>

namespace ddb::api {

ApiError WrongType(const rapidjson::Value& value, std::string_view java_type) {
  std::string target(java_type);
  if (value.IsObject()) return ApiError::Serialization("Start of structure or map found where not expected");
  if (value.IsArray()) {
    return ApiError::Serialization("Unrecognized collection type class java.lang." + target);
  }
  std::string_view token = value.IsTrue()     ? "TRUE_VALUE"
                           : value.IsFalse()  ? "FALSE_VALUE"
                           : value.IsString() ? "STRING_VALUE"
                           : value.IsDouble() ? "DECIMAL_VALUE"
                                              : "NUMBER_VALUE";
  return ApiError::Serialization(std::string(token) + " cannot be converted to " + target);
}

const rapidjson::Value* RequestReader::Member(const char* name) const {
  if (!object_.IsObject()) return nullptr;
  auto it = object_.FindMember(name);
  if (it == object_.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

void RequestReader::Fail(ApiError error) {
  if (!error_) error_ = std::move(error);
}

std::optional<std::string_view> RequestReader::String(const char* name) {
  const rapidjson::Value* v = Member(name);
  if (!v) return std::nullopt;
  if (!v->IsString()) {
    Fail(WrongType(*v, "String"));
    return std::nullopt;
  }
  return View(*v);
}

std::optional<int64_t> RequestReader::Long(const char* name) {
  const rapidjson::Value* v = Member(name);
  if (!v) return std::nullopt;
  if (!v->IsInt64()) {
    Fail(WrongType(*v, "Long"));
    return std::nullopt;
  }
  return v->GetInt64();
}

std::optional<int64_t> RequestReader::Integer(const char* name) {
  const rapidjson::Value* v = Member(name);
  if (!v) return std::nullopt;
  if (!v->IsInt()) {
    Fail(WrongType(*v, "Integer"));
    return std::nullopt;
  }
  return v->GetInt();
}

std::optional<bool> RequestReader::Bool(const char* name) {
  const rapidjson::Value* v = Member(name);
  if (!v) return std::nullopt;
  if (!v->IsBool()) {
    Fail(WrongType(*v, "Boolean"));
    return std::nullopt;
  }
  return v->GetBool();
}

const rapidjson::Value* RequestReader::Object(const char* name) {
  const rapidjson::Value* v = Member(name);
  if (!v) return nullptr;
  if (!v->IsObject()) {
    Fail(ApiError::Serialization(v->IsArray() ? "Unrecognized collection type" : "Unexpected field type"));
    return nullptr;
  }
  return v;
}

const rapidjson::Value* RequestReader::Array(const char* name) {
  const rapidjson::Value* v = Member(name);
  if (!v) return nullptr;
  if (!v->IsArray()) {
    Fail(ApiError::Serialization(v->IsObject() ? "Start of structure or map found where not expected"
                                               : "Unexpected field type"));
    return nullptr;
  }
  return v;
}

std::string Quote(std::string_view text) { return "'" + std::string(text) + "'"; }

void Constraints::Violation(std::string_view value_echo, std::string_view path,
                            std::string_view constraint) {
  // An empty echo gives DynamoDB's newer form, which does not quote the value.
  std::string value = value_echo.empty() ? "Value" : "Value " + std::string(value_echo);
  violations_.push_back(value + " at '" + std::string(path) +
                        "' failed to satisfy constraint: " + std::string(constraint));
}

void Constraints::NotNull(bool present, std::string_view path) {
  if (!present) Violation("null", path, "Member must not be null");
}

void Constraints::Length(std::string_view value, std::string_view path, size_t min, size_t max) {
  size_t length = Utf16Length(value);
  if (length < min) {
    Violation(Quote(value), path,
              "Member must have length greater than or equal to " + std::to_string(min));
  }
  if (length > max) {
    Violation(Quote(value), path,
              "Member must have length less than or equal to " + std::to_string(max));
  }
}

size_t Utf16Length(std::string_view utf8) {
  size_t length = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) == 0x80) continue;  // continuation bytes add nothing
    length += c >= 0xF0 ? 2 : 1;       // four-byte sequences are surrogate pairs
  }
  return length;
}

void Constraints::TableName(std::optional<std::string_view> name, std::string_view path) {
  if (!name) return NotNull(false, path);
  bool pattern_ok = !name->empty() && std::all_of(name->begin(), name->end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-';
  });
  if (!pattern_ok) {
    Violation(Quote(*name), path,
              "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  }
  Length(*name, path, 3, 255);
}

void Constraints::TableNameOrArn(std::optional<std::string_view> name, std::string_view path) {
  // An empty name breaks only the ARN-era length constraint (1-1024), and
  // DynamoDB reports just that.
  if (!name || !(name->empty() || name->starts_with("arn:"))) return TableName(name, path);
  Length(*name, path, 1, 1024);
}

std::string_view TableNameInArn(std::string_view name_or_arn) {
  constexpr std::string_view kTablePart = ":table/";
  // Decided on the first byte for most names: this runs several times on
  // every request the access profile records.
  if (name_or_arn.empty() || name_or_arn[0] != 'a' || !name_or_arn.starts_with("arn:")) {
    return name_or_arn;
  }
  size_t at = name_or_arn.find(kTablePart);
  if (at == std::string_view::npos) return name_or_arn;  // designates no table
  return name_or_arn.substr(at + kTablePart.size());
}

std::string TableNameFromArn(std::string_view name_or_arn) {
  return std::string(TableNameInArn(name_or_arn));
}

ApiResult<std::string> ReadTableNameOrArn(RequestReader& r) {
  auto name = r.String("TableName");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.TableNameOrArn(name);
  if (!constraints.empty()) return constraints.ToError();
  return TableNameFromArn(*name);
}

void Constraints::Enum(std::optional<std::string_view> value, std::string_view path,
                       std::initializer_list<std::string_view> allowed) {
  if (!value || std::find(allowed.begin(), allowed.end(), *value) != allowed.end()) return;
  std::string list = "[";
  for (std::string_view a : allowed) {
    if (list.size() > 1) list += ", ";
    list += a;
  }
  Violation(Quote(*value), path, "Member must satisfy enum value set: " + list + "]");
}

void Constraints::Range(std::optional<int64_t> value, std::string_view path, int64_t min,
                        int64_t max) {
  if (!value) return;
  if (*value < min) {
    Violation(Quote(std::to_string(*value)), path,
              "Member must have value greater than or equal to " + std::to_string(min));
  } else if (*value > max) {
    Violation(Quote(std::to_string(*value)), path,
              "Member must have value less than or equal to " + std::to_string(max));
  }
}

ApiError Constraints::ToError() const {
  size_t shown = std::min<size_t>(violations_.size(), 10);
  std::string message = std::to_string(shown) +
                        (shown == 1 ? " validation error detected: " : " validation errors detected: ");
  for (size_t i = 0; i < shown; ++i) {
    if (i) message += "; ";
    message += violations_[i];
  }
  return ApiError::Validation(std::move(message));
}

namespace {

// Builds the document as RapidJSON's own parse does, but refuses to open
// an object or array deeper than `limit`: the reader recurses only after
// StartObject/StartArray agree, so its stack stays bounded.
class DepthLimitedHandler {
 public:
  DepthLimitedHandler(rapidjson::Document& doc, int limit) : doc_(doc), limit_(limit) {}

  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned i) { return doc_.Uint(i); }
  bool Int64(int64_t i) { return doc_.Int64(i); }
  bool Uint64(uint64_t i) { return doc_.Uint64(i); }
  bool Double(double d) { return doc_.Double(d); }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool copy) {
    return doc_.RawNumber(str, length, copy);
  }
  bool String(const char* str, rapidjson::SizeType length, bool copy) {
    return doc_.String(str, length, copy);
  }
  bool Key(const char* str, rapidjson::SizeType length, bool copy) {
    return doc_.Key(str, length, copy);
  }
  bool StartObject() { return ++depth_ <= limit_ && doc_.StartObject(); }
  bool EndObject(rapidjson::SizeType members) {
    --depth_;
    return doc_.EndObject(members);
  }
  bool StartArray() { return ++depth_ <= limit_ && doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    --depth_;
    return doc_.EndArray(elements);
  }

 private:
  rapidjson::Document& doc_;
  const int limit_;
  int depth_ = 0;
};

// Parses in place (InsituCopy).
template <unsigned kFlags>
bool ParseWithDepthLimit(std::string_view json, int max_depth, rapidjson::Document* doc) {
  char* text = InsituCopy(json, doc);
  bool parsed = false;
  auto generate = [&](rapidjson::Document& target) {
    DepthLimitedHandler handler(target, max_depth);
    rapidjson::InsituStringStream input(text);
    rapidjson::Reader reader;
    parsed = !reader.Parse<kFlags | rapidjson::kParseInsituFlag>(input, handler).IsError();
    return parsed;
  };
  doc->Populate(generate);
  return parsed;
}

}  // namespace

char* InsituCopy(std::string_view json, rapidjson::Document* doc) {
  char* text = static_cast<char*>(doc->GetAllocator().Malloc(json.size() + kInsituPadding));
  std::memcpy(text, json.data(), json.size());
  std::memset(text + json.size(), 0, kInsituPadding);
  return text;
}

bool IsAscii(std::string_view text) {
  unsigned char seen = 0;
  for (unsigned char c : text) seen |= c;  // vectorizes; no early exit needed
  return seen < 0x80;
}

bool ParseBounded(std::string_view json, int max_depth, rapidjson::Document* doc) {
  // RapidJSON's recursive parser (faster than its iterative one) with the
  // depth bounded. ASCII is valid UTF-8: only text with other bytes needs
  // RapidJSON's (per-character) encoding check.
  if (IsAscii(json)) return ParseWithDepthLimit<rapidjson::kParseDefaultFlags>(json, max_depth, doc);
  return ParseWithDepthLimit<rapidjson::kParseValidateEncodingFlag>(json, max_depth, doc);
}

bool ParseUntrustedJson(std::string_view json, rapidjson::Document& doc) {
  return ParseBounded(json, kMaxJsonNesting, &doc);
}

ApiResult<rapidjson::Document> ParseJsonObject(std::string_view text, std::string_view what) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(text.data(),
                                                                                    text.size());
  if (doc.HasParseError()) {
    return ApiError::Validation(
        NotValidJsonText(what, doc.GetParseError(), doc.GetErrorOffset() + 1));
  }
  if (!doc.IsObject()) return ApiError::Validation(NotAJsonObjectText(what));
  return doc;
}

std::string NotValidJsonText(std::string_view what, rapidjson::ParseErrorCode code,
                             size_t character) {
  return std::string(what) + " is not valid JSON: " + rapidjson::GetParseError_En(code) +
         " (at character " + std::to_string(character) + ")";
}

std::string NotAJsonObjectText(std::string_view what) {
  return std::string(what) + " is not a JSON object";
}

std::string CompactJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  value.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string StringMemberOr(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return std::string(View(it->value));
}

uint64_t UnsignedMemberOr(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsUint64()) return 0;
  return it->value.GetUint64();
}

}  // namespace ddb::api
