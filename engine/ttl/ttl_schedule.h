// TtlSchedule: keeps the ttl column family (ttl.h) in step with items and
// schemas, and remembers where the next sweep starts so that a sweep never
// walks the deleted entries (RocksDB tombstones) of the sweeps before it.
//
// The sweep starts at `swept_through_` (every entry due before that second
// is handled), lowered by `written_min_`: the earliest expiry written since
// the last sweep began. `next_due_` is the earliest expiry of the entries
// left after the last sweep (written_min_ lowers it too): until then a sweep
// has nothing to read, and skips the store. An idle server then never opens
// an iterator over the ttl family: the first sweep of an empty one faulted
// in 2.7 MB of RocksDB's code, a third of the idle server's memory.
//
// Thread safety: safe for concurrent use (three atomics). Sweeps themselves
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

  // Whether an entry may be due by `now_seconds`: false only when none can.
  bool MayBeDue(int64_t now_seconds) const;
  // The first second a sweep has to look at.
  int64_t SweepFrom();
  // Where the next sweep starts: `next_from`, or earlier if entries were
  // written meanwhile; `next_due`: the earliest expiry the store holds past
  // the sweep (INT64_MAX: none).
  void SweptThrough(int64_t next_from, int64_t next_due);
  // A store known to hold no entries (a new one in memory): nothing is due
  // until one is written.
  void NothingScheduled();

  // As new (DataSnapshots::Reset).
  void Clear();

 private:
  std::atomic<int64_t> swept_through_{0};
  std::atomic<int64_t> written_min_{INT64_MAX};
  std::atomic<int64_t> next_due_{0};  // 0: not known yet, so look
};

}  // namespace ddb::engine
