// `localdynamo profile`: the access profile (docs/profile.md) of a running
// server, fetched from its admin API, or the one a server left in its data
// directory when it stopped — as a summary per table, or as JSON.
//
//   localdynamo profile [--endpoint URL] [--region R] [--namespace NS] [--json] [--reset]
//   localdynamo profile --data-dir DIR [--json]
//
// Thread safety: run once, from main.
#pragma once

#include <optional>
#include <string>

#include "emulator/profile/access_profile.h"
#include "engine/database.h"

namespace ddb::server {

// The file a stopping server writes its profile to, in its data directory.
inline constexpr char kSavedProfileFile[] = "localdynamo-profile.json";

// Writes the profile (every database, us-east-1 prices) to `data_dir`'s
// kSavedProfileFile; a failure is reported on stderr, never fatal.
void SaveProfile(const emulator::AccessProfile& profile, const engine::Database& db,
                 const std::string& data_dir);

// The exit status of `localdynamo profile ...`; nullopt for another command.
std::optional<int> RunProfileCommandIfAsked(int argc, char** argv);

}  // namespace ddb::server
