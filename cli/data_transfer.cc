#include "cli/data_transfer.h"

#include <rapidjson/document.h>

#include "api/json_reader.h"

namespace ddb::cli {

using api::ApiError;
using api::ApiResult;
using api::CompactJson;
using api::ParseJsonObject;
using api::StringMemberOr;
using api::UnsignedMemberOr;
using api::JsonWriter;
using api::RenderObject;
using api::View;
using api::WriteString;

namespace {

// `text` as a JSON string literal, quotes included.
std::string JsonString(std::string_view text) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteString(w, text);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

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
  std::string type = StringMemberOr(error, "__type");
  if (size_t hash = type.rfind('#'); hash != std::string::npos) type.erase(0, hash + 1);
  return type;
}

}  // namespace

std::string DescribeErrorBody(std::string_view body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) return std::string(body);
  std::string type = ShortType(doc);
  std::string message = StringMemberOr(doc, "message");
  if (message.empty()) message = StringMemberOr(doc, "Message");
  return message.empty() ? type : type + ": " + message;
}

std::string ErrorTypeOfBody(std::string_view body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  return doc.HasParseError() || !doc.IsObject() ? "" : ShortType(doc);
}

ApiResult<ScanPage> ParseScanPage(std::string_view body) {
  auto doc = ParseJsonObject(body, "the Scan answer");
  if (!doc.ok()) return doc.take_error();
  ScanPage page;
  auto items = doc->FindMember("Items");
  if (items != doc->MemberEnd() && items->value.IsArray()) {
    page.items.reserve(items->value.Size());
    for (const auto& item : items->value.GetArray()) page.items.push_back(CompactJson(item));
  }
  auto last = doc->FindMember("LastEvaluatedKey");
  if (last != doc->MemberEnd() && last->value.IsObject()) {
    page.last_evaluated_key = CompactJson(last->value);
  }
  return page;
}

ApiResult<TableNamesPage> ParseListTables(std::string_view body) {
  auto doc = ParseJsonObject(body, "the ListTables answer");
  if (!doc.ok()) return doc.take_error();
  TableNamesPage page;
  auto names = doc->FindMember("TableNames");
  if (names != doc->MemberEnd() && names->value.IsArray()) {
    for (const auto& name : names->value.GetArray()) {
      if (name.IsString()) page.names.emplace_back(View(name));
    }
  }
  page.last_evaluated_table_name = StringMemberOr(*doc, "LastEvaluatedTableName");
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
  auto doc = ParseJsonObject(describe_table_body, "the DescribeTable answer");
  if (!doc.ok()) return doc.take_error();
  auto table = doc->FindMember("Table");
  if (table == doc->MemberEnd() || !table->value.IsObject()) {
    return ApiError::Validation("the DescribeTable answer has no Table");
  }
  const rapidjson::Value& t = table->value;
  return TableFacts{StringMemberOr(t, "TableName"), StringMemberOr(t, "TableArn"),
                    StringMemberOr(t, "TableId"), UnsignedMemberOr(t, "ItemCount"),
                    UnsignedMemberOr(t, "TableSizeBytes")};
}

ApiResult<std::string> TableNameOfCreateRequest(std::string_view body) {
  auto doc = ParseJsonObject(body, "the CreateTable request");
  if (!doc.ok()) return doc.take_error();
  std::string name = StringMemberOr(*doc, "TableName");
  if (name.empty()) return ApiError::Validation("the CreateTable request has no TableName");
  return name;
}

ApiResult<std::string> WithTableName(std::string_view body, std::string_view table) {
  auto doc = ParseJsonObject(body, "the CreateTable request");
  if (!doc.ok()) return doc.take_error();
  rapidjson::Value name(table.data(), static_cast<rapidjson::SizeType>(table.size()),
                        doc->GetAllocator());
  if (auto it = doc->FindMember("TableName"); it != doc->MemberEnd()) {
    it->value = name;
  } else {
    doc->AddMember("TableName", name, doc->GetAllocator());
  }
  return CompactJson(*doc);
}

}  // namespace ddb::cli
