// TTL sweep cost against table size and the number of expired items, in one
// run, on the engine directly (in memory): a sweep finds its work through the
// TTL schedule, so its time should follow the expired items, not the table.
//
//   build/ttl_sweep_bench [items in the large table, default 1000000]
//
// Cases: 1,000 expired in a 10,000-item table; 1,000 expired in the large
// table; 10,000 expired in the large table. Each sweep also writes the
// REMOVE stream records and updates a GSI, as a real TTL delete does.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "engine/engine.h"

using namespace ddb::engine;

namespace {

AttributeValue Num(int64_t v) { return AttributeValue(Number::FromInt64(v)); }

TableSchema Schema(const std::string& name) {
  TableSchema schema;
  schema.name = name;
  schema.billing_mode = "PAY_PER_REQUEST";
  schema.key.hash.push_back({"pk", ScalarType::kS});
  schema.attribute_definitions.push_back({"pk", ScalarType::kS});
  schema.attribute_definitions.push_back({"g", ScalarType::kS});
  IndexSchema gsi;
  gsi.name = "byG";
  gsi.key.hash.push_back({"g", ScalarType::kS});
  schema.global_indexes.push_back(gsi);
  schema.stream.enabled = true;
  schema.stream.view_type = "NEW_AND_OLD_IMAGES";
  schema.ttl_attribute = "ttl";
  return schema;
}

// `items` items; the first `soon` expire at now+10 s, the next `later` at
// now+20 s, the rest never.
void Load(Database& db, const std::string& table, int64_t items, int64_t soon, int64_t later,
          int64_t now_seconds) {
  if (!db.CreateTable("", Schema(table)).ok()) std::abort();
  for (int64_t i = 0; i < items; ++i) {
    Item item{{"pk", AttributeValue("item-" + std::to_string(i))},
              {"g", AttributeValue("g" + std::to_string(i % 100))},
              {"payload", AttributeValue(std::string(100, 'x'))}};
    if (i < soon) item["ttl"] = Num(now_seconds + 10);
    else if (i < soon + later) item["ttl"] = Num(now_seconds + 20);
    if (!db.PutItem("", table, std::move(item)).ok()) std::abort();
  }
}

double SweepMillis(Engine& engine, size_t expect) {
  auto start = std::chrono::steady_clock::now();
  auto swept = engine.housekeeping().SweepExpired();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count();
  if (!swept.ok() || swept->size() != expect) {
    std::fprintf(stderr, "swept %zu, expected %zu\n", swept.ok() ? swept->size() : 0, expect);
    std::abort();
  }
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t large = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
  FakeClock clock;
  DatabaseOptions options;
  options.in_memory = true;
  auto engine = Engine::Open(options, clock);
  if (!engine.ok()) return 1;
  Database& db = (*engine)->database();
  int64_t now = clock.NowMillis() / 1000;
  auto load_start = std::chrono::steady_clock::now();
  Load(db, "small", 10'000, 1'000, 0, now);
  Load(db, "large", large, 1'000, 10'000, now + 100);
  double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  // Let RocksDB's background flushes and compactions settle, so that the
  // sweeps are measured against a quiet store.
  std::this_thread::sleep_for(std::chrono::seconds(10));

  clock.Advance(15'000);  // the small table's 1,000 are due
  double small_1k = SweepMillis(**engine, 1'000);
  clock.Advance(100'000);  // the large table's first 1,000 are due
  double large_1k = SweepMillis(**engine, 1'000);
  clock.Advance(10'000);  // and its 10,000
  double large_10k = SweepMillis(**engine, 10'000);
  double idle = SweepMillis(**engine, 0);

  std::printf("loaded %lld + 10000 items in %.1f s\n", static_cast<long long>(large), load_s);
  std::printf("case                                   sweep ms   per item us   ratio\n");
  std::printf("1,000 expired of 10,000 items        %9.1f   %11.1f    1.00\n", small_1k,
              small_1k * 1000 / 1000);
  std::printf("1,000 expired of %lld items    %9.1f   %11.1f    %.2f\n",
              static_cast<long long>(large), large_1k, large_1k * 1000 / 1000, large_1k / small_1k);
  std::printf("10,000 expired of %lld items   %9.1f   %11.1f    %.2f\n",
              static_cast<long long>(large), large_10k, large_10k * 1000 / 10000,
              large_10k / small_1k);
  std::printf("nothing due                          %9.3f\n", idle);
  return 0;
}
