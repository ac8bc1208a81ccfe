#include "api/transfer/transfer_records.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "api/json_reader.h"

namespace ddb::api {
namespace {

// What differs between the kinds: where their records live, how their
// requests name the ARN and the page's size, and their NextToken's form.
struct KindSpec {
  const char* record_prefix;
  const char* arn_member;   // ExportArn, ImportArn, BulkOperationArn
  const char* arn_path;     // as the validation message names it
  const char* arn_word;     // the ARN's middle: .../table/<t>/<word>/<id>
  const char* limit_member;
  const char* limit_path;
  bool has_table_filter;    // TableArn in the List request
  bool hex_token;           // NextToken is the ARN's hex (else the ARN itself)
};

const KindSpec& SpecOf(TransferKind kind) {
  static const KindSpec kExport{"transfer/export/", "ExportArn", "exportArn", "export",
                                "MaxResults", "maxResults", true, false};
  static const KindSpec kImport{"transfer/import/", "ImportArn", "importArn", "import",
                                "PageSize", "pageSize", true, true};
  static const KindSpec kBulkPut{"transfer/bulk-put/", "BulkOperationArn", "bulkOperationArn",
                                 "bulk-operation", "MaxResults", "maxResults", false, true};
  return kind == TransferKind::kExport ? kExport
         : kind == TransferKind::kImport ? kImport
                                         : kBulkPut;
}

std::string RecordPrefix(TransferKind kind, std::string_view ns) {
  return std::string(SpecOf(kind).record_prefix) + std::string(ns) + "\n";
}

std::string ImportToken(std::string_view arn) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char c : arn) {
    token += kHex[c >> 4];
    token += kHex[c & 15];
  }
  while (token.size() < 112 || token.size() % 16) token += "00";
  return token;
}

std::optional<std::string> ArnOfImportToken(std::string_view token) {
  if (token.size() < 112 || token.size() > 1024 || token.size() % 16) return std::nullopt;
  std::string arn;
  for (size_t i = 0; i < token.size(); i += 2) {
    auto digit = [](char h) {
      return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
    };
    int high = digit(token[i]), low = digit(token[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    char c = static_cast<char>(high * 16 + low);
    if (c == '\0') break;
    arn += c;
  }
  return arn;
}

}  // namespace

engine::Status PutTransferRecord(Context& ctx, TransferKind kind, std::string_view id,
                                 std::string_view description_json) {
  return ctx.engine.settings().Put(RecordPrefix(kind, ctx.caller.ns) + std::string(id),
                                   description_json);
}

ApiResult<std::vector<TransferRecord>> ListTransferRecords(Context& ctx, TransferKind kind) {
  std::string prefix = RecordPrefix(kind, ctx.caller.ns);
  auto settings = ctx.engine.settings().List(prefix);
  if (!settings.ok()) return settings.status();
  std::vector<TransferRecord> records;
  for (auto& [key, value] : *settings) {
    TransferRecord record{key.substr(prefix.size()), {}};
    record.description.Parse(value.data(), value.size());
    if (record.description.HasParseError() || !record.description.IsObject()) {
      return ApiError::Internal("a stored export, import or bulk operation description is corrupt");
    }
    records.push_back(std::move(record));
  }
  std::reverse(records.begin(), records.end());
  return records;
}

const RunningView kExportRunning = {
    "ExportStatus",
    {"EndTime", "ExportManifest", "ItemCount", "BilledSizeBytes", "FailureCode", "FailureMessage"},
    {}};
const RunningView kBulkPutRunning = {
    "BulkOperationStatus",
    {"EndTime", "FailureCode", "FailureMessage", "BulkOperationUsage"},
    {"ProcessedItemCount", "FailedItemCount", "ProcessedInputBytes"}};
const RunningView kImportRunning = {
    "ImportStatus",
    {"EndTime", "ProcessedSizeBytes", "FailureCode", "FailureMessage"},
    {"ErrorCount", "ProcessedItemCount", "ImportedItemCount"}};

std::string InProgressView(const rapidjson::Value& description, const RunningView& running) {
  rapidjson::Document view;
  view.CopyFrom(description, view.GetAllocator());
  for (const char* name : running.ended_only) view.RemoveMember(name);
  for (const char* name : running.zeroed) {
    if (auto it = view.FindMember(name); it != view.MemberEnd()) it->value.SetInt(0);
  }
  view[running.status_member].SetString("IN_PROGRESS");
  return CompactJson(view);
}

std::string InProgressView(std::string_view description_json, const RunningView& running) {
  rapidjson::Document doc;
  doc.Parse(description_json.data(), description_json.size());
  return InProgressView(doc, running);
}

std::string CurrentView(const Context& ctx, const rapidjson::Value& description,
                        const RunningView& running) {
  int64_t start = std::llround(description["StartTime"].GetDouble() * 1000.0);
  return ctx.InTransition(start) ? InProgressView(description, running) : CompactJson(description);
}

ApiResult<FoundTransfer> FindTransfer(Context& ctx, const rapidjson::Value& request,
                                      TransferKind kind) {
  const KindSpec& spec = SpecOf(kind);
  RequestReader r(request);
  auto arn = r.String(spec.arn_member);
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(arn.has_value(), spec.arn_path);
  if (arn) constraints.Length(*arn, spec.arn_path, 37, 1024);
  if (!constraints.empty()) return constraints.ToError();
  FoundTransfer found{std::string(*arn), {}, std::nullopt};
  auto parts = ParseTransferArn(*arn, spec.arn_word);
  if (!parts) {
    // A bulk operation's unknown ARN, of whatever form, is a missing resource.
    if (kind == TransferKind::kBulkPut) return found;
    return ApiError::Validation(kind == TransferKind::kExport ? "Invalid Export ARN"
                                                              : "Invalid Import ARN");
  }
  found.parts = std::move(*parts);
  auto records = ListTransferRecords(ctx, kind);
  if (!records.ok()) return records.take_error();
  for (auto& record : *records) {
    if (record.id == found.parts.id && View(record.description[spec.arn_member]) == found.arn) {
      found.record = std::move(record);
      break;
    }
  }
  return found;
}

std::string Wrapped(std::string_view member, std::string_view description_json) {
  return "{\"" + std::string(member) + "\":" + std::string(description_json) + "}";
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

bool IsS3BucketName(std::string_view bucket) {
  auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (bucket.size() < 2 || !alnum(bucket.front()) || !alnum(bucket.back())) return false;
  return std::all_of(bucket.begin(), bucket.end(),
                     [&](char c) { return alnum(c) || c == '.' || c == '-' || c == '_'; });
}

ApiError ErrorOfResponse(const Response& response) {
  rapidjson::Document doc;
  doc.Parse(response.body.data(), response.body.size());
  std::string type = doc.IsObject() ? StringMemberOr(doc, "__type") : "";
  if (size_t hash = type.rfind('#'); hash != std::string::npos) type.erase(0, hash + 1);
  std::string message = doc.IsObject() ? StringMemberOr(doc, "message") : "";
  if (message.empty() && doc.IsObject()) message = StringMemberOr(doc, "Message");
  return ApiError::Injected(type, response.http_status, message);
}

S3Failure S3FailureOf(const engine::Status& status) {
  if (status.code() == engine::Status::Code::kNotFound) {
    return {"S3NoSuchBucket",
            "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error "
            "Code: NoSuchBucket; Proxy: null)"};
  }
  return {"S3Error", status.message()};
}

std::string NewTransferId(int64_t start_millis) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  char id[40];
  std::snprintf(id, sizeof(id), "%014lld-%08x", static_cast<long long>(start_millis),
                static_cast<unsigned>(random() & 0xffffffffu));
  return id;
}

std::string NextTokenFor(TransferKind kind, std::string_view arn) {
  return SpecOf(kind).hex_token ? ImportToken(arn) : std::string(arn);
}

ApiResult<ListPage> ReadListRequest(Context& ctx, const rapidjson::Value& request,
                                    TransferKind kind) {
  const KindSpec& spec = SpecOf(kind);
  RequestReader r(request);
  auto table_arn = spec.has_table_filter ? r.String("TableArn") : std::nullopt;
  auto limit = r.Integer(spec.limit_member);
  auto token = r.String("NextToken");
  if (r.failed()) return r.error();
  Constraints constraints;
  if (table_arn) constraints.Length(*table_arn, "tableArn", 1, 1024);
  constraints.Range(limit, spec.limit_path, 1, 25);
  // The ARN the page resumes at: an export's token is one; an import's and
  // a bulk operation's must have DynamoDB's hex form.
  std::optional<std::string> resume_arn;
  if (token) {
    resume_arn = spec.hex_token ? ArnOfImportToken(*token)
                                : std::optional<std::string>(std::string(*token));
    if (!resume_arn) {
      constraints.Violation(Quote(*token), "nextToken",
                            "Member must satisfy regular expression pattern: ([0-9a-f]{16})+");
    }
  }
  if (!constraints.empty()) return constraints.ToError();
  ListPage page;
  if (table_arn) page.table_arn = std::string(*table_arn);
  if (limit) page.limit = static_cast<size_t>(*limit);
  auto records = ListTransferRecords(ctx, kind);
  if (!records.ok()) return records.take_error();
  page.records = std::move(*records);
  if (resume_arn) {
    auto at = std::find_if(page.records.begin(), page.records.end(), [&](const auto& record) {
      return View(record.description[spec.arn_member]) == *resume_arn;
    });
    if (at == page.records.end()) {
      return ApiError::Validation("Invalid Request: Provided nextToken is invalid: " +
                                  std::string(*token));
    }
    page.start = static_cast<size_t>(at - page.records.begin());
  }
  return page;
}

}  // namespace ddb::api
