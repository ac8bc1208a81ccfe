// The write half of DynamoDB transactions, shared by TransactWriteItems and
// PartiQL's ExecuteTransaction ("Amazon DynamoDB Transactions" in the
// developer guide): up to 100 actions over several tables, checked against
// their tables (keys, one action per item, 4 MB in all), idempotent under a
// ClientRequestToken, and run all or nothing by Database::TransactWrite,
// which holds every involved table's write lock and writes one batch.
//
// Thread safety: pure functions of the request; concurrency is the
// Database's.
#pragma once

#include <rapidjson/document.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/capacity.h"
#include "api/context.h"
#include "api/errors.h"
#include "api/items/item_request.h"
#include "api/json_reader.h"

namespace ddb::api {

// One action: what it does and the single-item request behind it.
struct TransactAction {
  ItemOp op = ItemOp::kPut;
  ItemRequest request;
  engine::Item key;  // the item's key (a Put's Item reduced to it), set by RunTransactWrite
};

// What a committed (or replayed) write transaction reports.
struct TransactWriteAnswer {
  std::map<std::string, std::shared_ptr<const engine::TableSchema>> schemas;  // by table
  TableCapacities consumed;
  ItemCollections collections;  // refers into `schemas`

  // Writes ConsumedCapacity (when `capacity_mode` asks) and
  // ItemCollectionMetrics (when any).
  void WriteTo(JsonWriter& w, std::string_view capacity_mode) const;
};

// Validates `actions`, honours `token` (whose request is identified by
// `fingerprint`) and runs them. The answer holds the consumed capacity when
// `capacity_mode` asks for it and, when `collection_metrics`, the item
// collections written. Failed conditions cancel the transaction
// (TransactionCanceledException with one reason per action:
// ConditionalCheckFailed, DuplicateItem for a PartiQL INSERT over an existing
// item, TransactionConflict, ValidationError).
ApiResult<TransactWriteAnswer> RunTransactWrite(Context& ctx, std::vector<TransactAction>& actions,
                                                std::optional<std::string_view> token,
                                                const std::string& fingerprint,
                                                std::string_view capacity_mode,
                                                bool collection_metrics);

// A transaction cancelled because action `index` of `count` is invalid:
// DynamoDB reports that one as ValidationError and the others as None.
ApiError CancelOnValidation(size_t count, size_t index, const engine::Status& status);

// A read transaction cancelled because the items flagged in `conflicts` are
// held by a transaction: TransactionConflict for those, None for the rest.
ApiError CancelOnConflicts(const std::vector<bool>& conflicts);

// `value` as JSON with object members sorted by name, so that two requests
// that differ only in member order have the same fingerprint.
std::string Fingerprint(const rapidjson::Value& value);

}  // namespace ddb::api
