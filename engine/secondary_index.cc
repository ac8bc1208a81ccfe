#include "engine/secondary_index.h"

#include <algorithm>

#include "engine/coding.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"

namespace ddb::engine {

std::vector<const IndexSchema*> AllIndexes(const TableSchema& schema) {
  std::vector<const IndexSchema*> all;
  for (const auto& index : schema.local_indexes) all.push_back(&index);
  for (const auto& index : schema.global_indexes) all.push_back(&index);
  return all;
}

const IndexSchema* FindIndex(const TableSchema& schema, std::string_view name) {
  for (const IndexSchema* index : AllIndexes(schema)) {
    if (index->name == name) return index;
  }
  return nullptr;
}

std::vector<const KeyElement*> IndexKeyElements(const IndexSchema& index) {
  std::vector<const KeyElement*> elements;
  for (const auto& e : index.key.hash) elements.push_back(&e);
  for (const auto& e : index.key.range) elements.push_back(&e);
  return elements;
}

std::set<std::string> KeyAttributeNames(const TableSchema& schema) {
  std::set<std::string> names;
  auto use = [&](const KeySchema& key) {
    for (const auto& e : key.hash) names.insert(e.name);
    for (const auto& e : key.range) names.insert(e.name);
  };
  use(schema.key);
  for (const IndexSchema* index : AllIndexes(schema)) use(index->key);
  for (const VectorIndexSchema& index : schema.vector_indexes) {
    for (const SearchSchemaElement& element : index.search_schema) names.insert(element.name);
  }
  return names;
}

std::string IndexPrefix(uint64_t table_id, uint32_t index_id) {
  std::string out = TablePrefix(table_id);
  coding::PutFixed32BE(&out, index_id);
  return out;
}

std::string IndexPartitionPrefix(uint64_t table_id, const IndexSchema& index,
                                 const std::vector<const AttributeValue*>& hash_values) {
  std::string encoded;
  for (const AttributeValue* value : hash_values) AppendKeyValue(*value, &encoded);
  std::string out = IndexPrefix(table_id, index.index_id);
  coding::PutFixed64BE(&out, PartitionHash(encoded));
  out += encoded;
  return out;
}

namespace {

// The value of index key attribute `element` in `item`, or nullptr when it
// is absent, of another type or empty: such an item is not in the index
// (writes reject it; a backfill leaves it out).
const AttributeValue* IndexKeyValue(const Item& item, const KeyElement& element) {
  auto it = item.find(element.name);
  if (it == item.end() || !HasScalarType(it->second, element.type)) return nullptr;
  return IsEmptyKeyValue(it->second) ? nullptr : &it->second;
}

// The values of `elements` in `item`, nullptr for absent ones.
std::vector<const AttributeValue*> IndexKeyValues(const Item& item,
                                                  const std::vector<KeyElement>& elements) {
  std::vector<const AttributeValue*> values;
  for (const auto& element : elements) {
    auto it = item.find(element.name);
    values.push_back(it == item.end() ? nullptr : &it->second);
  }
  return values;
}

}  // namespace

std::optional<std::string> IndexEntryKey(const TableSchema& schema, const IndexSchema& index,
                                         const Item& item) {
  std::vector<const AttributeValue*> hash_values;
  for (const auto& element : index.key.hash) {
    const AttributeValue* value = IndexKeyValue(item, element);
    if (!value) return std::nullopt;
    hash_values.push_back(value);
  }
  std::vector<const AttributeValue*> range_values;
  for (const auto& element : index.key.range) {
    const AttributeValue* value = IndexKeyValue(item, element);
    if (!value) return std::nullopt;
    range_values.push_back(value);
  }
  // A GSI leaves items with oversized keys out (writes refuse them for an LSI).
  if (!CheckKeySizes(hash_values, range_values).ok()) return std::nullopt;
  std::string key = IndexPartitionPrefix(schema.table_id, index, hash_values);
  for (const AttributeValue* value : range_values) AppendKeyValue(*value, &key);
  AppendKeyValue(item.find(schema.hash_key().name)->second, &key);
  if (const KeyElement* range = schema.range_key()) {
    AppendKeyValue(item.find(range->name)->second, &key);
  }
  return key;
}

bool ProjectionHolds(const Projection& projection, std::string_view name) {
  const auto& extra = projection.non_key_attributes;
  switch (projection.type) {
    case ProjectionType::kAll:
      return true;
    case ProjectionType::kKeysOnly:
      return false;
    case ProjectionType::kInclude:
      return std::find(extra.begin(), extra.end(), name) != extra.end();
  }
  return false;
}

bool IndexProjects(const TableSchema& schema, const IndexSchema& index, std::string_view name) {
  if (index.projection.type == ProjectionType::kAll) return true;
  if (name == schema.hash_key().name) return true;
  if (schema.range_key() && name == schema.range_key()->name) return true;
  for (const KeyElement* element : IndexKeyElements(index)) {
    if (element->name == name) return true;
  }
  return ProjectionHolds(index.projection, name);
}

std::string UnprojectedNames(const TableSchema& schema, const IndexSchema& index,
                             const std::set<std::string>& names) {
  std::string missing;
  for (const std::string& name : names) {
    if (!IndexProjects(schema, index, name)) missing += (missing.empty() ? "" : ", ") + name;
  }
  return missing;
}

Item ProjectForIndex(const TableSchema& schema, const IndexSchema& index, const Item& item) {
  if (index.projection.type == ProjectionType::kAll) return item;
  Item projected;
  for (const auto& [name, value] : item) {
    if (IndexProjects(schema, index, name)) projected.emplace(name, value);
  }
  return projected;
}

Status EmptyIndexKeyError(std::string_view index, std::string_view key,
                          const AttributeValue& value) {
  return Status::InvalidArgument(
      "One or more parameter values are not valid. A value specified for a secondary index key "
      "is not supported. The AttributeValue for a key attribute cannot contain an empty " +
      std::string(value.is<Binary>() ? "binary" : "string") + " value. IndexName: " +
      std::string(index) + ", IndexKey: " + std::string(key));
}

Status CheckIndexKeysNotEmpty(const TableSchema& schema, const Item& item) {
  for (const IndexSchema* index : AllIndexes(schema)) {
    for (const KeyElement* element : IndexKeyElements(*index)) {
      auto it = item.find(element->name);
      if (it != item.end() && HasScalarType(it->second, element->type) &&
          IsEmptyKeyValue(it->second)) {
        return EmptyIndexKeyError(index->name, element->name, it->second);
      }
    }
  }
  return Status::Ok();
}

namespace {

// A write whose new item has a GSI key value over its limit is refused; only
// a backfill leaves such an item out of the index (TableChanges).
Status CheckGsiKeySizes(const IndexSchema& index, const Item& item) {
  for (auto [elements, limit] : {std::pair(&index.key.hash, kMaxHashKeyBytes),
                                 std::pair(&index.key.range, kMaxRangeKeyBytes)}) {
    for (const KeyElement& element : *elements) {
      auto it = item.find(element.name);
      size_t size = it == item.end() ? 0 : KeyValueBytes(it->second);
      if (size <= limit) continue;
      return Status::InvalidArgument(
          "One or more parameter values were invalid: Size limit exceeded for Index Key " +
          element.name + " Actual Size: " + std::to_string(size) + " bytes Max Size: " +
          std::to_string(limit) + " bytes IndexName: " + index.name);
    }
  }
  return Status::Ok();
}

}  // namespace

Status ValidateIndexKeys(const TableSchema& schema, const Item& item, bool by_update_expression) {
  for (const IndexSchema* index : AllIndexes(schema)) {
    for (const KeyElement* element : IndexKeyElements(*index)) {
      auto it = item.find(element->name);
      if (it == item.end()) continue;
      if (!HasScalarType(it->second, element->type)) {
        if (by_update_expression) {
          return Status::InvalidArgument(
              "The update expression attempted to update the secondary index key to unsupported "
              "type");
        }
        return Status::InvalidArgument(
            "One or more parameter values were invalid: Type mismatch for Index Key " +
            element->name + " Expected: " + std::string(ScalarTypeName(element->type)) +
            " Actual: " + std::string(TypeName(it->second.type())) + " IndexName: " +
            index->name);
      }
      if (IsEmptyKeyValue(it->second)) {
        return EmptyIndexKeyError(index->name, element->name, it->second);
      }
    }
    if (!index->is_local) {
      DDB_RETURN_IF_ERROR(CheckGsiKeySizes(*index, item));
    } else {
      DDB_RETURN_IF_ERROR(CheckKeySizes(IndexKeyValues(item, index->key.hash),
                                        IndexKeyValues(item, index->key.range)));
    }
  }
  return Status::Ok();
}

}  // namespace ddb::engine
