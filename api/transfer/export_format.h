// DynamoDB's export to S3, file by file, as the Developer Guide's "Table
// export output format" describes it — shared by ExportTableToPointInTime
// (api/export_import_ops.cc) and the `localdynamo export` command (cli/),
// and read back by ImportTable and `localdynamo import`:
//
//   <prefix>/AWSDynamoDB/<export id>/_started
//   <prefix>/AWSDynamoDB/<export id>/data/<26 base32 characters>.json.gz   (.ion.gz)
//   <prefix>/AWSDynamoDB/<export id>/manifest-files.json   (one line per data file)
//   <prefix>/AWSDynamoDB/<export id>/manifest-summary.json
//   and beside each manifest its .md5: the base64 MD5 of the manifest
// (an incremental export's data files go to <prefix>/AWSDynamoDB/data/).
//
// A full export's lines are {"Item": {...}} (DYNAMODB_JSON) or
// $ion_1_0 {Item:{...}} (ION); an incremental export's are
// {"Metadata":{"WriteTimestampMicros":{"N":"..."}},"Keys":{...},"NewImage":{...},"OldImage":{...}}.
//
// Thread safety: pure functions; one ExportWriter per thread.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"
#include "api/transfer/compression.h"
#include "api/transfer/md5.h"
#include "engine/attribute_value.h"
#include "engine/backups/history.h"
#include "engine/object_store.h"

namespace ddb::api {

enum class ExportFormat { kDynamoDbJson, kIon };
std::string_view ExportFormatName(ExportFormat format);  // "DYNAMODB_JSON", "ION"

// "2020-11-04T07:28:34.028Z"
std::string IsoMillisTime(int64_t millis);

// One line of an import file: an export line ({"Item": {...}}) or a bare
// DynamoDB-JSON item, as fixtures' items/<T>.jsonl hold. Returns the item's
// JSON, or nothing for a line to skip (blank, or starting with //). The
// error's message says what is wrong with the line ("not valid JSON", ...);
// the item's attributes are validated later, by the write itself.
// A bare item whose only attribute is named "Item" reads as an export line.
ApiResult<std::optional<std::string>> ItemFromImportLine(std::string_view line);

// The lines of a data file, without their "\n".
std::string FullExportLine(const engine::Item& item, ExportFormat format);
// `keys` holds the item's key attributes; the old image is written only
// for NEW_AND_OLD_IMAGES and when the item existed before.
std::string IncrementalExportLine(const engine::Item& keys, const engine::ItemChange& change,
                                  bool with_old_image, ExportFormat format);
// A value in ION text, as DynamoDB's ION export writes it: numbers as
// decimals with trailing zeros folded into the exponent (103., 6d2), binaries as {{base64}}, sets annotated
// ($dynamodb_SS::[...]).
std::string IonText(const engine::AttributeValue& value);

// manifest-files.json: one JSON object per line and data file.
struct ExportDataFile {
  std::string data_file_key;  // "<prefix>/AWSDynamoDB/<export id>/data/<name>.json.gz"
  uint64_t item_count = 0;
  std::string md5_base64;  // md5Checksum
  std::string etag;        // S3's ETag of a single-part upload: the hex MD5
};
std::string RenderManifestFileLine(const ExportDataFile& file);
// A line of a real export's manifest-files.json; md5 and etag may be absent.
ApiResult<ExportDataFile> ParseManifestFileLine(std::string_view line);

// manifest-summary.json.
struct ExportSummary {
  std::string export_arn;
  std::string start_time, end_time, export_time;  // ISO 8601, milliseconds, "Z"
  std::string table_arn, table_id;
  std::string s3_bucket, s3_prefix;
  std::string manifest_files_key;
  uint64_t billed_size_bytes = 0;
  uint64_t item_count = 0;
  std::string output_format = "DYNAMODB_JSON";
  std::string export_type = "FULL_EXPORT";
  // An incremental export's window and view; empty for a full export.
  std::string export_from_time, export_to_time, output_view;
};
std::string RenderManifestSummary(const ExportSummary& summary);
// Reads the members an import needs; absent ones stay empty or zero.
ApiResult<ExportSummary> ParseManifestSummary(std::string_view text);

// Writes one export's objects: the data files, each of at most
// `items_per_file` lines, gzip-compressed, then the manifests.
class ExportWriter {
 public:
  // `key_prefix`: "<S3Prefix>/AWSDynamoDB/<export id>/" (no S3Prefix: no
  // leading part), where the manifests go; `data_prefix` where the data
  // files go: key_prefix + "data/" for a full export, the shared
  // "<S3Prefix>/AWSDynamoDB/data/" for an incremental one.
  ExportWriter(engine::ObjectStore& store, std::string bucket, std::string key_prefix,
               std::string data_prefix, ExportFormat format, uint64_t items_per_file);

  // Writes the _started marker.
  engine::Status Start();
  engine::Status AddLine(std::string_view line);
  // Writes the last data file and the manifests; fills the summary's
  // manifest_files_key and item_count, and returns the manifest-summary.json
  // key (ExportDescription's ExportManifest).
  engine::Result<std::string> Finish(ExportSummary& summary);

  uint64_t item_count() const { return item_count_; }
  // The compressed bytes written so far.
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  engine::Status FlushFile();
  engine::Status PutWithMd5(const std::string& key, std::string_view text);

  engine::ObjectStore& store_;
  std::string bucket_;
  std::string key_prefix_;
  std::string data_prefix_;
  ExportFormat format_;
  uint64_t items_per_file_;
  std::mt19937_64 random_{std::random_device{}()};
  std::optional<GzipCompressor> file_;
  uint64_t file_items_ = 0;
  std::vector<ExportDataFile> files_;
  uint64_t item_count_ = 0;
  uint64_t bytes_written_ = 0;
};

}  // namespace ddb::api
