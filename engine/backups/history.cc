#include "engine/backups/history.h"

#include <vector>

#include "engine/coding.h"
#include "engine/key_codec.h"

namespace ddb::engine {
namespace {

std::string RecordKey(uint64_t table_id, uint64_t sequence) {
  std::string key = TablePrefix(table_id);
  coding::PutFixed64BE(&key, sequence);
  return key;
}

struct Record {
  int64_t millis = 0;
  std::string_view item_key;
  std::string_view old_item;  // empty: the write created the item
};

bool ParseRecord(std::string_view value, Record* record) {
  coding::Reader in(value);
  if (!in.GetInt64(&record->millis) || !in.GetString(&record->item_key)) return false;
  record->old_item = value.substr(value.size() - in.remaining());
  return true;
}

}  // namespace

Status AppendHistory(const Store& store, TableState& state, const std::string& item_key,
                     const Item* old_item, int64_t millis, Store::Batch& batch) {
  if (!state.next_history_sequence) {
    // After a start: one past the table's last record, if it has any.
    std::string begin = TablePrefix(state.table_id);
    auto it = store.NewIterator(Family::kHistory, begin, PrefixSuccessor(begin));
    it->SeekToLast();
    state.next_history_sequence =
        it->Valid() ? coding::DecodeFixed64BE(it->key().substr(begin.size())) + 1 : 0;
    DDB_RETURN_IF_ERROR(it->status());
  }
  std::string value;
  coding::PutVarint(&value, static_cast<uint64_t>(millis));
  coding::PutString(&value, item_key);
  if (old_item) value += EncodeItem(*old_item);
  batch.Put(Family::kHistory, RecordKey(state.table_id, (*state.next_history_sequence)++), value);
  return Status::Ok();
}

Result<std::map<std::string, std::string>> ItemsAt(const Store& store, const TableState& state,
                                                   int64_t millis) {
  std::string begin = TablePrefix(state.table_id);
  std::string end = PrefixSuccessor(begin);
  std::map<std::string, std::string> items;
  auto current = store.NewIterator(Family::kItems, begin, end);
  for (current->SeekToFirst(); current->Valid(); current->Next()) {
    items.emplace(std::string(current->key()), std::string(current->value()));
  }
  DDB_RETURN_IF_ERROR(current->status());
  // Newest first, undo every write made after `millis`.
  auto history = store.NewIterator(Family::kHistory, begin, end);
  for (history->SeekToLast(); history->Valid(); history->Prev()) {
    Record record;
    if (!ParseRecord(history->value(), &record)) {
      return Status::Internal("stored point-in-time history is corrupt");
    }
    if (record.millis <= millis) break;
    if (record.old_item.empty()) {
      items.erase(std::string(record.item_key));
    } else {
      items.insert_or_assign(std::string(record.item_key), std::string(record.old_item));
    }
  }
  DDB_RETURN_IF_ERROR(history->status());
  return items;
}

Result<std::map<std::string, int64_t>> ChangedBetween(const Store& store, const TableState& state,
                                                      int64_t from_millis, int64_t to_millis) {
  std::string begin = TablePrefix(state.table_id);
  std::map<std::string, int64_t> changed;
  auto history = store.NewIterator(Family::kHistory, begin, PrefixSuccessor(begin));
  // Newest first, as ItemsAt undoes them: the first record of a key is its last write.
  for (history->SeekToLast(); history->Valid(); history->Prev()) {
    Record record;
    if (!ParseRecord(history->value(), &record)) {
      return Status::Internal("stored point-in-time history is corrupt");
    }
    if (record.millis <= from_millis) break;
    if (record.millis > to_millis) continue;
    changed.emplace(std::string(record.item_key), record.millis);
  }
  DDB_RETURN_IF_ERROR(history->status());
  return changed;
}

void DropHistory(uint64_t table_id, Store::Batch& batch) {
  std::string begin = TablePrefix(table_id);
  batch.Clear(Family::kHistory, begin, PrefixSuccessor(begin));
}

Status TrimHistory(Store& store, uint64_t table_id, int64_t before_millis) {
  std::string begin = TablePrefix(table_id);
  auto it = store.NewIterator(Family::kHistory, begin, PrefixSuccessor(begin));
  std::string first_kept = PrefixSuccessor(begin);  // unless a newer one is found
  bool any_old = false;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Record record;
    if (ParseRecord(it->value(), &record) && record.millis >= before_millis) {
      first_kept = std::string(it->key());
      break;
    }
    any_old = true;
  }
  DDB_RETURN_IF_ERROR(it->status());
  if (!any_old) return Status::Ok();
  Store::Batch batch(store);
  batch.DeleteRange(Family::kHistory, begin, first_kept);
  return store.Write(batch);
}

}  // namespace ddb::engine
