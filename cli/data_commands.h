// The offline data commands of the localdynamo binary:
//
//   localdynamo export      [--data-dir D] --out DIR [--table T]...
//   localdynamo import      [--data-dir D] [--table T] [--create-table tables/T.json] PATH...
//   localdynamo dump-models [--data-dir D] --out DIR [--table T]... [--items]
//   localdynamo check       [--data-dir D]
//   localdynamo repair      [--data-dir D]
//   localdynamo models      --check [--models-dir DIR] [--model DIR]... [--json]
//
// export writes each table in the layout of DynamoDB's export to S3
// (DYNAMODB_JSON): DIR/<T>/AWSDynamoDB/<export id>/ with manifest-summary.json,
// manifest-files.json (and their .md5 files), _started and data/*.json.gz of
// one {"Item": ...} per line — what `aws s3 sync` of a real export to the
// prefix <T> gives. import reads such a directory, a real export, or single
// data files (gzip or plain; export lines or bare items, as fixtures hold).
// dump-models writes the tables as a model folder (fixtures/README.md).
// check reads every table file, item and index entry of every database the
// directory holds and reports damage and inconsistencies (exit 0 clean, 1
// problems found, 2 not checked); repair keeps what RocksDB's repair can
// read, rebuilds indexes from the items, and reports what was lost.
// models --check runs every access pattern the models state
// (fixtures/<model>/access-patterns.json) against an in-memory database
// holding them with their sample items, and reports how each is served and
// what it costs (exit 0, Scans included: they are findings; 1 when a
// pattern's request fails; 2 when the models cannot be read or loaded).
//
// export, import and dump-models open the data directory directly (no
// server may run on it) and send every request through api::Dispatch;
// check opens it read-only and repair alone, both below the API
// (engine/integrity/integrity_check.h, engine/integrity/data_repair.h).
//
// Thread safety: each command runs on the calling thread (import adds a
// reader thread of its own).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/offline_database.h"

namespace ddb::cli {

// If argv[1] names a data command, runs it and returns the process's exit
// code; otherwise nothing (the server starts as usual).
std::optional<int> RunDataCommand(int argc, char** argv);

struct ExportOptions {
  OfflineTarget target;
  std::string out_dir;
  std::vector<std::string> tables;  // empty: every table
  uint64_t items_per_file = 1'000'000;
};
int RunExport(const ExportOptions& options);

struct ImportOptions {
  OfflineTarget target;
  std::vector<std::string> paths;
  std::string table;         // empty: from --create-table's file or the manifest
  std::string create_table;  // a CreateTable request file (tables/<T>.json)
  bool progress = true;
};
int RunImport(const ImportOptions& options);

struct DumpModelsOptions {
  OfflineTarget target;
  std::string out_dir;
  std::vector<std::string> tables;  // empty: every table
  bool items = false;
};
int RunDumpModels(const DumpModelsOptions& options);

struct CheckOptions {
  std::string data_dir = "./localdynamo-data";
};
int RunCheck(const CheckOptions& options);

struct RepairOptions {
  std::string data_dir = "./localdynamo-data";
};
int RunRepair(const RepairOptions& options);

struct ModelsCheckOptions {
  // Model folders, or folders of them (fixtures/README.md): the built-in
  // models unless --models-dir names others, then each --model folder.
  std::vector<std::string> model_dirs;
  bool json = false;  // one JSON document instead of a line per pattern
};
int RunModelsCheck(const ModelsCheckOptions& options);

// Where the binary's preloaded models are, found as the server finds them
// (next to a build tree, an installed share/ folder, the container's, or
// ./fixtures); "" when there are none.
std::string BuiltInModelsDir(const char* argv0);

}  // namespace ddb::cli
