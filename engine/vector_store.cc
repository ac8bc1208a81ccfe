#include "engine/vector_store.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <thread>

#include "engine/key_codec.h"

namespace ddb::engine {
namespace {

// The kernels take most of a search's time: one pass over every stored
// component. Eight independent double sums let the compiler vectorize them
// without reassociating floating-point additions; on x86-64 an AVX2 clone
// is picked at run time where the processor has it.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define DDB_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define DDB_VECTOR_CLONES
#endif

constexpr size_t kLanes = 8;

DDB_VECTOR_CLONES
double Dot(const float* a, const float* b, size_t n) {
  double sums[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) sums[j] += double(a[i + j]) * double(b[i + j]);
  }
  double total = 0;
  for (; i < n; ++i) total += double(a[i]) * double(b[i]);
  for (double s : sums) total += s;
  return total;
}

DDB_VECTOR_CLONES
double SquaredDistance(const float* a, const float* b, size_t n) {
  double sums[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) {
      double d = double(a[i + j]) - double(b[i + j]);
      sums[j] += d * d;
    }
  }
  double total = 0;
  for (; i < n; ++i) {
    double d = double(a[i]) - double(b[i]);
    total += d * d;
  }
  for (double s : sums) total += s;
  return total;
}

// Rows per thread below which a second thread costs more than it saves.
constexpr size_t kParallelComponents = 4'000'000;

}  // namespace

VectorStore::VectorStore(uint32_t dimensions, DistanceFunction distance, size_t filter_count)
    : dimensions_(dimensions), distance_(distance), filter_count_(filter_count) {}

void VectorStore::Upsert(const std::string& item_key, VectorRow row) {
  auto [it, fresh] = row_of_.try_emplace(item_key, keys_.size());
  size_t index = it->second;
  if (fresh) {
    keys_.push_back(item_key);
    data_.resize(data_.size() + dimensions_);
    norms_.push_back(0);
    filters_.resize(filters_.size() + filter_count_);
  }
  float* target = data_.data() + index * dimensions_;
  std::copy(row.vector.begin(), row.vector.end(), target);
  norms_[index] = std::sqrt(Dot(target, target, dimensions_));
  for (size_t f = 0; f < filter_count_; ++f) {
    filters_[index * filter_count_ + f] = std::move(row.filter_values[f]);
  }
}

void VectorStore::Remove(const std::string& item_key) {
  auto it = row_of_.find(item_key);
  if (it == row_of_.end()) return;
  size_t index = it->second;
  size_t last = keys_.size() - 1;
  row_of_.erase(it);
  if (index != last) {
    // The last row moves into the hole, so rows stay contiguous.
    std::copy_n(data_.data() + last * dimensions_, dimensions_, data_.data() + index * dimensions_);
    norms_[index] = norms_[last];
    keys_[index] = std::move(keys_[last]);
    for (size_t f = 0; f < filter_count_; ++f) {
      filters_[index * filter_count_ + f] = std::move(filters_[last * filter_count_ + f]);
    }
    row_of_[keys_[index]] = index;
  }
  keys_.pop_back();
  data_.resize(last * dimensions_);
  norms_.pop_back();
  filters_.resize(last * filter_count_);
}

double VectorStore::Score(const float* row, size_t index, const std::vector<float>& query,
                          double query_norm) const {
  switch (distance_) {
    case DistanceFunction::kDotProduct:
      return Dot(row, query.data(), dimensions_);
    case DistanceFunction::kEuclidean:
      // DynamoDB saturates at the largest float.
      return std::min(std::sqrt(SquaredDistance(row, query.data(), dimensions_)), double(FLT_MAX));
    case DistanceFunction::kCosine: {
      double norms = norms_[index] * query_norm;
      if (norms == 0) return 1.0;  // a zero vector is orthogonal to everything
      double similarity = std::clamp(Dot(row, query.data(), dimensions_) / norms, -1.0, 1.0);
      return 1.0 - similarity;
    }
  }
  return 0;
}

std::vector<VectorStore::Hit> VectorStore::Search(
    const std::vector<float>& query, size_t k,
    const std::vector<std::optional<std::string>>& filter) const {
  double query_norm = std::sqrt(Dot(query.data(), query.data(), dimensions_));
  bool descending = distance_ == DistanceFunction::kDotProduct;
  struct Candidate {
    double score;
    size_t index;
  };
  // `a` ranks before `b`: the better score, then the smaller key (by
  // partition key, then sort key).
  auto better = [&](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return descending ? a.score > b.score : a.score < b.score;
    return KeyValuesOf(keys_[a.index]) < KeyValuesOf(keys_[b.index]);
  };
  // Keeps the k best candidates offered in a heap whose top is the worst.
  auto offer = [&](std::vector<Candidate>& heap, const Candidate& c) {
    if (heap.size() < k) {
      heap.push_back(c);
      std::push_heap(heap.begin(), heap.end(), better);
    } else if (better(c, heap.front())) {
      std::pop_heap(heap.begin(), heap.end(), better);
      heap.back() = c;
      std::push_heap(heap.begin(), heap.end(), better);
    }
  };
  bool filtered = std::any_of(filter.begin(), filter.end(), [](const auto& f) { return f.has_value(); });
  auto scan = [&](size_t begin, size_t end, std::vector<Candidate>& heap) {
    for (size_t i = begin; i < end; ++i) {
      if (filtered) {
        bool match = true;
        for (size_t f = 0; f < filter_count_ && match; ++f) {
          match = !filter[f] || filters_[i * filter_count_ + f] == *filter[f];
        }
        if (!match) continue;
      }
      offer(heap, Candidate{Score(data_.data() + i * dimensions_, i, query, query_norm), i});
    }
  };
  size_t rows = keys_.size();
  std::vector<Candidate> best;
  if (rows * dimensions_ >= 2 * kParallelComponents) {
    // Two halves at once: a search over a large store is bound by memory
    // bandwidth, which one core does not use up.
    std::vector<Candidate> other;
    std::thread second([&] { scan(rows / 2, rows, other); });
    scan(0, rows / 2, best);
    second.join();
    for (const Candidate& c : other) offer(best, c);
  } else {
    scan(0, rows, best);
  }
  std::sort_heap(best.begin(), best.end(), better);
  std::vector<Hit> hits;
  hits.reserve(best.size());
  for (const Candidate& c : best) hits.push_back({c.score, keys_[c.index]});
  return hits;
}

}  // namespace ddb::engine
