// VectorStore: one vector index's rows in memory — every vector in one
// contiguous f32 array — and exact nearest-neighbour search over them.
//
// Results are exact: the true nearest neighbours that DynamoDB's
// approximate search aims at, ties broken by the items' keys, so a test's
// expectations are deterministic. Scores are DynamoDB's: COSINE distance
// (1 − cosine similarity, 0..2, a zero vector scoring 1) and EUCLIDEAN
// distance ascending, DOT_PRODUCT descending; sums are taken in double.
//
// A search reads each row twice as fast as its f32s would allow: a first
// pass scores every row from an 8-bit copy of its vector against an 8-bit
// copy of the query (a quarter of the bytes, as exact integer multiply-adds)
// together with a bound on that score's error, which follows from the two
// copies' residual norms (Cauchy-Schwarz). Only rows whose best possible score could still reach the top K
// are then scored exactly from their f32s. So the answer is the exact one,
// whatever the quantization loses.
//
// The store is rebuilt from the index's persisted entries when first
// searched (vector_index.h), then kept in step by every write.
//
// Thread safety: not synchronized; the owner (VectorStoreHandle) guards it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/mutex.h"
#include "engine/thread_annotations.h"
#include "engine/vectors/vector_index.h"

namespace ddb::engine {

class VectorStore {
 public:
  VectorStore(uint32_t dimensions, DistanceFunction distance, size_t filter_count);

  // Adds or replaces the row of `item_key`.
  void Upsert(const std::string& item_key, VectorRow row);
  void Remove(const std::string& item_key);

  struct Hit {
    double score;
    std::string item_key;
  };
  // The `k` best rows whose filter values equal `filter`'s set ones (one per
  // search schema element; nullopt: any), best first.
  // REQUIRES: query.size() == dimensions.
  std::vector<Hit> Search(const std::vector<float>& query, size_t k,
                          const std::vector<std::optional<std::string>>& filter) const;

  size_t size() const { return keys_.size(); }

 private:
  // The exact score of row `index`.
  double Score(size_t index, const std::vector<float>& query, double query_norm) const;
  // Stores row `index`'s 8-bit copy, scale and residual norm.
  void Quantize(size_t index);

  const uint32_t dimensions_;
  const DistanceFunction distance_;
  const size_t filter_count_;
  std::vector<float> data_;                    // size() × dimensions_
  std::vector<double> norms_;                  // per row: the vector's length
  std::vector<int8_t> codes_;                  // size() × dimensions_: round(x / scale)
  std::vector<float> scales_;                  // per row: max |x| / 127
  std::vector<double> residuals_;              // per row: |x − scale · code|
  std::vector<std::string> keys_;              // per row
  std::vector<std::string> filters_;           // size() × filter_count_
  std::unordered_map<std::string, size_t> row_of_;
};

// A store and its lock, shared by the table's writers (which keep it in
// step) and searches.
struct VectorStoreHandle {
  VectorStoreHandle(uint32_t dimensions, DistanceFunction distance, size_t filter_count)
      : store(dimensions, distance, filter_count) {}
  mutable SharedMutex mu;
  VectorStore store GUARDED_BY(mu);
};

}  // namespace ddb::engine
