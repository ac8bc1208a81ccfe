// The web console's files (console/ in the source tree), embedded in the
// binary at build time by cmake/embed_files.cmake, which generates the
// definition of ConsoleAssets().
//
// Thread safety: immutable data.
#pragma once

#include <span>
#include <string_view>

namespace ddb::server {

struct ConsoleAsset {
  std::string_view name;          // the file name, e.g. "console.js"
  std::string_view content_type;  // from the extension
  std::string_view body;
};

std::span<const ConsoleAsset> ConsoleAssets();

}  // namespace ddb::server
