#include "engine/key_validation.h"

namespace ddb::engine {
namespace {

constexpr std::string_view kKeyMismatch = "The provided key element does not match the schema";

std::vector<const KeyElement*> KeyElements(const TableSchema& schema) {
  std::vector<const KeyElement*> elements{&schema.hash_key()};
  if (const KeyElement* range = schema.range_key()) elements.push_back(range);
  return elements;
}

// DynamoDB rejects empty strings and binaries in key attributes.
Status CheckNotEmpty(const KeyElement& element, const AttributeValue& value) {
  if (!IsEmptyKeyValue(value)) return Status::Ok();
  return Status::InvalidArgument(
      std::string("One or more parameter values are not valid. The AttributeValue for a key "
                  "attribute cannot contain an empty ") +
      (value.is<Binary>() ? "binary" : "string") + " value. Key: " + element.name);
}

// The size limits on the table key values in `item` (absent ones count nothing).
Status CheckTableKeySizes(const TableSchema& schema, const Item& item) {
  auto value_of = [&](const KeyElement& element) -> const AttributeValue* {
    auto it = item.find(element.name);
    return it == item.end() ? nullptr : &it->second;
  };
  std::vector<const AttributeValue*> range;
  if (const KeyElement* element = schema.range_key()) range.push_back(value_of(*element));
  return CheckKeySizes({value_of(schema.hash_key())}, range);
}

}  // namespace

Status CheckKeySizes(const std::vector<const AttributeValue*>& hash_values,
                     const std::vector<const AttributeValue*>& range_values) {
  for (const AttributeValue* value : hash_values) {
    if (value && KeyValueBytes(*value) > kMaxHashKeyBytes) {
      // DynamoDB's text has no space before the number.
      return Status::InvalidArgument(
          "One or more parameter values were invalid: Size of hashkey has exceeded the maximum "
          "size limit of" + std::to_string(kMaxHashKeyBytes) + " bytes");
    }
  }
  size_t range_bytes = 0;
  for (const AttributeValue* value : range_values) {
    if (value) range_bytes += KeyValueBytes(*value);
  }
  if (range_bytes > kMaxRangeKeyBytes) {
    return Status::InvalidArgument(
        "One or more parameter values were invalid: Aggregated size of all range keys has "
        "exceeded the size limit of " + std::to_string(kMaxRangeKeyBytes) + " bytes");
  }
  return Status::Ok();
}

size_t KeyValueBytes(const AttributeValue& value) {
  if (value.is<std::string>()) return value.as<std::string>().size();
  if (value.is<Binary>()) return value.as<Binary>().bytes.size();
  return 0;
}

bool IsEmptyKeyValue(const AttributeValue& value) {
  return (value.is<std::string>() && value.as<std::string>().empty()) ||
         (value.is<Binary>() && value.as<Binary>().bytes.empty());
}

bool HasScalarType(const AttributeValue& value, ScalarType type) {
  switch (type) {
    case ScalarType::kS:
      return value.is<std::string>();
    case ScalarType::kN:
      return value.is<Number>();
    case ScalarType::kB:
      return value.is<Binary>();
  }
  return false;
}

std::string_view ScalarTypeName(ScalarType type) {
  switch (type) {
    case ScalarType::kS:
      return "S";
    case ScalarType::kN:
      return "N";
    case ScalarType::kB:
      return "B";
  }
  return "?";
}

Status ValidateKey(const TableSchema& schema, const Item& key) {
  auto elements = KeyElements(schema);
  if (key.size() != elements.size()) return Status::InvalidArgument(std::string(kKeyMismatch));
  for (const KeyElement* element : elements) {
    auto it = key.find(element->name);
    if (it == key.end() || !HasScalarType(it->second, element->type)) {
      return Status::InvalidArgument(std::string(kKeyMismatch));
    }
  }
  for (const KeyElement* element : elements) {
    DDB_RETURN_IF_ERROR(CheckNotEmpty(*element, key.find(element->name)->second));
  }
  return CheckTableKeySizes(schema, key);
}

Status ValidateItemKey(const TableSchema& schema, const Item& item) {
  for (const KeyElement* element : KeyElements(schema)) {
    auto it = item.find(element->name);
    if (it == item.end()) {
      return Status::InvalidArgument(
          "One or more parameter values were invalid: Missing the key " + element->name +
          " in the item");
    }
    if (!HasScalarType(it->second, element->type)) {
      return Status::InvalidArgument(
          "One or more parameter values were invalid: Type mismatch for key " + element->name +
          " expected: " + std::string(ScalarTypeName(element->type)) +
          " actual: " + std::string(TypeName(it->second.type())));
    }
    DDB_RETURN_IF_ERROR(CheckNotEmpty(*element, it->second));
  }
  return CheckTableKeySizes(schema, item);
}

Item ExtractKey(const TableSchema& schema, const Item& item) {
  Item key;
  for (const KeyElement* element : KeyElements(schema)) {
    key.emplace(element->name, item.find(element->name)->second);
  }
  return key;
}

}  // namespace ddb::engine
