// AttributeValue and Item: DynamoDB's ten data types as plain C++ values.
//
// Implements the data model of the DynamoDB API reference, "AttributeValue":
// S, N, B, BOOL, NULL, M, L, SS, NS, BS. An Item is a map from attribute name
// to value; its sorted keys make every rendering deterministic. Values are
// validated where they enter (api/attribute_json.cc for client input), so the
// engine may assume: numbers are canonical, sets are non-empty and free of
// duplicates.
//
// Thread safety: plain values; distinct objects need no synchronization.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "engine/number.h"

namespace ddb::engine {

class AttributeValue;

// The order matches the variant below; do not reorder (item_codec persists it).
enum class AttributeType { kS, kN, kB, kBool, kNull, kM, kL, kSS, kNS, kBS };

struct Binary {
  std::string bytes;
  bool operator==(const Binary&) const = default;
};
struct Null {
  bool operator==(const Null&) const = default;
};
struct StringSet {
  std::vector<std::string> values;
};
struct NumberSet {
  std::vector<Number> values;
};
struct BinarySet {
  std::vector<std::string> values;
};
using Map = std::map<std::string, AttributeValue, std::less<>>;
using List = std::vector<AttributeValue>;
using Item = Map;

class AttributeValue {
 public:
  using Variant = std::variant<std::string, Number, Binary, bool, Null, Map, List, StringSet,
                               NumberSet, BinarySet>;

  AttributeValue() : value_(Null{}) {}
  // Any of the variant's types, moved or copied in place (not through a
  // by-value parameter: a list of numbers builds one of these per element).
  template <class T>
    requires(!std::is_same_v<std::remove_cvref_t<T>, AttributeValue>)
  explicit AttributeValue(T&& v) : value_(std::forward<T>(v)) {}

  AttributeType type() const { return static_cast<AttributeType>(value_.index()); }
  template <class T>
  bool is() const {
    return std::holds_alternative<T>(value_);
  }
  // REQUIRES: is<T>()
  template <class T>
  const T& as() const {
    return std::get<T>(value_);
  }
  template <class T>
  T& as() {
    return std::get<T>(value_);
  }
  // Becomes a default T, in place, and returns it: for parsers that fill a
  // value where it is to stay (an element of a long list).
  template <class T>
  T& emplace() {
    return value_.template emplace<T>();
  }
  const Variant& variant() const { return value_; }

  // Deep equality as DynamoDB's `=` sees it: sets compare as sets (order
  // ignored), numbers numerically, everything else structurally.
  bool operator==(const AttributeValue& other) const;

 private:
  Variant value_;
};

// A set element's identity for hashing: the string or bytes themselves, a
// number's canonical text (equal numbers, equal text).
inline const std::string& SetElementKey(const std::string& element) { return element; }
inline const std::string& SetElementKey(const Number& element) { return element.ToString(); }

// "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS".
std::string_view TypeName(AttributeType type);

// The limits DynamoDB documents for items.
inline constexpr size_t kMaxItemBytes = 400 * 1024;
inline constexpr int kMaxNestingDepth = 32;

// DynamoDB's item size ("Item sizes and formats" in the developer guide):
// attribute name bytes plus value bytes; strings and binaries by length,
// numbers by Number::SizeInBytes, BOOL and NULL 1 byte, lists and maps 3 bytes
// of overhead plus 1 byte per element, map keys counted like attribute names,
// sets the sum of their elements.
size_t AttributeSize(const AttributeValue& value);

// The number of nested M and L levels in `value`: 0 for a scalar or set, 1
// for a map of scalars. A stored attribute has at most kMaxNestingDepth - 1.
int NestingDepth(const AttributeValue& value);
size_t ItemSize(const Item& item);

// A compact rendering for tests and logs, e.g. `{a:S x, n:N 1.5}`.
std::string DebugString(const AttributeValue& value);
std::string DebugString(const Item& item);

}  // namespace ddb::engine
