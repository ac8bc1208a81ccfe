#include "emulator/profile/access_profile.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "api/json_reader.h"

namespace ddb::emulator {
namespace {

// Whether two names are equal, inline: Add compares the record's names with
// the ones its last request found several times per request, and the
// library's out-of-line compares cost more than all the rest. Names of 8
// to 16 bytes are compared as two words; others through memcmp.
[[gnu::always_inline]] inline uint64_t Word(const char* at) {
  uint64_t word;
  std::memcpy(&word, at, sizeof word);
  return word;
}
[[gnu::always_inline]] inline bool Same(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8 && n <= 16) {  // two words, overlapping when shorter
    return Word(x) == Word(y) && Word(x + n - 8) == Word(y + n - 8);
  }
  return n == 0 || x == y || std::memcmp(x, y, n) == 0;
}

// Add's rarely taken paths are kept out of line and marked cold, so that
// the code a typical request runs through takes fewer cache lines: in a
// simulation of UpdateItem (bench/profile_counted.py), Add's instruction
// cache misses were a quarter of the 166 the profile added to a request's,
// and this took them from 44 to 38.

template <class Map>
[[gnu::cold, gnu::noinline]] typename Map::mapped_type& NewEntry(Map& map, std::string_view key) {
  return map.emplace(std::string(key), typename Map::mapped_type{}).first->second;
}

// `map`'s entry for `key`, made when missing, without a string for a lookup
// that finds it.
template <class Map>
typename Map::mapped_type& Entry(Map& map, std::string_view key) {
  auto it = map.find(key);
  if (it == map.end()) [[unlikely]] return NewEntry(map, key);
  return it->second;
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void AddUnits(UnitsAndBytes& to, bool write, double units, uint64_t bytes) {
  (write ? to.write_units : to.read_units) += units;
  (write ? to.write_bytes : to.read_bytes) += bytes;
}

// The units of `c` on the table (`table_resource`, its "" entry) and each
// index, into the table's tallies; returns their sum.
double AddConsumption(TableTally& table, ResourceTally& table_resource, const api::Consumption& c) {
  AddUnits(table_resource.units, c.write, c.table_units, c.table_bytes);
  double total = c.table_units;
  for (const api::IndexConsumption& index : c.indexes) {
    AddUnits(Entry(table.resources, index.name).units, c.write, index.units, index.bytes);
    total += index.units;
  }
  return total;
}

[[gnu::always_inline]] inline bool SameShape(const ShapeTally& shape, const api::AccessRecord& record,
                                             std::string_view index) {
  return Same(shape.operation, record.operation) && Same(shape.index, index) &&
         Same(shape.key_condition, record.key_condition) && Same(shape.filter, record.filter) &&
         Same(shape.projection, record.projection);
}

[[gnu::cold, gnu::noinline]] void StartSecond(std::deque<SecondUnits>& timeline, int64_t second) {
  timeline.push_back({second, 0, 0});
  while (timeline.size() > AccessProfile::kTimelineSeconds) timeline.pop_front();
}

void AddToTimeline(TableTally& table, int64_t second, double read, double write) {
  auto& timeline = table.timeline;
  if (timeline.empty() || timeline.back().second != second) [[unlikely]] {
    StartSecond(timeline, second);
  }
  timeline.back().read_units += read;
  timeline.back().write_units += write;
}

// The one shape later new shapes are added to once a table has kMaxShapes.
ShapeTally OtherShape() {
  ShapeTally other;
  other.operation = "(other)";
  return other;
}

// `table`'s shape of `record` on `index`, made when new (or the "(other)"
// one once the table has kMaxShapes); `key` is scratch space for its key.
[[gnu::cold, gnu::noinline]] ShapeTally& FindShape(TableTally& table,
                                                   const api::AccessRecord& record,
                                                   const std::string& index, std::string& key) {
  key = record.operation;
  for (const std::string* part : {&index, &record.key_condition, &record.filter,
                                  &record.projection}) {
    key += '\x1f';
    key += *part;
  }
  auto found = table.shapes.find(key);
  if (found == table.shapes.end()) {
    if (table.shapes.size() < AccessProfile::kMaxShapes) {
      found = table.shapes
                  .emplace(key, ShapeTally{std::string(record.operation), index,
                                           record.key_condition, record.filter,
                                           record.projection})
                  .first;
    } else {
      found = table.shapes.try_emplace("(other)", OtherShape()).first;
    }
  }
  return found->second;
}

// Adds the memo's repeated counts into the tallies they belong to.
[[gnu::cold, gnu::noinline]] void AddRepeatedCounts(TallyMemo& recent) {
  RepeatedCounts& counts = recent.repeated;
  if (counts.requests == 0) return;
  ResourceTally& resource = *recent.table_resource;
  resource.units.read_units += counts.read_units;
  resource.units.write_units += counts.write_units;
  resource.units.read_bytes += counts.read_bytes;
  resource.units.write_bytes += counts.write_bytes;
  resource.items_read += counts.items_read;
  resource.items_returned += counts.items_returned;
  *recent.table_requests += counts.requests;
  ShapeTally& shape = *recent.shape;
  shape.count += counts.requests;
  shape.read_units += counts.read_units;
  shape.write_units += counts.write_units;
  shape.items_read += counts.items_read;
  shape.items_returned += counts.items_returned;
  AddToTimeline(*recent.tally, counts.second, counts.read_units, counts.write_units);
  counts = RepeatedCounts{};
}

// Points the memo at `ns`'s tallies, forgetting the rest: the shard's first
// record of that database, or the first since a Reset.
[[gnu::cold, gnu::noinline]] void StartOn(TallyMemo& recent, ProfileTallies& tallies,
                                          std::string_view ns) {
  AddRepeatedCounts(recent);
  recent = TallyMemo{};
  recent.ns = ns;
  recent.tables = &Entry(tallies, ns);
}

// An access's items (and its Scan's), into the table's or index's tally.
void AddItems(ResourceTally& resource, const api::AccessRecord::Access& access) {
  resource.items_read += access.items_read;
  resource.items_returned += access.items_returned;
  if (!access.scan) return;
  ++resource.scans;
  resource.scan_items_read += access.items_read;
  resource.scan_fraction_sum += access.table_fraction;
  resource.scan_fraction_max = std::max(resource.scan_fraction_max, access.table_fraction);
}

// One more request of `shape`, with its units and items.
void AddToShape(ShapeTally& shape, double read, double write,
                const api::AccessRecord::Access& access) {
  ++shape.count;
  shape.read_units += read;
  shape.write_units += write;
  shape.items_read += access.items_read;
  shape.items_returned += access.items_returned;
}

// The whole of a record's tally when it repeats the thread's last request:
// one table, named as before and by its name, read or written without an
// index and not scanned, with the same operation and shape. This is most
// requests of a test run; its counts go to the memo's, which live beside
// the names compared here (AddRepeatedCounts adds them up later), and its
// code is a fraction of AddAny's. Returns false, having changed nothing,
// for any other record.
bool AddRepeated(TallyMemo& recent, const api::AccessRecord& record, int64_t second) {
  if (record.consumed.size() != 1 || record.accesses.size() != 1 || !recent.shape ||
      !recent.table_requests) {
    return false;
  }
  const api::Consumption& c = record.consumed[0];
  const api::AccessRecord::Access& access = record.accesses[0];
  if (!c.indexes.empty() || !access.index.empty() || access.scan ||
      !Same(c.table, recent.table) || !Same(access.table, recent.table) ||
      !Same(record.operation, recent.operation) ||
      !Same(record.operation, recent.shape_operation) ||
      !Same(record.key_condition, recent.shape_key_condition) ||
      !Same(record.filter, recent.shape_filter) ||
      !Same(record.projection, recent.shape_projection)) {
    return false;
  }
  // A write to a table with global indexes notes a key on each: not here.
  const size_t keys = record.partition_key_count();
  if (keys > 1) return false;
  api::AccessRecord::PartitionKey pk;
  if (keys == 1) {
    pk = record.partition_key(0);
    if (!pk.index.empty() || !Same(pk.table, recent.table)) return false;
  }
  RepeatedCounts& counts = recent.repeated;
  if (counts.second != second) [[unlikely]] {
    AddRepeatedCounts(recent);
    counts.second = second;
  }
  ++counts.requests;
  (c.write ? counts.write_units : counts.read_units) += c.table_units;
  (c.write ? counts.write_bytes : counts.read_bytes) += c.table_bytes;
  counts.items_read += access.items_read;
  counts.items_returned += access.items_returned;
  if (keys == 1) recent.table_resource->partition_keys.Add(pk.key_text);
  return true;
}

// A record's tally, whatever it holds; `recent` is the shard's memo, of
// its tallies of the record's database.
[[gnu::noinline]] void AddAny(TallyMemo& recent, const api::AccessRecord& record,
                              int64_t unix_second) {
  // Each table's units in this request, for its shape and timeline.
  struct Units {
    TableTally* tally;
    double read = 0;
    double write = 0;
  };
  // Scratch space of this thread's, reused from record to record.
  thread_local std::vector<Units> table_units;  // a few tables at most: searched in order
  thread_local std::string shape_key;
  AddRepeatedCounts(recent);  // the memo may move on below
  table_units.clear();
  // By the tally's address: the entries stay put while the lock is held.
  auto units_of = [&](const TableTally& table) -> Units* {
    for (Units& u : table_units) {
      if (u.tally == &table) return &u;
    }
    return nullptr;
  };
  auto tally_of = [&](std::string_view table) -> TableTally& {
    if (recent.tally && Same(recent.table, table)) [[likely]] return *recent.tally;
    recent.table = table;
    recent.tally = &Entry(*recent.tables, table);
    recent.table_resource = nullptr;
    recent.table_requests = nullptr;
    recent.shape = nullptr;
    return *recent.tally;
  };
  auto resource_of = [&](TableTally& table, std::string_view index) -> ResourceTally& {
    if (!index.empty() || &table != recent.tally) return Entry(table.resources, index);
    if (!recent.table_resource) [[unlikely]] recent.table_resource = &Entry(table.resources, "");
    return *recent.table_resource;
  };
  auto count_request = [&](ResourceTally& resource) {
    if (&resource != recent.table_resource) {
      ++Entry(resource.requests, record.operation);
      return;
    }
    if (!recent.table_requests || !Same(recent.operation, record.operation)) [[unlikely]] {
      recent.operation = record.operation;
      recent.table_requests = &Entry(resource.requests, record.operation);
    }
    ++*recent.table_requests;
  };
  for (const api::Consumption& c : record.consumed) {
    TableTally& table = tally_of(api::TableNameInArn(c.table));
    double total = AddConsumption(table, resource_of(table, ""), c);
    Units* units = units_of(table);
    if (!units) units = &table_units.emplace_back(Units{&table});
    (c.write ? units->write : units->read) += total;
  }
  for (const Units& units : table_units) {
    AddToTimeline(*units.tally, unix_second, units.read, units.write);
  }
  for (const api::AccessRecord::Access& access : record.accesses) {
    TableTally& table = tally_of(api::TableNameInArn(access.table));
    ResourceTally& resource = resource_of(table, access.index);
    count_request(resource);
    AddItems(resource, access);
    // One shape per table the request named: the same request on two
    // tables (a batch) is two entries.
    ShapeTally* shape = recent.shape;
    if (!shape || &table != recent.tally || !SameShape(*shape, record, access.index))
        [[unlikely]] {
      shape = &FindShape(table, record, access.index, shape_key);
      if (&table == recent.tally) {
        recent.shape = shape;
        // A shape on an index is never repeated: AddRepeated wants none.
        recent.shape_operation = access.index.empty() ? record.operation : std::string_view();
        recent.shape_key_condition = record.key_condition;
        recent.shape_filter = record.filter;
        recent.shape_projection = record.projection;
      }
    }
    Units* units = units_of(table);
    AddToShape(*shape, units ? units->read : 0, units ? units->write : 0, access);
    if (units) units->read = units->write = 0;  // a table named twice is charged once
  }
  for (size_t i = 0; i < record.partition_key_count(); ++i) {
    api::AccessRecord::PartitionKey pk = record.partition_key(i);
    TableTally& table = tally_of(api::TableNameInArn(pk.table));
    resource_of(table, pk.index).partition_keys.Add(pk.key_text);
  }
}

}  // namespace

// Adds `from` into `to`, keeping the caps.
static void Merge(ResourceTally& to, const ResourceTally& from) {
  for (const auto& [op, count] : from.requests) to.requests[op] += count;
  to.units.read_units += from.units.read_units;
  to.units.write_units += from.units.write_units;
  to.units.read_bytes += from.units.read_bytes;
  to.units.write_bytes += from.units.write_bytes;
  to.items_read += from.items_read;
  to.items_returned += from.items_returned;
  to.scans += from.scans;
  to.scan_items_read += from.scan_items_read;
  to.scan_fraction_sum += from.scan_fraction_sum;
  to.scan_fraction_max = std::max(to.scan_fraction_max, from.scan_fraction_max);
  to.partition_keys.Merge(from.partition_keys);
}

static void Merge(ShapeTally& to, const ShapeTally& from) {
  to.count += from.count;
  to.read_units += from.read_units;
  to.write_units += from.write_units;
  to.items_read += from.items_read;
  to.items_returned += from.items_returned;
}

static void Merge(TableTally& to, const TableTally& from) {
  for (const auto& [name, resource] : from.resources) Merge(to.resources[name], resource);
  for (const auto& [key, shape] : from.shapes) {
    auto it = to.shapes.find(key);
    if (it == to.shapes.end()) {
      size_t named = to.shapes.size() - to.shapes.count("(other)");
      if (named < AccessProfile::kMaxShapes || key == "(other)") {
        to.shapes.emplace(key, shape);
        continue;
      }
      it = to.shapes.try_emplace("(other)", OtherShape()).first;
    }
    Merge(it->second, shape);
  }
  std::map<int64_t, SecondUnits> seconds;
  const std::deque<SecondUnits>* both[] = {&to.timeline, &from.timeline};
  for (const std::deque<SecondUnits>* timeline : both) {
    for (const SecondUnits& s : *timeline) {
      SecondUnits& into = seconds.try_emplace(s.second, SecondUnits{s.second, 0, 0}).first->second;
      into.read_units += s.read_units;
      into.write_units += s.write_units;
    }
  }
  to.timeline.clear();
  for (const auto& [second, units] : seconds) to.timeline.push_back(units);
  while (to.timeline.size() > AccessProfile::kTimelineSeconds) to.timeline.pop_front();
}

AccessProfile::AccessProfile() : since_millis_(NowMillis()) {}

AccessProfile::Shard& AccessProfile::ShardOfThisThread() const {
  static std::atomic<size_t> next{0};
  thread_local const size_t slot = next.fetch_add(1, std::memory_order_relaxed) % kShards;
  return shards_[slot];
}

void AccessProfile::Add(std::string_view ns, const api::AccessRecord& record,
                        int64_t unix_second) {
  Shard& shard = ShardOfThisThread();
  engine::MutexLock lock(shard.mu);
  if (!shard.memo.tables || !Same(shard.memo.ns, ns)) [[unlikely]] {
    StartOn(shard.memo, shard.tallies, ns);
  }
  // Not marked unlikely: the compiler would move all of AddAny, the path
  // of every batch and transaction, into the cold part of the text.
  if (!AddRepeated(shard.memo, record, unix_second)) AddAny(shard.memo, record, unix_second);
}

ProfileTallies AccessProfile::Tallies(const std::string* ns) const {
  ProfileTallies merged;
  for (Shard& shard : shards_) {
    engine::MutexLock lock(shard.mu);
    AddRepeatedCounts(shard.memo);
    for (const auto& [name, tables] : shard.tallies) {
      if (ns && name != *ns) continue;
      auto& into = merged[name];
      for (const auto& [table, tally] : tables) Merge(into[table], tally);
    }
  }
  return merged;
}

void AccessProfile::Reset(const std::string* ns) {
  for (Shard& shard : shards_) {
    engine::MutexLock lock(shard.mu);
    AddRepeatedCounts(shard.memo);  // another database's stay
    if (ns) {
      shard.tallies.erase(*ns);
    } else {
      shard.tallies.clear();
    }
    shard.memo = TallyMemo{};
  }
  if (!ns) since_millis_.store(NowMillis(), std::memory_order_relaxed);
}

}  // namespace ddb::emulator
