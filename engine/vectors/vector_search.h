// VectorSearch: SearchVectors' engine side — finds a vector index, loads
// its rows into memory on first use (vector_store.h), checks the search
// against the index, and reads the items of the best rows.
//
// State: the loaded stores live in each TableState (vector_stores), kept
// in step by the write path and dropped with their index.
// Lock: the table's write_mu to find or load the index's store, then the
// store's handle `mu` (shared) for the search; never both at once.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/tables/table_registry.h"
#include "engine/tables/table_state.h"
#include "engine/thread_annotations.h"
#include "engine/vectors/vector_store.h"

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

class VectorSearch {
 public:
  VectorSearch(const Store& store, const TableRegistry& tables) : store_(store), tables_(tables) {}

  // The `query.top_k` items nearest `query.vector` in a vector index, best
  // first, among those whose search schema attributes equal `query.equals`.
  // kNotFound for a missing table; kInvalidArgument with DynamoDB's text
  // for an unknown or backfilling index, a vector of the wrong dimension, or
  // a condition the index's search schema does not allow.
  Result<VectorSearchResult> Search(std::string_view ns, std::string_view table,
                                    const VectorQuery& query) const;

 private:
  // The rows of a vector index, read from its entries.
  Result<std::shared_ptr<VectorStoreHandle>> Load(TableState& state,
                                                  const VectorIndexSchema& index) const
      REQUIRES(state.write_mu);

  const Store& store_;
  const TableRegistry& tables_;
};

}  // namespace ddb::engine
