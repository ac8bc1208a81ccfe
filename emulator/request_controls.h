// The emulator's hand on DynamoDB requests: injected faults (fault_rules.h)
// and the throttle (throttle.h) applied around api::Dispatch. The server
// asks active() first and calls api::Dispatch directly when nothing is asked
// for, so a server without rules or throttle pays two relaxed atomic loads
// per request.
//
// Order for one request: a matching fault first (an error answers at once,
// in the request's shape: TransactionCanceledException for a transaction's
// cancellation-kind errors, UnprocessedItems/UnprocessedKeys for a batch's
// throttling errors; a dropped connection answers nothing; a delay lets the
// request run and holds its answer back), then the throttle, then the
// request itself, charged to the throttle afterwards.
//
// Thread safety: Dispatch may be called concurrently.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "api/context.h"
#include "api/dispatch.h"
#include "emulator/fault_rules.h"
#include "emulator/throttle.h"

namespace ddb::emulator {

struct ControlledResponse {
  api::Response response;
  int64_t delay_millis = 0;      // hold the answer back this long
  bool drop_connection = false;  // answer nothing; close the connection
};

class RequestControls {
 public:
  RequestControls(engine::Engine& engine, const engine::Clock& clock)
      : engine_(engine), throttle_(engine.database(), clock) {}

  FaultRules& faults() { return faults_; }
  Throttle& throttle() { return throttle_; }

  // Whether Dispatch would do anything api::Dispatch does not.
  bool active() const { return faults_.any() || throttle_.enabled(); }

  // With a `record`, as api::Dispatch's (a batch the throttle runs in part
  // is not recorded).
  ControlledResponse Dispatch(const api::Caller& caller, std::string_view target,
                              std::string_view body, api::AccessRecord* record = nullptr);

 private:
  api::Response Throttled(const api::Caller& caller, std::string_view target,
                          rapidjson::Document& doc, const RequestShape& shape,
                          api::AccessRecord* record);
  std::map<std::string, size_t> BatchRequestsThatFit(const api::Caller& caller,
                                                     const rapidjson::Value& doc,
                                                     const std::set<std::string>& admitted,
                                                     bool reads);

  engine::Engine& engine_;
  FaultRules faults_;
  Throttle throttle_;
};

}  // namespace ddb::emulator
