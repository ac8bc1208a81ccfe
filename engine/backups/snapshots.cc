#include "engine/backups/snapshots.h"

#include "engine/backups/table_data.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/coding.h"
#include "engine/key_codec.h"
#include "engine/ttl/ttl.h"

namespace ddb::engine {
namespace {


// The TTL schedule's entries of the tables in `by_id` (table id -> index
// in `tables`). The schedule is ordered by expiry, not by table: one pass
// over it serves every table.
Status CopyTtlEntries(const Store& store, const std::map<uint64_t, size_t>& by_id,
                      std::vector<DataSnapshot::Table>& tables) {
  auto it = store.NewIterator(Family::kTtl, std::string(), std::string());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    int64_t expiry = 0;
    std::string_view item_key;
    if (!ParseTtlEntryKey(it->key(), &expiry, &item_key)) continue;
    auto table = by_id.find(coding::DecodeFixed64BE(item_key));
    if (table == by_id.end()) continue;
    tables[table->second].ttl_entries.emplace_back(expiry,
                                                   std::string(item_key.substr(kTablePrefixSize)));
  }
  return it->status();
}

}  // namespace

Result<std::shared_ptr<const DataSnapshot>> DataSnapshots::Take(
    std::optional<std::string_view> ns) {
  auto snapshot = std::make_shared<DataSnapshot>();
  if (ns) snapshot->ns = std::string(*ns);
  DDB_RETURN_IF_ERROR(
      parts_.tables.WithTablesLocked(ns, [&](const std::vector<TableState*>& tables) -> Status {
        std::map<uint64_t, size_t> by_id;
        for (TableState* state : tables) {
          state->write_mu.AssertHeld();  // by WithTablesLocked
          DataSnapshot::Table& table = snapshot->tables.emplace_back();
          table.ns = state->ns;
          table.schema = *state->schema();
          table.stats = state->stats;
          table.index_stats = state->index_stats;
          by_id[state->table_id] = snapshot->tables.size() - 1;
          DDB_RETURN_IF_ERROR(
              ReadTableData(parts_.store, state->table_id, table, &snapshot->bytes));
          snapshot->item_count += static_cast<int64_t>(table.items.size());
        }
        if (by_id.empty()) return Status::Ok();
        return CopyTtlEntries(parts_.store, by_id, snapshot->tables);
      }));
  return std::shared_ptr<const DataSnapshot>(std::move(snapshot));
}

Result<RestoreSummary> DataSnapshots::Restore(const DataSnapshot& snapshot,
                                              std::optional<std::string_view> into) {
  if (!snapshot.ns && into) {
    return Status::InvalidArgument(
        "A snapshot of every database restores every database: give no namespace");
  }
  std::optional<std::string_view> target;
  if (snapshot.ns) target = into.value_or(*snapshot.ns);

  std::vector<TableRegistry::NewTable> tables;
  for (const DataSnapshot::Table& table : snapshot.tables) {
    tables.push_back({target ? std::string(*target) : table.ns, table.schema, table.stats,
                      table.index_stats});
    // A restored table's recovery history starts now: the old one's is gone.
    auto& pitr = tables.back().schema.point_in_time_recovery;
    if (pitr.enabled) pitr.enabled_since_millis = parts_.clock.NowMillis();
  }
  int64_t earliest_expiry = INT64_MAX;
  auto fill = [&](size_t i, uint64_t table_id, Store::Batch& batch) {
    const DataSnapshot::Table& table = snapshot.tables[i];
    AddTableData(table, table_id, batch);
    const std::string prefix = TablePrefix(table_id);
    for (const auto& [expiry, suffix] : table.ttl_entries) {
      batch.Put(Family::kTtl, TtlEntryKey(expiry, prefix + suffix), "");
      earliest_expiry = std::min(earliest_expiry, expiry);
    }
  };
  DDB_RETURN_IF_ERROR(parts_.tables.Replace(target, std::move(tables), fill));
  if (earliest_expiry != INT64_MAX) parts_.ttl.NoteScheduled(earliest_expiry);
  return RestoreSummary{static_cast<int64_t>(snapshot.tables.size()), snapshot.item_count};
}

Status DataSnapshots::DropNamespace(std::string_view ns) {
  DataSnapshot empty;
  empty.ns = std::string(ns);
  return Restore(empty, std::nullopt).status();
}

Status DataSnapshots::Reset() {
  return parts_.backups.DropAll([this] { return DropEverything(); });
}

Status DataSnapshots::DropEverything() {
  return parts_.tables.DropAll([this] {
    Store::Batch batch(parts_.store);
    // Keys of these families start with an 8-byte id or time: 9 bytes of
    // 0xff are past all of them.
    const std::string end(9, '\xff');
    // Clear, not DeleteRange: a suite resetting before each test would
    // otherwise add range tombstones that every later read pays for.
    for (Family family : {Family::kItems, Family::kIndexes, Family::kStreams, Family::kTtl,
                          Family::kHistory}) {
      batch.Clear(family, std::string(), end);
    }
    for (char kind : catalog_keys::kTableKinds) {
      batch.Clear(Family::kCatalog, catalog_keys::KindBegin(kind), catalog_keys::KindEnd(kind));
    }
    DDB_RETURN_IF_ERROR(parts_.store.Write(batch));
    parts_.streams.Clear();
    parts_.tokens.Clear();
    parts_.ttl.Clear();
    return Status::Ok();
  });
}

}  // namespace ddb::engine
