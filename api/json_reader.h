// Checked access to the members of a request's JSON objects, and the
// constraint checks DynamoDB reports as "N validation errors detected".
//
// RequestReader reads typed members; a member of the wrong JSON type makes
// the reader fail with DynamoDB's SerializationException text (e.g.
// "NUMBER_VALUE cannot be converted to String"); a JSON null counts as
// absent, as in DynamoDB. Constraints collects "Value 'x' at 'path' failed to
// satisfy constraint: …" violations and renders them in DynamoDB's form.
//
// Thread safety: single-threaded helpers over a caller-owned document, which
// must outlive them.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"

namespace ddb::api {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

inline std::string_view View(const rapidjson::Value& v) {
  return std::string_view(v.GetString(), v.GetStringLength());
}

inline void WriteString(JsonWriter& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

// A string member, left out when `value` is empty (DynamoDB omits unset
// members rather than sending them empty).
inline void WriteNonEmpty(JsonWriter& w, const char* key, std::string_view value) {
  if (value.empty()) return;
  w.Key(key);
  WriteString(w, value);
}

// Renders a JSON object whose members `members` writes.
template <class Fn>
std::string RenderObject(Fn members) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  members(w);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

// The SerializationException DynamoDB answers when `value` is not `java_type`
// ("String", "Long", "Integer", "Boolean").
ApiError WrongType(const rapidjson::Value& value, std::string_view java_type);

class RequestReader {
 public:
  explicit RequestReader(const rapidjson::Value& object) : object_(object) {}

  // Each returns nothing when the member is absent or null, and also when it
  // has the wrong type, which fails the reader.
  std::optional<std::string_view> String(const char* name);
  std::optional<int64_t> Long(const char* name);
  std::optional<int64_t> Integer(const char* name);
  std::optional<bool> Bool(const char* name);
  const rapidjson::Value* Object(const char* name);
  const rapidjson::Value* Array(const char* name);

  bool failed() const { return error_.has_value(); }
  // REQUIRES: failed()
  const ApiError& error() const { return *error_; }

 private:
  const rapidjson::Value* Member(const char* name) const;
  void Fail(ApiError error);

  const rapidjson::Value& object_;
  std::optional<ApiError> error_;  // the first failure
};

class Constraints {
 public:
  // `value` is how DynamoDB echoes the value: quoted text, or "null"; empty
  // for its newer form without the value ("Value at 'path' …").
  void Violation(std::string_view value_echo, std::string_view path, std::string_view constraint);

  // Each records a violation when the check fails; `value` absent means null.
  void NotNull(bool present, std::string_view path);
  void Length(std::string_view value, std::string_view path, size_t min, size_t max);
  void TableName(std::optional<std::string_view> name, std::string_view path = "tableName");
  // Data-plane operations also take the table's ARN (1-1024 characters).
  void TableNameOrArn(std::optional<std::string_view> name, std::string_view path = "tableName");
  void Enum(std::optional<std::string_view> value, std::string_view path,
            std::initializer_list<std::string_view> allowed);
  void Range(std::optional<int64_t> value, std::string_view path, int64_t min, int64_t max);

  bool empty() const { return violations_.empty(); }
  // "1 validation error detected: …" / "N validation errors detected: …; …"
  // (at most 10 listed, as DynamoDB). REQUIRES: !empty()
  ApiError ToError() const;

 private:
  std::vector<std::string> violations_;
};

// The table a data-plane TableName designates: the name itself, or the
// name inside a table ARN ("arn:aws:dynamodb:<region>:<account>:table/<name>").
std::string TableNameFromArn(std::string_view name_or_arn);
// The same, as a view into `name_or_arn`.
std::string_view TableNameInArn(std::string_view name_or_arn);

// A control-plane TableName that may be the table's ARN (the backup,
// insights and streaming-destination operations): read, checked (null or
// 1-1024 characters) and resolved to the name.
ApiResult<std::string> ReadTableNameOrArn(RequestReader& r);

// The length DynamoDB's constraints measure: UTF-16 code units of UTF-8 text.
size_t Utf16Length(std::string_view utf8);

// Quotes a value as DynamoDB echoes it: 'text'.
std::string Quote(std::string_view text);

// Requests nest far less than this: attribute values at most 32 levels of two
// JSON levels each ({"M":{…}}), which leaves room for deeper ones to get
// DynamoDB's own nesting error.
inline constexpr int kMaxJsonNesting = 256;

// Parses text that came over the network into `doc`: false when it nests
// deeper than kMaxJsonNesting or is not valid JSON (then `doc` is unusable).
// The depth is checked as the parser goes, before it recurses: RapidJSON's
// recursive parser and writer, and our own walkers, would run out of stack on
// input nested deep enough.
bool ParseUntrustedJson(std::string_view json, rapidjson::Document& doc);

// A copy of `json` for parsing in place, held by the document's own
// allocator: the document's strings then point into that copy instead of
// being copied one by one, and the copy lives exactly as long as they do.
// The copy ends in kInsituPadding zero bytes: the terminator an in-place
// reader stops at, and room for RapidJSON's SSE2 scan (CMakeLists.txt),
// which reads whole aligned 16-byte blocks.
inline constexpr size_t kInsituPadding = 16;
char* InsituCopy(std::string_view json, rapidjson::Document* doc);

// Whether every byte of `text` is ASCII (then it is valid UTF-8 too).
bool IsAscii(std::string_view text);

// ParseUntrustedJson with a tighter depth, for documents that have no reason
// to nest as deep as a request (admin bodies, trigger definitions, filters).
bool ParseBounded(std::string_view json, int max_depth, rapidjson::Document* doc);

// Documents that are data rather than requests (export lines and manifests,
// answers read back by the offline commands): `text` parsed as one JSON
// object; the error's message names it as `what` ("the line is not valid
// JSON: ... (at character N)", "... is not a JSON object").
ApiResult<rapidjson::Document> ParseJsonObject(std::string_view text, std::string_view what);
// Those two texts: RapidJSON's reason for `code`, `character` counted from 1.
std::string NotValidJsonText(std::string_view what, rapidjson::ParseErrorCode code,
                             size_t character);
std::string NotAJsonObjectText(std::string_view what);
// `value` written back as compact JSON.
std::string CompactJson(const rapidjson::Value& value);
// A member's string or unsigned value; empty or 0 when absent or of another type.
std::string StringMemberOr(const rapidjson::Value& object, const char* name);
uint64_t UnsignedMemberOr(const rapidjson::Value& object, const char* name);

}  // namespace ddb::api
