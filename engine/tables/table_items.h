// Walking every item of a table to derive entries from them — a new GSI's
// backfill, the TTL schedule when the TTL attribute changes, the indexes
// `localdynamo repair` rebuilds — in batches of bounded size, so that a
// large table never builds one huge batch.
//
// Thread safety: as Store; the caller holds the table's write_mu so that no
// write slips between the walk and the schema that follows it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/status.h"
#include "engine/storage/store.h"

namespace ddb::engine {

// Calls `visit` for every item of table `table_id`, in key order, with the
// batch to add entries to; the batch is written and replaced whenever it
// holds kEntriesPerBatch entries or more. The last batch is left in `batch`
// unwritten, for the caller to finish and write.
inline constexpr size_t kEntriesPerBatch = 1000;
using ItemVisitor =
    std::function<Status(std::string_view item_key, const Item& item, Store::Batch& batch)>;
Status ForEachTableItem(Store& store, uint64_t table_id, std::unique_ptr<Store::Batch>& batch,
                        const ItemVisitor& visit);

// What a new index's backfill writes for one item: the entry's key and
// value in the `indexes` family, and the bytes it counts for in the index's
// size; none when the item stays out of the index.
struct BackfillEntry {
  std::string key;
  std::string value;
  int64_t size = 0;
};
using BackfillEntryOf =
    std::function<std::optional<BackfillEntry>(std::string_view item_key, const Item& item)>;

// A GSI's or LSI's entry for an item. Items whose index key has another
// type than the index declares stay out of it, as DynamoDB's backfill
// leaves them (it reports them as violations). `schema` and `index` must
// outlive the function.
BackfillEntryOf SecondaryIndexEntryOf(const TableSchema& schema, const IndexSchema& index);

// Adds `entry_of`'s entry of every item of table `table_id` to the
// `indexes` family through `batch`, written and replaced as
// ForEachTableItem does, and returns the statistics of the entries added.
Result<TableStats> BackfillEntries(Store& store, uint64_t table_id,
                                   std::unique_ptr<Store::Batch>& batch,
                                   const BackfillEntryOf& entry_of);

}  // namespace ddb::engine
