// PutItem, GetItem, UpdateItem, DeleteItem.
#include "api/attribute_json.h"
#include "api/expression_request.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "engine/expression/document_path.h"
#include "engine/expression/evaluate.h"
#include "engine/expression/update.h"

namespace ddb::api {
namespace {

namespace expr = engine::expr;
using engine::Item;
using engine::Status;

constexpr std::string_view kConditionFailed = "The conditional request failed";

enum class ItemOp { kGet, kPut, kUpdate, kDelete };

// What every single-item request carries once read and validated.
struct ItemRequest {
  std::string table;
  Item attributes;  // Item for PutItem, Key otherwise
  std::string_view return_values = "NONE";
  bool old_item_on_failure = false;  // ReturnValuesOnConditionCheckFailure: ALL_OLD
  RequestExpressions expressions;
};

ExpressionSpec SpecFor(ItemOp op) {
  switch (op) {
    case ItemOp::kGet: return {.projection = true};
    case ItemOp::kUpdate: return {.update = true, .condition = true};
    default: return {.condition = true};
  }
}

ApiResult<ItemRequest> ReadItemRequest(const rapidjson::Value& request, ItemOp op) {
  bool writes = op != ItemOp::kGet;
  RequestReader r(request);
  auto table = r.String("TableName");
  const rapidjson::Value* attributes_json = r.Object(op == ItemOp::kPut ? "Item" : "Key");
  auto return_values = r.String("ReturnValues");
  auto on_failure = r.String("ReturnValuesOnConditionCheckFailure");
  auto consumed = r.String("ReturnConsumedCapacity");
  auto metrics = r.String("ReturnItemCollectionMetrics");
  r.Bool("ConsistentRead");  // every read here is consistent
  if (r.failed()) return r.error();

  Constraints constraints;
  constraints.TableName(table);
  if (writes) {
    constraints.Enum(return_values, "returnValues",
                     {"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"});
    constraints.Enum(metrics, "returnItemCollectionMetrics", {"SIZE", "NONE"});
    constraints.Enum(on_failure, "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  }
  constraints.Enum(consumed, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  constraints.NotNull(attributes_json != nullptr, op == ItemOp::kPut ? "item" : "key");
  if (!constraints.empty()) return constraints.ToError();

  ItemRequest parsed;
  parsed.table = std::string(*table);
  if (writes && return_values) parsed.return_values = *return_values;
  parsed.old_item_on_failure = on_failure == "ALL_OLD";
  if ((op == ItemOp::kPut || op == ItemOp::kDelete) && parsed.return_values != "NONE" &&
      parsed.return_values != "ALL_OLD") {
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

// Checks the request's condition against the current item inside the write;
// on failure keeps the item for ReturnValuesOnConditionCheckFailure.
class ConditionCheck {
 public:
  explicit ConditionCheck(const ItemRequest& request) : request_(request) {}

  Status operator()(const Item* current) {
    const auto& condition = request_.expressions.condition;
    if (!condition || expr::EvaluateCondition(*condition, current)) return Status::Ok();
    if (current && request_.old_item_on_failure) failed_item_ = *current;
    return Status::ConditionFailed(std::string(kConditionFailed));
  }

  // For Database::PutItem/DeleteItem: none without a condition.
  engine::Precondition Precondition() {
    if (!request_.expressions.condition) return nullptr;
    return [this](const Item* current) { return (*this)(current); };
  }

  // The error for a failed write: the item rides along with a failed check.
  ApiError Error(const Status& status) {
    ApiError error = FromStatus(status);
    if (status.code() == Status::Code::kConditionFailed) error.item = std::move(failed_item_);
    return error;
  }

 private:
  const ItemRequest& request_;
  std::optional<Item> failed_item_;
};

std::string RenderAttributes(const std::optional<Item>& attributes) {
  return RenderObject([&](JsonWriter& w) {
    if (!attributes || attributes->empty()) return;
    w.Key("Attributes");
    WriteItem(w, *attributes);
  });
}

// What ReturnValues asks UpdateItem to return.
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

// The item an update produces from `current` (nullptr: absent), checked
// against the limits an update must respect.
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
      return Status::InvalidArgument(
          "Nesting Levels have exceeded supported limits: Attributes in the item have nested "
          "levels beyond supported limit");
    }
  }
  if (engine::ItemSize(item) > engine::kMaxItemBytes) {
    return Status::InvalidArgument("Item size to update has exceeded the maximum allowed size");
  }
  return item;
}

}  // namespace

ApiResult<std::string> PutItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadItemRequest(request, ItemOp::kPut);
  if (!parsed.ok()) return parsed.take_error();
  ConditionCheck check(*parsed);
  auto old_item =
      ctx.db.PutItem(ctx.caller.ns, parsed->table, parsed->attributes, check.Precondition());
  if (!old_item.ok()) return check.Error(old_item.status());
  return RenderAttributes(parsed->return_values == "ALL_OLD" ? *old_item : std::nullopt);
}

ApiResult<std::string> DeleteItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadItemRequest(request, ItemOp::kDelete);
  if (!parsed.ok()) return parsed.take_error();
  ConditionCheck check(*parsed);
  auto old_item =
      ctx.db.DeleteItem(ctx.caller.ns, parsed->table, parsed->attributes, check.Precondition());
  if (!old_item.ok()) return check.Error(old_item.status());
  return RenderAttributes(parsed->return_values == "ALL_OLD" ? *old_item : std::nullopt);
}

ApiResult<std::string> UpdateItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadItemRequest(request, ItemOp::kUpdate);
  if (!parsed.ok()) return parsed.take_error();
  ConditionCheck check(*parsed);
  Item new_item;
  auto planner = [&](const Item* current) -> engine::Result<engine::Mutation> {
    DDB_RETURN_IF_ERROR(check(current));
    auto updated = UpdatedItem(*parsed, current);
    if (!updated.ok()) return updated.status();
    new_item = std::move(updated).value();
    return engine::Mutation{engine::Mutation::Kind::kPut, new_item};
  };
  auto old_item = ctx.db.WriteItem(ctx.caller.ns, parsed->table, parsed->attributes, planner);
  if (!old_item.ok()) return check.Error(old_item.status());
  return RenderAttributes(
      UpdateResult(parsed->return_values, *old_item, new_item, parsed->expressions));
}

ApiResult<std::string> GetItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadItemRequest(request, ItemOp::kGet);
  if (!parsed.ok()) return parsed.take_error();
  auto item = ctx.db.GetItem(ctx.caller.ns, parsed->table, parsed->attributes);
  if (!item.ok()) return item.status();
  return RenderObject([&](JsonWriter& w) {
    if (!item->has_value()) return;
    w.Key("Item");
    const auto& projection = parsed->expressions.projection;
    if (!projection) return WriteItem(w, **item);
    std::vector<const expr::Path*> paths;
    for (const auto& path : projection->paths) paths.push_back(&path);
    WriteItem(w, expr::Project(**item, paths));
  });
}

}  // namespace ddb::api
