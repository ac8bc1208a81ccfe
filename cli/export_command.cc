// localdynamo export: each table in the layout of DynamoDB's export to S3
// (see data_commands.h), read page by page with Scan through Dispatch.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "api/base64.h"
#include "cli/data_commands.h"
#include "cli/data_transfer.h"
#include "cli/gzip_file.h"
#include "cli/md5.h"
#include "cli/progress.h"

namespace ddb::cli {
namespace {
namespace fs = std::filesystem;

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// "2020-11-04T07:28:34.028Z"
std::string IsoTime(int64_t millis) {
  std::time_t seconds = millis / 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[40];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &utc);
  char with_millis[48];
  std::snprintf(with_millis, sizeof(with_millis), "%s.%03dZ", text,
                static_cast<int>(millis % 1000));
  return with_millis;
}

std::string RandomToken(std::mt19937_64& random, size_t length, std::string_view alphabet) {
  std::string token;
  for (size_t i = 0; i < length; ++i) token += alphabet[random() % alphabet.size()];
  return token;
}

bool WriteTextFile(const fs::path& path, std::string_view text, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) *error = "cannot write " + path.string();
  return static_cast<bool>(out);
}

// One export of one table: its directory and the data files written so far.
class TableExport {
 public:
  TableExport(OfflineDatabase& db, const TableFacts& table, const fs::path& out_dir,
              uint64_t items_per_file)
      : db_(db), table_(table), out_dir_(out_dir), items_per_file_(items_per_file) {}

  // Writes everything; false and `*error` set on failure.
  bool Run(std::string* error);
  const fs::path& directory() const { return export_dir_; }
  uint64_t item_count() const { return item_count_; }

 private:
  bool StartFile(std::string* error);
  bool FinishFile(std::string* error);
  bool WriteManifests(std::string* error);

  OfflineDatabase& db_;
  const TableFacts& table_;
  fs::path out_dir_;
  uint64_t items_per_file_;
  std::mt19937_64 random_{std::random_device{}()};
  int64_t start_millis_ = NowMillis();
  std::string export_id_;
  std::string key_prefix_;  // "<table>/AWSDynamoDB/<export id>/": the S3 keys' start
  fs::path export_dir_;
  std::unique_ptr<GzipFileWriter> file_;
  ExportDataFile current_;
  std::vector<ExportDataFile> files_;
  uint64_t item_count_ = 0;
};

bool TableExport::Run(std::string* error) {
  // DynamoDB's export ids: the export's start in milliseconds, then 8 hex digits.
  char millis[24];
  std::snprintf(millis, sizeof(millis), "%014lld", static_cast<long long>(start_millis_));
  export_id_ = std::string(millis) + "-" + RandomToken(random_, 8, "0123456789abcdef");
  key_prefix_ = table_.name + "/AWSDynamoDB/" + export_id_ + "/";
  export_dir_ = out_dir_ / table_.name / "AWSDynamoDB" / export_id_;
  std::error_code ec;
  fs::create_directories(export_dir_ / "data", ec);
  if (ec) {
    *error = "cannot create " + (export_dir_ / "data").string() + ": " + ec.message();
    return false;
  }
  if (!WriteTextFile(export_dir_ / "_started", "", error) || !StartFile(error)) return false;
  ProgressReporter progress("export " + table_.name, std::cerr, true, isatty(STDERR_FILENO));
  std::string start_key;
  do {
    CallResult scanned = db_.Call("Scan", ScanBody(table_.name, start_key));
    auto page = scanned.ok ? ParseScanPage(scanned.body)
                           : api::ApiResult<ScanPage>(api::ApiError::Internal(scanned.error));
    if (!page.ok()) {
      *error = "Scan: " + page.error().message;
      return false;
    }
    for (const std::string& item : page->items) {
      if (current_.item_count == items_per_file_ && (!FinishFile(error) || !StartFile(error))) {
        return false;
      }
      if (!file_->Write("{\"Item\":" + item + "}\n")) {
        *error = "cannot write " + current_.data_file_key;
        return false;
      }
      ++current_.item_count;
      ++item_count_;
    }
    progress.Update(item_count_, table_.item_count
                                     ? static_cast<double>(item_count_) / table_.item_count
                                     : -1);
    start_key = page->last_evaluated_key;
  } while (!start_key.empty());
  if (!FinishFile(error) || !WriteManifests(error)) return false;
  progress.Finish(item_count_);
  return true;
}

bool TableExport::StartFile(std::string* error) {
  std::string name = RandomToken(random_, 26, "abcdefghijklmnopqrstuvwxyz234567") + ".json.gz";
  current_ = ExportDataFile{key_prefix_ + "data/" + name, 0, "", ""};
  file_ = GzipFileWriter::Create((export_dir_ / "data" / name).string(), error);
  return file_ != nullptr;
}

bool TableExport::FinishFile(std::string* error) {
  fs::path path = export_dir_ / "data" / fs::path(current_.data_file_key).filename();
  if (!file_->Close(error)) return false;
  file_.reset();
  auto digest = Md5OfFile(path.string());
  if (!digest) {
    *error = "cannot read back " + path.string();
    return false;
  }
  current_.md5_base64 = api::Base64Encode(
      std::string_view(reinterpret_cast<const char*>(digest->data()), digest->size()));
  current_.etag = Md5Hex(*digest);
  files_.push_back(current_);
  return true;
}

bool TableExport::WriteManifests(std::string* error) {
  std::string files_text;
  for (const auto& file : files_) files_text += RenderManifestFileLine(file) + "\n";
  int64_t end_millis = NowMillis();
  ExportSummary summary;
  summary.export_arn = table_.arn + "/export/" + export_id_;
  summary.start_time = summary.export_time = IsoTime(start_millis_);
  summary.end_time = IsoTime(end_millis);
  summary.table_arn = table_.arn;
  summary.table_id = table_.id;
  summary.s3_bucket = fs::absolute(out_dir_).filename().string();
  summary.s3_prefix = table_.name;
  summary.manifest_files_key = key_prefix_ + "manifest-files.json";
  summary.billed_size_bytes = table_.size_bytes;
  summary.item_count = item_count_;
  std::string summary_text = RenderManifestSummary(summary);
  return WriteTextFile(export_dir_ / "manifest-files.json", files_text, error) &&
         WriteTextFile(export_dir_ / "manifest-files.checksum", Md5Hex(Md5Of(files_text)),
                       error) &&
         WriteTextFile(export_dir_ / "manifest-summary.json", summary_text, error) &&
         WriteTextFile(export_dir_ / "manifest-summary.checksum", Md5Hex(Md5Of(summary_text)),
                       error);
}

}  // namespace

int RunExport(const ExportOptions& options) {
  std::string error;
  auto db = OfflineDatabase::Open(options.target, OfflineDatabase::Mode::kExisting, &error);
  std::vector<std::string> tables;
  if (!db || !db->ResolveTables(options.tables, &tables, &error)) {
    std::cerr << "localdynamo export: " << error << "\n";
    return 1;
  }
  if (options.items_per_file == 0) {
    std::cerr << "localdynamo export: --items-per-file must be at least 1\n";
    return 2;
  }
  for (const std::string& name : tables) {
    CallResult described = db->Call("DescribeTable", TableNameBody(name));
    auto facts = described.ok
                     ? ParseTableFacts(described.body)
                     : api::ApiResult<TableFacts>(api::ApiError::Internal(described.error));
    if (!facts.ok()) {
      std::cerr << "localdynamo export: table " << name << ": " << facts.error().message << "\n";
      return 1;
    }
    TableExport table_export(*db, *facts, options.out_dir, options.items_per_file);
    if (!table_export.Run(&error)) {
      std::cerr << "localdynamo export: table " << name << ": " << error << "\n";
      return 1;
    }
    std::cout << table_export.directory().string() << "\n";
  }
  return 0;
}

}  // namespace ddb::cli
