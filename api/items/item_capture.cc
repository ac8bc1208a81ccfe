#include "api/items/item_capture.h"

#include <array>
#include <cstring>
#include <string>
#include <utility>

#include "api/attribute_json.h"
#include "api/json_reader.h"

namespace ddb::api {
namespace {

using engine::AttributeValue;

constexpr std::array<std::string_view, 5> kBatchWriteItemPath = {"RequestItems", "*", "*",
                                                                 "PutRequest", "Item"};

// Requests nest a handful of levels around their items; deeper text goes to
// the general parser, which bounds it and words the errors.
constexpr int kMaxOutsideDepth = 16;

// The member a placeholder holds, its value the captured item's index. No
// client text reaches the document with this name: it would need an escape
// ("\u0000"), and text with escapes is never captured from.
constexpr std::string_view kPlaceholderName("\0captured-item", 14);

// One pass over in-place text that ends in zero bytes (InsituCopy): every
// scan stops at a zero byte, which nothing here accepts, so no scan needs the
// end. Strings are cut in place, as RapidJSON's in-place reader cuts them.
class Reader {
 public:
  Reader(char* text, std::span<const std::string_view> path, rapidjson::Document* doc,
         std::vector<engine::Item>* items)
      : at_(text), path_(path), doc_(*doc), items_(*items) {}

  // The whole text: one object, then nothing but whitespace.
  bool Document() {
    SkipSpace();
    if (*at_ != '{' || !Value(0, 0)) return false;
    SkipSpace();
    return *at_ == '\0';
  }

 private:
  // The scans work on a local copy of at_: the bytes they write could alias
  // the member, which would then be stored at every step.
  void SkipSpace() {
    char* at = at_;
    while (*at == ' ' || *at == '\n' || *at == '\r' || *at == '\t') ++at;
    at_ = at;
  }
  bool Consume(char c) {
    SkipSpace();
    if (*at_ != c) return false;
    ++at_;
    return true;
  }
  bool Literal(std::string_view word) {
    if (std::strncmp(at_, word.data(), word.size()) != 0) return false;
    at_ += word.size();
    return true;
  }
  // A string without escapes or control characters (RapidJSON refuses the
  // latter; the former are left to it).
  bool String(std::string_view* out) {
    SkipSpace();
    if (*at_ != '"') return false;
    char* const start = at_ + 1;
    char* at = start;
    while (*at != '"') {
      if (*at == '\\' || static_cast<unsigned char>(*at) < 0x20) return false;
      ++at;
    }
    *out = std::string_view(start, static_cast<size_t>(at - start));
    *at = '\0';
    at_ = at + 1;
    return true;
  }

  // Elements separated by commas up to `close`, which may follow at once;
  // `element` reads each. The opening bracket is already consumed.
  template <class Fn>
  bool Sequence(char close, Fn element) {
    if (Consume(close)) return true;
    do {
      if (!element()) return false;
    } while (Consume(','));
    return Consume(close);
  }

  // How far `path` is matched below a member named `name` (or an array
  // element, `name` empty) of a value that matched `matched` steps; -1 when
  // it is off the path.
  int Below(int matched, std::string_view name, bool element) const {
    if (matched < 0 || static_cast<size_t>(matched) >= path_.size()) return -1;
    std::string_view step = path_[static_cast<size_t>(matched)];
    return step == "*" || (!element && step == name) ? matched + 1 : -1;
  }

  // Any JSON value but a number, into the document; at the end of the path,
  // an item, captured.
  bool Value(int matched, int depth) {
    SkipSpace();
    if (matched >= 0 && static_cast<size_t>(matched) == path_.size()) return CaptureItem();
    switch (*at_) {
      case '{': {
        if (++depth > kMaxOutsideDepth) return false;
        ++at_;
        doc_.StartObject();
        rapidjson::SizeType members = 0;
        bool read = Sequence('}', [&] {
          std::string_view name;
          if (!String(&name) || !Consume(':')) return false;
          doc_.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()), false);
          ++members;
          return Value(Below(matched, name, false), depth);
        });
        return read && doc_.EndObject(members);
      }
      case '[': {
        if (++depth > kMaxOutsideDepth) return false;
        ++at_;
        doc_.StartArray();
        rapidjson::SizeType elements = 0;
        bool read = Sequence(']', [&] {
          ++elements;
          return Value(Below(matched, {}, true), depth);
        });
        return read && doc_.EndArray(elements);
      }
      case '"': {
        std::string_view text;
        return String(&text) && doc_.String(text.data(), static_cast<rapidjson::SizeType>(text.size()), false);
      }
      case 't':
        return Literal("true") && doc_.Bool(true);
      case 'f':
        return Literal("false") && doc_.Bool(false);
      case 'n':
        return Literal("null") && doc_.Null();
      default:
        return false;  // numbers (RapidJSON picks their types) and non-JSON
    }
  }

  // {"name": <attribute value>, …} into *map; `depth` M/L levels above the
  // values. Item names must pass CheckAttributeName (its problems are left
  // to the general path to word); a map's need not.
  bool Members(int depth, bool item_names, engine::Map* map) {
    if (!Consume('{')) return false;
    return Sequence('}', [&] {
      std::string_view name;
      if (!String(&name) || (item_names && CheckAttributeName(name)) || !Consume(':')) {
        return false;
      }
      AttributeValue value;
      if (!AttributeValueAt(depth, &value)) return false;
      map->insert_or_assign(std::string(name), std::move(value));
      return true;
    });
  }

  // An item: a non-empty object of attribute values (an empty one is the
  // general path's error), stood for in the document by a placeholder.
  bool CaptureItem() {
    engine::Item item;
    if (!Members(0, true, &item) || item.empty()) return false;
    doc_.StartObject();
    doc_.Key(kPlaceholderName.data(), static_cast<rapidjson::SizeType>(kPlaceholderName.size()), false);
    doc_.Uint(static_cast<unsigned>(items_.size()));
    doc_.EndObject(1);
    items_.push_back(std::move(item));
    return true;
  }

  // {"<type>": <value>}, one member, as ParseAttributeValue reads it;
  // `depth` M/L levels above it.
  bool AttributeValueAt(int depth, AttributeValue* out) {
    std::string_view type;
    if (!Consume('{') || !String(&type) || !Consume(':')) return false;
    SkipSpace();
    if (!Typed(type, depth, out)) return false;
    return Consume('}');
  }

  bool Typed(std::string_view type, int depth, AttributeValue* out) {
    if (type == "N") {
      std::string_view text;
      if (!String(&text)) return false;
      return engine::Number::ParseInto(text, &out->emplace<engine::Number>()).ok();
    }
    if (type == "S") {
      std::string_view text;
      if (!String(&text)) return false;
      *out = AttributeValue(std::string(text));
      return true;
    }
    if (type == "BOOL") {
      if (Literal("true")) return *out = AttributeValue(true), true;
      if (Literal("false")) return *out = AttributeValue(false), true;
      return false;
    }
    if (type == "NULL") {
      // {"NULL": false} is an error the general path words.
      return Literal("true") && (*out = AttributeValue(engine::Null{}), true);
    }
    const bool map = type == "M";
    if (!map && type != "L") return false;  // B and the sets: the general path
    if (depth + 1 >= engine::kMaxNestingDepth) return false;
    if (map) {
      engine::Map members;
      if (!Members(depth + 1, false, &members)) return false;
      *out = AttributeValue(std::move(members));
      return true;
    }
    engine::List elements;
    if (!Consume('[') ||
        !Sequence(']', [&] { return AttributeValueAt(depth + 1, &elements.emplace_back()); })) {
      return false;
    }
    *out = AttributeValue(std::move(elements));
    return true;
  }

  char* at_;
  std::span<const std::string_view> path_;
  rapidjson::Document& doc_;
  std::vector<engine::Item>& items_;
};

}  // namespace

std::span<const std::string_view> ItemPathFor(std::string_view operation) {
  if (operation == "BatchWriteItem") return kBatchWriteItemPath;
  return {};
}

bool CapturedItems::Parse(std::string_view json, std::span<const std::string_view> path,
                          rapidjson::Document* doc) {
  items_.clear();
  if (path.empty() || !IsAscii(json)) return false;
  char* text = InsituCopy(json, doc);
  bool parsed = false;
  auto generate = [&](rapidjson::Document& target) {
    parsed = Reader(text, path, &target, &items_).Document();
    return parsed;
  };
  doc->Populate(generate);
  if (!parsed) items_.clear();
  return parsed;
}

ApiResult<engine::Item> CapturedItems::TakeOrParse(const rapidjson::Value& json) {
  if (json.IsObject() && json.MemberCount() == 1) {
    const auto& member = *json.MemberBegin();
    if (View(member.name) == kPlaceholderName && member.value.IsUint() &&
        member.value.GetUint() < items_.size()) {
      return std::move(items_[member.value.GetUint()]);
    }
  }
  return ParseItem(json);
}

}  // namespace ddb::api
