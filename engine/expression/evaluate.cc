#include "engine/expression/evaluate.h"

#include <algorithm>
#include <optional>
#include <string>

#include "engine/expression/document_path.h"

namespace ddb::engine::expr {
namespace {

const Item& EmptyItem() {
  static const Item kEmpty;
  return kEmpty;
}

// DynamoDB measures strings for size() in UTF-16 code units: one per
// character, two for characters beyond U+FFFF (4-byte UTF-8 sequences).
size_t Utf16Length(std::string_view utf8) {
  size_t units = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) ++units;  // a lead byte starts a character
    if (c >= 0xF0) ++units;           // a surrogate pair
  }
  return units;
}

// size(): the length of a string or binary, the number of elements of a set,
// list or map; nullopt for other types.
std::optional<size_t> SizeOf(const AttributeValue& value) {
  switch (value.type()) {
    case AttributeType::kS: return Utf16Length(value.as<std::string>());
    case AttributeType::kB: return value.as<Binary>().bytes.size();
    case AttributeType::kSS: return value.as<StringSet>().values.size();
    case AttributeType::kNS: return value.as<NumberSet>().values.size();
    case AttributeType::kBS: return value.as<BinarySet>().values.size();
    case AttributeType::kL: return value.as<List>().size();
    case AttributeType::kM: return value.as<Map>().size();
    default: return std::nullopt;
  }
}

// The value of an operand, or nullptr when it is undefined (a missing
// attribute, size() of a type without size). Computed values live in *scratch.
const AttributeValue* Evaluate(const Operand& operand, const Item& item,
                               AttributeValue* scratch) {
  switch (operand.kind) {
    case Operand::Kind::kPath:
      return FindPath(item, operand.path);
    case Operand::Kind::kValue:
      return &operand.value;
    case Operand::Kind::kFunction: {  // size(), the only condition operand function
      AttributeValue inner;
      const AttributeValue* target = Evaluate(operand.args[0], item, &inner);
      if (target == nullptr) return nullptr;
      std::optional<size_t> size = SizeOf(*target);
      if (!size) return nullptr;
      *scratch = AttributeValue(Number::FromInt64(static_cast<int64_t>(*size)));
      return scratch;
    }
    default:
      return nullptr;  // arithmetic exists only in updates
  }
}

bool Compare(Comparator op, const AttributeValue* a, const AttributeValue* b) {
  if (op == Comparator::kEq) return a && b && *a == *b;
  if (op == Comparator::kNe) return !(a && b && *a == *b);
  if (!a || !b) return false;
  std::optional<int> order = CompareScalars(*a, *b);
  if (!order) return false;
  switch (op) {
    case Comparator::kLt: return *order < 0;
    case Comparator::kLe: return *order <= 0;
    case Comparator::kGt: return *order > 0;
    default: return *order >= 0;
  }
}

template <class T>
bool SetContains(const std::vector<T>& set, const T& element) {
  return std::find(set.begin(), set.end(), element) != set.end();
}

bool Contains(const AttributeValue& haystack, const AttributeValue& needle) {
  switch (haystack.type()) {
    case AttributeType::kS:
      return needle.is<std::string>() &&
             haystack.as<std::string>().find(needle.as<std::string>()) != std::string::npos;
    case AttributeType::kB:
      return needle.is<Binary>() &&
             haystack.as<Binary>().bytes.find(needle.as<Binary>().bytes) != std::string::npos;
    case AttributeType::kSS:
      return needle.is<std::string>() &&
             SetContains(haystack.as<StringSet>().values, needle.as<std::string>());
    case AttributeType::kBS:
      return needle.is<Binary>() &&
             SetContains(haystack.as<BinarySet>().values, needle.as<Binary>().bytes);
    case AttributeType::kNS:
      return needle.is<Number>() &&
             SetContains(haystack.as<NumberSet>().values, needle.as<Number>());
    case AttributeType::kL: {
      const List& list = haystack.as<List>();
      return std::find(list.begin(), list.end(), needle) != list.end();
    }
    default:
      return false;
  }
}

bool BeginsWith(const AttributeValue& value, const AttributeValue& prefix) {
  if (value.is<std::string>() && prefix.is<std::string>()) {
    return value.as<std::string>().starts_with(prefix.as<std::string>());
  }
  if (value.is<Binary>() && prefix.is<Binary>()) {
    return value.as<Binary>().bytes.starts_with(prefix.as<Binary>().bytes);
  }
  return false;
}

bool EvaluateFunction(const Condition& condition, const Item& item) {
  const std::string& f = condition.function;
  if (f == "attribute_exists") return FindPath(item, condition.operands[0].path) != nullptr;
  if (f == "attribute_not_exists") return FindPath(item, condition.operands[0].path) == nullptr;
  AttributeValue scratch_a, scratch_b;
  const AttributeValue* a = Evaluate(condition.operands[0], item, &scratch_a);
  const AttributeValue* b = Evaluate(condition.operands[1], item, &scratch_b);
  if (!a || !b) return false;
  if (f == "attribute_type") {
    return b->is<std::string>() && TypeName(a->type()) == b->as<std::string>();
  }
  if (f == "begins_with") return BeginsWith(*a, *b);
  if (f == "contains") return Contains(*a, *b);
  return false;
}

bool EvaluateOn(const Condition& condition, const Item& item) {
  switch (condition.kind) {
    case Condition::Kind::kAnd:
      return EvaluateOn(condition.children[0], item) && EvaluateOn(condition.children[1], item);
    case Condition::Kind::kOr:
      return EvaluateOn(condition.children[0], item) || EvaluateOn(condition.children[1], item);
    case Condition::Kind::kNot:
      return !EvaluateOn(condition.children[0], item);
    case Condition::Kind::kFunction:
      return EvaluateFunction(condition, item);
    case Condition::Kind::kCompare: {
      AttributeValue scratch_a, scratch_b;
      return Compare(condition.op, Evaluate(condition.operands[0], item, &scratch_a),
                     Evaluate(condition.operands[1], item, &scratch_b));
    }
    case Condition::Kind::kBetween: {
      AttributeValue s0, s1, s2;
      const AttributeValue* value = Evaluate(condition.operands[0], item, &s0);
      return Compare(Comparator::kGe, value, Evaluate(condition.operands[1], item, &s1)) &&
             Compare(Comparator::kLe, value, Evaluate(condition.operands[2], item, &s2));
    }
    case Condition::Kind::kIn: {
      AttributeValue scratch, candidate_scratch;
      const AttributeValue* value = Evaluate(condition.operands[0], item, &scratch);
      for (size_t i = 1; i < condition.operands.size(); ++i) {
        if (Compare(Comparator::kEq, value,
                    Evaluate(condition.operands[i], item, &candidate_scratch))) {
          return true;
        }
      }
      return false;
    }
  }
  return false;
}

}  // namespace

std::optional<int> CompareScalars(const AttributeValue& a, const AttributeValue& b) {
  if (a.type() != b.type()) return std::nullopt;
  switch (a.type()) {
    case AttributeType::kN:
      return a.as<Number>().Compare(b.as<Number>());
    case AttributeType::kS:
      // std::string compares char_traits<char>, which orders as unsigned char.
      return a.as<std::string>().compare(b.as<std::string>());
    case AttributeType::kB:
      return a.as<Binary>().bytes.compare(b.as<Binary>().bytes);
    default:
      return std::nullopt;
  }
}

bool EvaluateCondition(const Condition& condition, const Item* item) {
  return EvaluateOn(condition, item ? *item : EmptyItem());
}

}  // namespace ddb::engine::expr
