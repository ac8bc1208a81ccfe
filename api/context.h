// What every operation handler receives: the engine — its data plane `db`
// and its other capabilities — and who is asking.
//
// Thread safety: a Context lives for one request on one thread; the Engine
// it points to is thread-safe.
#pragma once

#include <string>

#include "api/database_scope.h"
#include "engine/database.h"
#include "engine/engine.h"

namespace ddb::api {

// Identifies the caller's database and how ARNs are spelled for them.
struct Caller {
  std::string ns;      // engine namespace: "" when all callers share one database
  std::string region;  // from the request's SigV4 credential scope
  std::string host{};  // the Host the client reached (DescribeEndpoints answers it)
  std::string account_id = "000000000000";
  // How namespaces were chosen, so another region's database can be named
  // (a global table's replicas).
  DatabaseScope scope = DatabaseScope::kPerRegion;
  std::string access_key{};

  std::string NamespaceOfRegion(std::string_view other_region) const {
    return NamespaceOf(scope, access_key, other_region);
  }
};

class CapturedItems;
struct AccessRecord;

struct Context {
  engine::Engine& engine;
  engine::Database& db;  // engine.database(): what most operations use
  const Caller& caller;
  // The items read straight from the request's text (item_capture.h), when
  // its operation has any.
  CapturedItems* captured_items = nullptr;
  // The request's text, for the operations whose errors point into it.
  std::string_view body;
  // What the request read and wrote, for the access profile; null when it
  // is not kept (access_record.h).
  AccessRecord* record = nullptr;

  std::string TableArn(std::string_view table) const {
    return "arn:aws:dynamodb:" + caller.region + ":" + caller.account_id + ":table/" +
           std::string(table);
  }
  // Whether a setting changed at `changed_millis` still shows its transition
  // (ENABLING, DISABLING, …): for the server's transient-status delay.
  bool InTransition(int64_t changed_millis) const {
    return db.clock().NowMillis() < changed_millis + db.transient_status_millis();
  }
  // The KMS key an SSE specification without a key ARN gets.
  std::string DefaultKmsKeyArn() const {
    return "arn:aws:kms:" + caller.region + ":" + caller.account_id + ":key/localdynamo";
  }
};

}  // namespace ddb::api
