// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: PartiQL
// for DynamoDB over the same engine paths as the item, Query/Scan and
// transaction operations (partiql_statement.h, transact_write.h).
#include <algorithm>

#include "api/access_record.h"
#include "api/attribute_json.h"
#include "api/base64.h"
#include "api/capacity.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/partiql/partiql_statement.h"
#include "api/value_layers.h"
#include "engine/key_validation.h"

namespace ddb::api {
namespace {

namespace partiql = engine::partiql;
using engine::Item;

constexpr size_t kMaxBatchStatements = 25;
constexpr size_t kMaxTransactStatements = 100;

// A transaction that mixes reads and writes gets DynamoDB Local's text (the
// service's was not found); a batch, the same words for its own API.
constexpr std::string_view kMixedBatch =
    "BatchExecuteStatement API does not support both read and write operations in the same "
    "request.";
constexpr std::string_view kMixedTransaction =
    "ExecuteTransaction API does not support both read and write operations in the same "
    "request.";

// NextToken: where the next page starts, as base64 JSON, with what the
// statement reads ("table" or "table"."index"): DynamoDB refuses a token
// replayed against another index (captured by the public conformance
// suite, 2026).
std::string SourceOf(const partiql::SelectStatement& select) {
  return select.source.index.empty() ? select.source.table
                                     : select.source.table + "." + select.source.index;
}

std::string EncodeNextToken(const partiql::SelectStatement& select, const SelectPosition& next) {
  return Base64Encode(RenderObject([&](JsonWriter& w) {
    w.Key("Source");
    WriteString(w, SourceOf(select));
    w.Key("Partition");
    w.Uint64(next.partition);
    if (next.exclusive_start_key) {
      w.Key("LastEvaluatedKey");
      WriteItem(w, *next.exclusive_start_key);
    }
  }));
}

ApiResult<SelectPosition> DecodeNextToken(const partiql::SelectStatement& select,
                                          std::string_view token) {
  ApiError invalid = ApiError::Validation("Invalid NextToken");
  auto json = Base64Decode(token);
  if (!json) return invalid;
  rapidjson::Document doc;
  doc.Parse(json->data(), json->size());
  if (doc.HasParseError() || !doc.IsObject()) return invalid;
  auto source = doc.FindMember("Source");
  if (source == doc.MemberEnd() || !source->value.IsString() ||
      std::string_view(source->value.GetString(), source->value.GetStringLength()) !=
          SourceOf(select)) {
    return invalid;
  }
  auto partition = doc.FindMember("Partition");
  if (partition == doc.MemberEnd() || !partition->value.IsUint()) return invalid;
  SelectPosition position;
  position.partition = partition->value.GetUint();
  auto key = doc.FindMember("LastEvaluatedKey");
  if (key != doc.MemberEnd()) {
    if (!key->value.IsObject()) return invalid;
    auto item = ParseItem(key->value);
    if (!item.ok()) return invalid;
    position.exclusive_start_key = std::move(item).value();
  }
  return position;
}

void WriteItems(JsonWriter& w, const std::vector<Item>& items) {
  w.Key("Items");
  w.StartArray();
  for (const Item& item : items) WriteItem(w, item);
  w.EndArray();
}

// ReturnValuesOnConditionCheckFailure: NONE or ALL_OLD.
ApiResult<bool> ReadOldItemOnFailure(const rapidjson::Value& object, const std::string& path) {
  RequestReader r(object);
  auto value = r.String("ReturnValuesOnConditionCheckFailure");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.Enum(value, path + "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  if (!constraints.empty()) return constraints.ToError();
  return value == "ALL_OLD";
}

ApiResult<std::string> ExecuteSelect(Context& ctx, const rapidjson::Value& request,
                                     const partiql::SelectStatement& select) {
  RequestReader r(request);
  auto consistent = r.Bool("ConsistentRead");
  auto limit = r.Integer("Limit");
  auto next_token = r.String("NextToken");
  if (r.failed()) return r.error();
  SelectOptions options;
  options.consistent = consistent.value_or(false);
  options.limit = static_cast<size_t>(limit.value_or(0));
  if (next_token) {
    auto start = DecodeNextToken(select, *next_token);
    if (!start.ok()) return start.take_error();
    options.start = std::move(start).value();
  }
  auto result = RunSelect(ctx, select, options);
  if (!result.ok()) return result.take_error();
  std::string_view mode = CapacityMode(request);
  if (ctx.record) {
    ctx.record->consumed.push_back(result->consumption);
    ctx.record->accesses.push_back({.table = result->consumption.table,
                                    .items_read = result->items.size(),
                                    .items_returned = result->items.size()});
  }
  return RenderObject([&](JsonWriter& w) {
    WriteItems(w, result->items);
    if (result->next) {
      w.Key("NextToken");
      WriteString(w, EncodeNextToken(select, *result->next));
      if (result->next->exclusive_start_key) {
        w.Key("LastEvaluatedKey");
        WriteItem(w, *result->next->exclusive_start_key);
      }
    }
    if (WantsCapacity(mode)) {
      w.Key("ConsumedCapacity");
      WriteCapacity(w, mode, result->consumption);
    }
  });
}

ApiResult<std::string> ExecuteWrite(Context& ctx, const rapidjson::Value& request,
                                    const partiql::Statement& statement) {
  auto old_on_failure = ReadOldItemOnFailure(request, "");
  if (!old_on_failure.ok()) return old_on_failure.take_error();
  auto action = WriteAction(ctx, statement, *old_on_failure);
  if (!action.ok()) return action.take_error();
  auto result = RunWrite(ctx, *action);
  if (!result.ok()) return result.take_error();
  std::string_view mode = CapacityMode(request);
  if (ctx.record) {
    ctx.record->consumed.push_back(result->consumption);
    ctx.record->accesses.push_back({.table = result->consumption.table});
  }
  return RenderObject([&](JsonWriter& w) {
    std::vector<Item> items;
    if (result->returned) items.push_back(std::move(*result->returned));
    WriteItems(w, items);
    if (WantsCapacity(mode)) {
      w.Key("ConsumedCapacity");
      WriteCapacity(w, mode, result->consumption);
    }
  });
}

// The members every PartiQL operation shares, checked in DynamoDB's form.
ApiResult<bool> CheckCommonMembers(const rapidjson::Value& request) {
  RequestReader r(request);
  auto consumed = r.String("ReturnConsumedCapacity");
  auto limit = r.Integer("Limit");
  auto next_token = r.String("NextToken");
  auto token = r.String("ClientRequestToken");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.Enum(consumed, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  constraints.Range(limit, "limit", 1, INT32_MAX);
  if (next_token) constraints.Length(*next_token, "nextToken", 1, 32768);
  if (token) constraints.Length(*token, "clientRequestToken", 1, 36);
  if (!constraints.empty()) return constraints.ToError();
  return true;
}

// The statements array of a batch or transaction: present, 1 to `max`.
ApiResult<const rapidjson::Value*> ReadStatementList(const rapidjson::Value& request,
                                                     const char* member, const char* path,
                                                     size_t max) {
  RequestReader r(request);
  const rapidjson::Value* list = r.Array(member);
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(list != nullptr, path);
  if (list && (list->Empty() || list->Size() > max)) {
    constraints.Violation(
        "", path,
        list->Empty() ? "Member must have length greater than or equal to 1"
                      : "Member must have length less than or equal to " + std::to_string(max));
  }
  if (!constraints.empty()) return constraints.ToError();
  for (const auto& element : list->GetArray()) {
    if (!element.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
  }
  return list;
}

// DynamoDB names the statement of a transaction that fails validation.
ApiError InStatement(size_t index, ApiError error) {
  if (!IsValidation(error.short_type())) return error;
  error = InLayerOf("ExecuteTransaction", std::move(error));
  return ApiError::Validation("Validation failed in TransactStatements[" + std::to_string(index) +
                              "]: " + error.message);
}

void WriteBatchError(JsonWriter& w, const ApiError& in_any_layer) {
  ApiError error = InLayerOf("BatchExecuteStatement", in_any_layer);
  w.Key("Error");
  w.StartObject();
  w.Key("Code");
  WriteString(w, BatchStatementErrorCode(error));
  w.Key("Message");
  WriteString(w, error.message);
  if (error.item) {
    w.Key("Item");
    WriteItem(w, *error.item);
  }
  w.EndObject();
}

// A member that runs names its table in its answer, whatever comes of it
// (an item, a failed condition, a duplicate); one refused before it ran
// does not (captured by the public conformance suite, 2026).
void WriteBatchTableName(JsonWriter& w, std::string_view table) {
  w.Key("TableName");
  WriteString(w, table);
}

// A SELECT of a batch: one item, by its whole key.
void RunBatchRead(Context& ctx, const rapidjson::Value& element,
                  const partiql::SelectStatement& select, TableCapacities& consumed,
                  JsonWriter& w) {
  auto keyed = ReadByKey(ctx, select,
                         "Select statements within BatchExecuteStatement must specify the "
                         "primary key in the where clause.");
  if (!keyed.ok()) return WriteBatchError(w, keyed.error());
  WriteBatchTableName(w, select.source.table);
  auto item = ctx.db.GetItem(ctx.caller.ns, select.source.table, keyed->key);
  if (!item.ok()) return WriteBatchError(w, FromStatus(item.status()));
  bool consistent = RequestReader(element).Bool("ConsistentRead").value_or(false);
  consumed.Add(
      ReadConsumption(*keyed->schema, nullptr, *item ? engine::ItemSize(**item) : 0, consistent));
  std::optional<Item> selected = *item ? SelectFrom(select, **item) : std::nullopt;
  if (selected) {
    w.Key("Item");
    WriteItem(w, *selected);
  }
}

// One member of a batch, answered in its own Responses entry: its Item,
// nothing, or its Error.
void RunBatchStatement(Context& ctx, const rapidjson::Value& element,
                       ApiResult<partiql::Statement>& statement, TableCapacities& consumed,
                       JsonWriter& w) {
  if (!statement.ok()) return WriteBatchError(w, statement.error());
  if (const auto* select = std::get_if<partiql::SelectStatement>(&*statement)) {
    return RunBatchRead(ctx, element, *select, consumed, w);
  }
  auto old_on_failure = ReadOldItemOnFailure(element, "");
  if (!old_on_failure.ok()) return WriteBatchError(w, old_on_failure.error());
  auto action = WriteAction(ctx, *statement, *old_on_failure);
  if (!action.ok()) return WriteBatchError(w, action.error());
  WriteBatchTableName(w, partiql::TableOf(*statement));
  auto result = RunWrite(ctx, *action);
  if (!result.ok()) return WriteBatchError(w, result.error());
  consumed.Add(result->consumption);
  if (result->returned) {
    w.Key("Item");
    WriteItem(w, *result->returned);
  }
}

// The SELECTs of a read transaction, each naming one item of a table by its
// whole key, read together as TransactGetItems reads.
ApiResult<std::string> ReadTransaction(Context& ctx,
                                       const std::vector<partiql::Statement>& statements,
                                       std::string_view mode) {
  std::vector<KeyedSelect> keyed;
  std::vector<engine::ItemRef> refs;
  for (size_t i = 0; i < statements.size(); ++i) {
    const auto& select = std::get<partiql::SelectStatement>(statements[i]);
    if (!select.source.index.empty()) {
      return InStatement(
          i, ApiError::Validation("Reads on indices are not supported within transactions."));
    }
    auto read = ReadByKey(ctx, select,
                          "Select statements within ExecuteTransaction must specify the primary "
                          "key in the where clause.");
    if (!read.ok()) return InStatement(i, read.take_error());
    refs.push_back({select.source.table, read->key});
    keyed.push_back(std::move(read).value());
  }
  for (size_t i = 0; i < keyed.size(); ++i) {
    if (auto valid = engine::ValidateKey(*keyed[i].schema, keyed[i].key); !valid.ok()) {
      return CancelOnValidation(keyed.size(), i, valid);
    }
  }
  std::vector<bool> conflicts;
  auto found = ctx.db.TransactGet(ctx.caller.ns, refs, &conflicts);
  if (!found.ok()) return found.status();
  if (std::find(conflicts.begin(), conflicts.end(), true) != conflicts.end()) {
    return CancelOnConflicts(conflicts);
  }
  TableCapacities consumed;
  std::string rendered = RenderObject([&](JsonWriter& w) {
    w.Key("Responses");
    w.StartArray();
    for (size_t i = 0; i < keyed.size(); ++i) {
      const std::optional<Item>& item = (*found)[i];
      consumed.Add(ReadConsumption(*keyed[i].schema, nullptr, item ? engine::ItemSize(*item) : 0,
                                   true, true));
      w.StartObject();
      std::optional<Item> selected = item ? SelectFrom(*keyed[i].select, *item) : std::nullopt;
      if (selected) {
        w.Key("Item");
        WriteItem(w, *selected);
      }
      w.EndObject();
    }
    w.EndArray();
    consumed.WriteTo(w, mode);
  });
  if (ctx.record) consumed.RecordIn(*ctx.record);
  return rendered;
}

}  // namespace

ApiResult<std::string> ExecuteStatement(Context& ctx, const rapidjson::Value& request) {
  auto common = CheckCommonMembers(request);
  if (!common.ok()) return common.take_error();
  auto statement = ReadStatement(ctx, request, "");
  if (!statement.ok()) return statement.take_error();
  if (const auto* select = std::get_if<partiql::SelectStatement>(&*statement)) {
    return ExecuteSelect(ctx, request, *select);
  }
  return ExecuteWrite(ctx, request, *statement);
}

ApiResult<std::string> BatchExecuteStatement(Context& ctx, const rapidjson::Value& request) {
  auto common = CheckCommonMembers(request);
  if (!common.ok()) return common.take_error();
  auto list = ReadStatementList(request, "Statements", "statements", kMaxBatchStatements);
  if (!list.ok()) return list.take_error();
  // A statement that cannot be parsed fails alone; the others still run.
  std::vector<ApiResult<partiql::Statement>> statements;
  bool reads = false;
  bool writes = false;
  for (const auto& element : (*list)->GetArray()) {
    statements.push_back(ReadStatement(ctx, element, ""));
    if (!statements.back().ok()) continue;
    (partiql::IsRead(*statements.back()) ? reads : writes) = true;
  }
  if (reads && writes) return ApiError::Validation(std::string(kMixedBatch));
  TableCapacities consumed;
  std::vector<std::string> responses;
  for (size_t i = 0; i < statements.size(); ++i) {
    responses.push_back(RenderObject([&](JsonWriter& w) {
      RunBatchStatement(ctx, (*list)->GetArray()[i], statements[i], consumed, w);
    }));
  }
  if (ctx.record) consumed.RecordIn(*ctx.record);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Responses");
    w.StartArray();
    for (const std::string& response : responses) {
      w.RawValue(response.data(), response.size(), rapidjson::kObjectType);
    }
    w.EndArray();
    consumed.WriteTo(w, CapacityMode(request));
  });
}

ApiResult<std::string> ExecuteTransaction(Context& ctx, const rapidjson::Value& request) {
  auto common = CheckCommonMembers(request);
  if (!common.ok()) return common.take_error();
  auto list = ReadStatementList(request, "TransactStatements", "transactStatements",
                                kMaxTransactStatements);
  if (!list.ok()) return list.take_error();
  std::vector<partiql::Statement> statements;
  for (const auto& element : (*list)->GetArray()) {
    auto read = ReadStatementRequest(element, "");
    if (!read.ok()) return read.take_error();
    auto statement = ParseStatementRequest(ctx, *read);
    if (!statement.ok()) return InStatement(statements.size(), statement.take_error());
    statements.push_back(std::move(statement).value());
  }
  size_t reads = std::count_if(statements.begin(), statements.end(),
                               [](const auto& s) { return partiql::IsRead(s); });
  if (reads != 0 && reads != statements.size()) {
    return ApiError::Validation(std::string(kMixedTransaction));
  }
  if (reads != 0) return ReadTransaction(ctx, statements, CapacityMode(request));
  std::vector<TransactAction> actions;
  for (size_t i = 0; i < statements.size(); ++i) {
    auto old_on_failure = ReadOldItemOnFailure((*list)->GetArray()[i], "");
    if (!old_on_failure.ok()) return old_on_failure.take_error();
    if (partiql::ReturningOf(statements[i]) != partiql::Returning::kNone) {
      return InStatement(
          i, ApiError::Validation("RETURNING clause is not supported in ExecuteTransaction."));
    }
    auto action = WriteAction(ctx, statements[i], *old_on_failure);
    if (!action.ok()) return InStatement(i, action.take_error());
    actions.push_back(std::move(action).value());
  }
  auto token = RequestReader(request).String("ClientRequestToken");
  std::string_view mode = CapacityMode(request);
  auto answer =
      RunTransactWrite(ctx, actions, token, token ? Fingerprint(**list) : "", mode, false);
  if (!answer.ok()) return answer.take_error();
  // A write transaction answers with an empty Responses list.
  return RenderObject([&](JsonWriter& w) {
    w.Key("Responses");
    w.StartArray();
    w.EndArray();
    answer->WriteTo(w, mode);
  });
}

}  // namespace ddb::api
