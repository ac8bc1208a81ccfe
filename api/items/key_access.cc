#include "api/items/key_access.h"

#include "api/access_record.h"
#include "engine/key_insights.h"

namespace ddb::api {
namespace {

// The access profile's count of `item`'s partition key on `index` ("": the
// table); nothing when the item lacks one (an item outside a sparse index).
void NotePartition(Context& ctx, const engine::TableSchema& schema, std::string_view index,
                   const engine::Item& item) {
  const engine::KeySchema* key = engine::InsightsKeySchema(schema, index);
  if (!key) {  // a local index: a read of the table's partition
    key = &schema.key;
    index = "";
  }
  std::string& text = ctx.record->StartPartitionKey(schema.name, index);
  for (const auto& element : key->hash) {
    auto found = item.find(element.name);
    if (found == item.end()) {
      ctx.record->DropPartitionKey();
      return;
    }
    AppendKeyText(found->first, found->second, text);
  }
}

}  // namespace

void NoteKeyRead(Context& ctx, const engine::TableSchema& schema, std::string_view index,
                 const engine::Item& key) {
  if (ctx.record) NotePartition(ctx, schema, index, key);
  if (schema.contributor_insights.empty()) return;
  ctx.engine.key_insights().Note(ctx.caller.ns, schema, index, key, /*throttled=*/false);
}

void NoteItemWrite(Context& ctx, const engine::TableSchema& schema, const engine::Item& key,
                   const engine::Item* old_item, const engine::Item* new_item) {
  // An index is written when the item enters, changes in or leaves it:
  // counted by the key it has there now, or had.
  const engine::Item* indexed = new_item ? new_item : old_item;
  if (ctx.record) {
    NotePartition(ctx, schema, "", key);
    if (indexed) {
      for (const auto& gsi : schema.global_indexes) NotePartition(ctx, schema, gsi.name, *indexed);
    }
  }
  if (schema.contributor_insights.empty()) return;
  engine::KeyInsights& insights = ctx.engine.key_insights();
  insights.Note(ctx.caller.ns, schema, "", key, false);
  if (!indexed) return;
  for (const auto& gsi : schema.global_indexes) {
    insights.Note(ctx.caller.ns, schema, gsi.name, *indexed, false);
  }
}

void NoteKeyRead(Context& ctx, std::string_view table, std::string_view index,
                 const engine::Item& key) {
  auto schema = ctx.db.GetSchema(ctx.caller.ns, table);
  if (schema.ok()) NoteKeyRead(ctx, **schema, index, key);
}

void NoteItemWrite(Context& ctx, std::string_view table, const engine::Item& key,
                   const engine::Item* old_item, const engine::Item* new_item) {
  auto schema = ctx.db.GetSchema(ctx.caller.ns, table);
  if (schema.ok()) NoteItemWrite(ctx, **schema, key, old_item, new_item);
}

}  // namespace ddb::api
