// TransactWriteItems and TransactGetItems: up to 100 actions over several
// tables, all or nothing, isolated. The write path itself (transact_write.h)
// is shared with PartiQL's ExecuteTransaction.
#include <algorithm>
#include <set>

#include "api/access_record.h"
#include "api/attribute_json.h"
#include "api/capacity.h"
#include "api/items/item_request.h"
#include "api/items/key_access.h"
#include "api/items/transact_write.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "engine/expression/document_path.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"

namespace ddb::api {
namespace {

using engine::Item;
using engine::Status;

constexpr size_t kMaxTransactItems = 100;

// The TransactItems array: present, 1 to 100 entries. For a write, also
// ClientRequestToken and ReturnItemCollectionMetrics, all reported together
// in DynamoDB's order (captured in us-east-1, 2026-10): the token,
// TransactItems, then the enums.
ApiResult<const rapidjson::Value*> ReadTransactItems(const rapidjson::Value& request,
                                                     bool write) {
  RequestReader r(request);
  const rapidjson::Value* items = r.Array("TransactItems");
  auto consumed = r.String("ReturnConsumedCapacity");
  auto token = write ? r.String("ClientRequestToken") : std::nullopt;
  auto metrics = write ? r.String("ReturnItemCollectionMetrics") : std::nullopt;
  if (r.failed()) return r.error();
  Constraints constraints;
  if (token) constraints.Length(*token, "clientRequestToken", 1, 36);
  constraints.NotNull(items != nullptr, "transactItems");
  if (items && (items->Empty() || items->Size() > kMaxTransactItems)) {
    // DynamoDB echoes the members in Java's list form; elided here.
    constraints.Violation(items->Empty() ? "'[]'" : "'[...]'", "transactItems",
                          items->Empty() ? "Member must have length greater than or equal to 1"
                                         : "Member must have length less than or equal to 100");
  }
  constraints.Enum(consumed, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  constraints.Enum(metrics, "returnItemCollectionMetrics", {"SIZE", "NONE"});
  if (!constraints.empty()) return constraints.ToError();
  return items;
}

ApiResult<std::vector<TransactAction>> ReadActions(const rapidjson::Value& items) {
  // Each kind's member name, and how DynamoDB's validation paths spell it.
  struct Kind {
    const char* name;
    const char* path;
    ItemOp op;
  };
  static constexpr Kind kKinds[] = {{"ConditionCheck", "conditionCheck", ItemOp::kConditionCheck},
                                    {"Put", "put", ItemOp::kPut},
                                    {"Delete", "delete", ItemOp::kDelete},
                                    {"Update", "update", ItemOp::kUpdate}};
  std::vector<TransactAction> actions;
  size_t i = 0;
  for (const auto& element : items.GetArray()) {
    ++i;
    if (!element.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    const rapidjson::Value* body = nullptr;
    TransactAction action;
    int kinds = 0;
    std::string member;  // "transactItems.<i>.member.<kind>."
    for (const Kind& kind : kKinds) {
      auto it = element.FindMember(kind.name);
      if (it == element.MemberEnd() || it->value.IsNull()) continue;
      if (!it->value.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
      ++kinds;
      body = &it->value;
      action.op = kind.op;
      member = "transactItems." + std::to_string(i) + ".member." + kind.path + ".";
    }
    if (kinds == 0) {
      // us-east-1's sentence (captured 2026); eu-west-2 has begun answering
      // it as a constraint on transactItems.
      return ApiError::Validation(
          "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request");
    }
    if (kinds > 1) {
      return ApiError::Validation(
          "TransactItems can only contain one of Check, Put, Update or Delete");
    }
    if (action.op == ItemOp::kConditionCheck) {
      auto it = body->FindMember("ConditionExpression");
      if (it == body->MemberEnd() || it->value.IsNull()) {
        Constraints constraints;
        constraints.NotNull(false, member + "conditionExpression");
        return constraints.ToError();
      }
    }
    auto request = ReadItemRequest(*body, action.op, member);
    if (!request.ok()) return request.take_error();
    action.request = std::move(request).value();
    actions.push_back(std::move(action));
  }
  return actions;
}

}  // namespace

ApiResult<std::string> TransactWriteItems(Context& ctx, const rapidjson::Value& request) {
  auto items = ReadTransactItems(request, true);
  if (!items.ok()) return items.take_error();
  RequestReader r(request);
  auto token = r.String("ClientRequestToken");
  auto metrics = r.String("ReturnItemCollectionMetrics");
  if (r.failed()) return r.error();
  auto actions = ReadActions(**items);
  if (!actions.ok()) return actions.take_error();

  std::string_view mode = CapacityMode(request);
  auto answer = RunTransactWrite(ctx, *actions, token, token ? Fingerprint(**items) : "", mode,
                                 metrics == "SIZE");
  if (!answer.ok()) return answer.take_error();
  return RenderObject([&](JsonWriter& w) { answer->WriteTo(w, mode); });
}

namespace {

// The Get members of TransactGetItems, each its own ItemRequest.
ApiResult<std::vector<ItemRequest>> ReadGets(const rapidjson::Value& items) {
  std::vector<ItemRequest> gets;
  size_t i = 0;
  for (const auto& element : items.GetArray()) {
    ++i;
    if (!element.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    auto it = element.FindMember("Get");
    if (it == element.MemberEnd() || !it->value.IsObject()) {
      Constraints constraints;
      constraints.NotNull(false, "transactItems.member.get");
      return constraints.ToError();
    }
    std::string member = "transactItems." + std::to_string(i) + ".member.get.";
    auto get = ReadItemRequest(it->value, ItemOp::kGet, member);
    if (!get.ok()) return get.take_error();
    gets.push_back(std::move(get).value());
  }
  return gets;
}

// Each get's table schema, once its key is checked; no item may be read twice.
ApiResult<std::vector<std::shared_ptr<const engine::TableSchema>>> CheckGets(
    Context& ctx, const std::vector<ItemRequest>& gets) {
  std::vector<std::shared_ptr<const engine::TableSchema>> schemas;
  std::set<std::string> seen;
  for (size_t i = 0; i < gets.size(); ++i) {
    auto schema = ctx.db.GetSchema(ctx.caller.ns, gets[i].table);
    if (!schema.ok()) return schema.status();
    if (auto valid = engine::ValidateKey(**schema, gets[i].attributes); !valid.ok()) {
      return CancelOnValidation(gets.size(), i, valid);
    }
    if (!seen.insert(engine::ItemKey((*schema)->table_id, **schema, gets[i].attributes)).second) {
      return ApiError::Validation(
          "Transaction request cannot include multiple operations on one item");
    }
    schemas.push_back(std::move(schema).value());
  }
  return schemas;
}

}  // namespace

ApiResult<std::string> TransactGetItems(Context& ctx, const rapidjson::Value& request) {
  auto items = ReadTransactItems(request, false);
  if (!items.ok()) return items.take_error();
  auto read = ReadGets(**items);
  if (!read.ok()) return read.take_error();
  const std::vector<ItemRequest>& gets = *read;
  auto checked = CheckGets(ctx, gets);
  if (!checked.ok()) return checked.take_error();
  const auto& schemas = *checked;
  std::vector<engine::ItemRef> refs;
  for (const ItemRequest& get : gets) refs.push_back({get.table, get.attributes});
  std::vector<bool> conflicts;
  auto found = ctx.db.TransactGet(ctx.caller.ns, refs, &conflicts);
  if (!found.ok()) return found.status();
  if (std::find(conflicts.begin(), conflicts.end(), true) != conflicts.end()) {
    return CancelOnConflicts(conflicts);
  }
  TableCapacities consumed;
  for (size_t i = 0; i < gets.size(); ++i) {
    NoteKeyRead(ctx, *schemas[i], "", gets[i].attributes);
    size_t size = (*found)[i] ? engine::ItemSize(*(*found)[i]) : 0;
    consumed.Add(ReadConsumption(*schemas[i], nullptr, size, true, true));
    if ((*found)[i]) consumed.CountRead(schemas[i]->name);
  }
  if (ctx.record) consumed.RecordIn(*ctx.record);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Responses");
    w.StartArray();
    for (size_t i = 0; i < gets.size(); ++i) {
      w.StartObject();
      if (const auto& item = (*found)[i]) {
        const auto& projection = gets[i].expressions.projection;
        std::optional<Item> projected;
        if (projection) projected = engine::expr::Project(*item, *projection);
        const Item& shown = projected ? *projected : *item;
        // A projection that matches nothing of the item shows no Item at
        // all here (captured by the public conformance suite, 2026).
        if (!shown.empty()) {
          w.Key("Item");
          WriteItem(w, shown);
        }
      }
      w.EndObject();
    }
    w.EndArray();
    consumed.WriteTo(w, CapacityMode(request));
  });
}

}  // namespace ddb::api
