#include "engine/integrity/item_salvage.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>

#include "engine/coding.h"
#include "engine/key_codec.h"
#include "engine/tables/table_items.h"

namespace ddb::engine {
namespace {

void PutRecordPart(std::ofstream& out, std::string_view bytes) {
  std::string length;
  coding::PutFixed32BE(&length, static_cast<uint32_t>(bytes.size()));
  out.write(length.data(), 4);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Reads one length-prefixed part written by PutRecordPart.
bool GetRecordPart(std::ifstream& in, std::string* bytes) {
  char length[4];
  if (!in.read(length, 4)) return false;
  bytes->resize(coding::DecodeFixed32BE(std::string_view(length, 4)));
  return static_cast<bool>(in.read(bytes->data(), static_cast<std::streamsize>(bytes->size())));
}

bool GetFixed64(std::ifstream& in, uint64_t* value) {
  char bytes[8];
  if (!in.read(bytes, 8)) return false;
  *value = coding::DecodeFixed64BE(std::string_view(bytes, 8));
  return true;
}

Status Unreadable(const std::string& file) {
  return Status::Internal("cannot read the salvaged items in " + file);
}

// Makes the items under `prefix` what the salvage read: the next `count`
// records of `in`, in key order.
Status RestoreTable(Store& store, const SalvagedItems& salvaged, std::ifstream& in,
                    uint64_t count, bool keep, ItemRestore& restore) {
  const std::string prefix = TablePrefix(salvaged.data_id);
  // What the repair left, read from one snapshot: the writes below do not
  // move it.
  auto it = store.NewIterator(Family::kItems, prefix, PrefixSuccessor(prefix));
  it->SeekToFirst();
  auto batch = std::make_unique<Store::Batch>(store);
  std::optional<std::pair<std::string, std::string>> record;
  auto next_record = [&]() -> Status {
    record.reset();
    if (count == 0) return Status::Ok();
    --count;
    std::pair<std::string, std::string> read;
    if (!GetRecordPart(in, &read.first) || !GetRecordPart(in, &read.second)) {
      return Status::Internal("the salvaged items end early");
    }
    record = std::move(read);
    return Status::Ok();
  };
  DDB_RETURN_IF_ERROR(next_record());
  while (keep && (record || it->Valid())) {
    const int order = !record ? 1 : !it->Valid() ? -1 : record->first.compare(it->key());
    if (order < 0) {  // read before, missing now
      batch->Put(Family::kItems, record->first, record->second);
      ++restore.written_back;
      DDB_RETURN_IF_ERROR(next_record());
    } else if (order > 0) {  // there now, not read before
      const uint64_t hash = PartitionHashOf(it->key(), kTablePrefixSize);
      const bool unseen = std::any_of(salvaged.skipped.begin(), salvaged.skipped.end(),
                                      [&](const HashRange& range) { return range.Holds(hash); });
      if (!unseen) {
        batch->Delete(Family::kItems, it->key());
        ++restore.deleted;
      }
      it->Next();
    } else {
      if (record->second != it->value()) {
        batch->Put(Family::kItems, record->first, record->second);
        ++restore.written_back;
      }
      DDB_RETURN_IF_ERROR(next_record());
      it->Next();
    }
    if (batch->count() >= kEntriesPerBatch) {
      DDB_RETURN_IF_ERROR(store.Write(*batch));
      batch = std::make_unique<Store::Batch>(store);
    }
  }
  DDB_RETURN_IF_ERROR(it->status());
  // A table that is gone: its records are passed over.
  while (record) DDB_RETURN_IF_ERROR(next_record());
  return store.Write(*batch);
}

}  // namespace

Result<std::vector<SalvagedItems>> SalvageItems(const ReadOnlyStore& store,
                                                const std::vector<uint64_t>& data_ids,
                                                const std::string& file) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Internal("cannot write " + file);
  std::vector<SalvagedItems> salvaged;
  for (uint64_t data_id : data_ids) {
    SalvagedItems table;
    table.data_id = data_id;
    std::string header;
    coding::PutFixed64BE(&header, data_id);
    const std::streampos count_at = out.tellp() + std::streamoff(8);
    coding::PutFixed64BE(&header, 0);  // the count, written once known
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    ScanOutcome scan = ScanPastDamage(store, Family::kItems, TablePrefix(data_id),
                                      [&](std::string_view key, std::string_view value) {
                                        PutRecordPart(out, key);
                                        PutRecordPart(out, value);
                                        ++table.items;
                                      });
    table.skipped = std::move(scan.skipped);
    const std::streampos end = out.tellp();
    std::string count;
    coding::PutFixed64BE(&count, static_cast<uint64_t>(table.items));
    out.seekp(count_at);
    out.write(count.data(), 8);
    out.seekp(end);
    salvaged.push_back(std::move(table));
  }
  out.close();
  if (!out) return Status::Internal("cannot write " + file);
  return salvaged;
}

Result<std::map<uint64_t, ItemRestore>> RestoreItems(Store& store,
                                                     const std::vector<SalvagedItems>& salvaged,
                                                     const std::set<uint64_t>& keep,
                                                     const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Unreadable(file);
  std::map<uint64_t, ItemRestore> restored;
  for (const SalvagedItems& table : salvaged) {
    uint64_t data_id = 0, count = 0;
    if (!GetFixed64(in, &data_id) || !GetFixed64(in, &count) || data_id != table.data_id) {
      return Unreadable(file);
    }
    DDB_RETURN_IF_ERROR(RestoreTable(store, table, in, count, keep.count(data_id) > 0,
                                     restored[data_id]));
  }
  return restored;
}

}  // namespace ddb::engine
