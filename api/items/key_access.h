// Contributor Insights' counting of the requests that succeed
// (engine/key_insights.h): a read of a key on the table or one of its
// global indexes, and a write of an item, counted on the table and on every
// global index the item is in (a write there consumes the index's capacity
// too). Nothing is counted there for a table without insights enabled;
// the access profile's partition keys (access_record.h) are noted for every
// table when the request keeps a record.
//
// Thread safety: as the Database.
#pragma once

#include <string_view>

#include "api/context.h"
#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"

namespace ddb::api {

void NoteKeyRead(Context& ctx, const engine::TableSchema& schema, std::string_view index,
                 const engine::Item& key);
// `key` is the request's key (or item); old or new item null when absent.
void NoteItemWrite(Context& ctx, const engine::TableSchema& schema, const engine::Item& key,
                   const engine::Item* old_item, const engine::Item* new_item);
// The same with the table's name: its schema is looked up only to be read.
void NoteKeyRead(Context& ctx, std::string_view table, std::string_view index,
                 const engine::Item& key);
void NoteItemWrite(Context& ctx, std::string_view table, const engine::Item& key,
                   const engine::Item* old_item, const engine::Item* new_item);

}  // namespace ddb::api
