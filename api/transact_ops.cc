// TransactWriteItems and TransactGetItems: up to 100 actions over several
// tables, all or nothing, isolated (Database::TransactWrite holds every
// involved table's write lock and writes one batch).
#include <algorithm>
#include <set>

#include "api/attribute_json.h"
#include "api/capacity.h"
#include "api/item_request.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"

namespace ddb::api {
namespace {

using engine::Item;
using engine::Status;

constexpr size_t kMaxTransactItems = 100;
constexpr size_t kMaxTransactBytes = 4 * 1024 * 1024;
constexpr int64_t kTokenLifetimeMillis = 10 * 60 * 1000;

struct Action {
  ItemOp op = ItemOp::kPut;
  ItemRequest request;
  Item key;  // the item's key (a Put's Item reduced to it), once validated
};

// The TransactItems array: present, 1 to 100 entries.
ApiResult<const rapidjson::Value*> ReadTransactItems(const rapidjson::Value& request) {
  RequestReader r(request);
  const rapidjson::Value* items = r.Array("TransactItems");
  auto consumed = r.String("ReturnConsumedCapacity");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(items != nullptr, "transactItems");
  constraints.Enum(consumed, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  if (items && (items->Empty() || items->Size() > kMaxTransactItems)) {
    // DynamoDB echoes the members in Java's list form; elided here.
    constraints.Violation(items->Empty() ? "'[]'" : "'[...]'", "transactItems",
                          items->Empty() ? "Member must have length greater than or equal to 1"
                                         : "Member must have length less than or equal to 100");
  }
  if (!constraints.empty()) return constraints.ToError();
  return items;
}

ApiResult<std::vector<Action>> ReadActions(const rapidjson::Value& items) {
  static constexpr std::pair<const char*, ItemOp> kKinds[] = {
      {"ConditionCheck", ItemOp::kConditionCheck},
      {"Put", ItemOp::kPut},
      {"Delete", ItemOp::kDelete},
      {"Update", ItemOp::kUpdate}};
  std::vector<Action> actions;
  size_t i = 0;
  for (const auto& element : items.GetArray()) {
    ++i;
    if (!element.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    const rapidjson::Value* body = nullptr;
    Action action;
    int kinds = 0;
    for (auto [name, op] : kKinds) {
      auto it = element.FindMember(name);
      if (it == element.MemberEnd() || it->value.IsNull()) continue;
      if (!it->value.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
      ++kinds;
      body = &it->value;
      action.op = op;
    }
    if (kinds != 1) {
      return ApiError::Validation(
          "TransactItems can only contain one of Check, Put, Update or Delete");
    }
    if (action.op == ItemOp::kConditionCheck) {
      auto it = body->FindMember("ConditionExpression");
      if (it == body->MemberEnd() || it->value.IsNull()) {
        Constraints constraints;
        constraints.NotNull(false, "transactItems." + std::to_string(i) +
                                       ".member.conditionCheck.conditionExpression");
        return constraints.ToError();
      }
    }
    auto request = ReadItemRequest(*body, action.op);
    if (!request.ok()) return request.take_error();
    action.request = std::move(request).value();
    actions.push_back(std::move(action));
  }
  return actions;
}

// What an action does to its item, decided inside the transaction.
engine::Planner PlannerFor(const Action& action, ConditionCheck& check) {
  return [&action, &check](const Item* current) -> engine::Result<engine::Mutation> {
    DDB_RETURN_IF_ERROR(check(current));
    switch (action.op) {
      case ItemOp::kPut:
        return engine::Mutation{engine::Mutation::Kind::kPut, action.request.attributes};
      case ItemOp::kDelete:
        return engine::Mutation{engine::Mutation::Kind::kDelete, {}};
      case ItemOp::kUpdate:
        return UpdateMutation(action.request, current);
      default:
        return engine::Mutation{};  // ConditionCheck writes nothing
    }
  };
}

CancellationReason ReasonFor(const Status& status, std::optional<Item>& failed_item) {
  switch (status.code()) {
    case Status::Code::kOk:
      return {"None", "", std::nullopt};
    case Status::Code::kConditionFailed:
      return {"ConditionalCheckFailed", status.message(), std::move(failed_item)};
    case Status::Code::kTransactionConflict:
      return {"TransactionConflict", status.message(), std::nullopt};
    default:
      return {"ValidationError", status.message(), std::nullopt};
  }
}

// A transaction cancelled because action `index` of `count` is invalid:
// DynamoDB reports that one as ValidationError and the others as None.
ApiError CancelOnValidation(size_t count, size_t index, const Status& status) {
  std::vector<CancellationReason> reasons(count, CancellationReason{"None", "", std::nullopt});
  reasons[index] = {"ValidationError", status.message(), std::nullopt};
  return ApiError::TransactionCanceled(std::move(reasons));
}

// `value` as JSON with object members sorted by name, so that two requests
// that differ only in member order compare equal.
void WriteCanonical(JsonWriter& w, const rapidjson::Value& value) {
  if (value.IsObject()) {
    std::vector<const rapidjson::Value::Member*> members;
    for (const auto& member : value.GetObject()) members.push_back(&member);
    std::sort(members.begin(), members.end(),
              [](const auto* a, const auto* b) { return View(a->name) < View(b->name); });
    w.StartObject();
    for (const auto* member : members) {
      WriteString(w, View(member->name));
      WriteCanonical(w, member->value);
    }
    w.EndObject();
  } else if (value.IsArray()) {
    w.StartArray();
    for (const auto& element : value.GetArray()) WriteCanonical(w, element);
    w.EndArray();
  } else {
    value.Accept(w);
  }
}

// What ClientRequestToken compares: the actions, not how the answer is
// reported (ReturnConsumedCapacity and the like).
std::string Fingerprint(const rapidjson::Value& transact_items) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteCanonical(w, transact_items);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// The answer to a repeated request (same ClientRequestToken): nothing is
// written again; DynamoDB bills the replay as transactional reads of the
// items.
ApiResult<std::string> ReplayResponse(
    Context& ctx, const std::vector<Action>& actions,
    std::map<std::string, std::shared_ptr<const engine::TableSchema>>& schemas,
    std::string_view mode) {
  TableCapacities consumed;
  if (WantsCapacity(mode)) {
    std::vector<engine::ItemRef> refs;
    for (const Action& action : actions) refs.push_back({action.request.table, action.key});
    auto found = ctx.db.GetItems(ctx.caller.ns, refs);
    if (!found.ok()) return found.status();
    for (size_t i = 0; i < refs.size(); ++i) {
      size_t size = (*found)[i] ? engine::ItemSize(*(*found)[i]) : 0;
      consumed.Add(ReadConsumption(*schemas[refs[i].table], nullptr, size, true, true));
    }
  }
  return RenderObject([&](JsonWriter& w) { consumed.WriteTo(w, mode); });
}

}  // namespace

ApiResult<std::string> TransactWriteItems(Context& ctx, const rapidjson::Value& request) {
  auto items = ReadTransactItems(request);
  if (!items.ok()) return items.take_error();
  RequestReader r(request);
  auto token = r.String("ClientRequestToken");
  auto metrics = r.String("ReturnItemCollectionMetrics");
  if (r.failed()) return r.error();
  Constraints metrics_constraint;
  metrics_constraint.Enum(metrics, "returnItemCollectionMetrics", {"SIZE", "NONE"});
  if (!metrics_constraint.empty()) return metrics_constraint.ToError();
  if (token) {
    Constraints constraints;
    constraints.Length(*token, "clientRequestToken", 1, 36);
    if (!constraints.empty()) return constraints.ToError();
  }
  auto actions = ReadActions(**items);
  if (!actions.ok()) return actions.take_error();

  // One item at most once; 4 MB in all.
  std::set<std::string> seen;
  size_t bytes = 0;
  std::map<std::string, std::shared_ptr<const engine::TableSchema>> schemas;
  for (Action& action : *actions) {
    const ItemRequest& req = action.request;
    auto& schema = schemas[req.table];
    if (!schema) {
      auto found = ctx.db.GetSchema(ctx.caller.ns, req.table);
      if (!found.ok()) return found.status();
      schema = std::move(found).value();
    }
    engine::Status valid = action.op == ItemOp::kPut
                               ? engine::ValidateItemKey(*schema, req.attributes)
                               : engine::ValidateKey(*schema, req.attributes);
    if (!valid.ok()) return CancelOnValidation(actions->size(), &action - actions->data(), valid);
    action.key = action.op == ItemOp::kPut ? engine::ExtractKey(*schema, req.attributes)
                                           : req.attributes;
    if (!seen.insert(engine::ItemKey(schema->table_id, *schema, action.key)).second) {
      return ApiError::Validation(
          "Transaction request cannot include multiple operations on one item");
    }
    bytes += engine::ItemSize(req.attributes);
  }
  if (bytes > kMaxTransactBytes) {
    return ApiError::Validation("Transaction request size cannot exceed 4 MB");
  }

  std::string fingerprint = token ? Fingerprint(**items) : "";
  if (token) {
    auto seen_before = ctx.db.CheckToken(ctx.caller.ns, *token, fingerprint,
                                         kTokenLifetimeMillis);
    if (seen_before == engine::TokenCheck::kInProgress) {
      return ApiError::TransactionInProgress(
          "Transaction from previous request is still in progress");
    }
    if (seen_before == engine::TokenCheck::kMismatch) {
      return ApiError::IdempotentParameterMismatch(
          "The request uses the same client token as a previous, but non-identical request.");
    }
    if (seen_before == engine::TokenCheck::kRepeat) {
      return ReplayResponse(ctx, *actions, schemas, CapacityMode(request));
    }
  }

  std::vector<ConditionCheck> checks;
  checks.reserve(actions->size());
  std::vector<engine::TransactWriteItem> writes;
  for (const Action& action : *actions) {
    checks.emplace_back(action.request);
    writes.push_back({action.request.table, action.key, PlannerFor(action, checks.back())});
  }
  auto outcome = ctx.db.TransactWrite(ctx.caller.ns, writes);
  if (token) {
    ctx.db.FinishToken(ctx.caller.ns, *token, outcome.ok() && outcome->committed,
                       kTokenLifetimeMillis);
  }
  if (!outcome.ok()) return outcome.status();
  if (!outcome->committed) {
    std::vector<CancellationReason> reasons;
    for (size_t i = 0; i < checks.size(); ++i) {
      reasons.push_back(ReasonFor(outcome->reasons[i], checks[i].failed_item()));
    }
    // DynamoDB reports only the first validation error; the rest read None.
    auto first = std::find_if(reasons.begin(), reasons.end(),
                              [](const auto& r) { return r.code == "ValidationError"; });
    if (first != reasons.end()) {
      for (auto& reason : reasons) {
        if (&reason != &*first) reason = {"None", "", std::nullopt};
      }
    }
    return ApiError::TransactionCanceled(std::move(reasons));
  }

  TableCapacities consumed;
  ItemCollections collections;
  for (size_t i = 0; i < actions->size(); ++i) {
    const Action& action = (*actions)[i];
    if (metrics == "SIZE" && action.op != ItemOp::kConditionCheck) {
      collections.Add(*schemas[action.request.table], action.request.attributes);
    }
    const auto& schema = *schemas[action.request.table];
    const std::optional<Item>& before = outcome->before[i];
    Consumption c;
    if (action.op == ItemOp::kConditionCheck) {  // charged as a write of the item read
      c = Consumption(schema.name, true);
      c.table_units = WriteUnits(before ? engine::ItemSize(*before) : 0, true);
      c.transactional = true;
    } else {
      const std::optional<Item>& after = outcome->after[i];
      c = WriteConsumption(schema, before ? &*before : nullptr, after ? &*after : nullptr, true);
    }
    consumed.Add(c);
  }
  return RenderObject([&](JsonWriter& w) {
    consumed.WriteTo(w, CapacityMode(request));
    collections.WriteTo(w);
  });
}

namespace {

// The Get members of TransactGetItems, each its own ItemRequest.
ApiResult<std::vector<ItemRequest>> ReadGets(const rapidjson::Value& items) {
  std::vector<ItemRequest> gets;
  for (const auto& element : items.GetArray()) {
    if (!element.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    auto it = element.FindMember("Get");
    if (it == element.MemberEnd() || !it->value.IsObject()) {
      Constraints constraints;
      constraints.NotNull(false, "transactItems.member.get");
      return constraints.ToError();
    }
    auto get = ReadItemRequest(it->value, ItemOp::kGet);
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
  auto items = ReadTransactItems(request);
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
    std::vector<CancellationReason> reasons;
    for (bool conflict : conflicts) {
      reasons.push_back(conflict ? CancellationReason{"TransactionConflict",
                                                      std::string(engine::kTransactionOngoing),
                                                      std::nullopt}
                                 : CancellationReason{"None", "", std::nullopt});
    }
    return ApiError::TransactionCanceled(std::move(reasons));
  }
  TableCapacities consumed;
  for (size_t i = 0; i < gets.size(); ++i) {
    size_t size = (*found)[i] ? engine::ItemSize(*(*found)[i]) : 0;
    consumed.Add(ReadConsumption(*schemas[i], nullptr, size, true, true));
  }
  return RenderObject([&](JsonWriter& w) {
    w.Key("Responses");
    w.StartArray();
    for (size_t i = 0; i < gets.size(); ++i) {
      w.StartObject();
      if (const auto& item = (*found)[i]) {
        w.Key("Item");
        WriteProjected(w, *item, gets[i].expressions.projection);
      }
      w.EndObject();
    }
    w.EndArray();
    consumed.WriteTo(w, CapacityMode(request));
  });
}

}  // namespace ddb::api
