#include "engine/streams/stream.h"

#include <algorithm>

#include <cstdio>

#include "engine/coding.h"
#include "engine/items/item_codec.h"
#include "engine/key_validation.h"

namespace ddb::engine {
namespace {

// Record layout, version 1 (persisted — do not change; add a version):
//   0x01 event:u8 varint(created_millis) by_ttl:u8 string(keys)
//   has_old:u8 [string(old)] has_new:u8 [string(new)]
// where keys and images are EncodeItem bytes.
constexpr uint8_t kRecordFormatVersion = 1;

void PutOptionalItem(std::string* out, const Item* item) {
  out->push_back(item ? 1 : 0);
  if (item) coding::PutString(out, EncodeItem(*item));
}

bool GetItem(coding::Reader& in, Item* item) {
  std::string_view bytes;
  if (!in.GetString(&bytes)) return false;
  auto decoded = DecodeItem(bytes);
  if (!decoded.ok()) return false;
  *item = std::move(decoded).value();
  return true;
}

bool GetOptionalItem(coding::Reader& in, std::optional<Item>* item) {
  bool present = false;
  if (!in.GetBool(&present)) return false;
  if (!present) return true;
  item->emplace();
  return GetItem(in, &**item);
}

}  // namespace

std::string StreamPrefix(uint64_t stream_id) {
  std::string key;
  coding::PutFixed64BE(&key, stream_id);
  return key;
}

bool FeedsKinesis(const TableSchema& schema) {
  return std::any_of(schema.kinesis_destinations.begin(), schema.kinesis_destinations.end(),
                     [](const KinesisDestination& d) { return d.enabled; });
}

std::string StreamRecordKey(uint64_t stream_id, uint64_t sequence) {
  std::string key = StreamPrefix(stream_id);
  coding::PutFixed64BE(&key, sequence);
  return key;
}

Result<StreamRecord> DecodeStreamRecord(std::string_view bytes, uint64_t sequence) {
  coding::Reader in(bytes);
  StreamRecord record;
  record.sequence = sequence;
  uint8_t version = 0, event = 0;
  bool ok = in.GetByte(&version) && version == kRecordFormatVersion && in.GetByte(&event) &&
            event <= static_cast<uint8_t>(StreamEventName::kRemove) &&
            in.GetInt64(&record.created_millis) && in.GetBool(&record.by_ttl) &&
            GetItem(in, &record.keys) && GetOptionalItem(in, &record.old_image) &&
            GetOptionalItem(in, &record.new_image) && in.done();
  if (!ok) return Status::Internal("stored stream record is corrupt");
  record.event = static_cast<StreamEventName>(event);
  return record;
}

std::optional<std::string> EncodeStreamRecord(const TableSchema& schema,
                                              std::string_view view_type, const Item* old_item,
                                              const Item* new_item, int64_t created_millis,
                                              bool by_ttl) {
  if (!old_item && !new_item) return std::nullopt;
  // DynamoDB writes no record for a write that leaves the item as it was.
  if (old_item && new_item && *old_item == *new_item) return std::nullopt;
  StreamEventName event = !old_item   ? StreamEventName::kInsert
                          : new_item ? StreamEventName::kModify
                                     : StreamEventName::kRemove;
  bool keep_old = view_type == "OLD_IMAGE" || view_type == "NEW_AND_OLD_IMAGES";
  bool keep_new = view_type == "NEW_IMAGE" || view_type == "NEW_AND_OLD_IMAGES";
  std::string out;
  out.push_back(static_cast<char>(kRecordFormatVersion));
  out.push_back(static_cast<char>(event));
  coding::PutVarint(&out, static_cast<uint64_t>(created_millis));
  out.push_back(by_ttl ? 1 : 0);
  coding::PutString(&out, EncodeItem(ExtractKey(schema, new_item ? *new_item : *old_item)));
  PutOptionalItem(&out, keep_old ? old_item : nullptr);
  PutOptionalItem(&out, keep_new ? new_item : nullptr);
  return out;
}

size_t StreamRecordSize(const StreamRecord& record) {
  size_t size = ItemSize(record.keys);
  if (record.old_image) size += ItemSize(*record.old_image);
  if (record.new_image) size += ItemSize(*record.new_image);
  return size;
}

std::string SequenceNumberText(uint64_t sequence) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "1%020llu", static_cast<unsigned long long>(sequence));
  return buf;
}

std::optional<uint64_t> ParseSequenceNumber(std::string_view text) {
  if (text.size() != 21 || text[0] != '1') return std::nullopt;
  uint64_t value = 0;
  for (char c : text.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::string ShardId(int64_t created_millis, uint64_t stream_id, uint64_t first_sequence) {
  // The suffix only has to be unique; mixing the numbers makes it look like
  // DynamoDB's random one.
  uint64_t mix = (stream_id * 0x9E3779B97F4A7C15ull) ^ (first_sequence * 0xC2B2AE3D27D4EB4Full);
  mix ^= mix >> 29;
  char buf[64];
  std::snprintf(buf, sizeof buf, "shardId-%020lld-%08x", static_cast<long long>(created_millis),
                static_cast<unsigned>(mix & 0xffffffffu));
  return buf;
}

}  // namespace ddb::engine
