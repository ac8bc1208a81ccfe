// Where the stream triggers keep their state in the database's settings
// store (engine::Settings; docs/storage.md), so that it survives a
// restart:
//   trigger/def/<name> -> the definition JSON (admin API triggers only)
//   trigger/pos/<name> -> "<table>\n<stream label>\n<next sequence number>"
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace ddb::emulator {

inline constexpr std::string_view kTriggerDefinitionPrefix = "trigger/def/";

inline std::string TriggerDefinitionKey(std::string_view name) {
  return std::string(kTriggerDefinitionPrefix) + std::string(name);
}

inline std::string TriggerCheckpointKey(std::string_view name) {
  return "trigger/pos/" + std::string(name);
}

}  // namespace ddb::emulator
