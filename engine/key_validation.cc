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

}  // namespace

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
  return Status::Ok();
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
  return Status::Ok();
}

Item ExtractKey(const TableSchema& schema, const Item& item) {
  Item key;
  for (const KeyElement* element : KeyElements(schema)) {
    key.emplace(element->name, item.find(element->name)->second);
  }
  return key;
}

}  // namespace ddb::engine
