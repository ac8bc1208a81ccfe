// What an injected fault or the throttle needs to know of a DynamoDB request
// before it runs — its operation and the tables (and index) it names — and
// how to answer for part of a batch or transaction in DynamoDB's shapes:
// UnprocessedItems/UnprocessedKeys, TransactionCanceledException with one
// CancellationReason per action.
//
// Thread safety: pure functions over caller-owned documents.
#pragma once

#include <rapidjson/document.h>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/context.h"
#include "api/dispatch.h"

namespace ddb::emulator {

struct RequestShape {
  std::string operation;            // "PutItem", "GetRecords", …
  std::vector<std::string> tables;  // named tables (ARNs resolved); per action for transactions
  std::string index;                // Query/Scan IndexName
  bool batch = false;               // BatchWriteItem, BatchGetItem
  bool transaction = false;         // TransactWriteItems, TransactGetItems
  bool consumes = false;            // a data operation the throttle charges
  bool reads = false;               // ... on read capacity (else write)
};

// `target` is the X-Amz-Target header; `body` the parsed request.
RequestShape ShapeOf(std::string_view target, const rapidjson::Value& body);

// Runs the batch `body` with only the first N requests of each table that
// `kept` maps to N (0: none of them; tables it does not name run whole), and
// answers with the others added to UnprocessedItems (BatchWriteItem) or
// UnprocessedKeys (BatchGetItem). With nothing left to run, answers the
// empty result without running anything.
api::Response DispatchHoldingBack(engine::Engine& engine, const api::Caller& caller,
                                  std::string_view target, rapidjson::Document& body,
                                  const std::map<std::string, size_t>& kept);

// TransactionCanceledException for the transaction `body`: `code` and
// `message` for the actions on the `hit` tables, None for the others.
api::Response CancelTransaction(const rapidjson::Value& body, const std::set<std::string>& hit,
                                const std::string& code, const std::string& message);

// Serializes a document.
std::string ToJson(const rapidjson::Value& value);

}  // namespace ddb::emulator
