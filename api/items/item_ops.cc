// PutItem, GetItem, UpdateItem, DeleteItem.
#include "api/access_record.h"
#include "api/attribute_json.h"
#include "api/capacity.h"
#include "api/items/item_request.h"
#include "api/items/key_access.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "engine/expression/document_path.h"
#include "engine/expression/update.h"

namespace ddb::api {
namespace {

namespace expr = engine::expr;
using engine::Item;

// The ConsumedCapacity member, when the request asked for it.
void WriteConsumed(JsonWriter& w, const ItemRequest& request, const Consumption& consumption) {
  if (!WantsCapacity(request.return_consumed_capacity)) return;
  w.Key("ConsumedCapacity");
  WriteCapacity(w, request.return_consumed_capacity, consumption);
}

// Where a request's consumption is kept: in the access record when the
// request has one, so that it is moved once, else in `unrecorded`.
const Consumption& Keep(Context& ctx, std::optional<Consumption>& unrecorded,
                        Consumption&& consumption) {
  if (ctx.record) return ctx.record->consumed.emplace_back(std::move(consumption));
  return unrecorded.emplace(std::move(consumption));
}

// A write's answer: Attributes (when any) and ConsumedCapacity (when asked).
// `sizes`: the items' sizes as the write measured them.
ApiResult<std::string> WriteResponse(Context& ctx, const ItemRequest& request,
                                     const std::optional<Item>& attributes,
                                     const Item* old_item, const Item* new_item,
                                     const engine::ItemSizes& sizes) {
  std::optional<Consumption> unrecorded;
  const Consumption* consumption = nullptr;
  std::shared_ptr<const engine::TableSchema> schema;
  bool wants = WantsCapacity(request.return_consumed_capacity);
  if (wants || request.item_collection_metrics || ctx.record) {
    auto found = ctx.db.GetSchema(ctx.caller.ns, request.table);
    if (!found.ok()) return found.status();
    schema = std::move(found).value();
  }
  if (wants || ctx.record) {
    consumption = &Keep(ctx, unrecorded, WriteConsumption(*schema, old_item, new_item, false, &sizes));
  }
  const Item* touched = new_item ? new_item : old_item;
  if (schema) {
    NoteItemWrite(ctx, *schema, request.attributes, old_item, new_item);
  } else {
    NoteItemWrite(ctx, request.table, request.attributes, old_item, new_item);
  }
  std::string rendered = RenderObject([&](JsonWriter& w) {
    if (attributes && !attributes->empty()) {
      w.Key("Attributes");
      WriteItem(w, *attributes);
    }
    if (consumption) WriteConsumed(w, request, *consumption);
    if (request.item_collection_metrics && HasItemCollections(*schema)) {
      w.Key("ItemCollectionMetrics");
      WriteItemCollection(w, *schema, touched ? *touched : request.attributes);
    }
  });
  if (ctx.record) ctx.record->accesses.push_back({.table = request.table});
  return rendered;
}

const Item* Pointer(const std::optional<Item>& item) { return item ? &*item : nullptr; }

}  // namespace

ApiResult<std::string> PutItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadItemRequest(request, ItemOp::kPut);
  if (!parsed.ok()) return parsed.take_error();
  ConditionCheck check(*parsed);
  engine::ItemSizes sizes;
  auto old_item = ctx.db.PutItem(ctx.caller.ns, parsed->table, parsed->attributes,
                                 check.Precondition(), &sizes);
  if (!old_item.ok()) return check.Error(old_item.status());
  return WriteResponse(ctx, *parsed, parsed->return_values == "ALL_OLD" ? *old_item : std::nullopt,
                       Pointer(*old_item), &parsed->attributes, sizes);
}

ApiResult<std::string> DeleteItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadItemRequest(request, ItemOp::kDelete);
  if (!parsed.ok()) return parsed.take_error();
  ConditionCheck check(*parsed);
  engine::ItemSizes sizes;
  auto old_item = ctx.db.DeleteItem(ctx.caller.ns, parsed->table, parsed->attributes,
                                    check.Precondition(), &sizes);
  if (!old_item.ok()) return check.Error(old_item.status());
  return WriteResponse(ctx, *parsed, parsed->return_values == "ALL_OLD" ? *old_item : std::nullopt,
                       Pointer(*old_item), nullptr, sizes);
}

ApiResult<std::string> UpdateItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadItemRequest(request, ItemOp::kUpdate);
  if (!parsed.ok()) return parsed.take_error();
  parsed->judges_update_writes = true;
  ConditionCheck check(*parsed);
  std::optional<Item> new_item;  // none when the update wrote nothing
  engine::ItemSizes sizes;
  auto planner = [&](const Item* current) -> engine::Result<engine::Mutation> {
    auto mutation = UpdateMutation(*parsed, current);
    // The size limit is judged before the condition (captured); other
    // errors of the update come after it.
    if (!mutation.ok() && mutation.status().message() == kUpdateTooLarge) return mutation;
    DDB_RETURN_IF_ERROR(check(current));
    if (mutation.ok() && mutation->kind == engine::Mutation::Kind::kPut) {
      new_item = mutation->new_item;
    }
    if (mutation.ok()) mutation->sizes = &sizes;
    return mutation;
  };
  auto old_item = ctx.db.WriteItem(ctx.caller.ns, parsed->table, parsed->attributes, planner);
  if (!old_item.ok()) return check.Error(old_item.status());
  return WriteResponse(
      ctx, *parsed,
      UpdateResult(parsed->return_values, *old_item, new_item.value_or(Item{}), parsed->expressions),
      Pointer(*old_item), Pointer(new_item), sizes);
}

ApiResult<std::string> GetItem(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadItemRequest(request, ItemOp::kGet);
  if (!parsed.ok()) return parsed.take_error();
  auto item = ctx.db.GetItem(ctx.caller.ns, parsed->table, parsed->attributes);
  if (!item.ok()) return item.status();
  std::optional<Consumption> unrecorded;
  const Consumption* consumption = nullptr;
  if (WantsCapacity(parsed->return_consumed_capacity) || ctx.record) {
    auto schema = ctx.db.GetSchema(ctx.caller.ns, parsed->table);
    if (!schema.ok()) return schema.status();
    NoteKeyRead(ctx, **schema, "", parsed->attributes);  // one schema lookup for both
    size_t size = item->has_value() ? engine::ItemSize(**item) : 0;
    consumption =
        &Keep(ctx, unrecorded, ReadConsumption(**schema, nullptr, size, parsed->consistent));
  } else {
    NoteKeyRead(ctx, parsed->table, "", parsed->attributes);
  }
  std::string rendered = RenderObject([&](JsonWriter& w) {
    if (item->has_value()) {
      w.Key("Item");
      WriteProjected(w, **item, parsed->expressions.projection);
    }
    if (consumption) WriteConsumed(w, *parsed, *consumption);
  });
  if (ctx.record) {
    uint64_t found = item->has_value() ? 1 : 0;
    ctx.record->accesses.push_back(
        {.table = parsed->table, .items_read = found, .items_returned = found});
  }
  return rendered;
}

}  // namespace ddb::api
