#include "engine/vectors/vector_search.h"

#include <algorithm>

#include "engine/items/item_reads.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"
#include "engine/vectors/vector_index.h"

namespace ddb::engine {
namespace {

// The search schema filter of `query.equals`: one encoded value per
// element (nullopt: any), or kInvalidArgument with DynamoDB's text.
struct Filter {
  std::vector<std::optional<std::string>> values;
  bool matches_nothing = false;  // `a = :x AND a = :y` with different values
};

Result<Filter> FilterOf(const VectorIndexSchema& index, const VectorQuery& query) {
  Filter result;
  auto& filter = result.values;
  filter.resize(index.search_schema.size());
  for (const auto& term : query.equals) {
    const std::string& name = term.first;
    const AttributeValue& value = term.second;
    auto element = std::find_if(index.search_schema.begin(), index.search_schema.end(),
                                [&](const SearchSchemaElement& e) { return e.name == name; });
    if (element == index.search_schema.end()) {
      return Status::InvalidArgument(
          "SearchConditionExpression must not contain any attributes that is not in "
          "SearchSchema. Invalid attribute: " + name);
    }
    if (!HasScalarType(value, element->scalar_type)) {
      return Status::InvalidArgument(
          "Type of '" + name + "' attribute in SearchConditionExpression (" +
          std::string(TypeName(value.type())) + ") does not match type in search schema (" +
          std::string(ScalarTypeName(element->scalar_type)) + ")");
    }
    if (element->type == SearchSchemaType::kHash && IsEmptyKeyValue(value)) {
      return Status::InvalidArgument(
          "One or more parameter values are not valid. The AttributeValue for a key attribute "
          "cannot contain an empty " + std::string(value.is<Binary>() ? "binary" : "string") +
          " value. Key: " + name);
    }
    std::string encoded;
    AppendKeyValue(value, &encoded);
    auto& slot = filter[element - index.search_schema.begin()];
    if (slot && *slot != encoded) result.matches_nothing = true;
    slot = std::move(encoded);
  }
  for (size_t i = 0; i < index.search_schema.size(); ++i) {
    if (index.search_schema[i].type == SearchSchemaType::kHash && !filter[i]) {
      return Status::InvalidArgument(
          query.equals.empty()
              ? "SearchConditionExpression must be provided when SearchSchema has a HASH key"
              : "Query condition missed key schema element: " + index.search_schema[i].name);
    }
  }
  return result;
}

}  // namespace

Result<std::shared_ptr<VectorStoreHandle>> VectorSearch::Load(
    TableState& state, const VectorIndexSchema& index) const {
  auto handle = std::make_shared<VectorStoreHandle>(index.dimensions, index.distance,
                                                    index.search_schema.size());
  std::string prefix = IndexPrefix(state.table_id, index.index_id);
  auto it = store_.NewIterator(Family::kIndexes, prefix, PrefixSuccessor(prefix));
  WriterLock lock(handle->mu);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto row = DecodeVectorRow(index, it->value());
    if (!row) return Status::Internal("stored vector index entry is corrupt");
    handle->store.Upsert(std::string(it->key().substr(prefix.size())), std::move(*row));
  }
  DDB_RETURN_IF_ERROR(it->status());
  return handle;
}

Result<VectorSearchResult> VectorSearch::Search(std::string_view ns, std::string_view table,
                                                const VectorQuery& query) const {
  auto found = tables_.Find(ns, table);
  if (!found) return ItemTableNotFound();
  TableState& state = *found;
  VectorSearchResult result;
  std::shared_ptr<VectorStoreHandle> handle;
  Filter filter;
  {
    MutexLock lock(state.write_mu);
    if (state.dropped) return ItemTableNotFound();
    result.schema = state.schema();
    const VectorIndexSchema* index = FindVectorIndex(*result.schema, query.index_name);
    if (!index) {
      return Status::InvalidArgument("The table does not have the specified index: " +
                                     query.index_name);
    }
    if (query.vector.size() != index->dimensions) {
      return Status::InvalidArgument("Input search vector dimension " +
                                     std::to_string(query.vector.size()) +
                                     " does not match vector index dimension " +
                                     std::to_string(index->dimensions));
    }
    auto checked = FilterOf(*index, query);
    if (!checked.ok()) return checked.status();
    filter = std::move(checked).value();
    result.index = index;
    auto& slot = state.vector_stores[index->index_id];
    if (!slot) {
      auto loaded = Load(state, *index);
      if (!loaded.ok()) {
        state.vector_stores.erase(index->index_id);
        return loaded.status();
      }
      slot = std::move(loaded).value();
    }
    handle = slot;
  }
  std::vector<VectorStore::Hit> hits;
  if (!filter.matches_nothing) {
    ReaderLock lock(handle->mu);
    hits = handle->store.Search(query.vector, query.top_k, filter.values);
  }
  result.hits.reserve(hits.size());
  for (const auto& hit : hits) {
    auto item = ReadItem(store_, hit.item_key);
    if (!item.ok()) return item.status();
    // An item deleted since the search ran is left out.
    if (*item) result.hits.push_back({std::move(**item), hit.score});
  }
  return result;
}

}  // namespace ddb::engine
