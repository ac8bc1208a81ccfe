// StartBulkPutItems, DescribeBulkOperation, ListBulkOperations,
// CancelBulkOperation: items read from the objects under an S3 key prefix
// (import_format.h, compression.h — ImportTable's readers) and put into an
// existing table, each through PutItem as a client's would be, so an item is
// validated, and overwrites, as one. Like ImportTable, the operation runs
// within the request: the first answer says IN_PROGRESS, as DynamoDB's does,
// and later answers (after the server's transient-status delay) COMPLETED,
// COMPLETED_WITH_ERRORS or FAILED. Descriptions are transfer records
// (transfer_records.h), so they outlive the table and a restart.
//
// A record that does not parse ends its object (as DynamoDB's "validation
// errors that stop an object" and the import do) and counts one failed
// item; an item PutItem refuses counts one and the object goes on. With
// OutputType ERROR and an output bucket, the failures are written, one JSON
// line each, to <S3KeyPrefix>/AWSDynamoDB/<id>/errors.json (the layout is
// inferred). Per-item condition expressions are not read, so nothing
// reports CONDITION_CHECK_FAILURE.
#include <algorithm>
#include <cstdint>

#include "api/attribute_json.h"
#include "api/dispatch.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/tables/table_json.h"
#include "api/transfer/compression.h"
#include "api/transfer/import_format.h"
#include "api/transfer/transfer_records.h"

namespace ddb::api {
namespace {

// An object expands to at most this much (a gzip bomb stops here).
constexpr size_t kMaxBulkObjectBytes = size_t{1} << 31;
// The failure lines kept per operation for the error report.
constexpr size_t kMaxBulkErrorLines = 1000;
// How long a ClientToken names its operation.
constexpr int64_t kTokenMillis = 8LL * 3600 * 1000;

struct BulkPutRequest {
  std::string client_token;
  std::string table;  // the name, also when the request gave the ARN
  const rapidjson::Value* input = nullptr;   // InputS3Configuration, as sent
  const rapidjson::Value* output = nullptr;  // OutputS3Configuration, as sent
  std::string bucket, key_prefix;
  InputFormat format = InputFormat::kDynamoDbJson;
  Compression compression = Compression::kNone;
  std::string output_bucket, output_prefix;
  bool report_errors = false;
  std::optional<int64_t> max_write_units;
  std::string performance_tier = "STANDARD";
};

void CheckBucket(Constraints& c, std::optional<std::string_view> bucket, const std::string& path) {
  if (!bucket) return;
  if (bucket->size() > 255) {
    c.Length(*bucket, path, 0, 255);
  } else if (!IsS3BucketName(*bucket)) {
    c.Violation(Quote(*bucket), path,
                "Member must satisfy regular expression pattern: "
                "^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$");
  }
}

void CheckOwner(Constraints& c, std::optional<std::string_view> owner, const std::string& path) {
  if (owner && (owner->size() != 12 ||
                owner->find_first_not_of("0123456789") != std::string_view::npos)) {
    c.Violation(Quote(*owner), path, "Member must satisfy regular expression pattern: [0-9]{12}");
  }
}

ApiResult<BulkPutRequest> ReadBulkPutRequest(const rapidjson::Value& body) {
  RequestReader r(body);
  auto token = r.String("ClientToken");
  const rapidjson::Value* input = r.Object("InputS3Configuration");
  const rapidjson::Value* output = r.Object("OutputS3Configuration");
  auto table = r.String("TableName");
  auto max_units = r.Long("MaxWriteRequestUnits");
  auto tier = r.String("PerformanceTier");
  if (r.failed()) return r.error();
  std::optional<std::string_view> bucket, owner, prefix, format, compression;
  if (input) {
    RequestReader i(*input);
    owner = i.String("S3BucketOwner");
    bucket = i.String("S3Bucket");
    prefix = i.String("S3KeyPrefix");
    format = i.String("InputFormat");
    compression = i.String("InputCompressionType");
    if (i.failed()) return i.error();
  }
  std::optional<std::string_view> out_bucket, out_owner, out_prefix, sse, kms;
  const rapidjson::Value* types = nullptr;
  if (output) {
    RequestReader o(*output);
    out_owner = o.String("S3BucketOwner");
    out_bucket = o.String("S3Bucket");
    out_prefix = o.String("S3KeyPrefix");
    sse = o.String("S3SseAlgorithm");
    kms = o.String("S3SseKmsKeyId");
    types = o.Array("OutputType");
    if (o.failed()) return o.error();
  }
  // The output types, echoed as DynamoDB echoes a list ("[A, B]").
  std::string types_echo;
  bool types_valid = true, report_errors = false;
  for (rapidjson::SizeType n = 0; types && n < types->Size(); ++n) {
    const rapidjson::Value& type = (*types)[n];
    if (!type.IsString()) return WrongType(type, "String");
    std::string_view name = View(type);
    types_echo += (types_echo.empty() ? "" : ", ") + std::string(name);
    types_valid = types_valid && (name == "ERROR" || name == "CONDITION_CHECK_FAILURE");
    report_errors = report_errors || name == "ERROR";
  }

  Constraints c;
  if (token && (token->empty() || token->find('$') != std::string_view::npos)) {
    c.Violation(Quote(*token), "clientToken",
                "Member must satisfy regular expression pattern: ^[^\\$]+$");
  }
  c.NotNull(input != nullptr, "inputS3Configuration");
  if (input) {
    CheckOwner(c, owner, "inputS3Configuration.s3BucketOwner");
    c.NotNull(bucket.has_value(), "inputS3Configuration.s3Bucket");
    CheckBucket(c, bucket, "inputS3Configuration.s3Bucket");
    if (prefix) c.Length(*prefix, "inputS3Configuration.s3KeyPrefix", 0, 1024);
    c.NotNull(format.has_value(), "inputS3Configuration.inputFormat");
    c.Enum(format, "inputS3Configuration.inputFormat", {"DYNAMODB_JSON", "ION"});
    c.Enum(compression, "inputS3Configuration.inputCompressionType", {"GZIP", "ZSTD", "NONE"});
  }
  c.NotNull(output != nullptr, "outputS3Configuration");
  if (output) {
    CheckOwner(c, out_owner, "outputS3Configuration.s3BucketOwner");
    CheckBucket(c, out_bucket, "outputS3Configuration.s3Bucket");
    if (out_prefix) c.Length(*out_prefix, "outputS3Configuration.s3KeyPrefix", 0, 1024);
    c.Enum(sse, "outputS3Configuration.s3SseAlgorithm", {"AES256", "KMS"});
    if (kms) c.Length(*kms, "outputS3Configuration.s3SseKmsKeyId", 1, 2048);
    c.NotNull(types != nullptr, "outputS3Configuration.outputType");
    if (!types_valid) {
      c.Violation(Quote("[" + types_echo + "]"), "outputS3Configuration.outputType",
                  "Member must satisfy constraint: [Member must satisfy enum value set: "
                  "[ERROR, CONDITION_CHECK_FAILURE]]");
    }
  }
  c.NotNull(table.has_value(), "tableName");
  if (table) c.Length(*table, "tableName", 1, 1024);
  c.Range(max_units, "maxWriteRequestUnits", 1024, INT64_MAX);
  c.Enum(tier, "performanceTier", {"STANDARD", "ACCELERATED"});
  if (!c.empty()) return c.ToError();

  BulkPutRequest out;
  out.client_token = token ? std::string(*token) : NewTransferId(0).substr(15);
  out.table = TableNameFromArn(*table);
  out.input = input;
  out.output = output;
  out.bucket = std::string(*bucket);
  out.key_prefix = std::string(prefix.value_or(""));
  out.format = *format == "ION" ? InputFormat::kIon : InputFormat::kDynamoDbJson;
  out.compression = compression == "GZIP"   ? Compression::kGzip
                    : compression == "ZSTD" ? Compression::kZstd
                                            : Compression::kNone;
  out.output_bucket = std::string(out_bucket.value_or(""));
  out.output_prefix = std::string(out_prefix.value_or(""));
  out.report_errors = report_errors;
  out.max_write_units = max_units;
  if (tier) out.performance_tier = std::string(*tier);
  return out;
}

// The members a repeated ClientToken must match, as JSON text.
std::string ParametersOf(const rapidjson::Value& description) {
  std::string text = CompactJson(description["TableDetails"][0]["TableName"]) + "\n";
  for (const char* name : {"InputS3Configuration", "OutputS3Configuration",
                           "MaxWriteRequestUnits", "PerformanceTier"}) {
    auto it = description.FindMember(name);
    text += it == description.MemberEnd() ? "-" : CompactJson(it->value);
    text += "\n";
  }
  return text;
}

struct BulkPutOutcome {
  std::string status = "COMPLETED";
  std::string failure_code, failure_message;
  uint64_t total_bytes = 0, processed_bytes = 0, processed_items = 0, failed_items = 0;
  uint64_t put_bytes = 0;
  std::vector<std::string> error_lines;  // the error report's lines
};

void RecordFailure(BulkPutOutcome& outcome, const std::string& bucket, const std::string& key,
                   size_t index, const std::string& message) {
  ++outcome.failed_items;
  if (outcome.error_lines.size() >= kMaxBulkErrorLines) return;
  outcome.error_lines.push_back(RenderObject([&](JsonWriter& w) {
    w.Key("bucket");
    WriteString(w, bucket);
    w.Key("key");
    WriteString(w, key);
    w.Key("itemIndex");
    w.Uint64(index);
    w.Key("errorType");
    WriteString(w, "ERROR");
    w.Key("errorMessage");
    WriteString(w, message);
  }));
}

void FailOnS3(BulkPutOutcome& outcome, const engine::Status& status) {
  outcome.status = "FAILED";
  S3Failure failure = S3FailureOf(status);
  outcome.failure_code = std::move(failure.code);
  outcome.failure_message = std::move(failure.message);
}

BulkPutOutcome RunBulkPut(Context& ctx, const BulkPutRequest& request) {
  BulkPutOutcome outcome;
  engine::ObjectStore& store = ctx.engine.object_store();
  auto keys = store.List(request.bucket, request.key_prefix);
  if (!keys.ok()) {
    FailOnS3(outcome, keys.status());
    return outcome;
  }
  std::vector<std::pair<std::string, std::string>> objects;  // key, bytes
  for (const std::string& key : *keys) {
    if (key.ends_with("/")) continue;  // a folder's marker
    auto object = store.Get(request.bucket, key);
    if (!object.ok()) {
      FailOnS3(outcome, object.status());
      return outcome;
    }
    outcome.total_bytes += object->size();
    objects.emplace_back(key, std::move(*object));
  }
  std::string put_prefix = "{\"TableName\":";
  put_prefix += CompactJson(rapidjson::Value(request.table.c_str(),
                                             static_cast<rapidjson::SizeType>(request.table.size())));
  put_prefix += ",\"Item\":";
  for (const auto& [key, bytes] : objects) {
    outcome.processed_bytes += bytes.size();
    auto text = Decompress(bytes, request.compression, kMaxBulkObjectBytes);
    if (!text.ok()) {
      ++outcome.processed_items;
      RecordFailure(outcome, request.bucket, key, 0, text.error().message);
      continue;
    }
    ObjectItems items = ReadImportObject(*text, request.format, CsvOptions{});
    for (size_t i = 0; i < items.items.size(); ++i) {
      ++outcome.processed_items;
      Response put = Dispatch(ctx.engine, ctx.caller, "DynamoDB_20120810.PutItem",
                              put_prefix + items.items[i] + "}");
      if (put.http_status != 200) {
        RecordFailure(outcome, request.bucket, key, i, ErrorOfResponse(put).message);
        continue;
      }
      rapidjson::Document item_json;
      item_json.Parse(items.items[i].data(), items.items[i].size());
      if (auto item = ParseItem(item_json); item.ok()) outcome.put_bytes += engine::ItemSize(*item);
    }
    if (items.error) {
      ++outcome.processed_items;
      RecordFailure(outcome, request.bucket, key, items.error_index, *items.error);
    }
  }
  if (outcome.failed_items) outcome.status = "COMPLETED_WITH_ERRORS";
  return outcome;
}

std::string ReportKey(const BulkPutRequest& request, std::string_view id) {
  std::string prefix = request.output_prefix;
  while (prefix.ends_with("/")) prefix.pop_back();
  return (prefix.empty() ? "" : prefix + "/") + "AWSDynamoDB/" + std::string(id) + "/errors.json";
}

std::string RenderDescription(Context& ctx, const BulkPutRequest& request, const std::string& arn,
                              const std::string& table_id, int64_t start,
                              const BulkPutOutcome& outcome) {
  return RenderObject([&](JsonWriter& w) {
    auto text = [&](const char* key, std::string_view value) { WriteNonEmpty(w, key, value); };
    auto count = [&](const char* key, uint64_t value) {
      w.Key(key);
      w.Uint64(value);
    };
    text("BulkOperationArn", arn);
    text("BulkOperationStatus", outcome.status);
    w.Key("TableDetails");
    w.StartArray();
    w.StartObject();
    text("TableName", request.table);
    text("TableId", table_id);
    w.EndObject();
    w.EndArray();
    text("ClientToken", request.client_token);
    w.Key("InputS3Configuration");
    request.input->Accept(w);
    w.Key("OutputS3Configuration");
    request.output->Accept(w);
    w.Key("StartTime");
    WriteSeconds(w, start);
    w.Key("EndTime");
    WriteSeconds(w, ctx.db.clock().NowMillis());
    count("ProcessedItemCount", outcome.processed_items);
    count("ProcessedInputBytes", outcome.processed_bytes);
    count("TotalInputBytes", outcome.total_bytes);
    w.Key("BulkOperationUsage");
    w.StartArray();
    w.StartObject();
    text("TableName", request.table);
    count("BulkPutBytes", outcome.put_bytes);
    w.Key("Table");
    w.StartObject();
    count("BulkPutBytes", outcome.put_bytes);
    w.EndObject();
    w.EndObject();
    w.EndArray();
    count("FailedItemCount", outcome.failed_items);
    text("FailureCode", outcome.failure_code);
    text("FailureMessage", outcome.failure_message);
    if (request.max_write_units) {
      w.Key("MaxWriteRequestUnits");
      w.Int64(*request.max_write_units);
    }
    text("PerformanceTier", request.performance_tier);
  });
}

std::string Wrap(const std::string& description) {
  return Wrapped("BulkOperationDescription", description);
}

// As the caller sees a record now: a cancelled one as stored, any other
// running within the transient-status delay from its start.
std::string CurrentBulkView(const Context& ctx, const rapidjson::Value& description) {
  if (StringMemberOr(description, "BulkOperationStatus") == "CANCELLED") {
    return CompactJson(description);
  }
  return CurrentView(ctx, description, kBulkPutRunning);
}

ApiError NotFound(std::string_view arn) {
  return ApiError::ResourceNotFound("Requested resource not found: BulkOperation: " +
                                    std::string(arn) + " not found");
}

}  // namespace

ApiResult<std::string> StartBulkPutItems(Context& ctx, const rapidjson::Value& body) {
  auto request = ReadBulkPutRequest(body);
  if (!request.ok()) return request.take_error();
  auto schema = ctx.db.GetSchema(ctx.caller.ns, request->table);
  if (!schema.ok()) return schema.status();
  int64_t start = ctx.db.clock().NowMillis();
  std::string id = NewTransferId(start);
  std::string arn = ctx.TableArn(request->table) + "/bulk-operation/" + id;
  // A repeated token within 8 hours: the same operation, or a mismatch.
  auto records = ListTransferRecords(ctx, TransferKind::kBulkPut);
  if (!records.ok()) return records.take_error();
  std::string parameters;
  for (const auto& record : *records) {
    const rapidjson::Value& stored = record.description;
    if (StringMemberOr(stored, "ClientToken") != request->client_token) continue;
    if (stored["StartTime"].GetDouble() * 1000.0 + kTokenMillis < start) continue;
    if (parameters.empty()) {
      rapidjson::Document mine;
      std::string rendered =
          RenderDescription(ctx, *request, arn, (*schema)->table_uuid, start, BulkPutOutcome{});
      mine.Parse(rendered.data(), rendered.size());
      parameters = ParametersOf(mine);
    }
    if (ParametersOf(stored) != parameters) {
      return ApiError::IdempotentParameterMismatch(
          "The request uses the same client token as a previous, but non-identical request.");
    }
    return Wrap(CurrentBulkView(ctx, stored));
  }
  BulkPutOutcome outcome = RunBulkPut(ctx, *request);
  if (request->report_errors && !request->output_bucket.empty() && !outcome.error_lines.empty()) {
    std::string report;
    for (const auto& line : outcome.error_lines) report += line + "\n";
    engine::Status put =
        ctx.engine.object_store().Put(request->output_bucket, ReportKey(*request, id), report);
    if (!put.ok()) FailOnS3(outcome, put);
  }
  std::string description =
      RenderDescription(ctx, *request, arn, (*schema)->table_uuid, start, outcome);
  if (auto stored = PutTransferRecord(ctx, TransferKind::kBulkPut, id, description); !stored.ok()) {
    return stored;
  }
  return Wrap(InProgressView(description, kBulkPutRunning));
}

ApiResult<std::string> DescribeBulkOperation(Context& ctx, const rapidjson::Value& body) {
  auto found = FindTransfer(ctx, body, TransferKind::kBulkPut);
  if (!found.ok()) return found.take_error();
  if (!found->record) return NotFound(found->arn);
  return Wrap(CurrentBulkView(ctx, found->record->description));
}

ApiResult<std::string> ListBulkOperations(Context& ctx, const rapidjson::Value& body) {
  auto page = ReadListRequest(ctx, body, TransferKind::kBulkPut);
  if (!page.ok()) return page.take_error();
  const std::vector<TransferRecord>& records = page->records;
  return RenderObject([&](JsonWriter& w) {
    w.Key("BulkOperationsSummaryList");
    w.StartArray();
    for (size_t i = page->start; i < records.size(); ++i) {
      if (i - page->start == page->limit) {
        w.EndArray();
        w.Key("NextToken");
        WriteString(w, NextTokenFor(TransferKind::kBulkPut,
                                    View(records[i].description["BulkOperationArn"])));
        return;
      }
      rapidjson::Document d;
      d.Parse(CurrentBulkView(ctx, records[i].description).c_str());
      w.StartObject();
      for (const char* name : {"BulkOperationArn", "BulkOperationStatus", "StartTime", "EndTime"}) {
        if (auto it = d.FindMember(name); it != d.MemberEnd()) {
          w.Key(name);
          it->value.Accept(w);
        }
      }
      w.EndObject();
    }
    w.EndArray();
  });
}

ApiResult<std::string> CancelBulkOperation(Context& ctx, const rapidjson::Value& body) {
  auto found = FindTransfer(ctx, body, TransferKind::kBulkPut);
  if (!found.ok()) return found.take_error();
  if (!found->record) return NotFound(found->arn);
  rapidjson::Document& stored = found->record->description;
  rapidjson::Document now;
  now.Parse(CurrentBulkView(ctx, stored).c_str());
  std::string status = StringMemberOr(now, "BulkOperationStatus");
  // Only a running operation can be cancelled (what DynamoDB answers for
  // an ended one is not documented: a ValidationException is inferred).
  if (status != "IN_PROGRESS") {
    return ApiError::Validation("Bulk operation " + found->arn +
                                " cannot be cancelled: its status is " + status);
  }
  // The work is done within StartBulkPutItems, so the items it wrote stay,
  // as DynamoDB keeps what a cancelled operation wrote.
  stored["BulkOperationStatus"].SetString("CANCELLED", stored.GetAllocator());
  if (auto it = stored.FindMember("EndTime"); it != stored.MemberEnd()) {
    it->value.SetDouble(static_cast<double>(ctx.db.clock().NowMillis()) / 1000.0);
  }
  if (auto put = PutTransferRecord(ctx, TransferKind::kBulkPut, found->record->id,
                                   CompactJson(stored));
      !put.ok()) {
    return put;
  }
  return RenderObject([&](JsonWriter& w) {
    w.Key("BulkOperationArn");
    WriteString(w, found->arn);
    w.Key("BulkOperationStatus");
    WriteString(w, "CANCELLING");
  });
}

}  // namespace ddb::api
