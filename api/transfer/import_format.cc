#include "api/transfer/import_format.h"

#include <openssl/crypto.h>
#include <rapidjson/encodings.h>
#include <rapidjson/memorystream.h>

#include <memory>

#include "api/json_reader.h"

namespace ddb::api {
namespace {

// What RapidJSON's encoders write to: a std::string.
struct StringOutput {
  using Ch = char;
  std::string* out;
  void Put(char c) { out->push_back(c); }
};

// --- DYNAMODB_JSON ------------------------------------------------------------

// DynamoDB JSON: one {"Item": {...}} object after another, usually one to a
// line, but several may share one (2026-08).
ObjectItems ReadJsonLines(std::string_view text) {
  ObjectItems out;
  size_t pos = 0;
  for (size_t index = 0;; ++index) {
    pos = text.find_first_not_of(" \t\r\n", pos);
    if (pos == std::string_view::npos) return out;
    rapidjson::MemoryStream stream(text.data() + pos, text.size() - pos);
    rapidjson::Document doc;
    doc.ParseStream<rapidjson::kParseStopWhenDoneFlag | rapidjson::kParseValidateEncodingFlag |
                    rapidjson::kParseIterativeFlag, rapidjson::UTF8<>>(stream);
    if (doc.HasParseError()) {
      size_t at = pos + doc.GetErrorOffset();
      size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
      line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
      out.error = "Unexpected token. Invalid JSON: " +
                  NotValidJsonText("the line", doc.GetParseError(), at - line_start + 1);
    } else if (!doc.IsObject()) {
      out.error = "Unexpected token. Invalid JSON: " + NotAJsonObjectText("the line");
    } else if (auto item = doc.FindMember("Item");
               item == doc.MemberEnd() || !item->value.IsObject()) {
      out.error = "Invalid format: the record has no Item";
    } else {
      out.items.push_back(CompactJson(item->value));
    }
    if (out.error) {
      out.error_index = index;
      return out;
    }
    pos += stream.Tell();
  }
}

// --- CSV --------------------------------------------------------------------------

// Splits the next record off `text` at `*pos`: fields separated by the
// delimiter, a field in double quotes may hold delimiters, line breaks and
// doubled quotes. False with `*error` set for a quote left open.
bool NextCsvRecord(std::string_view text, size_t* pos, char delimiter,
                   std::vector<std::string>* fields, std::string* error) {
  fields->assign(1, "");
  size_t i = *pos;
  bool quoted = false;
  while (i < text.size()) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        fields->back() += '"';
        i += 2;
        continue;
      }
      if (c == '"') {
        quoted = false;
      } else {
        fields->back() += c;
      }
      ++i;
      continue;
    }
    if (c == '"' && fields->back().empty()) {
      quoted = true;
    } else if (c == delimiter) {
      fields->emplace_back();
    } else if (c == '\n') {
      ++i;
      break;
    } else if (c != '\r' || (i + 1 < text.size() && text[i + 1] != '\n')) {
      fields->back() += c;
    }
    ++i;
  }
  *pos = i;
  if (quoted) {
    *error = "Invalid CSV: a quoted field is not closed";
    return false;
  }
  return true;
}

ObjectItems ReadCsv(std::string_view text, const CsvOptions& options) {
  ObjectItems out;
  size_t pos = 0;
  std::vector<std::string> header = options.header;
  std::vector<std::string> fields;
  std::string error;
  if (header.empty()) {
    if (!NextCsvRecord(text, &pos, options.delimiter, &header, &error)) {
      out.error = error;
      return out;
    }
  }
  size_t index = 0;
  while (pos < text.size()) {
    if (!NextCsvRecord(text, &pos, options.delimiter, &fields, &error)) {
      out.error = error;
      out.error_index = index;
      return out;
    }
    if (fields.size() == 1 && fields[0].empty()) continue;  // a blank line
    if (fields.size() != header.size()) {
      out.error = "Invalid CSV: the record has " + std::to_string(fields.size()) +
                  " columns and the header " + std::to_string(header.size());
      out.error_index = index;
      return out;
    }
    out.items.push_back(RenderObject([&](JsonWriter& w) {
      for (size_t i = 0; i < header.size(); ++i) {
        if (fields[i].empty()) continue;  // DynamoDB leaves empty columns out
        auto type = options.key_types.find(header[i]);
        WriteString(w, header[i]);
        w.StartObject();
        WriteString(w, type == options.key_types.end() ? "S" : type->second);
        WriteString(w, fields[i]);
        w.EndObject();
      }
    }));
    ++index;
  }
  return out;
}

// --- ION --------------------------------------------------------------------------

// The part of Ion's text format DynamoDB's ION exports use: structs, lists,
// strings, symbols (read as strings), decimals and ints, blobs, booleans,
// nulls and annotations, with comments and the version marker skipped.
struct IonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kBlob, kList, kStruct };
  Kind kind = Kind::kNull;
  std::string text;  // kBool: "true"/"false"; kNumber: DynamoDB's N text; kString; kBlob: base64
  // A list's elements, or a struct's field values with their names beside
  // them (a pair of a name and an IonValue would need IonValue complete).
  std::vector<IonValue> elements;
  std::vector<std::string> field_names;
  std::string annotation;  // the last one: $dynamodb_SS, ...
};

class IonReader {
 public:
  explicit IonReader(std::string_view text) : text_(text) {}

  // The next top-level value, or nothing at the end; `error_` on a fault.
  std::optional<IonValue> NextTopLevel() {
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size()) return std::nullopt;
      if (text_.substr(pos_).starts_with("$ion_1_0") && !IsSymbolChar(At(pos_ + 8))) {
        pos_ += 8;
        continue;
      }
      return Value(0);
    }
  }
  const std::string& error() const { return error_; }

 private:
  static bool IsSymbolStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
  }
  static bool IsSymbolChar(char c) { return IsSymbolStart(c) || (c >= '0' && c <= '9'); }
  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  std::optional<IonValue> Fail(std::string message) {
    if (error_.empty()) error_ = "Invalid Ion: " + message + " (at character " +
                                 std::to_string(pos_ + 1) + ")";
    return std::nullopt;
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '/' && At(pos_ + 1) == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && At(pos_ + 1) == '*') {
        size_t end = text_.find("*/", pos_ + 2);
        pos_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else {
        return;
      }
    }
  }

  std::optional<std::string> Symbol() {
    if (At(pos_) == '\'') return Quoted('\'');
    size_t start = pos_;
    while (IsSymbolChar(At(pos_))) ++pos_;
    if (start == pos_) return std::nullopt;
    return std::string(text_.substr(start, pos_ - start));
  }

  // A string or quoted symbol; Ion's escapes.
  std::optional<std::string> Quoted(char quote) {
    std::string out;
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      char e = At(pos_++);
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case '0': out += '\0'; break;
        case '"': case '\'': case '\\': case '/': out += e; break;
        case 'x': case 'u': case 'U': {
          size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          uint32_t code = 0;
          for (size_t i = 0; i < digits; ++i) {
            int v = OPENSSL_hexchar2int(static_cast<unsigned char>(At(pos_++)));
            if (v < 0) return std::nullopt;
            code = code * 16 + static_cast<uint32_t>(v);
          }
          // RapidJSON's encoder only asserts that the code point is Unicode's.
          if (code > 0x10FFFF) return std::nullopt;
          StringOutput utf8{&out};
          rapidjson::UTF8<>::Encode(utf8, code);
          break;
        }
        default:
          return std::nullopt;
      }
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;  // the closing quote
    return out;
  }


  // An Ion int or decimal as DynamoDB's number text: "103." -> "103",
  // "6d2" -> "6E2", "1_000" -> "1000".
  std::optional<IonValue> Number() {
    size_t start = pos_;
    std::string text;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
        text += c;
      } else if (c == 'd' || c == 'D' || c == 'e' || c == 'E') {
        text += 'E';
      } else if (c != '_') {
        break;
      }
      ++pos_;
    }
    if (text.size() > 1 && text.back() == '.') text.pop_back();
    if (size_t point_e = text.find(".E"); point_e != std::string::npos) text.erase(point_e, 1);
    if (text.empty() || text == "-" || text.find_first_of("0123456789") == std::string::npos) {
      pos_ = start;
      return Fail("not a number");
    }
    IonValue value;
    value.kind = IonValue::Kind::kNumber;
    value.text = std::move(text);
    return value;
  }

  std::optional<IonValue> Value(int depth) {
    if (depth > 64) return Fail("nested too deep");
    SkipSpace();
    std::string annotation;
    // Annotations: symbol::value.
    while (true) {
      size_t mark = pos_;
      auto symbol = IsSymbolStart(At(pos_)) || At(pos_) == '\'' ? Symbol() : std::nullopt;
      SkipSpace();
      if (symbol && At(pos_) == ':' && At(pos_ + 1) == ':') {
        pos_ += 2;
        SkipSpace();
        annotation = *symbol;
        continue;
      }
      pos_ = mark;
      break;
    }
    IonValue value;
    char c = At(pos_);
    if (c == '{' && At(pos_ + 1) == '{') {
      size_t end = text_.find("}}", pos_ + 2);
      if (end == std::string_view::npos) return Fail("a blob is not closed");
      std::string base64;
      for (char b : text_.substr(pos_ + 2, end - pos_ - 2)) {
        if (b != ' ' && b != '\n' && b != '\t' && b != '\r') base64 += b;
      }
      pos_ = end + 2;
      value.kind = IonValue::Kind::kBlob;
      value.text = std::move(base64);
    } else if (c == '{') {
      value.kind = IonValue::Kind::kStruct;
      ++pos_;
      while (true) {
        SkipSpace();
        if (At(pos_) == '}') {
          ++pos_;
          break;
        }
        std::optional<std::string> name =
            At(pos_) == '"' ? Quoted('"') : Symbol();
        if (!name) return Fail("a field name was expected");
        SkipSpace();
        if (At(pos_) != ':') return Fail("':' was expected");
        ++pos_;
        auto member = Value(depth + 1);
        if (!member) return std::nullopt;
        value.field_names.push_back(std::move(*name));
        value.elements.push_back(std::move(*member));
        SkipSpace();
        if (At(pos_) == ',') ++pos_;
        else if (At(pos_) != '}') return Fail("',' or '}' was expected");
      }
    } else if (c == '[') {
      value.kind = IonValue::Kind::kList;
      ++pos_;
      while (true) {
        SkipSpace();
        if (At(pos_) == ']') {
          ++pos_;
          break;
        }
        auto element = Value(depth + 1);
        if (!element) return std::nullopt;
        value.elements.push_back(std::move(*element));
        SkipSpace();
        if (At(pos_) == ',') ++pos_;
        else if (At(pos_) != ']') return Fail("',' or ']' was expected");
      }
    } else if (c == '"' || c == '\'') {
      // A symbol value ('quoted' or bare) reads as a string, as a string does.
      auto text = Quoted(c);
      if (!text) return Fail("a string is not closed");
      value.kind = IonValue::Kind::kString;
      value.text = std::move(*text);
    } else if ((c >= '0' && c <= '9') || c == '-' || c == '+') {
      auto number = Number();
      if (!number) return std::nullopt;
      value = std::move(*number);
    } else if (IsSymbolStart(c)) {
      auto symbol = Symbol();
      if (*symbol == "true" || *symbol == "false") {
        value.kind = IonValue::Kind::kBool;
        value.text = *symbol;
      } else if (*symbol == "null") {
        if (At(pos_) == '.') {  // a typed null: null.string, ...
          ++pos_;
          Symbol();
        }
      } else {
        value.kind = IonValue::Kind::kString;
        value.text = *symbol;
      }
    } else {
      return Fail("a value was expected");
    }
    value.annotation = std::move(annotation);
    return value;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

// An Ion value written as a DynamoDB attribute value.
bool WriteIonAttribute(JsonWriter& w, const IonValue& value, std::string* error) {
  using Kind = IonValue::Kind;
  w.StartObject();
  switch (value.kind) {
    case Kind::kNull:
      w.Key("NULL");
      w.Bool(true);
      break;
    case Kind::kBool:
      w.Key("BOOL");
      w.Bool(value.text == "true");
      break;
    case Kind::kNumber:
      w.Key("N");
      WriteString(w, value.text);
      break;
    case Kind::kString:
      w.Key("S");
      WriteString(w, value.text);
      break;
    case Kind::kBlob:
      w.Key("B");
      WriteString(w, value.text);
      break;
    case Kind::kStruct:
      w.Key("M");
      w.StartObject();
      for (size_t i = 0; i < value.elements.size(); ++i) {
        WriteString(w, value.field_names[i]);
        if (!WriteIonAttribute(w, value.elements[i], error)) return false;
      }
      w.EndObject();
      break;
    case Kind::kList: {
      static const std::map<std::string, std::pair<std::string, Kind>, std::less<>> kSets = {
          {"$dynamodb_SS", {"SS", Kind::kString}},
          {"$dynamodb_NS", {"NS", Kind::kNumber}},
          {"$dynamodb_BS", {"BS", Kind::kBlob}}};
      auto set = kSets.find(value.annotation);
      if (set == kSets.end()) {
        w.Key("L");
        w.StartArray();
        for (const auto& element : value.elements) {
          if (!WriteIonAttribute(w, element, error)) return false;
        }
        w.EndArray();
        break;
      }
      WriteString(w, set->second.first);
      w.StartArray();
      for (const auto& element : value.elements) {
        if (element.kind != set->second.second) {
          *error = "Invalid Ion: an element of a " + value.annotation + " has another type";
          return false;
        }
        WriteString(w, element.text);
      }
      w.EndArray();
      break;
    }
  }
  w.EndObject();
  return true;
}

// A top-level {Item:{...}} as the item's JSON; false and `*error` otherwise.
bool IonItemJson(const IonValue& record, std::string* json, std::string* error) {
  const IonValue* item = nullptr;
  if (record.kind == IonValue::Kind::kStruct) {
    for (size_t i = 0; i < record.elements.size(); ++i) {
      if (record.field_names[i] == "Item" && record.elements[i].kind == IonValue::Kind::kStruct) {
        item = &record.elements[i];
      }
    }
  }
  if (!item) {
    *error = "Invalid format: the record has no Item";
    return false;
  }
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  for (size_t i = 0; i < item->elements.size(); ++i) {
    WriteString(w, item->field_names[i]);
    if (!WriteIonAttribute(w, item->elements[i], error)) return false;
  }
  w.EndObject();
  json->assign(buffer.GetString(), buffer.GetSize());
  return true;
}

ObjectItems ReadIon(std::string_view text) {
  ObjectItems out;
  IonReader reader(text);
  auto fail = [&](std::string error) {
    out.error = std::move(error);
    out.error_index = out.items.size();
    return out;
  };
  while (auto value = reader.NextTopLevel()) {
    // A list of records is read as its records.
    std::vector<const IonValue*> records;
    if (value->kind == IonValue::Kind::kList) {
      for (const auto& element : value->elements) records.push_back(&element);
    } else {
      records.push_back(&*value);
    }
    for (const IonValue* record : records) {
      std::string json, error;
      if (!IonItemJson(*record, &json, &error)) return fail(error);
      out.items.push_back(std::move(json));
    }
  }
  if (!reader.error().empty()) return fail(reader.error());
  return out;
}

}  // namespace

ObjectItems ReadImportObject(std::string_view text, InputFormat format, const CsvOptions& csv) {
  switch (format) {
    case InputFormat::kDynamoDbJson:
      return ReadJsonLines(text);
    case InputFormat::kIon:
      return ReadIon(text);
    case InputFormat::kCsv:
      return ReadCsv(text, csv);
  }
  return {};
}

}  // namespace ddb::api
