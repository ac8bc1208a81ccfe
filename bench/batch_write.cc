// The server's CPU cost of loading 768-dimension embeddings with
// BatchWriteItem, without HTTP or a client: request bodies shaped as
// bench/vector_search.py sends them go through api::Dispatch against an
// in-memory database with a COSINE vector index, on one thread. Prints
// microseconds of CPU per item, which bounds the load rate that
// bench/vector_search.py can reach per core.
//
//   build/batch_write_bench [items, default 20000]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "api/dispatch.h"
#include "engine/clock.h"
#include "engine/engine.h"

using namespace ddb;

namespace {

constexpr int kDimensions = 768;
constexpr int kPool = 1000;  // distinct vectors, reused

std::string Vector(std::mt19937& rng) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::string out = "{\"L\":[";
  char number[32];
  for (int d = 0; d < kDimensions; ++d) {
    std::snprintf(number, sizeof number, "%s{\"N\":\"%.6f\"}", d ? "," : "", uniform(rng));
    out += number;
  }
  return out + "]}";
}

std::string BatchBody(const std::vector<std::string>& pool, int first, int count) {
  std::string body = "{\"RequestItems\":{\"embeddings\":[";
  for (int i = first; i < first + count; ++i) {
    if (i > first) body += ",";
    body += "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"item-" + std::to_string(i) +
            "\"},\"embedding\":" + pool[i % kPool] + "}}}";
  }
  return body + "]}}";
}

void Must(const api::Response& response) {
  if (response.http_status != 200) {
    std::fprintf(stderr, "%s\n", response.body.c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int items = argc > 1 ? std::atoi(argv[1]) : 20000;
  engine::SystemClock clock;
  auto engine = engine::Engine::Open({.in_memory = true}, clock);
  if (!engine.ok()) return 1;
  api::Caller caller;
  Must(api::Dispatch(**engine, caller, "DynamoDB_20120810.CreateTable", R"({
    "TableName": "embeddings", "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "VectorIndexes": [{"IndexName": "by-embedding",
      "VectorAttribute": {"AttributeName": "embedding"}, "Dimensions": 768,
      "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"}}]})"));
  std::mt19937 rng(5);
  std::vector<std::string> pool;
  for (int i = 0; i < kPool; ++i) pool.push_back(Vector(rng));
  std::vector<std::string> bodies;
  for (int first = 0; first < items; first += 25) {
    bodies.push_back(BatchBody(pool, first, std::min(25, items - first)));
  }
  std::clock_t cpu = std::clock();
  auto wall = std::chrono::steady_clock::now();
  for (const std::string& body : bodies) {
    Must(api::Dispatch(**engine, caller, "DynamoDB_20120810.BatchWriteItem", body));
  }
  double cpu_us = double(std::clock() - cpu) / CLOCKS_PER_SEC * 1e6;
  double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  std::printf("%d items: %.0f us of CPU per item, %.0f items/s on one thread\n", items,
              cpu_us / items, items / wall_s);
}
