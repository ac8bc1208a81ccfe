#include "api/items/key_access.h"

namespace ddb::api {

void NoteKeyRead(Context& ctx, const engine::TableSchema& schema, std::string_view index,
                 const engine::Item& key) {
  if (schema.contributor_insights.empty()) return;
  ctx.engine.key_insights().Note(ctx.caller.ns, schema, index, key, /*throttled=*/false);
}

void NoteItemWrite(Context& ctx, const engine::TableSchema& schema, const engine::Item& key,
                   const engine::Item* old_item, const engine::Item* new_item) {
  if (schema.contributor_insights.empty()) return;
  engine::KeyInsights& insights = ctx.engine.key_insights();
  insights.Note(ctx.caller.ns, schema, "", key, false);
  // An index is written when the item enters, changes in or leaves it:
  // counted by the key it has there now, or had.
  const engine::Item* indexed = new_item ? new_item : old_item;
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
