#include "api/transfer/export_format.h"
#include "cli/import_sources.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "cli/data_transfer.h"

namespace ddb::cli {
namespace {
namespace fs = std::filesystem;

bool ReadWholeFile(const fs::path& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return static_cast<bool>(in);
}

bool IsDataFileName(const std::string& name) {
  auto ends_with = [&](std::string_view suffix) {
    return name.size() >= suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (name.rfind("manifest-", 0) == 0 || name == "_started") return false;
  return ends_with(".json.gz") || ends_with(".json") || ends_with(".jsonl") ||
         ends_with(".jsonl.gz") || ends_with(".gz");
}

ImportFile FileOf(const fs::path& path, std::optional<uint64_t> expected_items) {
  std::error_code ec;
  uint64_t size = fs::file_size(path, ec);
  return {path.string(), expected_items.value_or(0), expected_items.has_value(), ec ? 0 : size};
}

// The export in `dir` (which holds manifest-summary.json).
bool AddExport(const fs::path& dir, ImportSources* sources, std::string* error) {
  std::string text;
  fs::path summary_path = dir / "manifest-summary.json";
  if (!ReadWholeFile(summary_path, &text)) {
    *error = "cannot read " + summary_path.string();
    return false;
  }
  auto summary = api::ParseManifestSummary(text);
  if (!summary.ok()) {
    *error = summary_path.string() + ": " + summary.error().message;
    return false;
  }
  if (!summary->output_format.empty() && summary->output_format != "DYNAMODB_JSON") {
    *error = summary_path.string() + ": outputFormat " + summary->output_format +
             " is not supported; export with DYNAMODB_JSON";
    return false;
  }
  if (summary->export_type == "INCREMENTAL_EXPORT") {
    *error = summary_path.string() + ": incremental exports are not supported; use a full export";
    return false;
  }
  if (size_t at = summary->table_arn.find(":table/"); at != std::string::npos) {
    sources->table = summary->table_arn.substr(at + 7);
  }
  fs::path files_path = dir / "manifest-files.json";
  if (!fs::exists(files_path)) {  // without the list, every data file of the export
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(dir / "data", fs::directory_options::none)) {
      if (entry.is_regular_file() && IsDataFileName(entry.path().filename().string())) {
        found.push_back(entry.path());
      }
    }
    std::sort(found.begin(), found.end());
    for (const auto& path : found) sources->files.push_back(FileOf(path, std::nullopt));
    sources->expected_items += summary->item_count;
    return true;
  }
  std::ifstream lines(files_path);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto file = api::ParseManifestFileLine(line);
    if (!file.ok()) {
      *error = files_path.string() + ":" + std::to_string(number) + ": " + file.error().message;
      return false;
    }
    // The S3 key ends in "data/<name>"; the file sits in this export's data/.
    fs::path local = dir / "data" / fs::path(file->data_file_key).filename();
    if (!fs::exists(local)) {
      *error = files_path.string() + ":" + std::to_string(number) + ": " + local.string() +
               " is missing";
      return false;
    }
    sources->files.push_back(FileOf(local, file->item_count));
    sources->expected_items += file->item_count;
  }
  return true;
}

bool AddDirectory(const fs::path& dir, ImportSources* sources, std::string* error) {
  if (fs::exists(dir / "manifest-summary.json")) return AddExport(dir, sources, error);
  std::vector<fs::path> exports;
  std::vector<fs::path> data_files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    if (name == "manifest-summary.json") exports.push_back(entry.path().parent_path());
    if (IsDataFileName(name)) data_files.push_back(entry.path());
  }
  if (exports.size() == 1) return AddExport(exports.front(), sources, error);
  if (exports.size() > 1) {
    std::sort(exports.begin(), exports.end());
    *error = dir.string() + " holds " + std::to_string(exports.size()) + " exports (" +
             exports[0].string() + ", " + exports[1].string() + (exports.size() > 2 ? ", ..." : "") +
             "); name the one to import";
    return false;
  }
  if (data_files.empty()) {
    *error = "no data files (.json, .jsonl, .json.gz) in " + dir.string();
    return false;
  }
  std::sort(data_files.begin(), data_files.end());
  for (const auto& path : data_files) sources->files.push_back(FileOf(path, std::nullopt));
  return true;
}

}  // namespace

bool ResolveImportSources(const std::vector<std::string>& paths, ImportSources* sources,
                          std::string* error) {
  try {
    for (const std::string& text : paths) {
      fs::path path(text);
      if (fs::is_directory(path)) {
        if (!AddDirectory(path, sources, error)) return false;
      } else if (path.filename() == "manifest-summary.json") {
        if (!AddExport(path.parent_path().empty() ? "." : path.parent_path(), sources, error)) {
          return false;
        }
      } else if (fs::is_regular_file(path)) {
        sources->files.push_back(FileOf(path, std::nullopt));
      } else {
        *error = text + ": no such file or directory";
        return false;
      }
    }
  } catch (const fs::filesystem_error& e) {
    *error = e.what();
    return false;
  }
  sources->all_counted =
      !sources->files.empty() &&
      std::all_of(sources->files.begin(), sources->files.end(),
                  [](const ImportFile& f) { return f.counted; });
  return true;
}

}  // namespace ddb::cli
