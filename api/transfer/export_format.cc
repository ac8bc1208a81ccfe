#include "api/transfer/export_format.h"

#include "api/attribute_json.h"
#include "api/base64.h"
#include "api/json_reader.h"
#include "engine/clock.h"

namespace ddb::api {
namespace {

bool IsSkippedImportLine(std::string_view line) {
  size_t start = line.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return true;
  return line.substr(start, 2) == "//";
}

std::string JsonOfItem(const engine::Item& item) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteItem(w, item);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// An ION string literal: JSON's escapes, which ION shares, and \xHH for the
// other control characters.
void AppendIonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (unsigned char c : text) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (c < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          *out += "\\x";
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

// A field name: bare when it is an identifier ION reads as a symbol, else
// a string (ION takes either as a field name).
void AppendIonFieldName(std::string_view name, std::string* out) {
  bool identifier = !name.empty() && !(name[0] >= '0' && name[0] <= '9') &&
                    name != "null" && name != "true" && name != "false" && name != "nan";
  for (char c : name) {
    identifier = identifier && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                (c >= '0' && c <= '9') || c == '_' || c == '$');
  }
  if (identifier) {
    *out += name;
  } else {
    AppendIonString(name, out);
  }
}

// A number as an ION decimal, as DynamoDB writes them: an exponent is
// written with 'd'; an integer's trailing zeros become one ("600" -> 6d2),
// and an integer without any gets a trailing '.' (else ION reads an int).
void AppendIonDecimal(const std::string& number, std::string* out) {
  size_t exponent = number.find_first_of("eE");
  if (exponent != std::string::npos) {
    *out += number.substr(0, exponent) + "d" + number.substr(exponent + 1);
    return;
  }
  if (number.find('.') != std::string::npos) {
    *out += number;
    return;
  }
  size_t last_digit = number.find_last_not_of('0');
  size_t zeros = number.size() - 1 - last_digit;
  if (zeros == 0 || last_digit == std::string::npos || number[last_digit] == '-') {
    *out += number + ".";
  } else {
    *out += number.substr(0, last_digit + 1) + "d" + std::to_string(zeros);
  }
}

void AppendIon(const engine::AttributeValue& value, std::string* out) {
  using engine::AttributeType;
  auto list = [&](const char* annotation, const auto& elements, auto append) {
    *out += annotation;
    out->push_back('[');
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i) out->push_back(',');
      append(elements[i]);
    }
    out->push_back(']');
  };
  auto blob = [&](const std::string& bytes) { *out += "{{" + Base64Encode(bytes) + "}}"; };
  switch (value.type()) {
    case AttributeType::kS:
      AppendIonString(value.as<std::string>(), out);
      break;
    case AttributeType::kN:
      AppendIonDecimal(value.as<engine::Number>().ToString(), out);
      break;
    case AttributeType::kB:
      blob(value.as<engine::Binary>().bytes);
      break;
    case AttributeType::kBool:
      *out += value.as<bool>() ? "true" : "false";
      break;
    case AttributeType::kNull:
      *out += "null";
      break;
    case AttributeType::kM: {
      out->push_back('{');
      bool first = true;
      for (const auto& [name, member] : value.as<engine::Map>()) {
        if (!first) out->push_back(',');
        first = false;
        AppendIonFieldName(name, out);
        out->push_back(':');
        AppendIon(member, out);
      }
      out->push_back('}');
      break;
    }
    case AttributeType::kL:
      list("", value.as<engine::List>(), [&](const auto& e) { AppendIon(e, out); });
      break;
    case AttributeType::kSS:
      list("$dynamodb_SS::", value.as<engine::StringSet>().values,
           [&](const std::string& e) { AppendIonString(e, out); });
      break;
    case AttributeType::kNS:
      list("$dynamodb_NS::", value.as<engine::NumberSet>().values,
           [&](const engine::Number& e) { AppendIonDecimal(e.ToString(), out); });
      break;
    case AttributeType::kBS:
      list("$dynamodb_BS::", value.as<engine::BinarySet>().values, blob);
      break;
  }
}

std::string IonOfItem(const engine::Item& item) {
  return IonText(engine::AttributeValue(engine::Map(item)));
}

}  // namespace

std::string_view ExportFormatName(ExportFormat format) {
  return format == ExportFormat::kIon ? "ION" : "DYNAMODB_JSON";
}

std::string IsoMillisTime(int64_t millis) { return engine::IsoMillis(millis) + "Z"; }

std::string IonText(const engine::AttributeValue& value) {
  std::string out;
  AppendIon(value, &out);
  return out;
}

ApiResult<std::optional<std::string>> ItemFromImportLine(std::string_view line) {
  if (IsSkippedImportLine(line)) return std::optional<std::string>();
  auto doc = ParseJsonObject(line, "the line");
  if (!doc.ok()) return doc.take_error();
  const rapidjson::Value& object = *doc;
  if (object.MemberCount() == 1 && object.MemberBegin()->name == "Item") {
    const rapidjson::Value& item = object.MemberBegin()->value;
    if (!item.IsObject()) return ApiError::Validation("\"Item\" is not a JSON object");
    return std::optional<std::string>(CompactJson(item));
  }
  return std::optional<std::string>(CompactJson(object));
}

std::string FullExportLine(const engine::Item& item, ExportFormat format) {
  if (format == ExportFormat::kIon) return "$ion_1_0 {Item:" + IonOfItem(item) + "}";
  return "{\"Item\":" + JsonOfItem(item) + "}";
}

std::string IncrementalExportLine(const engine::Item& keys, const engine::ItemChange& change,
                                  bool with_old_image, ExportFormat format) {
  std::string micros = std::to_string(change.last_write_millis * 1000);
  bool old_image = with_old_image && change.old_item;
  if (format == ExportFormat::kIon) {
    std::string line = "$ion_1_0 {Metadata:{WriteTimestampMicros:" + micros + ".},Keys:" +
                       IonOfItem(keys);
    if (change.new_item) line += ",NewImage:" + IonOfItem(*change.new_item);
    if (old_image) line += ",OldImage:" + IonOfItem(*change.old_item);
    return line + "}";
  }
  std::string line = "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"" + micros +
                     "\"}},\"Keys\":" + JsonOfItem(keys);
  if (change.new_item) line += ",\"NewImage\":" + JsonOfItem(*change.new_item);
  if (old_image) line += ",\"OldImage\":" + JsonOfItem(*change.old_item);
  return line + "}";
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
  auto doc = ParseJsonObject(line, "the line");
  if (!doc.ok()) return doc.take_error();
  ExportDataFile file{StringMemberOr(*doc, "dataFileS3Key"), UnsignedMemberOr(*doc, "itemCount"),
                      StringMemberOr(*doc, "md5Checksum"), StringMemberOr(*doc, "etag")};
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
    // The format's version: an incremental export's manifest is newer.
    text("version", s.export_from_time.empty() ? "2020-06-30" : "2023-08-01");
    text("exportArn", s.export_arn);
    text("startTime", s.start_time);
    text("endTime", s.end_time);
    text("tableArn", s.table_arn);
    text("tableId", s.table_id);
    if (s.export_from_time.empty()) {
      text("exportTime", s.export_time);
    } else {
      text("exportFromTime", s.export_from_time);
      text("exportToTime", s.export_to_time);
    }
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
    if (!s.output_view.empty()) text("outputView", s.output_view);
    text("exportType", s.export_type);
  });
}

ApiResult<ExportSummary> ParseManifestSummary(std::string_view text) {
  auto doc = ParseJsonObject(text, "manifest-summary.json");
  if (!doc.ok()) return doc.take_error();
  ExportSummary s;
  s.export_arn = StringMemberOr(*doc, "exportArn");
  s.table_arn = StringMemberOr(*doc, "tableArn");
  s.table_id = StringMemberOr(*doc, "tableId");
  s.manifest_files_key = StringMemberOr(*doc, "manifestFilesS3Key");
  s.item_count = UnsignedMemberOr(*doc, "itemCount");
  s.billed_size_bytes = UnsignedMemberOr(*doc, "billedSizeBytes");
  s.output_format = StringMemberOr(*doc, "outputFormat");
  s.export_type = StringMemberOr(*doc, "exportType");
  return s;
}

ExportWriter::ExportWriter(engine::ObjectStore& store, std::string bucket,
                           std::string key_prefix, std::string data_prefix, ExportFormat format,
                           uint64_t items_per_file)
    : store_(store),
      bucket_(std::move(bucket)),
      key_prefix_(std::move(key_prefix)),
      data_prefix_(std::move(data_prefix)),
      format_(format),
      items_per_file_(items_per_file ? items_per_file : 1) {}

engine::Status ExportWriter::Start() { return store_.Put(bucket_, key_prefix_ + "_started", ""); }

engine::Status ExportWriter::AddLine(std::string_view line) {
  if (file_ && file_items_ == items_per_file_) DDB_RETURN_IF_ERROR(FlushFile());
  if (!file_) {
    file_.emplace();
    file_items_ = 0;
  }
  file_->Add(line);
  file_->Add("\n");
  ++file_items_;
  ++item_count_;
  return engine::Status::Ok();
}

engine::Status ExportWriter::FlushFile() {
  static constexpr std::string_view kBase32 = "abcdefghijklmnopqrstuvwxyz234567";
  std::string name;
  for (int i = 0; i < 26; ++i) name += kBase32[random_() % kBase32.size()];
  name += format_ == ExportFormat::kIon ? ".ion.gz" : ".json.gz";
  std::string bytes = file_->Finish();
  file_.reset();
  Md5Digest digest = Md5Of(bytes);
  ExportDataFile file{data_prefix_ + name, file_items_, Md5Base64(digest), Md5Hex(digest)};
  DDB_RETURN_IF_ERROR(store_.Put(bucket_, file.data_file_key, bytes));
  bytes_written_ += bytes.size();
  files_.push_back(std::move(file));
  return engine::Status::Ok();
}

engine::Status ExportWriter::PutWithMd5(const std::string& key, std::string_view text) {
  DDB_RETURN_IF_ERROR(store_.Put(bucket_, key + ".json", text));
  return store_.Put(bucket_, key + ".md5", Md5Base64(Md5Of(text)));
}

engine::Result<std::string> ExportWriter::Finish(ExportSummary& summary) {
  // An empty table still gets one (empty) data file, as DynamoDB's empty
  // partition does.
  if (file_ || files_.empty()) {
    if (!file_) file_.emplace();
    DDB_RETURN_IF_ERROR(FlushFile());
  }
  std::string files_text;
  for (const auto& file : files_) files_text += RenderManifestFileLine(file) + "\n";
  summary.manifest_files_key = key_prefix_ + "manifest-files.json";
  summary.item_count = item_count_;
  summary.output_format = std::string(ExportFormatName(format_));
  DDB_RETURN_IF_ERROR(PutWithMd5(key_prefix_ + "manifest-files", files_text));
  DDB_RETURN_IF_ERROR(PutWithMd5(key_prefix_ + "manifest-summary", RenderManifestSummary(summary)));
  return key_prefix_ + "manifest-summary.json";
}

}  // namespace ddb::api
