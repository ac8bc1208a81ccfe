// What `localdynamo import` reads: the paths on its command line resolved to
// data files. A path may be an export directory (the one holding
// manifest-summary.json: its manifest-files.json lists the data files, and
// its tableArn names the table), a directory above a single export (as
// `aws s3 sync` of an export prefix leaves it), a directory of data files
// without manifests, or a data file itself.
//
// Thread safety: pure functions over the file system.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ddb::cli {

struct ImportFile {
  std::string path;
  uint64_t expected_items = 0;  // from manifest-files.json, when `counted`
  bool counted = false;
  uint64_t size_bytes = 0;      // on disk (compressed, if it is)
};

struct ImportSources {
  std::vector<ImportFile> files;
  std::string table;            // from a manifest's tableArn; empty when none says
  uint64_t expected_items = 0;  // the manifests' itemCount total
  bool all_counted = false;     // whether every file's item count is known
};

// False and `*error` set when a path does not exist, holds no data files or
// several exports, or a manifest is unreadable or lists a missing file.
bool ResolveImportSources(const std::vector<std::string>& paths, ImportSources* sources,
                          std::string* error);

}  // namespace ddb::cli
