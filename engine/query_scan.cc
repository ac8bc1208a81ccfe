// Database::Query and Database::Scan: one RocksDB range scan each, over the
// items of a table or the entries of one of its indexes (layouts in
// key_codec.h and secondary_index.h).
#include "engine/database.h"
#include "engine/items/item_codec.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"

namespace ddb::engine {
namespace {

// [lower, upper): the RocksDB keys of one read.
struct KeyRange {
  std::string lower;
  std::string upper;
};

// The keys under `prefix` (every sort key of a partition, after the
// equality prefix) that satisfy the condition's operator.
KeyRange SortKeyRange(std::string prefix, const SortKeyCondition& sort) {
  using Op = SortKeyCondition::Op;
  for (const AttributeValue& value : sort.equal) AppendKeyValue(value, &prefix);
  std::string end = PrefixSuccessor(prefix);
  auto with = [&](const AttributeValue& value) {
    std::string key = prefix;
    AppendKeyValue(value, &key);
    return key;
  };
  switch (sort.op) {
    case Op::kNone: return {prefix, end};
    case Op::kEq: {
      std::string key = with(sort.low);
      return {key, PrefixSuccessor(key)};
    }
    case Op::kLt: return {prefix, with(sort.low)};
    case Op::kLe: return {prefix, PrefixSuccessor(with(sort.low))};
    case Op::kGt: return {PrefixSuccessor(with(sort.low)), end};
    case Op::kGe: return {with(sort.low), end};
    case Op::kBetween: return {with(sort.low), PrefixSuccessor(with(sort.high))};
    case Op::kBeginsWith: {
      std::string key = prefix;
      AppendKeyValuePrefix(sort.low, &key);
      return {key, PrefixSuccessor(key)};
    }
  }
  return {prefix, end};
}

// The hash range of parallel-scan segment `segment` of `total`, as the
// 8-byte big-endian bounds that follow a table or index prefix.
KeyRange SegmentRange(const std::string& prefix, uint32_t segment, uint32_t total) {
  auto bound = [&](uint32_t s) -> std::string {
    if (s >= total) return PrefixSuccessor(prefix);
    unsigned __int128 start = (static_cast<unsigned __int128>(s) << 64) / total;
    std::string key = prefix;
    for (int shift = 56; shift >= 0; shift -= 8) {
      key.push_back(static_cast<char>(static_cast<uint64_t>(start) >> shift));
    }
    return key;
  };
  return {segment == 0 ? prefix : bound(segment), bound(segment + 1)};
}

// The key attributes that identify an item's position in the table or index:
// what LastEvaluatedKey holds.
Item PositionKey(const TableSchema& schema, const IndexSchema* index, const Item& item) {
  Item key = ExtractKey(schema, item);
  if (index) {
    for (const KeyElement* element : IndexKeyElements(*index)) {
      auto it = item.find(element->name);
      if (it != item.end()) key.insert(*it);
    }
  }
  return key;
}

// Where ExclusiveStartKey `start` sits in the table's or index's key order.
Result<std::string> StartPosition(const TableSchema& schema, const IndexSchema* index,
                                  const Item& start) {
  if (!ValidateItemKey(schema, start).ok()) {
    return Status::InvalidArgument("The provided starting key is invalid");
  }
  std::optional<std::string> position = index ? IndexEntryKey(schema, *index, start)
                                              : std::optional(ItemKey(schema.table_id, schema, start));
  if (!position) return Status::InvalidArgument("The provided starting key is invalid");
  return *std::move(position);
}

// One page of [lower, upper) of the table's items or of one index's
// entries, read from one snapshot.
Result<Page> ReadRange(const Store& store, const TableSchema& schema, const IndexSchema* index,
                       std::string lower, std::string upper, bool forward, size_t limit,
                       const std::optional<Item>& exclusive_start_key, bool fetch_table_items) {
  if (exclusive_start_key) {
    auto start = StartPosition(schema, index, *exclusive_start_key);
    if (!start.ok()) return start.status();
    if (forward) {
      std::string after = *start + '\0';  // the smallest key above *start
      if (after > lower) lower = std::move(after);
    } else if (*start < upper) {
      upper = std::move(*start);
    }
  }
  Page page;
  if (lower >= upper) return page;
  auto snapshot = store.GetSnapshot();
  auto it = store.NewIterator(index ? Family::kIndexes : Family::kItems, lower, upper,
                                snapshot.get());
  forward ? it->SeekToFirst() : it->SeekToLast();
  size_t page_bytes = 0;  // what the 1 MB counts: the items as returned
  for (; it->Valid(); forward ? it->Next() : it->Prev()) {
    auto item = DecodeItem(it->value());
    if (!item.ok()) return item.status();
    page.bytes_read += ItemSize(*item);
    if (index && fetch_table_items) {
      auto stored = store.Get(Family::kItems,
                                ItemKey(schema.table_id, schema, ExtractKey(schema, *item)),
                                snapshot.get());
      if (!stored.ok()) return stored.status();
      if (stored->has_value()) {
        auto whole = DecodeItem(**stored);
        if (!whole.ok()) return whole.status();
        item = std::move(whole);
        page.fetched_sizes.push_back(ItemSize(*item));
      }
    }
    // DynamoDB's 1 MB counts item sizes (for an index, the projected item).
    page_bytes += ItemSize(*item);
    page.items.push_back(std::move(item).value());
    if ((limit > 0 && page.items.size() == limit) || page_bytes >= kMaxPageBytes) {
      page.last_evaluated_key = PositionKey(schema, index, page.items.back());
      break;
    }
  }
  DDB_RETURN_IF_ERROR(it->status());
  return page;
}

// The index `name` of `schema`, nullptr for "" (the table itself).
Result<const IndexSchema*> IndexNamed(const TableSchema& schema, const std::string& name) {
  if (name.empty()) return static_cast<const IndexSchema*>(nullptr);
  const IndexSchema* index = FindIndex(schema, name);
  if (!index) {
    return Status::InvalidArgument("The table does not have the specified index: " + name);
  }
  return index;
}

}  // namespace

Result<Page> Database::Query(std::string_view ns, std::string_view table,
                             const QueryRequest& request) const {
  auto schema = GetSchema(ns, table);
  if (!schema.ok()) return schema.status();
  auto index = IndexNamed(**schema, request.index_name);
  if (!index.ok()) return index.status();
  std::string prefix;
  if (!*index) {
    prefix = PartitionPrefix((*schema)->table_id, request.partition.front());
  } else {
    std::vector<const AttributeValue*> partition;
    for (const AttributeValue& value : request.partition) partition.push_back(&value);
    prefix = IndexPartitionPrefix((*schema)->table_id, **index, partition);
  }
  KeyRange range = SortKeyRange(std::move(prefix), request.sort);
  return ReadRange(path_.store, **schema, *index, std::move(range.lower), std::move(range.upper),
                   request.forward, request.limit, request.exclusive_start_key,
                   request.fetch_table_items);
}

Result<Page> Database::Scan(std::string_view ns, std::string_view table,
                            const ScanRequest& request) const {
  auto schema = GetSchema(ns, table);
  if (!schema.ok()) return schema.status();
  auto index = IndexNamed(**schema, request.index_name);
  if (!index.ok()) return index.status();
  std::string prefix = *index ? IndexPrefix((*schema)->table_id, (*index)->index_id)
                              : TablePrefix((*schema)->table_id);
  KeyRange range = SegmentRange(prefix, request.segment, request.total_segments);
  if (request.exclusive_start_key && request.total_segments > 1) {
    auto start = StartPosition(**schema, *index, *request.exclusive_start_key);
    if (!start.ok()) return start.status();
    if (*start < range.lower || *start >= range.upper) {
      return Status::InvalidArgument(
          "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
          "ExclusiveStartKey with correct Segment. TotalSegments: " +
          std::to_string(request.total_segments) + " Segment: " + std::to_string(request.segment));
    }
  }
  return ReadRange(path_.store, **schema, *index, std::move(range.lower), std::move(range.upper),
                   true, request.limit, request.exclusive_start_key, request.fetch_table_items);
}

}  // namespace ddb::engine
