#include "cli/data_commands.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <string_view>

namespace ddb::cli {
namespace {
namespace po = boost::program_options;

void AddTargetOptions(po::options_description& options, OfflineTarget& target) {
  options.add_options()
      ("data-dir", po::value(&target.data_dir),
       "the server's data directory (default ./localdynamo-data); no server may run on it")
      ("region", po::value(&target.region),
       "the region whose database to use, and ARNs name (default us-east-1)")
      ("shared-db", po::bool_switch(&target.shared_db),
       "the data directory of a server run with --shared-db: its one database")
      ("access-key", po::value(&target.access_key),
       "with a server run with --per-key-databases: whose database (with --region)")
      ("help", "print this help and exit");
}

// Parses `argv` (argv[0] being the command's name); false after printing
// help or an error, with `*exit_code` set.
bool Parse(int argc, char** argv, const po::options_description& options,
           const po::positional_options_description* positional, std::string_view usage,
           int* exit_code) {
  po::variables_map vm;
  try {
    po::command_line_parser parser(argc, argv);
    parser.options(options);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "localdynamo: " << e.what() << "\n\nusage: " << usage << "\n" << options << "\n";
    *exit_code = 2;
    return false;
  }
  if (vm.count("help")) {
    std::cout << "usage: " << usage << "\n" << options << "\n";
    *exit_code = 0;
    return false;
  }
  return true;
}

int ExportMain(int argc, char** argv) {
  ExportOptions options;
  po::options_description flags("export options");
  flags.add_options()
      ("out", po::value(&options.out_dir)->required(), "directory to write the exports into")
      ("table", po::value(&options.tables), "a table to export (repeatable; default: all)")
      ("items-per-file", po::value(&options.items_per_file),
       "items per data file (default 1000000)");
  AddTargetOptions(flags, options.target);
  int exit_code = 0;
  if (!Parse(argc, argv, flags, nullptr, "localdynamo export --out DIR [--table T]...",
             &exit_code)) {
    return exit_code;
  }
  return RunExport(options);
}

int ImportMain(int argc, char** argv) {
  ImportOptions options;
  bool no_progress = false;
  po::options_description flags("import options");
  flags.add_options()
      ("table", po::value(&options.table),
       "the table to load (default: --create-table's TableName, or the export's table)")
      ("create-table", po::value(&options.create_table),
       "CreateTable request file (a model's tables/<T>.json) to create the table from when it "
       "does not exist; tables/<T>.ttl.json beside it is applied too")
      ("no-progress", po::bool_switch(&no_progress), "do not report progress on stderr")
      ("from", po::value(&options.paths),
       "an export directory, a data file (.json, .jsonl, .json.gz) or a directory of them");
  AddTargetOptions(flags, options.target);
  po::positional_options_description positional;
  positional.add("from", -1);
  int exit_code = 0;
  if (!Parse(argc, argv, flags, &positional,
             "localdynamo import [--table T] [--create-table tables/T.json] PATH...",
             &exit_code)) {
    return exit_code;
  }
  options.progress = !no_progress;
  if (options.paths.empty()) {
    std::cerr << "localdynamo import: name what to import (an export directory or data files)\n";
    return 2;
  }
  return RunImport(options);
}

int DumpModelsMain(int argc, char** argv) {
  DumpModelsOptions options;
  po::options_description flags("dump-models options");
  flags.add_options()
      ("out", po::value(&options.out_dir)->required(),
       "model folder to write (tables/<T>.json, tables/<T>.ttl.json, items/<T>.jsonl)")
      ("table", po::value(&options.tables), "a table to write (repeatable; default: all)")
      ("items", po::bool_switch(&options.items), "also write every item to items/<T>.jsonl");
  AddTargetOptions(flags, options.target);
  int exit_code = 0;
  if (!Parse(argc, argv, flags, nullptr, "localdynamo dump-models --out DIR [--table T]... [--items]",
             &exit_code)) {
    return exit_code;
  }
  return RunDumpModels(options);
}

// check and repair read every database of the directory: no --region.
void AddDataDirOption(po::options_description& options, std::string& data_dir,
                      const char* what) {
  options.add_options()
      ("data-dir", po::value(&data_dir), what)
      ("help", "print this help and exit");
}

int CheckMain(int argc, char** argv) {
  CheckOptions options;
  po::options_description flags("check options");
  AddDataDirOption(flags, options.data_dir,
                   "the data directory to check (default ./localdynamo-data); opened read-only, "
                   "so stop the server first for a consistent view");
  int exit_code = 0;
  if (!Parse(argc, argv, flags, nullptr, "localdynamo check [--data-dir D]", &exit_code)) {
    return exit_code;
  }
  return RunCheck(options);
}

int RepairMain(int argc, char** argv) {
  RepairOptions options;
  po::options_description flags("repair options");
  AddDataDirOption(flags, options.data_dir,
                   "the data directory to repair (default ./localdynamo-data); no server may "
                   "run on it, and a copy of it first keeps every choice open");
  int exit_code = 0;
  if (!Parse(argc, argv, flags, nullptr, "localdynamo repair [--data-dir D]", &exit_code)) {
    return exit_code;
  }
  return RunRepair(options);
}

int ModelsMain(int argc, char** argv, const char* binary) {
  ModelsCheckOptions options;
  bool check = false;
  std::string models_dir;
  std::vector<std::string> extra_models;
  po::options_description flags("models options");
  flags.add_options()
      ("check", po::bool_switch(&check),
       "run every access pattern of the models (access-patterns.json) against their sample "
       "items and report how each is served and what it costs")
      ("models-dir", po::value(&models_dir),
       "folder of the models to check (default: the fixtures/ the binary ships with)")
      ("model", po::value(&extra_models),
       "also check the model folder DIR (fixtures/README.md format); repeatable")
      ("json", po::bool_switch(&options.json), "print one JSON document instead of lines")
      ("help", "print this help and exit");
  constexpr std::string_view kUsage =
      "localdynamo models --check [--models-dir DIR] [--model DIR]... [--json]";
  int exit_code = 0;
  if (!Parse(argc, argv, flags, nullptr, kUsage, &exit_code)) return exit_code;
  if (!check) {
    std::cerr << "localdynamo models: say what to do (--check)\n\nusage: " << kUsage << "\n"
              << flags << "\n";
    return 2;
  }
  if (models_dir.empty()) models_dir = BuiltInModelsDir(binary);
  if (!models_dir.empty()) options.model_dirs.push_back(models_dir);
  options.model_dirs.insert(options.model_dirs.end(), extra_models.begin(), extra_models.end());
  return RunModelsCheck(options);
}

}  // namespace

std::optional<int> RunDataCommand(int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  std::string_view command = argv[1];
  // The command's own arguments, with the command as their argv[0].
  int sub_argc = argc - 1;
  char** sub_argv = argv + 1;
  if (command == "export") return ExportMain(sub_argc, sub_argv);
  if (command == "import") return ImportMain(sub_argc, sub_argv);
  if (command == "dump-models") return DumpModelsMain(sub_argc, sub_argv);
  if (command == "check") return CheckMain(sub_argc, sub_argv);
  if (command == "repair") return RepairMain(sub_argc, sub_argv);
  if (command == "models") return ModelsMain(sub_argc, sub_argv, argv[0]);
  return std::nullopt;
}

}  // namespace ddb::cli
