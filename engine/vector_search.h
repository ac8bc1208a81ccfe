// SearchVectors' engine side: the question and the answer of
// Database::SearchVectors (vector_search.cc).
//
// Thread safety: plain values.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog.h"

namespace ddb::engine {

struct VectorQuery {
  std::string index_name;
  std::vector<float> vector;
  size_t top_k = 0;
  // SearchConditionExpression's `attribute = value` terms.
  std::vector<std::pair<std::string, AttributeValue>> equals;
};

struct VectorHit {
  Item item;  // the whole item; the caller projects it
  double score;
};

struct VectorSearchResult {
  // The table's schema the search ran against: the index's projection and
  // vector attribute, for the caller's projection.
  std::shared_ptr<const TableSchema> schema;
  const VectorIndexSchema* index = nullptr;  // in *schema
  std::vector<VectorHit> hits;                // best first
};

}  // namespace ddb::engine
