#include "api/transfer_records.h"

#include <algorithm>
#include <cstdio>
#include <random>

#include "api/json_reader.h"

namespace ddb::api {
namespace {

std::string RecordPrefix(TransferKind kind, std::string_view ns) {
  return std::string(kind == TransferKind::kExport ? "transfer/export/" : "transfer/import/") +
         std::string(ns) + "\n";
}

}  // namespace

engine::Status PutTransferRecord(Context& ctx, TransferKind kind, std::string_view id,
                                 std::string_view description_json) {
  return ctx.db.PutSetting(RecordPrefix(kind, ctx.caller.ns) + std::string(id), description_json);
}

ApiResult<std::vector<TransferRecord>> ListTransferRecords(Context& ctx, TransferKind kind) {
  std::string prefix = RecordPrefix(kind, ctx.caller.ns);
  auto settings = ctx.db.ListSettings(prefix);
  if (!settings.ok()) return settings.status();
  std::vector<TransferRecord> records;
  for (auto& [key, value] : *settings) {
    TransferRecord record{key.substr(prefix.size()), {}};
    record.description.Parse(value.data(), value.size());
    if (record.description.HasParseError() || !record.description.IsObject()) {
      return ApiError::Internal("a stored export or import description is corrupt");
    }
    records.push_back(std::move(record));
  }
  std::reverse(records.begin(), records.end());
  return records;
}

std::string InProgressView(const rapidjson::Value& description, const char* status_member,
                           std::initializer_list<const char*> ended_only,
                           std::initializer_list<const char*> zeroed) {
  rapidjson::Document view;
  view.CopyFrom(description, view.GetAllocator());
  for (const char* name : ended_only) view.RemoveMember(name);
  for (const char* name : zeroed) {
    if (auto it = view.FindMember(name); it != view.MemberEnd()) it->value.SetInt(0);
  }
  view[status_member].SetString("IN_PROGRESS");
  return CompactJson(view);
}

std::optional<TransferArn> ParseTransferArn(std::string_view arn, std::string_view kind) {
  // arn:aws:dynamodb:<region>:<account>:table/<table>/<kind>/<id>
  constexpr std::string_view kStart = "arn:aws:dynamodb:";
  if (!arn.starts_with(kStart)) return std::nullopt;
  arn.remove_prefix(kStart.size());
  TransferArn parts;
  size_t colon = arn.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  parts.region = std::string(arn.substr(0, colon));
  arn.remove_prefix(colon + 1);
  colon = arn.find(':');
  if (colon != 12) return std::nullopt;
  parts.account = std::string(arn.substr(0, colon));
  arn.remove_prefix(colon + 1);
  if (!arn.starts_with("table/")) return std::nullopt;
  arn.remove_prefix(6);
  std::string middle = "/" + std::string(kind) + "/";
  size_t at = arn.find(middle);
  if (at == std::string_view::npos || at < 3) return std::nullopt;
  parts.table = std::string(arn.substr(0, at));
  parts.id = std::string(arn.substr(at + middle.size()));
  // <14 digits>-<8 hex digits>
  bool well_formed = parts.id.size() == 23 && parts.id[14] == '-';
  for (size_t i = 0; well_formed && i < parts.id.size(); ++i) {
    char c = parts.id[i];
    well_formed = i == 14 || (i < 14 ? c >= '0' && c <= '9'
                                     : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  }
  if (!well_formed || parts.table.find('/') != std::string::npos) return std::nullopt;
  return parts;
}

std::string NewTransferId(int64_t start_millis) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  char id[40];
  std::snprintf(id, sizeof(id), "%014lld-%08x", static_cast<long long>(start_millis),
                static_cast<unsigned>(random() & 0xffffffffu));
  return id;
}

}  // namespace ddb::api
