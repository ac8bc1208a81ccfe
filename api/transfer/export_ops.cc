// ExportTableToPointInTime, DescribeExport, ListExports: a table's items at
// an instant (a full export) or its changes over a window (an incremental
// export), read from the point-in-time history (engine/backups/history.h) and
// written as DynamoDB's export to S3 (export_format.h) into the Database's
// object store. The export runs within the request; its description says
// IN_PROGRESS in the first answer (and within the transient-status delay),
// COMPLETED or FAILED after, as DynamoDB's does once it has finished.
#include <algorithm>

#include "api/backups/backup_request.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/tables/table_json.h"
#include "api/transfer/export_format.h"
#include "api/transfer/transfer_records.h"

namespace ddb::api {
namespace {

constexpr int64_t kMinuteMillis = 60'000;
// An incremental export bills at least 10 MB (captured).
constexpr uint64_t kMinIncrementalBilledBytes = 10'000'000;
bool IsDigits(std::string_view text, size_t count) {
  return text.size() == count &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "2026-10-08T22:51:50Z": the instants the incremental window's texts name.
std::string IsoSecondsTime(int64_t millis) {
  std::string text = IsoMillisTime(millis);
  return text.substr(0, text.size() - 5) + "Z";
}

struct ExportRequest {
  std::string table_arn, table;
  std::optional<int64_t> export_time;
  std::string client_token;
  std::string bucket, bucket_owner, prefix, sse_algorithm, kms_key;
  ExportFormat format = ExportFormat::kDynamoDbJson;
  std::optional<std::string> export_type;  // echoed only when sent
  bool incremental = false;
  std::optional<int64_t> from_time, to_time;
  std::string view_type = "NEW_AND_OLD_IMAGES";
  bool has_incremental_spec = false;
};

// Reads and checks the request, in DynamoDB's order: its constraints, the
// ARN, the encryption key and the incremental specification's coupling.
ApiResult<ExportRequest> ReadExportRequest(const rapidjson::Value& request) {
  RequestReader r(request);
  auto table_arn = r.String("TableArn");
  auto token = r.String("ClientToken");
  auto bucket = r.String("S3Bucket");
  auto owner = r.String("S3BucketOwner");
  auto prefix = r.String("S3Prefix");
  auto sse = r.String("S3SseAlgorithm");
  auto kms = r.String("S3SseKmsKeyId");
  auto format = r.String("ExportFormat");
  auto type = r.String("ExportType");
  const rapidjson::Value* spec = r.Object("IncrementalExportSpecification");
  if (r.failed()) return r.error();
  auto export_time = ReadEpochMillis(request, "ExportTime");
  if (!export_time.ok()) return export_time.take_error();
  ExportRequest out;
  std::optional<std::string_view> view;
  if (spec) {
    out.has_incremental_spec = true;
    RequestReader s(*spec);
    view = s.String("ExportViewType");
    if (s.failed()) return s.error();
    auto from = ReadEpochMillis(*spec, "ExportFromTime");
    if (!from.ok()) return from.take_error();
    auto to = ReadEpochMillis(*spec, "ExportToTime");
    if (!to.ok()) return to.take_error();
    out.from_time = *from;
    out.to_time = *to;
  }
  Constraints constraints;
  constraints.NotNull(table_arn.has_value(), "tableArn");
  if (table_arn) constraints.Length(*table_arn, "tableArn", 1, 1024);
  if (token && (token->empty() || token->find('$') != std::string_view::npos)) {
    constraints.Violation(Quote(*token), "clientToken",
                          "Member must satisfy regular expression pattern: ^[^\\$]+$");
  }
  constraints.NotNull(bucket.has_value(), "s3Bucket");
  if (bucket && bucket->size() > 255) {
    constraints.Length(*bucket, "s3Bucket", 0, 255);
  } else if (bucket && !IsS3BucketName(*bucket)) {
    constraints.Violation(Quote(*bucket), "s3Bucket",
                          "Member must satisfy regular expression pattern: "
                          "^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$");
  }
  if (owner && !IsDigits(*owner, 12)) {
    constraints.Violation(Quote(*owner), "s3BucketOwner",
                          "Member must satisfy regular expression pattern: [0-9]{12}");
  }
  if (prefix) constraints.Length(*prefix, "s3Prefix", 0, 1024);
  constraints.Enum(sse, "s3SseAlgorithm", {"AES256", "KMS"});
  if (kms) constraints.Length(*kms, "s3SseKmsKeyId", 1, 2048);
  constraints.Enum(format, "exportFormat", {"DYNAMODB_JSON", "ION"});
  constraints.Enum(type, "exportType", {"FULL_EXPORT", "INCREMENTAL_EXPORT"});
  constraints.Enum(view, "incrementalExportSpecification.exportViewType",
                   {"NEW_IMAGE", "NEW_AND_OLD_IMAGES"});
  if (!constraints.empty()) return constraints.ToError();

  if (!table_arn->starts_with("arn:")) {
    return ApiError::Validation(
        "One or more parameter values were invalid: tableArn is not a valid ARN");
  }
  out.table_arn = std::string(*table_arn);
  out.table = TableNameFromArn(*table_arn);
  if (table_arn->find(":table/") == std::string_view::npos ||
      out.table.find('/') != std::string::npos || out.table.empty()) {
    return ApiError::Validation("Invalid Request: Table ARN is invalid.");
  }
  if (kms && sse != "KMS") {
    return ApiError::Validation(
        "Invalid Request: KMS Key Id is not supported for this encryption type");
  }
  out.incremental = type == "INCREMENTAL_EXPORT";
  if (spec && !type) {
    return ApiError::Validation(
        "Invalid Request: Export Type expected to be Incremental Export when incremental export "
        "specification is provided");
  }
  if (spec && !out.incremental) {
    return ApiError::Validation(
        "Invalid Request: When Export Type is Full Export , Incremental Export Specification "
        "should not be provided");
  }
  if (out.incremental && !spec) {
    return ApiError::Validation(
        "Invalid Request: Incremental Export Specification expected when export type is set as "
        "Incremental Export");
  }
  if (out.incremental && !out.from_time) {
    return ApiError::Validation(
        "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification");
  }
  out.export_time = *export_time;
  out.client_token = std::string(token.value_or(""));
  out.bucket = std::string(*bucket);
  out.bucket_owner = std::string(owner.value_or(""));
  out.prefix = std::string(prefix.value_or(""));
  out.sse_algorithm = std::string(sse.value_or("AES256"));
  out.kms_key = std::string(kms.value_or(""));
  if (format == "ION") out.format = ExportFormat::kIon;
  if (type) out.export_type = std::string(*type);
  if (view) out.view_type = std::string(*view);
  return out;
}

// The instants to read, checked against the recovery window: for a full
// export `export_time` (now when absent); for an incremental one the
// window (to: now when absent).
ApiResult<ExportRequest> CheckExportTimes(ExportRequest request,
                                          const engine::TableSchema& schema, int64_t now) {
  RecoveryWindow window = RecoveryWindowOf(schema.point_in_time_recovery, now);
  if (!request.incremental) {
    if (!request.export_time) request.export_time = now;
    if (*request.export_time > now || *request.export_time < window.earliest) {
      return ApiError::InvalidExportTime("Export Time is invalid");
    }
    return request;
  }
  if (!request.to_time) request.to_time = now;
  int64_t earliest = std::max(window.earliest, schema.creation_millis);
  if (*request.from_time < earliest || *request.from_time >= *request.to_time) {
    return ApiError::InvalidExportTime(
        "Incremental export period from time cannot be less than the table creation time : " +
        IsoSecondsTime(earliest));
  }
  if (*request.to_time > now) {
    return ApiError::InvalidExportTime(
        "Incremental export period to time cannot be greater than the current time : " +
        IsoSecondsTime(now));
  }
  if (*request.to_time - *request.from_time < 15 * kMinuteMillis) {
    return ApiError::InvalidExportTime(
        "Difference between export period from time and export period to time is less than 15 "
        "minutes");
  }
  if (*request.to_time - *request.from_time > 24 * 60 * kMinuteMillis) {
    return ApiError::InvalidExportTime(
        "Difference between export period from time and export period to time is greater than "
        "24 hours");
  }
  return request;
}

// The key attributes of `item`.
engine::Item KeysOf(const engine::TableSchema& schema, const engine::Item& item) {
  engine::Item keys;
  for (const auto* part : {&schema.key.hash, &schema.key.range}) {
    for (const auto& element : *part) {
      if (auto it = item.find(element.name); it != item.end()) keys.emplace(*it);
    }
  }
  return keys;
}

struct ExportOutcome {
  std::string status = "COMPLETED";
  std::string failure_code, failure_message;
  std::string manifest;
  uint64_t item_count = 0;
  uint64_t billed_bytes = 0;
};

// Writes the export's objects; a failure of the object store ends it FAILED,
// as DynamoDB's export ends when S3 refuses it.
ExportOutcome RunExport(Context& ctx, const ExportRequest& request,
                        const engine::TableSchema& schema, const std::string& export_id,
                        const std::string& export_arn, int64_t start) {
  ExportOutcome outcome;
  std::string base = request.prefix;
  if (!base.empty() && base.back() != '/') base += '/';
  base += "AWSDynamoDB/";
  ExportWriter writer(ctx.engine.object_store(), request.bucket, base + export_id + "/",
                      request.incremental ? base + "data/" : base + export_id + "/data/",
                      request.format, /*items_per_file=*/100'000);
  auto fail = [&](const engine::Status& status) {
    outcome.status = "FAILED";
    S3Failure failure = S3FailureOf(status);
    outcome.failure_code = std::move(failure.code);
    outcome.failure_message = std::move(failure.message);
    return outcome;
  };
  if (!request.incremental) {
    if (auto started = writer.Start(); !started.ok()) return fail(started);
  }
  uint64_t size = 0;
  if (request.incremental) {
    auto changes = ctx.engine.point_in_time().ChangesBetween(ctx.caller.ns, schema.name,
                                                             *request.from_time, *request.to_time);
    if (!changes.ok()) return fail(changes.status());
    bool with_old = request.view_type == "NEW_AND_OLD_IMAGES";
    for (const auto& change : *changes) {
      const engine::Item& any = change.new_item ? *change.new_item : *change.old_item;
      if (change.new_item) size += engine::ItemSize(*change.new_item);
      auto added = writer.AddLine(IncrementalExportLine(KeysOf(schema, any), change, with_old,
                                                        request.format));
      if (!added.ok()) return fail(added);
    }
    size = std::max<uint64_t>(size, kMinIncrementalBilledBytes);
  } else {
    auto items =
        ctx.engine.point_in_time().ItemsAt(ctx.caller.ns, schema.name, *request.export_time);
    if (!items.ok()) return fail(items.status());
    for (const auto& item : *items) {
      size += engine::ItemSize(item);
      if (auto added = writer.AddLine(FullExportLine(item, request.format)); !added.ok()) {
        return fail(added);
      }
    }
  }
  ExportSummary summary;
  summary.export_arn = export_arn;
  summary.start_time = IsoMillisTime(start);
  summary.end_time = IsoMillisTime(ctx.db.clock().NowMillis());
  summary.table_arn = ctx.TableArn(schema.name);
  summary.table_id = schema.table_uuid;
  summary.s3_bucket = request.bucket;
  summary.s3_prefix = request.prefix;
  summary.billed_size_bytes = size;
  if (request.incremental) {
    summary.export_from_time = IsoMillisTime(*request.from_time);
    summary.export_to_time = IsoMillisTime(*request.to_time);
    summary.output_view = request.view_type;
    summary.export_type = "INCREMENTAL_EXPORT";
  } else {
    summary.export_time = IsoMillisTime(*request.export_time);
  }
  auto manifest = writer.Finish(summary);
  if (!manifest.ok()) return fail(manifest.status());
  outcome.manifest = *manifest;
  outcome.item_count = writer.item_count();
  outcome.billed_bytes = size;
  return outcome;
}

std::string RenderExportDescription(Context& ctx, const ExportRequest& request,
                                    const engine::TableSchema& schema, const std::string& arn,
                                    const std::string& client_token, int64_t start,
                                    const ExportOutcome& outcome) {
  return RenderObject([&](JsonWriter& w) {
    auto text = [&](const char* key, std::string_view value) { WriteNonEmpty(w, key, value); };
    text("ExportArn", arn);
    text("ExportStatus", outcome.status);
    w.Key("StartTime");
    WriteSeconds(w, start);
    w.Key("EndTime");
    WriteSeconds(w, ctx.db.clock().NowMillis());
    text("ExportManifest", outcome.manifest);
    text("TableArn", ctx.TableArn(schema.name));
    text("TableId", schema.table_uuid);
    if (!request.incremental) {
      w.Key("ExportTime");
      WriteSeconds(w, *request.export_time);
    }
    text("ClientToken", client_token);
    text("S3Bucket", request.bucket);
    text("S3BucketOwner", request.bucket_owner);
    text("S3Prefix", request.prefix);
    text("S3SseAlgorithm", request.sse_algorithm);
    text("S3SseKmsKeyId", request.kms_key);
    text("FailureCode", outcome.failure_code);
    text("FailureMessage", outcome.failure_message);
    text("ExportFormat", ExportFormatName(request.format));
    if (outcome.status == "COMPLETED") {
      w.Key("BilledSizeBytes");
      w.Uint64(outcome.billed_bytes);
      w.Key("ItemCount");
      w.Uint64(outcome.item_count);
    }
    if (request.export_type) text("ExportType", *request.export_type);
    if (request.incremental) {
      w.Key("IncrementalExportSpecification");
      w.StartObject();
      w.Key("ExportFromTime");
      WriteSeconds(w, *request.from_time);
      w.Key("ExportToTime");
      WriteSeconds(w, *request.to_time);
      text("ExportViewType", request.view_type);
      w.EndObject();
    }
  });
}

std::string ExportAnswer(const std::string& description) {
  return Wrapped("ExportDescription", description);
}

// Whether a stored export was asked for with the same parameters.
bool SameExportParameters(const rapidjson::Value& stored, const std::string& rendered) {
  rapidjson::Document other;
  other.Parse(rendered.data(), rendered.size());
  for (const char* name : {"TableArn", "S3Bucket", "S3BucketOwner", "S3Prefix", "S3SseAlgorithm",
                           "S3SseKmsKeyId", "ExportFormat", "IncrementalExportSpecification"}) {
    auto a = stored.FindMember(name);
    auto b = other.FindMember(name);
    bool in_a = a != stored.MemberEnd(), in_b = b != other.MemberEnd();
    if (in_a != in_b || (in_a && a->value != b->value)) return false;
  }
  return true;
}

}  // namespace

ApiResult<std::string> ExportTableToPointInTime(Context& ctx, const rapidjson::Value& body) {
  auto request = ReadExportRequest(body);
  if (!request.ok()) return request.take_error();
  auto schema = ctx.db.GetSchema(ctx.caller.ns, request->table);
  if (!schema.ok()) return ApiError::TableNotFound("Table not found: " + request->table_arn);
  const engine::TableSchema& table = **schema;
  if (!table.point_in_time_recovery.enabled) {
    return ApiError::PointInTimeRecoveryUnavailable(
        "Point in time recovery is not enabled for table '" + table.name + "'");
  }
  int64_t now = ctx.db.clock().NowMillis();
  auto checked = CheckExportTimes(std::move(*request), table, now);
  if (!checked.ok()) return checked.take_error();
  std::string client_token =
      checked->client_token.empty() ? NewTransferId(now) : checked->client_token;
  std::string export_id = NewTransferId(now);
  std::string arn = ctx.TableArn(table.name) + "/export/" + export_id;
  if (!checked->client_token.empty()) {
    auto records = ListTransferRecords(ctx, TransferKind::kExport);
    if (!records.ok()) return records.take_error();
    std::string asked = RenderExportDescription(ctx, *checked, table, arn, client_token, now, {});
    for (const auto& record : *records) {
      auto token = record.description.FindMember("ClientToken");
      if (token == record.description.MemberEnd() || View(token->value) != client_token) continue;
      if (!SameExportParameters(record.description, asked)) return ApiError::ExportConflict();
      return ExportAnswer(CurrentView(ctx, record.description, kExportRunning));
    }
  }
  ExportOutcome outcome = RunExport(ctx, *checked, table, export_id, arn, now);
  std::string description =
      RenderExportDescription(ctx, *checked, table, arn, client_token, now, outcome);
  if (auto stored = PutTransferRecord(ctx, TransferKind::kExport, export_id, description);
      !stored.ok()) {
    return stored;
  }
  // The first answer is DynamoDB's: the export has started.
  return ExportAnswer(InProgressView(description, kExportRunning));
}

ApiResult<std::string> DescribeExport(Context& ctx, const rapidjson::Value& body) {
  auto found = FindTransfer(ctx, body, TransferKind::kExport);
  if (!found.ok()) return found.take_error();
  if (found->parts.region != ctx.caller.region) {
    return ApiError::ExportNotFound("Export not found: Invalid export arn");
  }
  if (!found->record) {
    return ApiError::ExportNotFound("Export not found: Export not found: " + found->arn);
  }
  return ExportAnswer(CurrentView(ctx, found->record->description, kExportRunning));
}

ApiResult<std::string> ListExports(Context& ctx, const rapidjson::Value& body) {
  auto page = ReadListRequest(ctx, body, TransferKind::kExport);
  if (!page.ok()) return page.take_error();
  const std::optional<std::string>& table_arn = page->table_arn;
  const std::vector<TransferRecord>& records = page->records;
  const size_t limit = page->limit, start = page->start;
  // The exports of the table as it is now: one deleted and made again has none.
  std::string table_id;
  if (table_arn) {
    auto schema = ctx.db.GetSchema(ctx.caller.ns, TableNameFromArn(*table_arn));
    if (!schema.ok()) return RenderObject([](JsonWriter& w) {
      w.Key("ExportSummaries");
      w.StartArray();
      w.EndArray();
    });
    table_id = (*schema)->table_uuid;
  }
  return RenderObject([&](JsonWriter& w) {
    w.Key("ExportSummaries");
    w.StartArray();
    size_t listed = 0;
    for (size_t i = start; i < records.size(); ++i) {
      const rapidjson::Value& d = records[i].description;
      if (table_arn && StringMemberOr(d, "TableId") != table_id) continue;
      if (listed == limit) {
        w.EndArray();
        w.Key("NextToken");
        WriteString(w, NextTokenFor(TransferKind::kExport, View(d["ExportArn"])));
        return;
      }
      ++listed;
      rapidjson::Document view;
      view.Parse(CurrentView(ctx, d, kExportRunning).c_str());
      w.StartObject();
      w.Key("ExportArn");
      WriteString(w, View(view["ExportArn"]));
      w.Key("ExportStatus");
      WriteString(w, View(view["ExportStatus"]));
      w.Key("ExportType");
      std::string type = StringMemberOr(view, "ExportType");
      WriteString(w, type.empty() ? "FULL_EXPORT" : type);
      w.EndObject();
    }
    w.EndArray();
  });
}

}  // namespace ddb::api
