#include "engine/vectors/vector_store.h"

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
// is picked at run time where the processor has it. Not under
// ThreadSanitizer: the clones' resolver runs before its runtime is ready,
// and the program dies at start.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
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

// Two 8-bit copies' dot product, exactly: 32-bit integer sums cannot
// overflow (4096 dimensions × 127² < 2³¹), and integer addition may be
// reordered, so the compiler turns this plain loop into packed
// multiply-adds.
DDB_VECTOR_CLONES
int32_t DotCodes(const int8_t* a, const int8_t* b, size_t n) {
  int32_t sum = 0;
  for (size_t i = 0; i < n; ++i) sum += int32_t(a[i]) * int32_t(b[i]);
  return sum;
}

// x as scale · code + residual, code in [-127, 127]: the scale and |residual|.
std::pair<float, double> QuantizeInto(const float* x, size_t n, int8_t* code) {
  float largest = 0;
  for (size_t i = 0; i < n; ++i) largest = std::max(largest, std::fabs(x[i]));
  float scale = largest / 127.0f;
  double residual = 0;
  for (size_t i = 0; i < n; ++i) {
    code[i] = scale == 0 ? 0 : static_cast<int8_t>(std::lround(std::clamp(x[i] / scale, -127.0f, 127.0f)));
    double d = double(x[i]) - double(scale) * double(code[i]);
    residual += d * d;
  }
  return {scale, std::sqrt(residual)};
}

// Components below which a second thread costs more than it saves.
constexpr size_t kParallelComponents = 4'000'000;

}  // namespace

VectorStore::VectorStore(uint32_t dimensions, DistanceFunction distance, size_t filter_count)
    : dimensions_(dimensions), distance_(distance), filter_count_(filter_count) {}

void VectorStore::Quantize(size_t index) {
  auto [scale, residual] = QuantizeInto(data_.data() + index * dimensions_, dimensions_,
                                        codes_.data() + index * dimensions_);
  scales_[index] = scale;
  residuals_[index] = residual;
}

void VectorStore::Upsert(const std::string& item_key, VectorRow row) {
  auto [it, fresh] = row_of_.try_emplace(item_key, keys_.size());
  size_t index = it->second;
  if (fresh) {
    keys_.push_back(item_key);
    data_.resize(data_.size() + dimensions_);
    codes_.resize(codes_.size() + dimensions_);
    norms_.push_back(0);
    scales_.push_back(0);
    residuals_.push_back(0);
    filters_.resize(filters_.size() + filter_count_);
  }
  float* target = data_.data() + index * dimensions_;
  std::copy(row.vector.begin(), row.vector.end(), target);
  norms_[index] = std::sqrt(Dot(target, target, dimensions_));
  Quantize(index);
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
    std::copy_n(codes_.data() + last * dimensions_, dimensions_, codes_.data() + index * dimensions_);
    norms_[index] = norms_[last];
    scales_[index] = scales_[last];
    residuals_[index] = residuals_[last];
    keys_[index] = std::move(keys_[last]);
    for (size_t f = 0; f < filter_count_; ++f) {
      filters_[index * filter_count_ + f] = std::move(filters_[last * filter_count_ + f]);
    }
    row_of_[keys_[index]] = index;
  }
  keys_.pop_back();
  data_.resize(last * dimensions_);
  codes_.resize(last * dimensions_);
  norms_.pop_back();
  scales_.pop_back();
  residuals_.pop_back();
  filters_.resize(last * filter_count_);
}

double VectorStore::Score(size_t index, const std::vector<float>& query, double query_norm) const {
  const float* row = data_.data() + index * dimensions_;
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
  // Every score as a cost, smaller being better: DOT_PRODUCT ranks descending.
  double sign = distance_ == DistanceFunction::kDotProduct ? -1.0 : 1.0;
  double query_square = query_norm * query_norm;
  // The query gets an 8-bit copy too, so the first pass is integer
  // arithmetic: with q = sq·cq + rq and x = sx·cx + rx,
  //   q·x = sq·sx·(cq·cx) + rq·(sx·cx) + q·rx,
  // and Cauchy-Schwarz bounds the last two terms by |rq|·(|x| + |rx|) and
  // |q|·|rx|.
  std::vector<int8_t> query_code(dimensions_);
  // (Plain variables: the lambdas below capture them, which Clang 14 does
  // not allow for structured bindings.)
  const std::pair<float, double> query_copy =
      QuantizeInto(query.data(), dimensions_, query_code.data());
  const double code_scale = double(query_copy.first);
  const double query_residual = query_copy.second;

  // [lowest, highest] cost row `i` can have, from the 8-bit copies.
  auto bounds = [&](size_t i) -> std::pair<double, double> {
    double approx = code_scale * double(scales_[i]) *
                    double(DotCodes(query_code.data(), codes_.data() + i * dimensions_,
                                    dimensions_));
    // The copies' error (Cauchy-Schwarz), and the double rounding of the
    // approximation and of the exact scores it is compared with.
    double error = query_norm * residuals_[i] + query_residual * (norms_[i] + residuals_[i]) +
                   1e-14 * (query_square + norms_[i] * norms_[i]) + 1e-300;
    double low_dot = approx - error;
    double high_dot = approx + error;
    switch (distance_) {
      case DistanceFunction::kDotProduct:
        return {-high_dot, -low_dot};
      case DistanceFunction::kCosine: {
        double norms = norms_[i] * query_norm;
        if (norms == 0) return {1.0, 1.0};
        return {1.0 - std::min(1.0, high_dot / norms), 1.0 - std::max(-1.0, low_dot / norms)};
      }
      case DistanceFunction::kEuclidean: {
        double base = query_square + norms_[i] * norms_[i];
        return {std::sqrt(std::max(0.0, base - 2 * high_dot)),
                std::sqrt(std::max(0.0, base - 2 * low_dot)) + 1e-9};
      }
    }
    return {0, 0};
  };
  bool filtered = std::any_of(filter.begin(), filter.end(), [](const auto& f) { return f.has_value(); });
  auto matches = [&](size_t i) {
    for (size_t f = 0; f < filter_count_; ++f) {
      if (filter[f] && filters_[i * filter_count_ + f] != *filter[f]) return false;
    }
    return true;
  };

  // First pass: each matching row's lowest cost, and the k smallest highest
  // costs (a max-heap), whose top bounds the k-th best cost from above.
  struct Pass {
    std::vector<std::pair<double, size_t>> lowest;  // (lowest cost, row)
    std::vector<double> highest;                    // heap of the k smallest

    void KeepHighest(double high, size_t k) {
      if (highest.size() < k) {
        highest.push_back(high);
        std::push_heap(highest.begin(), highest.end());
      } else if (high < highest.front()) {
        std::pop_heap(highest.begin(), highest.end());
        highest.back() = high;
        std::push_heap(highest.begin(), highest.end());
      }
    }
  };
  auto first_pass = [&](size_t begin, size_t end, Pass& pass) {
    for (size_t i = begin; i < end; ++i) {
      if (filtered && !matches(i)) continue;
      auto [low, high] = bounds(i);
      // Beyond what k rows seen so far surely beat: never a candidate (the
      // final threshold is no higher), and no better a bound.
      if (k > 0 && pass.highest.size() == k && low > pass.highest.front()) continue;
      pass.lowest.emplace_back(low, i);
      pass.KeepHighest(high, k);
    }
  };
  size_t rows = keys_.size();
  Pass pass;
  if (rows * dimensions_ >= 2 * kParallelComponents) {
    // Two halves at once, when the machine has a core to spare.
    Pass other;
    std::thread second([&] { first_pass(rows / 2, rows, other); });
    first_pass(0, rows / 2, pass);
    second.join();
    pass.lowest.insert(pass.lowest.end(), other.lowest.begin(), other.lowest.end());
    for (double high : other.highest) pass.KeepHighest(high, k);
  } else {
    first_pass(0, rows, pass);
  }
  if (pass.highest.empty()) return {};
  // Some k rows cost at most `threshold`, so every row of the exact top k
  // (ties included) has its lowest cost at or below it.
  double threshold = pass.highest.size() < k ? INFINITY : pass.highest.front();

  // Second pass: the candidates' exact scores; the best score first, then
  // the smaller key (by partition key, then sort key).
  struct Candidate {
    double score;
    size_t index;
  };
  std::vector<Candidate> candidates;
  for (const auto& [low, i] : pass.lowest) {
    if (low <= threshold) candidates.push_back({Score(i, query, query_norm), i});
  }
  auto better = [&](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return sign * a.score < sign * b.score;
    return KeyValuesOf(keys_[a.index]) < KeyValuesOf(keys_[b.index]);
  };
  size_t count = std::min(k, candidates.size());
  std::partial_sort(candidates.begin(), candidates.begin() + count, candidates.end(), better);
  std::vector<Hit> hits;
  hits.reserve(count);
  for (size_t i = 0; i < count; ++i) hits.push_back({candidates[i].score, keys_[candidates[i].index]});
  return hits;
}

}  // namespace ddb::engine
