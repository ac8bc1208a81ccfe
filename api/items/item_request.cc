#include "api/items/item_request.h"

#include <algorithm>
#include <set>

#include "api/attribute_json.h"
#include "api/json_reader.h"
#include "engine/expression/document_path.h"
#include "engine/expression/evaluate.h"
#include "engine/expression/update.h"

namespace ddb::api {
namespace {

namespace expr = engine::expr;
using engine::Item;
using engine::Status;

// DynamoDB's UpdateItem judges the 400 KB limit on what the update writes:
// the bytes of the top-level attributes its SET and ADD actions write plus a
// cost per action (3, then 19 per SET or ADD, 2 per REMOVE or DELETE, 1 more
// per SET of a list element) must stay within the limit too, as must the
// whole new item. An empirical model of captured answers, independent of
// placeholder names and values.
bool UpdateWritesTooMuch(const expr::Update& update, const Item& item) {
  size_t cost = 3;
  std::set<std::string_view> written;
  for (const auto& action : update.actions) {
    bool writes = action.kind == expr::UpdateAction::Kind::kSet ||
                  action.kind == expr::UpdateAction::Kind::kAdd;
    cost += writes ? 19 : 2;
    if (!writes) continue;
    const auto& elements = action.path.elements;
    if (action.kind == expr::UpdateAction::Kind::kSet &&
        std::any_of(elements.begin(), elements.end(), [](const auto& e) { return e.is_index; })) {
      cost += 1;
    }
    written.insert(elements.front().name);
  }
  size_t bytes = cost;
  for (std::string_view name : written) {
    auto it = item.find(std::string(name));
    if (it != item.end()) bytes += name.size() + engine::AttributeSize(it->second);
  }
  return bytes > engine::kMaxItemBytes || engine::ItemSize(item) > engine::kMaxItemBytes;
}

ExpressionSpec SpecFor(ItemOp op) {
  switch (op) {
    case ItemOp::kGet: return {.projection = true};
    case ItemOp::kUpdate: return {.update = true, .condition = true};
    default: return {.condition = true};  // Put, Delete, ConditionCheck
  }
}

}  // namespace

ApiResult<ItemRequest> ReadItemRequest(const rapidjson::Value& request, ItemOp op,
                                       std::string_view member) {
  bool writes = op != ItemOp::kGet;
  auto at = [member](std::string_view path) { return std::string(member) + std::string(path); };
  RequestReader r(request);
  auto table = r.String("TableName");
  const rapidjson::Value* attributes_json = r.Object(op == ItemOp::kPut ? "Item" : "Key");
  auto return_values = r.String("ReturnValues");
  auto on_failure = r.String("ReturnValuesOnConditionCheckFailure");
  auto consumed = r.String("ReturnConsumedCapacity");
  auto metrics = r.String("ReturnItemCollectionMetrics");
  auto consistent = r.Bool("ConsistentRead");  // reads are always consistent; capacity differs
  auto conditional_operator =
      writes && member.empty() ? r.String("ConditionalOperator") : std::nullopt;
  if (r.failed()) return r.error();

  // Every violation is reported, in the order DynamoDB lists them: captured
  // for the enums of PutItem (ReturnValues, ReturnConsumedCapacity,
  // ReturnItemCollectionMetrics), DeleteItem (ReturnValues,
  // ReturnConsumedCapacity), for PutItem's ReturnValues before its
  // TableName, and for UpdateItem's ReturnConsumedCapacity, TableName,
  // ReturnValues, ConditionalOperator and Key (2026-10); the places of the
  // members no capture shows together are inferred.
  Constraints constraints;
  auto check_return_values = [&] {
    if (writes) {
      constraints.Enum(return_values, at("returnValues"),
                       {"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"});
    }
  };
  auto check_consumed = [&] {
    constraints.Enum(consumed, at("returnConsumedCapacity"), {"INDEXES", "TOTAL", "NONE"});
  };
  auto check_table = [&] { constraints.TableNameOrArn(table, at("tableName")); };
  if (op == ItemOp::kUpdate) {
    check_consumed();
    check_table();
    check_return_values();
  } else if (writes) {
    check_return_values();
    check_consumed();
  }
  if (writes) {
    constraints.Enum(metrics, at("returnItemCollectionMetrics"), {"SIZE", "NONE"});
    constraints.Enum(on_failure, at("returnValuesOnConditionCheckFailure"), {"ALL_OLD", "NONE"});
  }
  if (op != ItemOp::kUpdate) check_table();
  if (!writes) check_consumed();
  // The legacy Expected's operator (ReadLegacy checks it again with the
  // rest of the legacy parameters); a transaction's actions have none.
  constraints.Enum(conditional_operator, "conditionalOperator", {"OR", "AND"});
  constraints.NotNull(attributes_json != nullptr, at(op == ItemOp::kPut ? "item" : "key"));
  if (!constraints.empty()) return constraints.ToError();

  ItemRequest parsed;
  parsed.table = TableNameFromArn(*table);
  if (writes && return_values) parsed.return_values = *return_values;
  if (consumed) parsed.return_consumed_capacity = *consumed;
  parsed.consistent = consistent.value_or(false);
  parsed.item_collection_metrics = writes && metrics == "SIZE";
  parsed.old_item_on_failure = on_failure == "ALL_OLD";
  if ((op == ItemOp::kPut || op == ItemOp::kDelete) && parsed.return_values != "NONE" &&
      parsed.return_values != "ALL_OLD") {
    // Bare in the 2026-08 captures (an older one had DeleteItem's enveloped).
    return ApiError::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  auto expressions = ReadExpressions(request, SpecFor(op));
  if (!expressions.ok()) return expressions.take_error();
  parsed.expressions = std::move(expressions).value();
  auto attributes = ParseItem(*attributes_json);
  if (!attributes.ok()) return attributes.take_error();
  parsed.attributes = std::move(attributes).value();
  return parsed;
}

engine::Result<Item> UpdatedItem(const ItemRequest& request, const Item* current) {
  const Item& key = request.attributes;
  Item item = current ? *current : key;
  if (!request.expressions.update) return item;
  std::vector<std::string> key_names;
  for (const auto& [name, _] : key) key_names.push_back(name);
  const expr::Update& update = *request.expressions.update;
  DDB_RETURN_IF_ERROR(expr::CheckUpdate(update, key_names));
  Status applied = expr::ApplyUpdate(update, &item);
  if (!applied.ok()) {
    // AttributeUpdates reports a runtime type clash in the legacy words.
    if (request.expressions.legacy_update &&
        applied.message() == "An operand in the update expression has an incorrect data type") {
      return Status::InvalidArgument("Type mismatch for attribute to update");
    }
    return applied;
  }
  for (const auto& [_, value] : item) {
    if (engine::NestingDepth(value) >= engine::kMaxNestingDepth) {
      return Status::InvalidArgument(std::string(kNestingTooDeep));
    }
  }
  if (request.judges_update_writes ? UpdateWritesTooMuch(update, item)
                                    : engine::ItemSize(item) > engine::kMaxItemBytes) {
    return Status::InvalidArgument(std::string(kUpdateTooLarge));
  }
  return item;
}

engine::Result<engine::Mutation> UpdateMutation(const ItemRequest& request, const Item* current) {
  const auto& update = request.expressions.update;
  if (!current && update && expr::RemovesOnly(*update)) {
    std::vector<std::string> key_names;
    for (const auto& [name, _] : request.attributes) key_names.push_back(name);
    DDB_RETURN_IF_ERROR(expr::CheckUpdate(*update, key_names));
    return engine::Mutation{engine::Mutation::Kind::kNone, {}};
  }
  auto updated = UpdatedItem(request, current);
  if (!updated.ok()) return updated.status();
  return engine::Mutation{engine::Mutation::Kind::kPut, std::move(updated).value()};
}

std::optional<Item> UpdateResult(std::string_view return_values, const std::optional<Item>& old_item,
                                 const Item& new_item, const RequestExpressions& expressions) {
  if (return_values == "ALL_OLD") return old_item;
  if (return_values == "ALL_NEW") return new_item;
  if (return_values == "NONE" || !expressions.update) return std::nullopt;
  auto paths = expr::UpdatedPaths(*expressions.update);
  if (return_values == "UPDATED_NEW") return expr::Project(new_item, paths);
  if (!old_item) return std::nullopt;
  return expr::Project(*old_item, paths);
}

void WriteProjected(JsonWriter& w, const Item& item,
                    const std::optional<expr::Projection>& projection) {
  WriteItem(w, projection ? expr::Project(item, *projection) : item);
}

Status ConditionCheck::operator()(const Item* current) {
  const auto& condition = request_.expressions.condition;
  if (!condition || (!current && request_.condition_skips_absent_item) ||
      expr::EvaluateCondition(*condition, current)) {
    return Status::Ok();
  }
  if (current && request_.old_item_on_failure) failed_item_ = *current;
  return Status::ConditionFailed(std::string(kConditionFailed));
}

engine::Precondition ConditionCheck::Precondition() {
  if (!request_.expressions.condition) return nullptr;
  return [this](const Item* current) { return (*this)(current); };
}

ApiError ConditionCheck::Error(const Status& status) {
  ApiError error = FromStatus(status);
  if (status.code() == Status::Code::kConditionFailed) error.item = std::move(failed_item_);
  return error;
}

}  // namespace ddb::api
