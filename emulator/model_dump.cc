#include "emulator/model_dump.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>

#include "api/json_reader.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;
using api::View;

namespace {

using rapidjson::Value;
using Allocator = rapidjson::Document::AllocatorType;

std::string Pretty(const Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.SetIndent(' ', 2);
  value.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

const Value* Member(const Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

std::string_view StringOr(const Value* value, std::string_view fallback) {
  return value && value->IsString() ? View(*value) : fallback;
}

void CopyMember(Value& to, const Value& from, const char* name, Allocator& a) {
  if (const Value* value = Member(from, name)) {
    to.AddMember(Value(name, a), Value(*value, a), a);
  }
}

// {"ReadCapacityUnits": r, "WriteCapacityUnits": w} of a description's
// throughput, which also carries its history.
Value ThroughputInput(const Value& description, Allocator& a) {
  Value throughput(rapidjson::kObjectType);
  CopyMember(throughput, description, "ReadCapacityUnits", a);
  CopyMember(throughput, description, "WriteCapacityUnits", a);
  return throughput;
}

// The request form of LocalSecondaryIndexes or GlobalSecondaryIndexes.
Value IndexesInput(const Value& indexes, bool provisioned, Allocator& a) {
  Value list(rapidjson::kArrayType);
  for (const Value& index : indexes.GetArray()) {
    Value entry(rapidjson::kObjectType);
    CopyMember(entry, index, "IndexName", a);
    CopyMember(entry, index, "KeySchema", a);
    CopyMember(entry, index, "Projection", a);
    const Value* throughput = Member(index, "ProvisionedThroughput");
    if (provisioned && throughput) {
      entry.AddMember("ProvisionedThroughput", ThroughputInput(*throughput, a), a);
    }
    list.PushBack(entry, a);
  }
  return list;
}

// The request form of VectorIndexes.
Value VectorIndexesInput(const Value& indexes, Allocator& a) {
  Value list(rapidjson::kArrayType);
  for (const Value& index : indexes.GetArray()) {
    Value entry(rapidjson::kObjectType);
    for (const char* name : {"IndexName", "VectorAttribute", "Dimensions", "DistanceFunction",
                             "Projection", "SearchSchema"}) {
      CopyMember(entry, index, name, a);
    }
    list.PushBack(entry, a);
  }
  return list;
}

void AddStreamAndSse(Value& input, const Value& table, Allocator& a) {
  if (const Value* stream = Member(table, "StreamSpecification")) {
    const Value* enabled = Member(*stream, "StreamEnabled");
    if (enabled && enabled->IsBool() && enabled->GetBool()) {
      Value spec(rapidjson::kObjectType);
      spec.AddMember("StreamEnabled", true, a);
      CopyMember(spec, *stream, "StreamViewType", a);
      input.AddMember("StreamSpecification", spec, a);
    }
  }
  if (const Value* sse = Member(table, "SSEDescription")) {
    if (StringOr(Member(*sse, "Status"), "") == "ENABLED") {
      Value spec(rapidjson::kObjectType);
      spec.AddMember("Enabled", true, a);
      CopyMember(spec, *sse, "SSEType", a);
      if (const Value* key = Member(*sse, "KMSMasterKeyArn")) {
        spec.AddMember("KMSMasterKeyId", Value(*key, a), a);
      }
      input.AddMember("SSESpecification", spec, a);
    }
  }
}

void AddTableSettings(Value& input, const Value& table, std::string_view tags_body,
                      Allocator& a) {
  if (const Value* summary = Member(table, "TableClassSummary")) {
    if (const Value* table_class = Member(*summary, "TableClass")) {
      if (StringOr(table_class, "STANDARD") != "STANDARD") {
        input.AddMember("TableClass", Value(*table_class, a), a);
      }
    }
  }
  if (const Value* protection = Member(table, "DeletionProtectionEnabled")) {
    if (protection->IsBool() && protection->GetBool()) {
      input.AddMember("DeletionProtectionEnabled", true, a);
    }
  }
  if (tags_body.empty()) return;
  rapidjson::Document tags;
  tags.Parse(tags_body.data(), tags_body.size());
  if (tags.HasParseError()) return;
  if (const Value* list = Member(tags, "Tags"); list && list->IsArray() && !list->Empty()) {
    input.AddMember("Tags", Value(*list, a), a);
  }
}

}  // namespace

ApiResult<std::string> CreateTableInputFromDescription(std::string_view describe_table_body,
                                                       std::string_view tags_body) {
  rapidjson::Document doc;
  doc.Parse(describe_table_body.data(), describe_table_body.size());
  const Value* table = doc.HasParseError() ? nullptr : Member(doc, "Table");
  if (!table || !table->IsObject()) {
    return ApiError::Validation("the DescribeTable answer has no Table");
  }
  rapidjson::Document input(rapidjson::kObjectType);
  Allocator& a = input.GetAllocator();
  CopyMember(input, *table, "TableName", a);
  CopyMember(input, *table, "AttributeDefinitions", a);
  CopyMember(input, *table, "KeySchema", a);
  const Value* billing = Member(*table, "BillingModeSummary");
  std::string_view mode = billing ? StringOr(Member(*billing, "BillingMode"), "PROVISIONED")
                                  : "PROVISIONED";
  bool provisioned = mode != "PAY_PER_REQUEST";
  input.AddMember("BillingMode", Value(provisioned ? "PROVISIONED" : "PAY_PER_REQUEST", a), a);
  if (const Value* throughput = Member(*table, "ProvisionedThroughput"); provisioned && throughput) {
    input.AddMember("ProvisionedThroughput", ThroughputInput(*throughput, a), a);
  }
  if (const Value* lsis = Member(*table, "LocalSecondaryIndexes"); lsis && lsis->IsArray()) {
    input.AddMember("LocalSecondaryIndexes", IndexesInput(*lsis, false, a), a);
  }
  if (const Value* gsis = Member(*table, "GlobalSecondaryIndexes"); gsis && gsis->IsArray()) {
    input.AddMember("GlobalSecondaryIndexes", IndexesInput(*gsis, provisioned, a), a);
  }
  if (const Value* vectors = Member(*table, "VectorIndexes"); vectors && vectors->IsArray()) {
    input.AddMember("VectorIndexes", VectorIndexesInput(*vectors, a), a);
  }
  AddStreamAndSse(input, *table, a);
  AddTableSettings(input, *table, tags_body, a);
  return Pretty(input);
}

ApiResult<std::optional<std::string>> TimeToLiveInputFromDescription(
    std::string_view table, std::string_view describe_ttl_body) {
  rapidjson::Document doc;
  doc.Parse(describe_ttl_body.data(), describe_ttl_body.size());
  const Value* description =
      doc.HasParseError() ? nullptr : Member(doc, "TimeToLiveDescription");
  if (!description) {
    return ApiError::Validation("the DescribeTimeToLive answer has no TimeToLiveDescription");
  }
  std::string_view status = StringOr(Member(*description, "TimeToLiveStatus"), "DISABLED");
  const Value* attribute = Member(*description, "AttributeName");
  if ((status != "ENABLED" && status != "ENABLING") || !attribute) {
    return std::optional<std::string>();
  }
  rapidjson::Document input(rapidjson::kObjectType);
  Allocator& a = input.GetAllocator();
  input.AddMember("TableName",
                  Value(table.data(), static_cast<rapidjson::SizeType>(table.size()), a), a);
  Value spec(rapidjson::kObjectType);
  spec.AddMember("Enabled", true, a);
  spec.AddMember("AttributeName", Value(*attribute, a), a);
  input.AddMember("TimeToLiveSpecification", spec, a);
  return std::optional<std::string>(Pretty(input));
}

}  // namespace ddb::emulator
