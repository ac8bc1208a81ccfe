// The backend of `localdynamo mcp --data-dir DIR`: the data directory
// opened in-process, as cli/'s offline commands open it (no server may run
// on it: RocksDB locks the directory), with DynamoDB requests sent through
// api::Dispatch and admin requests through emulator's HandleAdmin — the
// same code a server runs, minus HTTP. Stream triggers are not run here
// (the transport refuses every delivery); the preloaded models are there
// for a reset to load again.
//
// Thread safety: one request at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/offline_database.h"
#include "emulator/admin.h"
#include "mcp/backend.h"

namespace ddb::mcp {

class LocalBackend final : public Backend {
 public:
  // nullptr with `*error` set when the directory cannot be opened or the
  // models in `model_dirs` cannot be read. `sample_items`: whether a reset
  // loads the models' items too (the server's --sample-items).
  static std::unique_ptr<LocalBackend> Open(const cli::OfflineTarget& target,
                                            const std::vector<std::string>& model_dirs,
                                            bool sample_items, std::string* error);
  ~LocalBackend() override;

  BackendReply Dynamo(std::string_view target, std::string_view body) override;
  BackendReply Admin(std::string_view method, std::string_view path,
                     std::string_view body) override;
  std::string Describe() const override;

 private:
  struct Parts;
  explicit LocalBackend(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace ddb::mcp
