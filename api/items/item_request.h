// The single-item request shape that PutItem, GetItem, UpdateItem,
// DeleteItem and the actions of TransactWriteItems / TransactGetItems share:
// reading and validating it, checking its condition inside the write, and
// computing an update's new item.
//
// Thread safety: pure functions; a ConditionCheck belongs to one request.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>

#include "api/errors.h"
#include "api/items/expression_request.h"
#include "api/json_reader.h"
#include "engine/database.h"

namespace ddb::api {

inline constexpr std::string_view kConditionFailed = "The conditional request failed";
// An update whose result is over the item size limit; DynamoDB answers it
// before evaluating the update's condition.
inline constexpr std::string_view kUpdateTooLarge =
    "Item size to update has exceeded the maximum allowed size";
// A PartiQL INSERT over an existing item.
inline constexpr std::string_view kDuplicateItem = "Duplicate primary key exists in table";

// kInsert: PartiQL's INSERT, a Put that fails on an existing item.
enum class ItemOp { kGet, kPut, kUpdate, kDelete, kConditionCheck, kInsert };

// What every single-item request carries once read and validated.
struct ItemRequest {
  std::string table;
  engine::Item attributes;  // Item for PutItem, Key otherwise
  std::string_view return_values = "NONE";
  bool old_item_on_failure = false;  // ReturnValuesOnConditionCheckFailure: ALL_OLD
  std::string_view return_consumed_capacity = "NONE";
  bool consistent = false;  // ConsistentRead (GetItem)
  bool item_collection_metrics = false;  // ReturnItemCollectionMetrics: SIZE
  // PartiQL's DELETE: the condition holds for an absent item (a no-op).
  bool condition_skips_absent_item = false;
  // UpdateItem's own size rule: the 400 KB limit also holds for what the
  // update writes plus a cost per action (UpdatedItem). A PartiQL UPDATE and
  // a transacted Update judge only the finished item (captured 2026-10).
  bool judges_update_writes = false;
  RequestExpressions expressions;
};

// Reads `request` as the `op` request; DynamoDB's validation errors.
// `member` places a transaction's action in their paths
// ("transactItems.2.member.update." + "tableName"), as DynamoDB does.
ApiResult<ItemRequest> ReadItemRequest(const rapidjson::Value& request, ItemOp op,
                                       std::string_view member = {});

// Checks the request's condition against the current item inside the write;
// on failure keeps the item for ReturnValuesOnConditionCheckFailure.
class ConditionCheck {
 public:
  explicit ConditionCheck(const ItemRequest& request) : request_(request) {}

  // Ok, or kConditionFailed ("The conditional request failed").
  engine::Status operator()(const engine::Item* current);

  // For Database::PutItem/DeleteItem: none without a condition.
  engine::Precondition Precondition();

  // The error for a failed write: the item rides along with a failed check.
  ApiError Error(const engine::Status& status);

  // The current item when the check failed and ALL_OLD was asked for.
  std::optional<engine::Item>& failed_item() { return failed_item_; }

 private:
  const ItemRequest& request_;
  std::optional<engine::Item> failed_item_;
};

// Writes `item`, projected when the request had a ProjectionExpression or
// AttributesToGet.
void WriteProjected(JsonWriter& w, const engine::Item& item,
                    const std::optional<engine::expr::Projection>& projection);

// What ReturnValues (NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW) asks
// an update to return; UPDATED_* project the paths the update writes.
std::optional<engine::Item> UpdateResult(std::string_view return_values,
                                         const std::optional<engine::Item>& old_item,
                                         const engine::Item& new_item,
                                         const RequestExpressions& expressions);

// The item an update produces from `current` (nullptr: absent), checked
// against the limits an update must respect.
engine::Result<engine::Item> UpdatedItem(const ItemRequest& request, const engine::Item* current);

// The write an update makes to `current` (nullptr: absent): the updated
// item, or none when the update only removes (REMOVE, DELETE from a set) and
// there is no item — DynamoDB then creates nothing, and even a nested REMOVE
// succeeds.
engine::Result<engine::Mutation> UpdateMutation(const ItemRequest& request,
                                                const engine::Item* current);

}  // namespace ddb::api
