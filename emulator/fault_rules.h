// Injected faults: rules a test adds through the admin API (or a file at
// startup) so that matching DynamoDB requests fail the way production ones
// sometimes do.
//
// A rule, as JSON:
//   {"Namespace": "AKID/us-east-1",        the database (--per-key-databases);
//                                          absent: the shared one
//    "Operations": ["PutItem", …],          absent: every operation
//    "Tables": ["Orders", …],               absent: any table
//    one action:
//      "Error": {"Type": "ProvisionedThroughputExceededException",
//                "Status": 400, "Message": "…", "CancellationCode": "…"}
//      | "DelayMillis": n                   answer n ms late (the request runs)
//      | "DropConnection": true             close the connection, no answer
//                                           (the request does not run)
//      | "DropAnswer": true                 run the request, then close the
//                                           connection without its answer
//    when (both optional; neither: every matching request):
//      "Count": n                           the next n matching requests
//      "Probability": p, "Seed": s          each with probability p, drawn
//                                           from a generator seeded with s,
//                                           so a run repeats}
// Listed rules add "Id", "Applied" and, with a Count, "Remaining"; a rule
// whose count is used up is gone.
//
// Thread safety: every member may be called concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"
#include "api/json_reader.h"
#include "emulator/request_shape.h"

namespace ddb::emulator {

// What one matching rule does to one request.
struct Fault {
  // kDropAnswer makes an "unknown but applied" outcome on purpose: the
  // client cannot tell it from kDrop, the data can.
  enum class Kind { kError, kDelay, kDrop, kDropAnswer };
  Kind kind = Kind::kError;
  std::string type;  // kError: the short error type
  int status = 400;
  std::string message;           // empty: DynamoDB's text for the type
  std::string cancellation_code;  // empty: api::CancellationCodeFor(type)
  int64_t delay_millis = 0;
  std::vector<std::string> tables;  // the rule's tables; empty: all
};

class FaultRules {
 public:
  // Adds one rule (the format above); answers it as listed.
  api::ApiResult<std::string> Add(std::string_view json);
  // Adds every rule of a JSON list (a --faults file); answers how many.
  api::ApiResult<size_t> AddAll(std::string_view json);
  // {"Rules": [...]} in the order added.
  std::string ListJson() const;
  // Removes every rule (of `ns` when given); answers how many.
  size_t Clear(const std::optional<std::string>& ns);
  bool Remove(int64_t id);

  // Whether any rule exists: the one check a request pays when none does.
  bool any() const { return count_.load(std::memory_order_relaxed) > 0; }

  // The first rule that matches a request of database `ns` and decides to
  // fire (a Count is used up, a probability drawn), or nothing.
  std::optional<Fault> Match(std::string_view ns, const RequestShape& shape);

 private:
  struct Rule {
    int64_t id = 0;
    std::string ns;
    std::vector<std::string> operations;
    Fault fault;
    std::optional<int64_t> remaining;
    std::optional<double> probability;
    uint64_t seed = 0;
    std::mt19937_64 random;
    uint64_t applied = 0;
  };
  static api::ApiResult<Rule> Parse(const rapidjson::Value& json);
  static void WriteRule(api::JsonWriter& w, const Rule& rule);
  std::string AddLocked(Rule rule);

  mutable std::mutex mu_;
  std::list<Rule> rules_;  // guarded by mu_
  int64_t next_id_ = 1;    // guarded by mu_
  std::atomic<size_t> count_{0};
};

}  // namespace ddb::emulator
