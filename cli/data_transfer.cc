#include "cli/data_transfer.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "api/json_reader.h"

namespace ddb::cli {

using api::ApiError;
using api::ApiResult;
using api::JsonWriter;
using api::RenderObject;
using api::View;
using api::WriteString;

namespace {

constexpr auto kParseFlags = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag;

std::string Compact(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  value.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// Parses `text` as a JSON object; `what` names it in the error.
ApiResult<rapidjson::Document> ParseObject(std::string_view text, std::string_view what) {
  rapidjson::Document doc;
  doc.Parse<kParseFlags>(text.data(), text.size());
  if (doc.HasParseError()) {
    return ApiError::Validation(std::string(what) + " is not valid JSON: " +
                                rapidjson::GetParseError_En(doc.GetParseError()) +
                                " (at character " + std::to_string(doc.GetErrorOffset() + 1) +
                                ")");
  }
  if (!doc.IsObject()) return ApiError::Validation(std::string(what) + " is not a JSON object");
  return doc;
}

std::string StringMember(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return std::string(View(it->value));
}

uint64_t UnsignedMember(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsUint64()) return 0;
  return it->value.GetUint64();
}

// `text` as a JSON string literal, quotes included.
std::string JsonString(std::string_view text) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteString(w, text);
  return std::string(buffer.GetString(), buffer.GetSize());
}

bool IsSkippedLine(std::string_view line) {
  size_t start = line.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return true;
  return line.substr(start, 2) == "//";
}

}  // namespace

ApiResult<std::optional<std::string>> ItemFromImportLine(std::string_view line) {
  if (IsSkippedLine(line)) return std::optional<std::string>();
  auto doc = ParseObject(line, "the line");
  if (!doc.ok()) return doc.take_error();
  const rapidjson::Value& object = *doc;
  if (object.MemberCount() == 1 && object.MemberBegin()->name == "Item") {
    const rapidjson::Value& item = object.MemberBegin()->value;
    if (!item.IsObject()) return ApiError::Validation("\"Item\" is not a JSON object");
    return std::optional<std::string>(Compact(item));
  }
  return std::optional<std::string>(Compact(object));
}

std::string BatchWriteItemBody(std::string_view table, const std::vector<std::string>& items) {
  // The items are spliced in as the raw JSON they already are.
  std::string body = "{\"RequestItems\":{" + JsonString(table) + ":[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) body += ",";
    body += "{\"PutRequest\":{\"Item\":";
    body += items[i];
    body += "}}";
  }
  body += "]}}";
  return body;
}

std::string PutItemBody(std::string_view table, std::string_view item) {
  return "{\"TableName\":" + JsonString(table) + ",\"Item\":" + std::string(item) + "}";
}

std::string TableNameBody(std::string_view table) {
  return RenderObject([&](JsonWriter& w) {
    w.Key("TableName");
    WriteString(w, table);
  });
}

std::string ScanBody(std::string_view table, std::string_view start_key) {
  if (start_key.empty()) return TableNameBody(table);
  return "{\"TableName\":" + JsonString(table) + ",\"ExclusiveStartKey\":" +
         std::string(start_key) + "}";
}

std::string ListTablesBody(std::string_view start_table) {
  return RenderObject([&](JsonWriter& w) {
    if (start_table.empty()) return;
    w.Key("ExclusiveStartTableName");
    WriteString(w, start_table);
  });
}

std::string ListTagsBody(std::string_view table_arn) {
  return RenderObject([&](JsonWriter& w) {
    w.Key("ResourceArn");
    WriteString(w, table_arn);
  });
}

namespace {

std::string ShortType(const rapidjson::Value& error) {
  std::string type = StringMember(error, "__type");
  if (size_t hash = type.rfind('#'); hash != std::string::npos) type.erase(0, hash + 1);
  return type;
}

}  // namespace

std::string DescribeErrorBody(std::string_view body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) return std::string(body);
  std::string type = ShortType(doc);
  std::string message = StringMember(doc, "message");
  if (message.empty()) message = StringMember(doc, "Message");
  return message.empty() ? type : type + ": " + message;
}

std::string ErrorTypeOfBody(std::string_view body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  return doc.HasParseError() || !doc.IsObject() ? "" : ShortType(doc);
}

ApiResult<ScanPage> ParseScanPage(std::string_view body) {
  auto doc = ParseObject(body, "the Scan answer");
  if (!doc.ok()) return doc.take_error();
  ScanPage page;
  auto items = doc->FindMember("Items");
  if (items != doc->MemberEnd() && items->value.IsArray()) {
    page.items.reserve(items->value.Size());
    for (const auto& item : items->value.GetArray()) page.items.push_back(Compact(item));
  }
  auto last = doc->FindMember("LastEvaluatedKey");
  if (last != doc->MemberEnd() && last->value.IsObject()) {
    page.last_evaluated_key = Compact(last->value);
  }
  return page;
}

ApiResult<TableNamesPage> ParseListTables(std::string_view body) {
  auto doc = ParseObject(body, "the ListTables answer");
  if (!doc.ok()) return doc.take_error();
  TableNamesPage page;
  auto names = doc->FindMember("TableNames");
  if (names != doc->MemberEnd() && names->value.IsArray()) {
    for (const auto& name : names->value.GetArray()) {
      if (name.IsString()) page.names.emplace_back(View(name));
    }
  }
  page.last_evaluated_table_name = StringMember(*doc, "LastEvaluatedTableName");
  return page;
}

bool HasUnprocessedItems(std::string_view body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) return false;
  auto unprocessed = doc.FindMember("UnprocessedItems");
  return unprocessed != doc.MemberEnd() && unprocessed->value.IsObject() &&
         unprocessed->value.MemberCount() > 0;
}

ApiResult<TableFacts> ParseTableFacts(std::string_view describe_table_body) {
  auto doc = ParseObject(describe_table_body, "the DescribeTable answer");
  if (!doc.ok()) return doc.take_error();
  auto table = doc->FindMember("Table");
  if (table == doc->MemberEnd() || !table->value.IsObject()) {
    return ApiError::Validation("the DescribeTable answer has no Table");
  }
  const rapidjson::Value& t = table->value;
  return TableFacts{StringMember(t, "TableName"), StringMember(t, "TableArn"),
                    StringMember(t, "TableId"), UnsignedMember(t, "ItemCount"),
                    UnsignedMember(t, "TableSizeBytes")};
}

ApiResult<std::string> TableNameOfCreateRequest(std::string_view body) {
  auto doc = ParseObject(body, "the CreateTable request");
  if (!doc.ok()) return doc.take_error();
  std::string name = StringMember(*doc, "TableName");
  if (name.empty()) return ApiError::Validation("the CreateTable request has no TableName");
  return name;
}

ApiResult<std::string> WithTableName(std::string_view body, std::string_view table) {
  auto doc = ParseObject(body, "the CreateTable request");
  if (!doc.ok()) return doc.take_error();
  rapidjson::Value name(table.data(), static_cast<rapidjson::SizeType>(table.size()),
                        doc->GetAllocator());
  if (auto it = doc->FindMember("TableName"); it != doc->MemberEnd()) {
    it->value = name;
  } else {
    doc->AddMember("TableName", name, doc->GetAllocator());
  }
  return Compact(*doc);
}

std::string RenderManifestFileLine(const ExportDataFile& file) {
  return RenderObject([&](JsonWriter& w) {
    w.Key("itemCount");
    w.Uint64(file.item_count);
    w.Key("md5Checksum");
    WriteString(w, file.md5_base64);
    w.Key("etag");
    WriteString(w, file.etag);
    w.Key("dataFileS3Key");
    WriteString(w, file.data_file_key);
  });
}

ApiResult<ExportDataFile> ParseManifestFileLine(std::string_view line) {
  auto doc = ParseObject(line, "the line");
  if (!doc.ok()) return doc.take_error();
  ExportDataFile file{StringMember(*doc, "dataFileS3Key"), UnsignedMember(*doc, "itemCount"),
                      StringMember(*doc, "md5Checksum"), StringMember(*doc, "etag")};
  if (file.data_file_key.empty()) return ApiError::Validation("the line has no dataFileS3Key");
  return file;
}

std::string RenderManifestSummary(const ExportSummary& s) {
  return RenderObject([&](JsonWriter& w) {
    auto text = [&](const char* key, const std::string& value) {
      w.Key(key);
      if (value.empty()) {
        w.Null();
      } else {
        WriteString(w, value);
      }
    };
    text("version", "2020-06-30");
    text("exportArn", s.export_arn);
    text("startTime", s.start_time);
    text("endTime", s.end_time);
    text("tableArn", s.table_arn);
    text("tableId", s.table_id);
    text("exportTime", s.export_time);
    text("s3Bucket", s.s3_bucket);
    text("s3Prefix", s.s3_prefix);
    text("s3SseAlgorithm", "AES256");
    text("s3SseKmsKeyId", "");
    text("manifestFilesS3Key", s.manifest_files_key);
    w.Key("billedSizeBytes");
    w.Uint64(s.billed_size_bytes);
    w.Key("itemCount");
    w.Uint64(s.item_count);
    text("outputFormat", s.output_format);
    text("exportType", s.export_type);
  });
}

ApiResult<ExportSummary> ParseManifestSummary(std::string_view text) {
  auto doc = ParseObject(text, "manifest-summary.json");
  if (!doc.ok()) return doc.take_error();
  ExportSummary s;
  s.export_arn = StringMember(*doc, "exportArn");
  s.table_arn = StringMember(*doc, "tableArn");
  s.table_id = StringMember(*doc, "tableId");
  s.manifest_files_key = StringMember(*doc, "manifestFilesS3Key");
  s.item_count = UnsignedMember(*doc, "itemCount");
  s.billed_size_bytes = UnsignedMember(*doc, "billedSizeBytes");
  s.output_format = StringMember(*doc, "outputFormat");
  s.export_type = StringMember(*doc, "exportType");
  return s;
}

}  // namespace ddb::cli
