// BatchGetItem and BatchWriteItem: up to 100 reads / 25 writes over several
// tables. Each write is atomic on its own; the batch as a whole is not, as
// in DynamoDB. The whole batch is validated before anything is written.
#include <algorithm>
#include <set>

#include "api/access_record.h"
#include "api/attribute_json.h"
#include "api/capacity.h"
#include "api/items/expression_request.h"
#include "api/items/item_capture.h"
#include "api/items/item_request.h"
#include "api/items/key_access.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"

namespace ddb::api {
namespace {

using engine::Item;

constexpr size_t kMaxBatchGetKeys = 100;
constexpr size_t kMaxBatchWrites = 25;
constexpr size_t kMaxBatchGetResponseBytes = 16 * 1024 * 1024;

ApiError Duplicates() {
  return ApiError::Validation("Provided list of item keys contains duplicates");
}

// The storage key of `item`'s key: equal keys, equal strings.
std::string KeyIdentity(const engine::TableSchema& schema, const Item& item) {
  return engine::ItemKey(schema.table_id, schema, item);
}

// Whether `name` breaks the constraints on a table name or ARN.
bool BadTableName(std::string_view name) {
  Constraints check;
  check.TableNameOrArn(name);
  return !check.empty();
}

ApiResult<const rapidjson::Value*> RequestItems(const rapidjson::Value& request,
                                                std::string_view operation) {
  bool write = operation == "BatchWriteItem";
  RequestReader r(request);
  const rapidjson::Value* items = r.Object("RequestItems");
  auto consumed = r.String("ReturnConsumedCapacity");
  auto metrics = write ? r.String("ReturnItemCollectionMetrics") : std::nullopt;
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(items != nullptr, "requestItems");
  // A bad table name among the map's keys breaks the map's key constraint.
  // BatchGetItem states it once, echoing the map as JSON, ahead of the enums
  // (captured 2026). BatchWriteItem echoes it in Java's form (captured
  // before table ARNs; its values elided here, as the reader has already
  // set its items aside) and leaves it out when an enum is unknown
  // (captured 2026-10).
  auto check_names = [&] {
    if (!items) return;
    for (const auto& table : items->GetObject()) {
      if (!BadTableName(View(table.name))) continue;
      std::string echo = write ? "'{" + std::string(View(table.name)) + "=...}'"
                               : "'" + CompactJson(*items) + "'";
      constraints.Violation(echo, "requestItems",
                            "Map keys must satisfy constraint: [Member must have length less "
                            "than or equal to 255, Member must have length greater than or "
                            "equal to 3, Member must satisfy regular expression pattern: "
                            "[a-zA-Z0-9_.-]+]");
      if (!write) return;
    }
  };
  if (!write) check_names();
  constraints.Enum(consumed, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  constraints.Enum(metrics, "returnItemCollectionMetrics", {"SIZE", "NONE"});
  if (write && constraints.empty()) check_names();
  if (!constraints.empty()) return constraints.ToError();
  if (items->ObjectEmpty()) {
    return ApiError::Validation("The requestItems parameter is required for " +
                                std::string(operation));
  }
  return items;
}

// --- BatchGetItem ------------------------------------------------------------

struct TableGets {
  std::string table;
  const rapidjson::Value* json = nullptr;  // the table's KeysAndAttributes
  std::shared_ptr<const engine::TableSchema> schema;
  std::vector<Item> keys;
  bool consistent = false;
  RequestExpressions expressions;
};

ApiResult<std::vector<TableGets>> ReadGets(Context& ctx, const rapidjson::Value& items) {
  std::vector<TableGets> tables;
  size_t total = 0;
  for (const auto& member : items.GetObject()) {
    TableGets gets;
    gets.table = std::string(View(member.name));
    gets.json = &member.value;
    if (!member.value.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
    RequestReader r(member.value);
    const rapidjson::Value* keys = r.Array("Keys");
    gets.consistent = r.Bool("ConsistentRead").value_or(false);
    if (r.failed()) return r.error();
    Constraints constraints;
    constraints.NotNull(keys != nullptr, "requestItems." + gets.table + ".member.keys");
    if (!constraints.empty()) return constraints.ToError();
    // Empty Keys: the form DynamoDB answers over 100 keys in (captured),
    // with the other bound (inferred).
    if (keys->Empty()) {
      constraints.Violation("", "RequestItems." + gets.table + ".member.Keys",
                            "Member must have length greater than or equal to 1");
      return constraints.ToError();
    }
    if (keys->Size() > kMaxBatchGetKeys) {
      constraints.Violation("", "RequestItems." + gets.table + ".member.Keys",
                            "Member must have length less than or equal to 100");
      return constraints.ToError();
    }
    total += keys->Size();
    if (total > kMaxBatchGetKeys) {
      return ApiError::Validation("Too many items requested for the BatchGetItem call");
    }
    auto expressions = ReadExpressions(member.value, {.projection = true});
    if (!expressions.ok()) return expressions.take_error();
    gets.expressions = std::move(expressions).value();
    for (const auto& key_json : keys->GetArray()) {
      auto key = ParseItem(key_json);
      if (!key.ok()) return key.take_error();
      gets.keys.push_back(std::move(key).value());
    }
    tables.push_back(std::move(gets));
  }
  // The request is one request: ProjectionExpression on one table and
  // AttributesToGet on another mix the two kinds of parameter (text
  // inferred from the single-table one).
  auto uses = [&](const char* member) {
    return std::any_of(tables.begin(), tables.end(), [&](const TableGets& gets) {
      auto it = gets.json->FindMember(member);
      return it != gets.json->MemberEnd() && !it->value.IsNull();
    });
  };
  if (uses("AttributesToGet") && uses("ProjectionExpression")) {
    return ApiError::Validation(
        "Can not use both expression and non-expression parameters in the same request: "
        "Non-expression parameters: {AttributesToGet} Expression parameters: "
        "{ProjectionExpression}");
  }
  for (TableGets& gets : tables) {
    auto schema = ctx.db.GetSchema(ctx.caller.ns, TableNameFromArn(gets.table));
    if (!schema.ok()) return schema.status();
    gets.schema = std::move(schema).value();
    std::set<std::string> seen;
    for (const Item& key : gets.keys) {
      if (auto status = engine::ValidateKey(*gets.schema, key); !status.ok()) return status;
      if (!seen.insert(KeyIdentity(*gets.schema, key)).second) return Duplicates();
    }
  }
  return tables;
}

}  // namespace

ApiResult<std::string> BatchGetItem(Context& ctx, const rapidjson::Value& request) {
  auto items = RequestItems(request, "BatchGetItem");
  if (!items.ok()) return items.take_error();
  auto tables = ReadGets(ctx, **items);
  if (!tables.ok()) return tables.take_error();
  std::vector<engine::ItemRef> refs;
  for (const TableGets& gets : *tables) {
    for (const Item& key : gets.keys) refs.push_back({TableNameFromArn(gets.table), key});
  }
  auto found = ctx.db.GetItems(ctx.caller.ns, refs);
  if (!found.ok()) return found.status();
  for (const TableGets& gets : *tables) {
    for (const Item& key : gets.keys) NoteKeyRead(ctx, *gets.schema, "", key);
  }
  TableCapacities consumed;
  size_t bytes = 0;
  std::string rendered = RenderObject([&](JsonWriter& w) {
    size_t next = 0;
    // Keys past the 16 MB response cap, by table.
    std::map<std::string, std::vector<const Item*>> unprocessed;
    w.Key("Responses");
    w.StartObject();
    for (const TableGets& gets : *tables) {
      WriteString(w, gets.table);
      w.StartArray();
      consumed.Add(Consumption(gets.table, false));  // listed even if nothing is read
      for (const Item& key : gets.keys) {
        const std::optional<Item>& item = (*found)[next++];
        if (bytes > kMaxBatchGetResponseBytes) {
          unprocessed[gets.table].push_back(&key);
          continue;
        }
        size_t size = item ? engine::ItemSize(*item) : 0;
        consumed.Add(ReadConsumption(*gets.schema, nullptr, size, gets.consistent));
        if (!item) continue;
        consumed.CountRead(gets.schema->name);
        bytes += size;
        WriteProjected(w, *item, gets.expressions.projection);
      }
      w.EndArray();
    }
    w.EndObject();
    w.Key("UnprocessedKeys");
    w.StartObject();
    for (const TableGets& gets : *tables) {
      auto it = unprocessed.find(gets.table);
      if (it == unprocessed.end()) continue;
      WriteString(w, gets.table);
      w.StartObject();
      for (const auto& member : gets.json->GetObject()) {  // echo the table's parameters
        if (View(member.name) == "Keys") continue;
        WriteString(w, View(member.name));
        member.value.Accept(w);
      }
      w.Key("Keys");
      w.StartArray();
      for (const Item* key : it->second) WriteItem(w, *key);
      w.EndArray();
      w.EndObject();
    }
    w.EndObject();
    consumed.WriteTo(w, CapacityMode(request));
  });
  if (ctx.record) consumed.RecordIn(*ctx.record);
  return rendered;
}

ApiResult<std::string> BatchWriteItem(Context& ctx, const rapidjson::Value& request) {
  auto items = RequestItems(request, "BatchWriteItem");
  if (!items.ok()) return items.take_error();
  struct Write {
    std::string table;
    std::shared_ptr<const engine::TableSchema> schema;
    bool put = false;
    Item item;  // the item (put) or the key (delete)
  };
  std::vector<Write> writes;
  Constraints constraints;
  for (const auto& member : (*items)->GetObject()) {
    std::string table(View(member.name));
    if (!member.value.IsArray()) return ApiError::Serialization("Unexpected value type in payload");
    size_t count = member.value.Size();
    if (count == 0 || count > kMaxBatchWrites) {
      // DynamoDB echoes the table's requests in Java's list form; the
      // requests themselves are elided here.
      constraints.Violation("'{" + table + (count == 0 ? "=[]}'" : "=[...]}'"), "requestItems",
                            "Map value must satisfy constraint: [Member must have length less "
                            "than or equal to 25, Member must have length greater than or equal "
                            "to 1]");
      continue;
    }
    for (const auto& element : member.value.GetArray()) {
      if (!element.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
      RequestReader r(element);
      const rapidjson::Value* put = r.Object("PutRequest");
      const rapidjson::Value* del = r.Object("DeleteRequest");
      if (r.failed()) return r.error();
      if ((put != nullptr) == (del != nullptr)) {
        return ApiError::Validation(
            "Supplied AttributeValue has more than one datatypes set, must contain exactly one "
            "of the supported datatypes");
      }
      RequestReader inner(put ? *put : *del);
      const rapidjson::Value* body = inner.Object(put ? "Item" : "Key");
      if (inner.failed()) return inner.error();
      if (!body) {
        constraints.NotNull(false, "requestItems." + table + ".member." +
                                       (put ? "putRequest.item" : "deleteRequest.key"));
        continue;
      }
      auto parsed = ctx.captured_items ? ctx.captured_items->TakeOrParse(*body) : ParseItem(*body);
      if (!parsed.ok()) return parsed.take_error();
      writes.push_back({table, nullptr, put != nullptr, std::move(parsed).value()});
    }
  }
  if (!constraints.empty()) return constraints.ToError();
  if (writes.size() > kMaxBatchWrites) {
    return ApiError::Validation("Too many items requested for the BatchWriteItem call");
  }
  // Everything is checked before anything is written.
  std::set<std::string> seen;
  for (Write& write : writes) {
    auto schema = ctx.db.GetSchema(ctx.caller.ns, TableNameFromArn(write.table));
    if (!schema.ok()) return schema.status();
    write.schema = std::move(schema).value();
    engine::Status valid = write.put ? engine::ValidateItemKey(*write.schema, write.item)
                                     : engine::ValidateKey(*write.schema, write.item);
    // A batch words a missing or mistyped key attribute as a key mismatch.
    if (!valid.ok() && write.put &&
        (valid.message().find("Missing the key") != std::string::npos ||
         valid.message().find("Type mismatch for key") != std::string::npos)) {
      valid = engine::Status::InvalidArgument(
          "The provided key element does not match the schema");
    }
    if (valid.ok() && write.put) valid = engine::ValidateIndexKeys(*write.schema, write.item, false);
    if (!valid.ok()) return valid;
    if (write.put && engine::ItemSize(write.item) > engine::kMaxItemBytes) {
      return ApiError::Validation("Item size has exceeded the maximum allowed size");
    }
    if (!seen.insert(KeyIdentity(*write.schema, write.item)).second) {
      return Duplicates();
    }
  }
  auto metrics = request.FindMember("ReturnItemCollectionMetrics");
  bool want_metrics = metrics != request.MemberEnd() && metrics->value.IsString() &&
                      View(metrics->value) == "SIZE";
  ItemCollections collections;
  TableCapacities consumed;
  std::map<std::string, std::vector<const Write*>> unprocessed;
  for (Write& write : writes) {
    std::string table = TableNameFromArn(write.table);  // as given: echoed when unprocessed
    auto old_item = write.put ? ctx.db.PutItem(ctx.caller.ns, table, write.item)
                              : ctx.db.DeleteItem(ctx.caller.ns, table, write.item);
    // A write that fails now (it passed validation: the item met a
    // transaction, or the table went away meanwhile) goes back unprocessed,
    // so the client learns exactly which writes did not land.
    if (!old_item.ok()) {
      unprocessed[write.table].push_back(&write);
      continue;
    }
    const Item* old_ptr = *old_item ? &**old_item : nullptr;
    consumed.Add(WriteConsumption(*write.schema, old_ptr, write.put ? &write.item : nullptr));
    NoteItemWrite(ctx, *write.schema, write.item, old_ptr, write.put ? &write.item : nullptr);
    if (want_metrics) collections.Add(*write.schema, write.item);
  }
  if (ctx.record) consumed.RecordIn(*ctx.record);
  return RenderObject([&](JsonWriter& w) {
    w.Key("UnprocessedItems");
    w.StartObject();
    for (const auto& [table, pending] : unprocessed) {
      WriteString(w, table);
      w.StartArray();
      for (const Write* write : pending) {
        w.StartObject();
        w.Key(write->put ? "PutRequest" : "DeleteRequest");
        w.StartObject();
        w.Key(write->put ? "Item" : "Key");
        WriteItem(w, write->item);
        w.EndObject();
        w.EndObject();
      }
      w.EndArray();
    }
    w.EndObject();
    consumed.WriteTo(w, CapacityMode(request));
    collections.WriteTo(w);
  });
}

}  // namespace ddb::api
