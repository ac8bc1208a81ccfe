#include "engine/vectors/vector_index.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>

#include "engine/coding.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"

namespace ddb::engine {
namespace {

Status Invalid(const std::string& detail) {
  return Status::InvalidArgument("One or more parameter values were invalid: " + detail);
}

// A written vector's shape errors put a period after "invalid", where
// DynamoDB's other refusals put a colon (captured 2026-08, eu-west-2).
Status InvalidVector(const std::string& detail) {
  return Status::InvalidArgument("One or more parameter values were invalid. " + detail);
}

}  // namespace

const VectorIndexSchema* FindVectorIndex(const TableSchema& schema, std::string_view name) {
  for (const auto& index : schema.vector_indexes) {
    if (index.name == name) return &index;
  }
  return nullptr;
}

namespace {

// Clinger's fast path: text with at most 7 significant decimal digits
// ("-0.123456") has an integer mantissa below 2^24 and a power of ten up to
// 10^10, both exact in a float, so one float division rounds correctly,
// giving what from_chars gives.
// Results come back through an out-parameter: a returned optional<float>
// is assembled in memory from two partial stores and read back whole, a
// store-forwarding stall on each of an embedding's 768 components.
bool ShortDecimalToFloat(std::string_view text, float* out) {
  constexpr float kPowersOfTen[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                    1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (text.size() > 12) return false;  // "0.0000012345" at most
  uint64_t mantissa = 0;  // 12 digits at most: no overflow
  const char* at = text.data();
  const char* end = at + text.size();
  for (; at < end && *at != '.'; ++at) mantissa = mantissa * 10 + static_cast<uint64_t>(*at - '0');
  int fraction_digits = 0;
  if (at < end) {
    fraction_digits = static_cast<int>(end - at - 1);
    for (++at; at < end; ++at) mantissa = mantissa * 10 + static_cast<uint64_t>(*at - '0');
  }
  if (mantissa >= (uint64_t{1} << 24) || fraction_digits > 10) return false;
  float value = static_cast<float>(mantissa);
  if (fraction_digits > 0) value /= kPowersOfTen[fraction_digits];
  *out = negative ? -value : value;
  return true;
}

// std::from_chars for a float: libstdc++ has it (GCC 11), libc++ only from
// LLVM 20, so there it is strtof, which reads the same text the same way in
// the "C" locale the server never leaves.
std::errc FloatFromChars(const std::string& text, float& value) {
#if defined(_LIBCPP_VERSION)
  char* end = nullptr;
  errno = 0;
  float parsed = std::strtof(text.c_str(), &end);
  if (end == text.c_str()) return std::errc::invalid_argument;
  if (errno == ERANGE) return std::errc::result_out_of_range;
  value = parsed;
  return std::errc();
#else
  return std::from_chars(text.data(), text.data() + text.size(), value).ec;
#endif
}

// ToFloat, into *out; false when the number has no float.
bool NearestFloat(const Number& number, float* out) {
  const std::string& text = number.ToString();
  // Canonical text is plain notation: digits, at most one point, a sign.
  if (ShortDecimalToFloat(text, out)) return true;
  float value = 0;
  std::errc error = FloatFromChars(text, value);
  if (error == std::errc::result_out_of_range) {
    // Magnitudes below the f32 range round to zero, as a float cast does;
    // above it there is no float.
    bool tiny = text.find_first_not_of("-0.") != std::string::npos &&
                (text.starts_with("0.") || text.starts_with("-0."));
    if (!tiny) return false;
    *out = 0.0f;
    return true;
  }
  if (error != std::errc() || std::isinf(value)) return false;
  *out = value;
  return true;
}

}  // namespace

std::optional<float> ToFloat(const Number& number) {
  float value;
  if (!NearestFloat(number, &value)) return std::nullopt;
  return value;
}

std::string FloatText(float value) {
  if (value == 0.0f) return std::signbit(value) ? "-0.0" : "0.0";
  char digits[32];
  // The shortest digits that read back as `value`, in scientific form.
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value, std::chars_format::scientific);
  std::string sci(digits, end);
  bool negative = sci[0] == '-';
  std::string mantissa = sci.substr(negative ? 1 : 0, sci.find('e') - (negative ? 1 : 0));
  int exponent = std::stoi(sci.substr(sci.find('e') + 1));
  std::string significant;
  for (char c : mantissa) {
    if (c != '.') significant += c;
  }
  std::string out = negative ? "-" : "";
  float magnitude = std::fabs(value);
  if (magnitude >= 1e-3f && magnitude < 1e7f) {
    // Plain notation with at least one digit after the point.
    if (exponent >= 0) {
      std::string whole = significant.substr(0, std::min<size_t>(significant.size(), exponent + 1));
      whole.append(exponent + 1 - whole.size(), '0');
      std::string fraction = significant.size() > static_cast<size_t>(exponent + 1)
                                 ? significant.substr(exponent + 1)
                                 : "0";
      return out + whole + "." + fraction;
    }
    return out + "0." + std::string(-exponent - 1, '0') + significant;
  }
  // Computerized scientific notation: d.dddE±n with at least one fraction digit.
  std::string fraction = significant.size() > 1 ? significant.substr(1) : "0";
  return out + significant.substr(0, 1) + "." + fraction + "E" + std::to_string(exponent);
}

Result<std::optional<VectorRow>> VectorRowOf(const VectorIndexSchema& index, const Item& item) {
  for (const SearchSchemaElement& element : index.search_schema) {
    auto it = item.find(element.name);
    if (it == item.end()) continue;
    if (!HasScalarType(it->second, element.scalar_type)) {
      return Invalid("Type mismatch for Index Key " + element.name + " Expected: " +
                     std::string(ScalarTypeName(element.scalar_type)) + " Actual: " +
                     std::string(TypeName(it->second.type())) + " IndexName: " + index.name);
    }
    if (element.type == SearchSchemaType::kHash && IsEmptyKeyValue(it->second)) {
      return EmptyIndexKeyError(index.name, element.name, it->second);
    }
  }
  auto vector = item.find(index.vector_attribute);
  if (vector == item.end()) return std::optional<VectorRow>();
  if (!vector->second.is<List>()) {
    return InvalidVector("Invalid type for parameter " + index.vector_attribute +
                         ", Expected: 32-bit floating point number list IndexName: " + index.name);
  }
  const List& list = vector->second.as<List>();
  VectorRow row;
  row.vector.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    float component;
    const Number* number = std::get_if<Number>(&list[i].variant());
    if (!number || !NearestFloat(*number, &component)) {
      return InvalidVector("Invalid type for parameter " + index.vector_attribute + "[" +
                           std::to_string(i) +
                           "], Expected: 32-bit floating point number, Actual: " +
                           std::string(TypeName(list[i].type())) + ". IndexName: " + index.name);
    }
    row.vector.push_back(component);
  }
  if (list.size() != index.dimensions) {
    return InvalidVector("Invalid size for parameter " + index.vector_attribute + ", Expected: " +
                         std::to_string(index.dimensions) + ", Actual: " +
                         std::to_string(list.size()) + " IndexName: " + index.name);
  }
  row.filter_values.reserve(index.search_schema.size());
  for (const SearchSchemaElement& element : index.search_schema) {
    auto it = item.find(element.name);
    std::string encoded;
    if (it != item.end()) {
      AppendKeyValue(it->second, &encoded);
    } else if (element.type == SearchSchemaType::kHash) {
      return std::optional<VectorRow>();  // sparse: items without the HASH attribute stay out
    }
    row.filter_values.push_back(std::move(encoded));
  }
  return std::optional<VectorRow>(std::move(row));
}

bool InVectorIndex(const VectorIndexSchema& index, const Item& item) {
  auto vector = item.find(index.vector_attribute);
  if (vector == item.end() || !vector->second.is<List>()) return false;
  for (const SearchSchemaElement& element : index.search_schema) {
    if (element.type == SearchSchemaType::kHash && !item.contains(element.name)) return false;
  }
  return true;
}

std::string EncodeVectorRow(const VectorRow& row) {
  std::string out(row.vector.size() * sizeof(float), '\0');
  for (size_t i = 0; i < row.vector.size(); ++i) {
    uint32_t bits;
    std::memcpy(&bits, &row.vector[i], sizeof bits);
    for (int b = 0; b < 4; ++b) out[i * 4 + b] = static_cast<char>((bits >> (8 * b)) & 0xFF);
  }
  for (const std::string& value : row.filter_values) coding::PutString(&out, value);
  return out;
}

std::optional<VectorRow> DecodeVectorRow(const VectorIndexSchema& index, std::string_view bytes) {
  size_t vector_bytes = static_cast<size_t>(index.dimensions) * sizeof(float);
  if (bytes.size() < vector_bytes) return std::nullopt;
  VectorRow row;
  row.vector.resize(index.dimensions);
  for (size_t i = 0; i < index.dimensions; ++i) {
    uint32_t bits = 0;
    for (int b = 0; b < 4; ++b) bits |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i * 4 + b])) << (8 * b);
    std::memcpy(&row.vector[i], &bits, sizeof bits);
  }
  coding::Reader in(bytes.substr(vector_bytes));
  for (size_t i = 0; i < index.search_schema.size(); ++i) {
    std::string value;
    if (!in.GetString(&value)) return std::nullopt;
    row.filter_values.push_back(std::move(value));
  }
  if (!in.done()) return std::nullopt;
  return row;
}

std::string VectorEntryKey(uint64_t table_id, const VectorIndexSchema& index,
                           std::string_view item_key) {
  std::string key = IndexPrefix(table_id, index.index_id);
  key.append(item_key);
  return key;
}

int64_t VectorEntrySize(const VectorIndexSchema& index, const Item& item) {
  int64_t size = static_cast<int64_t>(index.dimensions) * 4 +
                 static_cast<int64_t>(index.vector_attribute.size());
  for (const SearchSchemaElement& element : index.search_schema) {
    auto it = item.find(element.name);
    if (it == item.end()) continue;
    Item one{{element.name, it->second}};
    size += static_cast<int64_t>(ItemSize(one));
  }
  return size;
}

namespace {

constexpr size_t kMinVectorWriteBytes = 1024;

// Whether `value` is what `index` reads as a vector.
bool IsIndexedVector(const VectorIndexSchema& index, const AttributeValue& value) {
  return value.is<List>() && value.as<List>().size() == index.dimensions;
}

size_t BilledVectorSize(const VectorIndexSchema& index) {
  return index.vector_attribute.size() + 4 * static_cast<size_t>(index.dimensions);
}

}  // namespace

bool VectorIndexProjects(const TableSchema& schema, const VectorIndexSchema& index,
                         std::string_view name) {
  if (name == schema.hash_key().name || (schema.range_key() && name == schema.range_key()->name)) {
    return true;
  }
  for (const SearchSchemaElement& element : index.search_schema) {
    if (element.name == name) return true;
  }
  return ProjectionHolds(index.projection, name);
}

size_t BilledItemSize(const TableSchema& schema, const Item& item) {
  size_t size = ItemSize(item);
  std::set<std::string_view> billed;  // two indexes may read one attribute: billed once
  for (const VectorIndexSchema& index : schema.vector_indexes) {
    auto it = item.find(index.vector_attribute);
    if (it == item.end() || !IsIndexedVector(index, it->second)) continue;
    if (!billed.insert(index.vector_attribute).second) continue;
    size = size - (it->first.size() + AttributeSize(it->second)) + BilledVectorSize(index);
  }
  return size;
}

std::optional<size_t> VectorWriteBytes(const TableSchema& schema, const VectorIndexSchema& index,
                                       const Item& item) {
  if (!InVectorIndex(index, item)) return std::nullopt;
  size_t size = 0;
  for (const auto& [name, value] : item) {
    if (name == index.vector_attribute) {
      size += BilledVectorSize(index);
    } else if (VectorIndexProjects(schema, index, name)) {
      size += name.size() + AttributeSize(value);
    }
  }
  return std::max(size, kMinVectorWriteBytes);
}

bool VectorEntryChanges(const TableSchema& schema, const VectorIndexSchema& index, const Item* a,
                        const Item* b) {
  const bool in_a = a && InVectorIndex(index, *a);
  const bool in_b = b && InVectorIndex(index, *b);
  if (in_a != in_b) return true;
  if (!in_a) return false;
  auto held = [&](const Item& item) {
    Item entry;
    for (const auto& [name, value] : item) {
      if (name == index.vector_attribute || VectorIndexProjects(schema, index, name)) {
        entry.emplace(name, value);
      }
    }
    return entry;
  };
  return held(*a) != held(*b);
}

}  // namespace ddb::engine
