// What the request-path fuzz targets (streams_fuzzer.cc, partiql_fuzzer.cc)
// share: an in-memory database to send requests to, and JSON string quoting
// for the bytes they put into request bodies.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "engine/clock.h"
#include "engine/engine.h"

namespace ddb::fuzz {

// An empty in-memory engine on `clock`; aborts when it cannot be opened.
inline std::unique_ptr<engine::Engine> OpenInMemoryEngine(const engine::Clock& clock) {
  engine::DatabaseOptions options;
  options.in_memory = true;
  auto opened = engine::Engine::Open(options, clock);
  if (!opened.ok()) abort();
  return std::move(opened).value();
}

// `text` as a JSON string, quotes included: '"' and '\' escaped, control
// bytes as \u00XX, every other byte as it is (so invalid UTF-8 stays invalid).
inline std::string JsonString(std::string_view text) {
  std::string json = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') json += '\\';
    if (c < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      json += "\\u00";
      json += kHex[c >> 4];
      json += kHex[c & 15];
      continue;
    }
    json += static_cast<char>(c);
  }
  return json + '"';
}

}  // namespace ddb::fuzz
