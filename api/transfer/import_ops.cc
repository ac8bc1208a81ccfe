// ImportTable, DescribeImport, ListImports: a new table made from
// TableCreationParameters and filled from the objects under an S3 key
// prefix (import_format.h), each item written through PutItem as a client's
// would be — so it is validated as one. The import runs within the request;
// its first answer says IN_PROGRESS, as DynamoDB's does, and later answers
// COMPLETED, or FAILED with DynamoDB's failure codes: S3NoSuchBucket (no
// table is made), ItemValidationError (the valid items are kept).
#include <algorithm>
#include <cmath>

#include "api/dispatch.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/tables/create_table_request.h"
#include "api/tables/table_json.h"
#include "api/transfer/compression.h"
#include "api/transfer/import_format.h"
#include "api/transfer/transfer_records.h"

namespace ddb::api {
namespace {

// An object expands to at most this much (a gzip bomb stops here).
constexpr size_t kMaxObjectBytes = size_t{1} << 31;
// The error records kept per import (DynamoDB logs each to CloudWatch).
constexpr size_t kMaxErrorRecords = 1000;

struct ImportRequest {
  std::string client_token;
  std::string bucket, bucket_owner, key_prefix;
  std::string format_name;
  InputFormat format = InputFormat::kDynamoDbJson;
  std::string compression_name = "NONE";
  Compression compression = Compression::kNone;
  const rapidjson::Value* format_options = nullptr;
  CsvOptions csv;
  const rapidjson::Value* creation = nullptr;  // TableCreationParameters
  std::string table;
};

bool IsCsvDelimiter(std::string_view d) {
  return d.size() == 1 && std::string_view(",;:|\t ").find(d[0]) != std::string_view::npos;
}

ApiResult<ImportRequest> ReadImportRequest(const rapidjson::Value& body) {
  RequestReader r(body);
  auto token = r.String("ClientToken");
  const rapidjson::Value* source = r.Object("S3BucketSource");
  auto format = r.String("InputFormat");
  const rapidjson::Value* options = r.Object("InputFormatOptions");
  auto compression = r.String("InputCompressionType");
  const rapidjson::Value* creation = r.Object("TableCreationParameters");
  if (r.failed()) return r.error();
  std::optional<std::string_view> bucket, owner, prefix, table, delimiter;
  const rapidjson::Value* header = nullptr;
  if (source) {
    RequestReader s(*source);
    bucket = s.String("S3Bucket");
    owner = s.String("S3BucketOwner");
    prefix = s.String("S3KeyPrefix");
    if (s.failed()) return s.error();
  }
  if (options) {
    RequestReader o(*options);
    const rapidjson::Value* csv = o.Object("Csv");
    if (o.failed()) return o.error();
    if (csv) {
      RequestReader c(*csv);
      delimiter = c.String("Delimiter");
      header = c.Array("HeaderList");
      if (c.failed()) return c.error();
    }
  }
  if (creation) {
    RequestReader t(*creation);
    table = t.String("TableName");
    if (t.failed()) return t.error();
  }
  Constraints constraints;
  constraints.NotNull(token.has_value(), "clientToken");
  if (token && (token->empty() || token->find('$') != std::string_view::npos)) {
    constraints.Violation(Quote(*token), "clientToken",
                          "Member must satisfy regular expression pattern: ^[^\\$]+$");
  }
  constraints.NotNull(source != nullptr, "s3BucketSource");
  if (source) {
    constraints.NotNull(bucket.has_value(), "s3BucketSource.s3Bucket");
    if (bucket) constraints.Length(*bucket, "s3BucketSource.s3Bucket", 0, 255);
    if (prefix) constraints.Length(*prefix, "s3BucketSource.s3KeyPrefix", 0, 1024);
    if (owner && (owner->size() != 12 ||
                  owner->find_first_not_of("0123456789") != std::string_view::npos)) {
      constraints.Violation(Quote(*owner), "s3BucketSource.s3BucketOwner",
                            "Member must satisfy regular expression pattern: [0-9]{12}");
    }
  }
  constraints.NotNull(format.has_value(), "inputFormat");
  constraints.Enum(format, "inputFormat", {"DYNAMODB_JSON", "ION", "CSV"});
  constraints.Enum(compression, "inputCompressionType", {"ZSTD", "NONE", "GZIP"});
  if (delimiter && !IsCsvDelimiter(*delimiter)) {
    constraints.Violation(Quote(*delimiter), "inputFormatOptions.csv.delimiter",
                          "Member must satisfy regular expression pattern: [,;:|\\t ]");
  }
  if (header && (header->Empty() || header->Size() > 255)) {
    constraints.Violation("", "inputFormatOptions.csv.headerList",
                          "Member must have length less than or equal to 255");
  }
  constraints.NotNull(creation != nullptr, "tableCreationParameters");
  if (creation) constraints.TableName(table, "tableCreationParameters.tableName");
  if (!constraints.empty()) return constraints.ToError();

  ImportRequest out;
  out.client_token = std::string(*token);
  out.bucket = std::string(*bucket);
  out.bucket_owner = std::string(owner.value_or(""));
  out.key_prefix = std::string(prefix.value_or(""));
  out.format_name = std::string(*format);
  out.format = *format == "ION"   ? InputFormat::kIon
               : *format == "CSV" ? InputFormat::kCsv
                                  : InputFormat::kDynamoDbJson;
  if (compression) out.compression_name = std::string(*compression);
  out.compression = compression == "GZIP"   ? Compression::kGzip
                    : compression == "ZSTD" ? Compression::kZstd
                                            : Compression::kNone;
  out.format_options = options;
  out.creation = creation;
  out.table = std::string(*table);
  if (options && out.format != InputFormat::kCsv) {
    return ApiError::Validation(
        "Invalid Request: Unsupported InputFormatOptions for the given input format: " +
        out.format_name + ".");
  }
  if (delimiter) out.csv.delimiter = (*delimiter)[0];
  for (rapidjson::SizeType i = 0; header && i < header->Size(); ++i) {
    if (!(*header)[i].IsString()) return WrongType((*header)[i], "String");
    out.csv.header.emplace_back(View((*header)[i]));
  }
  return out;
}

// The key attributes of the table and its GSIs, and their types: the CSV
// columns that are not strings.
std::map<std::string, std::string, std::less<>> KeyTypes(const engine::TableSchema& schema) {
  std::map<std::string, std::string, std::less<>> types;
  auto add = [&](const engine::KeySchema& key) {
    for (const auto* part : {&key.hash, &key.range}) {
      for (const auto& element : *part) {
        types[element.name] = std::string(element.type == engine::ScalarType::kN   ? "N"
                                          : element.type == engine::ScalarType::kB ? "B"
                                                                                   : "S");
      }
    }
  };
  add(schema.key);
  for (const auto& index : schema.global_indexes) add(index.key);
  return types;
}

struct ImportOutcome {
  std::string status = "COMPLETED";
  std::string failure_code, failure_message;
  std::string table_id;
  uint64_t processed_bytes = 0, processed_items = 0, imported_items = 0, errors = 0;
  std::vector<std::string> error_records;  // CloudWatch's events, as JSON
};

void RecordItemError(ImportOutcome& outcome, const ImportRequest& request,
                     const std::string& import_arn, const std::string& key, size_t index,
                     const std::string& message) {
  ++outcome.errors;
  if (outcome.error_records.size() >= kMaxErrorRecords) return;
  outcome.error_records.push_back(RenderObject([&](JsonWriter& w) {
    w.Key("itemS3Pointer");
    w.StartObject();
    w.Key("bucket");
    WriteString(w, request.bucket);
    w.Key("key");
    WriteString(w, key);
    w.Key("itemIndex");
    w.Uint64(index);
    w.EndObject();
    w.Key("importArn");
    WriteString(w, import_arn);
    w.Key("errorMessages");
    w.StartArray();
    WriteString(w, message);
    w.EndArray();
  }));
}

// Creates the table and writes every object's items into it.
ApiResult<ImportOutcome> RunImport(Context& ctx, const ImportRequest& request,
                                   const std::string& import_arn) {
  ImportOutcome outcome;
  engine::ObjectStore& store = ctx.engine.object_store();
  auto keys = store.List(request.bucket, request.key_prefix);
  if (!keys.ok()) {
    outcome.status = "FAILED";
    outcome.table_id = engine::NewTableUuid();
    S3Failure failure = S3FailureOf(keys.status());
    outcome.failure_code = std::move(failure.code);
    outcome.failure_message = std::move(failure.message);
    return outcome;
  }
  // The table, as CreateTable makes one from the same members.
  Response created = Dispatch(ctx.engine, ctx.caller, "DynamoDB_20120810.CreateTable",
                              CompactJson(*request.creation));
  if (created.http_status != 200) return ErrorOfResponse(created);
  auto schema = ctx.db.GetSchema(ctx.caller.ns, request.table);
  if (!schema.ok()) return schema.status();
  outcome.table_id = (*schema)->table_uuid;
  CsvOptions csv = request.csv;
  csv.key_types = KeyTypes(**schema);
  std::string put_prefix = "{\"TableName\":\"" + request.table + "\",\"Item\":";
  for (const std::string& key : *keys) {
    if (key.ends_with("/")) continue;  // a folder's marker
    auto object = store.Get(request.bucket, key);
    if (!object.ok()) return object.status();
    auto text = Decompress(*object, request.compression, kMaxObjectBytes);
    if (!text.ok()) {
      RecordItemError(outcome, request, import_arn, key, 0, text.error().message);
      continue;
    }
    outcome.processed_bytes += text->size();
    ObjectItems items = ReadImportObject(*text, request.format, csv);
    for (size_t i = 0; i < items.items.size(); ++i) {
      ++outcome.processed_items;
      Response put = Dispatch(ctx.engine, ctx.caller, "DynamoDB_20120810.PutItem",
                              put_prefix + items.items[i] + "}");
      if (put.http_status == 200) {
        ++outcome.imported_items;
        continue;
      }
      // As DynamoDB, the first bad item ends its object.
      RecordItemError(outcome, request, import_arn, key, i, ErrorOfResponse(put).message);
      items.error.reset();
      break;
    }
    if (items.error) {
      ++outcome.processed_items;
      RecordItemError(outcome, request, import_arn, key, items.error_index, *items.error);
    }
  }
  if (outcome.errors) {
    outcome.status = "FAILED";
    outcome.failure_code = "ItemValidationError";
    outcome.failure_message =
        "Some of the items failed validation checks and were not imported. Please check "
        "CloudWatch error logs for more details.";
  }
  return outcome;
}

std::string RenderImportDescription(Context& ctx, const ImportRequest& request,
                                    const std::string& arn, int64_t start,
                                    const ImportOutcome& outcome) {
  return RenderObject([&](JsonWriter& w) {
    auto text = [&](const char* key, std::string_view value) { WriteNonEmpty(w, key, value); };
    text("ImportArn", arn);
    text("ImportStatus", outcome.status);
    text("TableArn", ctx.TableArn(request.table));
    text("TableId", outcome.table_id);
    text("ClientToken", request.client_token);
    w.Key("S3BucketSource");
    w.StartObject();
    text("S3BucketOwner",
         request.bucket_owner.empty() ? ctx.caller.account_id : request.bucket_owner);
    text("S3Bucket", request.bucket);
    text("S3KeyPrefix", request.key_prefix);
    w.EndObject();
    w.Key("ErrorCount");
    w.Uint64(outcome.errors);
    text("CloudWatchLogGroupArn", "arn:aws:logs:" + ctx.caller.region + ":" +
                                      ctx.caller.account_id +
                                      ":log-group:/aws-dynamodb/imports:*");
    text("InputFormat", request.format_name);
    if (request.format_options) {
      w.Key("InputFormatOptions");
      request.format_options->Accept(w);
    }
    text("InputCompressionType", request.compression_name);
    w.Key("TableCreationParameters");
    request.creation->Accept(w);
    w.Key("StartTime");
    WriteSeconds(w, start);
    w.Key("EndTime");
    WriteSeconds(w, ctx.db.clock().NowMillis());
    w.Key("ProcessedSizeBytes");
    w.Uint64(outcome.processed_bytes);
    w.Key("ProcessedItemCount");
    w.Uint64(outcome.processed_items);
    w.Key("ImportedItemCount");
    w.Uint64(outcome.imported_items);
    text("FailureCode", outcome.failure_code);
    text("FailureMessage", outcome.failure_message);
  });
}

std::string WrapImport(const std::string& description) {
  return Wrapped("ImportTableDescription", description);
}

std::string ErrorLogKey(std::string_view ns, std::string_view id) {
  return "transfer/import-errors/" + std::string(ns) + "\n" + std::string(id);
}

}  // namespace


ApiResult<std::string> ImportTable(Context& ctx, const rapidjson::Value& body) {
  auto request = ReadImportRequest(body);
  if (!request.ok()) return request.take_error();
  // The table's parameters are checked at the call, as CreateTable checks
  // them, not found wrong by a failed import later (2026-08).
  auto creatable = ParseCreateTable(*request->creation);
  if (!creatable.ok()) return creatable.take_error();
  auto records = ListTransferRecords(ctx, TransferKind::kImport);
  if (!records.ok()) return records.take_error();
  bool table_exists = ctx.db.GetSchema(ctx.caller.ns, request->table).ok();
  for (const auto& record : *records) {
    if (StringMemberOr(record.description, "ClientToken") != request->client_token) continue;
    const auto& params = record.description["TableCreationParameters"];
    if (StringMemberOr(params, "TableName") != request->table) return ApiError::ImportConflict();
    if (table_exists) break;  // DynamoDB checks the table first, then the token
    return WrapImport(CurrentView(ctx, record.description, kImportRunning));
  }
  if (table_exists) return ApiError::ResourceInUse("Table already exists: " + request->table);
  int64_t start = ctx.db.clock().NowMillis();
  std::string id = NewTransferId(start);
  std::string arn = ctx.TableArn(request->table) + "/import/" + id;
  auto outcome = RunImport(ctx, *request, arn);
  if (!outcome.ok()) return outcome.take_error();
  std::string description = RenderImportDescription(ctx, *request, arn, start, *outcome);
  if (auto stored = PutTransferRecord(ctx, TransferKind::kImport, id, description); !stored.ok()) {
    return stored;
  }
  if (!outcome->error_records.empty()) {
    std::string log;
    for (const auto& record : outcome->error_records) log += record + "\n";
    auto stored = ctx.engine.settings().Put(ErrorLogKey(ctx.caller.ns, id), log);
    if (!stored.ok()) return stored;
  }
  return WrapImport(InProgressView(description, kImportRunning));
}

ApiResult<std::string> DescribeImport(Context& ctx, const rapidjson::Value& body) {
  auto found = FindTransfer(ctx, body, TransferKind::kImport);
  if (!found.ok()) return found.take_error();
  if (!found->record) return ApiError::ImportNotFound("Import not found: " + found->arn);
  return WrapImport(CurrentView(ctx, found->record->description, kImportRunning));
}

ApiResult<std::string> ListImports(Context& ctx, const rapidjson::Value& body) {
  auto page = ReadListRequest(ctx, body, TransferKind::kImport);
  if (!page.ok()) return page.take_error();
  const std::optional<std::string>& table_arn = page->table_arn;
  const std::vector<TransferRecord>& records = page->records;
  const size_t limit = page->limit, start = page->start;
  // Imports outlive their table: listed by the table's ARN, not its id.
  std::string table_prefix =
      table_arn ? ctx.TableArn(TableNameFromArn(*table_arn)) + "/import/" : "";
  return RenderObject([&](JsonWriter& w) {
    w.Key("ImportSummaryList");
    w.StartArray();
    size_t listed = 0;
    for (size_t i = start; i < records.size(); ++i) {
      const rapidjson::Value& stored = records[i].description;
      std::string_view arn = View(stored["ImportArn"]);
      if (!arn.starts_with(table_prefix)) continue;
      if (listed == limit) {
        w.EndArray();
        w.Key("NextToken");
        WriteString(w, NextTokenFor(TransferKind::kImport, arn));
        return;
      }
      ++listed;
      rapidjson::Document d;
      d.Parse(CurrentView(ctx, stored, kImportRunning).c_str());
      w.StartObject();
      for (const char* name : {"ImportArn", "ImportStatus", "TableArn", "S3BucketSource",
                               "CloudWatchLogGroupArn", "InputFormat", "StartTime", "EndTime"}) {
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

}  // namespace ddb::api
