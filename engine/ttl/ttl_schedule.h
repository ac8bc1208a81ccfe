// TtlSchedule: keeps the ttl column family (ttl.h) in step with items and
// schemas, and remembers where the next sweep starts so that a sweep never
// walks the deleted entries (RocksDB tombstones) of the sweeps before it.
//
// The sweep starts at `swept_through_` (every entry due before that second
// is handled), lowered by `written_min_`: the earliest expiry written since
// the last sweep began.
//
// Thread safety: safe for concurrent use (two atomics). Sweeps themselves
// are serialized by the TtlSweeper.
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>
#include <string>

#include "engine/attribute_value.h"
#include "engine/catalog/catalog.h"
#include "engine/status.h"
#include "engine/storage/store.h"

namespace ddb::engine {

class TtlSchedule {
 public:
  // Adds to `batch` the schedule entries of replacing `old_item` by
  // `new_item` (either may be null) under `item_key`; returns the earliest
  // expiry it schedules (INT64_MAX: none). NoteScheduled it once written.
  static int64_t WriteEntries(const TableSchema& schema, const std::string& item_key,
                              const Item* old_item, const Item* new_item, Store::Batch& batch);

  // Lets the next sweep start early enough for an entry due at `expiry`.
  // Called once the entry is written.
  void NoteScheduled(int64_t expiry);

  // Schedules every item of the table for `schema`'s TTL attribute, before
  // the schema is stored: a crash between the two leaves entries the
  // sweeper finds stale and drops, never an item that should expire without
  // an entry. REQUIRES: the table's write_mu held.
  Status Reschedule(Store& store, const TableSchema& old_schema, const TableSchema& schema);

  // The first second a sweep has to look at.
  int64_t SweepFrom();
  // Where the next sweep starts: `next_from`, or earlier if entries were
  // written meanwhile.
  void SweptThrough(int64_t next_from);

  // As new (DataSnapshots::Reset).
  void Clear();

 private:
  std::atomic<int64_t> swept_through_{0};
  std::atomic<int64_t> written_min_{INT64_MAX};
};

}  // namespace ddb::engine
