// localdynamo export: each table in the layout of DynamoDB's export to S3
// (see data_commands.h), read page by page with Scan through Dispatch.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "api/transfer/export_format.h"
#include "api/transfer/transfer_records.h"
#include "cli/data_commands.h"
#include "cli/data_transfer.h"
#include "cli/progress.h"
#include "engine/object_store.h"

namespace ddb::cli {
namespace {
namespace fs = std::filesystem;

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// One export of one table: the output directory is the bucket, as `aws s3
// sync` of the bucket leaves it, and the files are written as
// ExportTableToPointInTime writes its objects (api::ExportWriter).
class TableExport {
 public:
  TableExport(OfflineDatabase& db, const TableFacts& table, const fs::path& out_dir,
              uint64_t items_per_file)
      : db_(db),
        table_(table),
        bucket_dir_(fs::absolute(out_dir).lexically_normal()),
        store_(bucket_dir_.parent_path().string()),
        export_id_(api::NewTransferId(start_millis_)),
        writer_(store_, bucket_dir_.filename().string(),
                table_.name + "/AWSDynamoDB/" + export_id_ + "/",
                table_.name + "/AWSDynamoDB/" + export_id_ + "/data/",
                api::ExportFormat::kDynamoDbJson, items_per_file) {}

  // Writes everything; false and `*error` set on failure.
  bool Run(std::string* error);
  fs::path directory() const { return bucket_dir_ / table_.name / "AWSDynamoDB" / export_id_; }

 private:
  OfflineDatabase& db_;
  const TableFacts& table_;
  fs::path bucket_dir_;
  engine::FolderObjectStore store_;
  int64_t start_millis_ = NowMillis();
  std::string export_id_;
  api::ExportWriter writer_;
};

bool TableExport::Run(std::string* error) {
  if (bucket_dir_.filename().empty()) {
    *error = "the output directory cannot be the file system's root";
    return false;
  }
  auto fail = [&](const engine::Status& status) {
    *error = status.message();
    return false;
  };
  // --out names the bucket's folder, so the command makes it (the server's
  // exports need the bucket to exist, as S3's do).
  std::error_code made;
  fs::create_directories(bucket_dir_, made);
  if (made) return fail(engine::Status::Internal("cannot create " + bucket_dir_.string()));
  if (auto started = writer_.Start(); !started.ok()) return fail(started);
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
      if (auto added = writer_.AddLine("{\"Item\":" + item + "}"); !added.ok()) return fail(added);
    }
    progress.Update(writer_.item_count(),
                    table_.item_count
                        ? static_cast<double>(writer_.item_count()) / table_.item_count
                        : -1);
    start_key = page->last_evaluated_key;
  } while (!start_key.empty());
  api::ExportSummary summary;
  summary.export_arn = table_.arn + "/export/" + export_id_;
  summary.start_time = summary.export_time = api::IsoMillisTime(start_millis_);
  summary.end_time = api::IsoMillisTime(NowMillis());
  summary.table_arn = table_.arn;
  summary.table_id = table_.id;
  summary.s3_bucket = bucket_dir_.filename().string();
  summary.s3_prefix = table_.name;
  summary.billed_size_bytes = table_.size_bytes;
  auto finished = writer_.Finish(summary);
  if (!finished.ok()) return fail(finished.status());
  progress.Finish(writer_.item_count());
  return true;
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
