// PutItem, GetItem, DeleteItem.
#include "api/attribute_json.h"
#include "api/json_reader.h"
#include "api/operations.h"

namespace ddb::api {
namespace {

// The members every single-item operation shares.
struct ItemRequest {
  std::string table;
  std::string_view return_values = "NONE";
};

// Parameters of the expression language that this build does not evaluate
// yet; refusing them beats silently ignoring a condition.
ApiResult<bool> RejectUnsupported(const rapidjson::Value& request,
                                  std::initializer_list<const char*> members) {
  for (const char* member : members) {
    auto it = request.FindMember(member);
    if (it != request.MemberEnd() && !it->value.IsNull()) {
      return ApiError::Validation(std::string(member) + " is not supported by this localdynamo build yet");
    }
  }
  return true;
}

ApiResult<ItemRequest> ReadItemRequest(const rapidjson::Value& request, RequestReader& r,
                                       Constraints& constraints, bool writes) {
  auto table = r.String("TableName");
  auto return_values = r.String("ReturnValues");
  auto consumed = r.String("ReturnConsumedCapacity");
  auto metrics = r.String("ReturnItemCollectionMetrics");
  if (r.failed()) return r.error();
  constraints.TableName(table);
  if (writes) {
    constraints.Enum(return_values, "returnValues",
                     {"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"});
    constraints.Enum(metrics, "returnItemCollectionMetrics", {"SIZE", "NONE"});
  }
  constraints.Enum(consumed, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  auto unsupported = RejectUnsupported(
      request, {"ConditionExpression", "Expected", "ConditionalOperator",
                "ExpressionAttributeNames", "ExpressionAttributeValues", "ProjectionExpression"});
  if (!unsupported.ok()) return unsupported.take_error();
  ItemRequest parsed;
  parsed.table = std::string(table.value_or(""));
  if (return_values) parsed.return_values = *return_values;
  return parsed;
}

std::string RenderOldItem(const std::optional<engine::Item>& old_item,
                          std::string_view return_values) {
  return RenderObject([&](JsonWriter& w) {
    if (return_values == "ALL_OLD" && old_item) {
      w.Key("Attributes");
      WriteItem(w, *old_item);
    }
  });
}

// PutItem's and DeleteItem's shared request: the common members, the
// attribute map named `member` ("Item" or "Key"), and ReturnValues checks.
ApiResult<std::pair<ItemRequest, engine::Item>> ReadWriteRequest(const rapidjson::Value& request,
                                                                 const char* member,
                                                                 std::string_view path) {
  RequestReader r(request);
  Constraints constraints;
  const rapidjson::Value* attributes_json = r.Object(member);
  auto common = ReadItemRequest(request, r, constraints, true);
  if (!common.ok()) return common.take_error();
  constraints.NotNull(attributes_json != nullptr, path);
  if (!constraints.empty()) return constraints.ToError();
  if (common->return_values != "NONE" && common->return_values != "ALL_OLD") {
    return ApiError::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  auto attributes = ParseItem(*attributes_json);
  if (!attributes.ok()) return attributes.take_error();
  return std::pair(std::move(common).value(), std::move(attributes).value());
}

}  // namespace

ApiResult<std::string> PutItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadWriteRequest(request, "Item", "item");
  if (!parsed.ok()) return parsed.take_error();
  auto& [common, item] = *parsed;
  auto old_item = ctx.db.PutItem(ctx.caller.ns, common.table, std::move(item));
  if (!old_item.ok()) return old_item.status();
  return RenderOldItem(*old_item, common.return_values);
}

ApiResult<std::string> DeleteItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadWriteRequest(request, "Key", "key");
  if (!parsed.ok()) return parsed.take_error();
  auto& [common, key] = *parsed;
  auto old_item = ctx.db.DeleteItem(ctx.caller.ns, common.table, key);
  if (!old_item.ok()) return old_item.status();
  return RenderOldItem(*old_item, common.return_values);
}

ApiResult<std::string> GetItem(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  Constraints constraints;
  const rapidjson::Value* key_json = r.Object("Key");
  const rapidjson::Value* attributes_json = r.Array("AttributesToGet");
  r.Bool("ConsistentRead");  // every read here is consistent
  auto common = ReadItemRequest(request, r, constraints, false);
  if (!common.ok()) return common.take_error();
  constraints.NotNull(key_json != nullptr, "key");
  if (attributes_json && attributes_json->Empty()) {
    constraints.Violation("'[]'", "attributesToGet",
                          "Member must have length greater than or equal to 1");
  }
  if (!constraints.empty()) return constraints.ToError();
  std::vector<std::string> attributes;
  if (attributes_json) {
    for (const auto& name : attributes_json->GetArray()) {
      if (!name.IsString()) return WrongType(name, "String");
      attributes.emplace_back(View(name));
    }
    std::vector<std::string> sorted = attributes;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      return ApiError::Validation("One or more parameter values were invalid: Duplicate value in attribute name: " +
                                  *std::adjacent_find(sorted.begin(), sorted.end()));
    }
  }
  auto key = ParseItem(*key_json);
  if (!key.ok()) return key.take_error();
  auto item = ctx.db.GetItem(ctx.caller.ns, common->table, *key);
  if (!item.ok()) return item.status();
  return RenderObject([&](JsonWriter& w) {
    if (!item->has_value()) return;
    w.Key("Item");
    if (attributes.empty()) return WriteItem(w, **item);
    engine::Item projected;
    for (const auto& name : attributes) {
      auto it = (*item)->find(name);
      if (it != (*item)->end()) projected.insert(*it);
    }
    WriteItem(w, projected);
  });
}

}  // namespace ddb::api
