// The write path of transactions, shared by TransactWriteItems and
// ExecuteTransaction.
#include "api/access_record.h"
#include "api/items/transact_write.h"

#include <algorithm>
#include <map>
#include <set>

#include "api/capacity.h"
#include "api/items/key_access.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"

namespace ddb::api {
namespace {

using engine::Item;
using engine::Status;

constexpr size_t kMaxTransactBytes = 4 * 1024 * 1024;
constexpr int64_t kTokenLifetimeMillis = 10 * 60 * 1000;

using Schemas = std::map<std::string, std::shared_ptr<const engine::TableSchema>>;

// What an action does to its item, decided inside the transaction.
engine::Planner PlannerFor(const TransactAction& action, ConditionCheck& check) {
  return [&action, &check](const Item* current) -> engine::Result<engine::Mutation> {
    DDB_RETURN_IF_ERROR(check(current));
    switch (action.op) {
      case ItemOp::kInsert:
        if (current) return Status::AlreadyExists(std::string(kDuplicateItem));
        return engine::Mutation{engine::Mutation::Kind::kPut, action.request.attributes};
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
      return CancellationReason::None();
    case Status::Code::kConditionFailed:
      return CancellationReason::ConditionalCheckFailed(status.message(), std::move(failed_item));
    case Status::Code::kAlreadyExists:  // a PartiQL INSERT over an existing item
      return CancellationReason::DuplicateItem(status.message());
    case Status::Code::kTransactionConflict:
      return CancellationReason::TransactionConflict(status.message());
    default:
      return CancellationReason::ValidationError(status.message());
  }
}

// Bills a repeated request (same ClientRequestToken), which writes nothing
// again, as DynamoDB does: as transactional reads of the items.
ApiResult<bool> Replay(Context& ctx, const std::vector<TransactAction>& actions,
                                      Schemas& schemas, TableCapacities& consumed, std::string_view mode) {
  if (WantsCapacity(mode) || ctx.record) {
    std::vector<engine::ItemRef> refs;
    for (const TransactAction& action : actions) refs.push_back({action.request.table, action.key});
    auto found = ctx.db.GetItems(ctx.caller.ns, refs);
    if (!found.ok()) return found.status();
    for (size_t i = 0; i < refs.size(); ++i) {
      size_t size = (*found)[i] ? engine::ItemSize(*(*found)[i]) : 0;
      consumed.Add(ReadConsumption(*schemas[refs[i].table], nullptr, size, true, true));
    }
  }
  return true;
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

// The start of DynamoDB's text for an empty string or binary key value.
constexpr std::string_view kEmptyKeyValue =
    "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
    "contain an empty";

// Checks each action's key against its table, one action per item and the
// 4 MB limit; sets each action's key. Returns the tables' schemas.
ApiResult<Schemas> CheckActions(Context& ctx, std::vector<TransactAction>& actions) {
  // One item at most once; 4 MB in all.
  std::set<std::string> seen;
  size_t bytes = 0;
  Schemas schemas;
  for (TransactAction& action : actions) {
    const ItemRequest& req = action.request;
    auto& schema = schemas[req.table];
    if (!schema) {
      auto found = ctx.db.GetSchema(ctx.caller.ns, req.table);
      if (!found.ok()) return found.status();
      schema = std::move(found).value();
    }
    bool whole_item = action.op == ItemOp::kPut || action.op == ItemOp::kInsert;
    engine::Status valid = whole_item ? engine::ValidateItemKey(*schema, req.attributes)
                                      : engine::ValidateKey(*schema, req.attributes);
    if (!valid.ok()) {
      // An empty string or binary key fails the whole request (captured);
      // other key errors cancel the transaction.
      if (valid.message().starts_with(kEmptyKeyValue)) return ApiError::Validation(valid.message());
      return CancelOnValidation(actions.size(), &action - actions.data(), valid);
    }
    // So does a Put over the item size limit (captured); an Update over it
    // cancels, as its size is known only once applied.
    if (action.op == ItemOp::kPut && engine::ItemSize(req.attributes) > engine::kMaxItemBytes) {
      return ApiError::Validation("Item size has exceeded the maximum allowed size");
    }
    action.key = whole_item ? engine::ExtractKey(*schema, req.attributes) : req.attributes;
    if (!seen.insert(engine::ItemKey(schema->table_id, *schema, action.key)).second) {
      return ApiError::Validation(
          "Transaction request cannot include multiple operations on one item");
    }
    bytes += engine::ItemSize(req.attributes);
  }
  if (bytes > kMaxTransactBytes) {
    return ApiError::Validation("Transaction request size cannot exceed 4 MB");
  }
  return schemas;
}

// The cancellation of a transaction that did not commit: one reason per
// action.
ApiError Cancellation(const engine::TransactWriteOutcome& outcome,
                      std::vector<ConditionCheck>& checks) {
  std::vector<CancellationReason> reasons;
  for (size_t i = 0; i < checks.size(); ++i) {
    reasons.push_back(ReasonFor(outcome.reasons[i], checks[i].failed_item()));
  }
  // DynamoDB reports only the first validation error; the rest read None.
  auto first = std::find_if(reasons.begin(), reasons.end(),
                            [](const auto& r) { return r.is_validation_error(); });
  if (first != reasons.end()) {
    for (auto& reason : reasons) {
      if (&reason != &*first) reason = CancellationReason::None();
    }
  }
  return ApiError::TransactionCanceled(std::move(reasons));
}

// What a committed transaction consumed and which item collections it wrote.
void Account(const std::vector<TransactAction>& actions,
             const engine::TransactWriteOutcome& outcome, bool collection_metrics,
             TransactWriteAnswer& answer) {
  for (size_t i = 0; i < actions.size(); ++i) {
    const TransactAction& action = actions[i];
    const auto& schema = *answer.schemas[action.request.table];
    if (collection_metrics && action.op != ItemOp::kConditionCheck) {
      answer.collections.Add(schema, action.request.attributes);
    }
    const std::optional<Item>& before = outcome.before[i];
    Consumption c;
    if (action.op == ItemOp::kConditionCheck) {  // charged as a write of the item read
      c = Consumption(schema.name, true);
      c.table_units = WriteUnits(before ? engine::ItemSize(*before) : 0, true);
      c.transactional = true;
    } else {
      const std::optional<Item>& after = outcome.after[i];
      c = WriteConsumption(schema, before ? &*before : nullptr, after ? &*after : nullptr, true);
    }
    answer.consumed.Add(c);
  }
}

}  // namespace

ApiError CancelOnConflicts(const std::vector<bool>& conflicts) {
  std::vector<CancellationReason> reasons;
  for (bool conflict : conflicts) {
    reasons.push_back(conflict ? CancellationReason::TransactionConflict(
                                     std::string(engine::kTransactionOngoing))
                               : CancellationReason::None());
  }
  return ApiError::TransactionCanceled(std::move(reasons));
}

// A transaction cancelled because action `index` of `count` is invalid:
// DynamoDB reports that one as ValidationError and the others as None.
ApiError CancelOnValidation(size_t count, size_t index, const Status& status) {
  std::vector<CancellationReason> reasons(count, CancellationReason::None());
  reasons[index] = CancellationReason::ValidationError(status.message());
  return ApiError::TransactionCanceled(std::move(reasons));
}

// What ClientRequestToken compares: the actions, not how the answer is
// reported (ReturnConsumedCapacity and the like).
std::string Fingerprint(const rapidjson::Value& transact_items) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteCanonical(w, transact_items);
  return std::string(buffer.GetString(), buffer.GetSize());
}

void TransactWriteAnswer::WriteTo(JsonWriter& w, std::string_view capacity_mode) const {
  consumed.WriteTo(w, capacity_mode);
  collections.WriteTo(w);
}

ApiResult<TransactWriteAnswer> RunTransactWrite(Context& ctx, std::vector<TransactAction>& actions,
                                                std::optional<std::string_view> token,
                                                const std::string& fingerprint,
                                                std::string_view capacity_mode,
                                                bool collection_metrics) {
  auto schemas = CheckActions(ctx, actions);
  if (!schemas.ok()) return schemas.take_error();
  TransactWriteAnswer answer;
  answer.schemas = std::move(schemas).value();
  if (token) {
    auto seen_before =
        ctx.engine.tokens().Check(ctx.caller.ns, *token, fingerprint, kTokenLifetimeMillis);
    if (seen_before == engine::TokenCheck::kInProgress) {
      return ApiError::TransactionInProgress(
          "Transaction from previous request is still in progress");
    }
    if (seen_before == engine::TokenCheck::kMismatch) {
      return ApiError::IdempotentParameterMismatch(
          "The request uses the same client token as a previous, but non-identical request.");
    }
    if (seen_before == engine::TokenCheck::kRepeat) {
      auto replayed = Replay(ctx, actions, answer.schemas, answer.consumed, capacity_mode);
      if (!replayed.ok()) return replayed.take_error();
      if (ctx.record) answer.consumed.RecordIn(*ctx.record);
      return answer;
    }
  }

  std::vector<ConditionCheck> checks;
  checks.reserve(actions.size());
  std::vector<engine::TransactWriteItem> writes;
  for (const TransactAction& action : actions) {
    checks.emplace_back(action.request);
    writes.push_back({action.request.table, action.key, PlannerFor(action, checks.back())});
  }
  auto outcome = ctx.db.TransactWrite(ctx.caller.ns, writes);
  if (token) {
    ctx.engine.tokens().Finish(ctx.caller.ns, *token, outcome.ok() && outcome->committed,
                               kTokenLifetimeMillis);
  }
  if (!outcome.ok()) return outcome.status();
  if (!outcome->committed) return Cancellation(*outcome, checks);
  Account(actions, *outcome, collection_metrics, answer);
  for (size_t i = 0; i < actions.size(); ++i) {
    const auto& before = outcome->before[i];
    const auto& after = outcome->after[i];
    if (actions[i].op == ItemOp::kConditionCheck) {
      NoteKeyRead(ctx, *answer.schemas[actions[i].request.table], "", actions[i].key);
    } else {
      NoteItemWrite(ctx, *answer.schemas[actions[i].request.table], actions[i].key,
                    before ? &*before : nullptr, after ? &*after : nullptr);
    }
  }
  if (ctx.record) answer.consumed.RecordIn(*ctx.record);
  return answer;
}

}  // namespace ddb::api
