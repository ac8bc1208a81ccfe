#include "engine/integrity/table_check.h"

#include <optional>
#include <string>
#include <vector>

#include "engine/items/item_codec.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/integrity/scan_past_damage.h"
#include "engine/secondary_index.h"

namespace ddb::engine {
namespace {

// A stored key that decodes to nothing, shown as hex (its first bytes).
std::string HexKey(std::string_view key) {
  static constexpr char kDigits[] = "0123456789abcdef";
  constexpr size_t kShown = 40;
  std::string out = "key 0x";
  for (size_t i = 0; i < key.size() && i < kShown; ++i) {
    out += kDigits[static_cast<unsigned char>(key[i]) >> 4];
    out += kDigits[static_cast<unsigned char>(key[i]) & 15];
  }
  if (key.size() > kShown) out += "…";
  return out;
}

std::string IndexName(const IndexSchema& index) {
  return (index.is_local ? "LSI " : "GSI ") + index.name;
}

class TableChecker {
 public:
  TableChecker(const ReadOnlyStore& store, const TableSchema& schema, TableCheck& check)
      : store_(store), schema_(schema), check_(check) {}

  // Every readable item, and the entries it should have. Returns whether
  // every item was read (no damaged block was skipped).
  bool CheckItems() {
    ScanOutcome scan = ScanPastDamage(store_, Family::kItems, TablePrefix(schema_.table_id),
                                      [&](std::string_view key, std::string_view value) {
                                        ++check_.items_read;
                                        CheckItem(key, value);
                                      });
    for (const Status& error : scan.errors) Damage("items", error);
    return scan.errors.empty();
  }

  // Every readable entry of `index`; returns how many were read, or
  // nullopt when a damaged block was skipped.
  std::optional<int64_t> CheckIndex(const IndexSchema& index) {
    int64_t entries = 0;
    ScanOutcome scan = ScanPastDamage(store_, Family::kIndexes,
                                      IndexPrefix(schema_.table_id, index.index_id),
                                      [&](std::string_view key, std::string_view value) {
                                        ++entries;
                                        CheckEntry(index, key, value);
                                      });
    check_.index_entries += entries;
    for (const Status& error : scan.errors) Damage(IndexName(index), error);
    if (!scan.errors.empty()) return std::nullopt;
    return entries;
  }

  void Add(Finding::Kind kind, const std::string& what, std::string example) {
    AddFinding(check_.findings, kind, what, std::move(example));
  }

 private:
  void AddItem(const std::string& what, std::string example) {
    Add(Finding::Kind::kItem, what, std::move(example));
  }
  void AddIndex(const std::string& what, std::string example) {
    Add(Finding::Kind::kIndex, what, std::move(example));
  }

  void Damage(const std::string& where, const Status& status) {
    Add(Finding::Kind::kDamage, where + ": " + status.message(), "");
  }

  std::string KeyOf(const Item& item) const { return DebugString(ExtractKey(schema_, item)); }

  void CheckItem(std::string_view key, std::string_view value) {
    auto item = DecodeItem(value);
    if (!item.ok()) return AddItem("items that do not decode", HexKey(key));
    if (!ValidateItemKey(schema_, *item).ok()) {
      return AddItem("items without the table's key attributes", HexKey(key));
    }
    if (ItemKey(schema_.table_id, schema_, ExtractKey(schema_, *item)) != key) {
      AddItem("items stored under another key than their key attributes give", KeyOf(*item));
    }
    // An item written before an index whose key it breaks was created is
    // left out of every index by that index's backfill: such an item may
    // lack its entries.
    const bool must_be_indexed = ValidateIndexKeys(schema_, *item, false).ok();
    for (const IndexSchema* index : AllIndexes(schema_)) {
      auto entry_key = IndexEntryKey(schema_, *index, *item);
      if (!entry_key || !must_be_indexed) continue;
      auto entry = store_.Get(Family::kIndexes, *entry_key);
      if (!entry.ok()) {
        Damage(IndexName(*index) + " (reading an item's entry)", entry.status());
      } else if (!entry->has_value()) {
        AddIndex(IndexName(*index) + ": items without their entry", KeyOf(*item));
      }
    }
  }

  void CheckEntry(const IndexSchema& index, std::string_view key, std::string_view value) {
    const std::string name = IndexName(index) + ": entries ";
    auto projected = DecodeItem(value);
    if (!projected.ok()) return AddIndex(name + "that do not decode", HexKey(key));
    if (!ValidateItemKey(schema_, *projected).ok()) {
      return AddIndex(name + "without the table's key attributes", HexKey(key));
    }
    const std::string shown = KeyOf(*projected);
    auto own_key = IndexEntryKey(schema_, index, *projected);
    if (!own_key) return AddIndex(name + "without the index's key attributes", shown);
    if (*own_key != key) {
      return AddIndex(name + "stored under another key than their attributes give", shown);
    }
    auto stored = store_.Get(Family::kItems,
                             ItemKey(schema_.table_id, schema_, ExtractKey(schema_, *projected)));
    if (!stored.ok()) {
      return Damage(IndexName(index) + " (reading an entry's item)", stored.status());
    }
    if (!stored->has_value()) return AddIndex(name + "whose item is missing", shown);
    auto item = DecodeItem(**stored);
    if (!item.ok()) return;  // the items' scan reports it
    if (IndexEntryKey(schema_, index, *item) != key) {
      return AddIndex(name + "of an item that now has another index key", shown);
    }
    if (ProjectForIndex(schema_, index, *item) != *projected) {
      AddIndex(name + "that differ from their item's projection", shown);
    }
  }

  const ReadOnlyStore& store_;
  const TableSchema& schema_;
  TableCheck& check_;
};

void CheckCount(TableChecker& checker, const std::string& what, int64_t recorded,
                int64_t stored) {
  if (recorded == stored) return;
  checker.Add(Finding::Kind::kStatistics,
              "statistics count " + std::to_string(recorded) + " " + what + ", " +
                  std::to_string(stored) + " are stored",
              "");
}

}  // namespace

void CheckTableData(const ReadOnlyStore& store, const TableSchema& schema,
                    const std::optional<TableStats>& recorded,
                    const std::map<uint32_t, TableStats>& index_recorded, TableCheck& check) {
  TableChecker checker(store, schema, check);
  check.data_id = schema.table_id;
  if (recorded) check.recorded_items = recorded->item_count;
  check.items_whole = checker.CheckItems();
  if (check.items_whole && recorded) {
    CheckCount(checker, "items", recorded->item_count, check.items_read);
  }
  for (const IndexSchema* index : AllIndexes(schema)) {
    ++check.indexes;
    std::optional<int64_t> entries = checker.CheckIndex(*index);
    if (!entries) continue;
    auto it = index_recorded.find(index->index_id);
    if (it == index_recorded.end()) continue;
    CheckCount(checker, "entries of " + IndexName(*index), it->second.item_count, *entries);
  }
}

}  // namespace ddb::engine
