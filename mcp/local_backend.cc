#include "mcp/local_backend.h"

#include <iostream>

#include "api/dispatch.h"
#include "emulator/models.h"
#include "emulator/request_controls.h"
#include "emulator/snapshots.h"
#include "emulator/trigger_transport.h"
#include "emulator/triggers.h"

namespace ddb::mcp {
namespace {

// Triggers need a server to run in; here every delivery fails at once.
class NoTriggerTransport final : public emulator::TriggerTransport {
 public:
  emulator::DeliveryOutcome Deliver(const std::string&, const std::string&, const std::string&,
                                    int, const std::atomic<bool>&) override {
    emulator::DeliveryOutcome outcome;
    outcome.ok = false;
    outcome.error = "stream triggers do not run under `localdynamo mcp --data-dir`";
    return outcome;
  }
};

}  // namespace

struct LocalBackend::Parts {
  std::string data_dir;
  std::unique_ptr<cli::OfflineDatabase> offline;
  NoTriggerTransport transport;
  std::unique_ptr<emulator::TriggerManager> triggers;
  std::unique_ptr<emulator::Preloader> preloader;
  std::unique_ptr<emulator::RequestControls> controls;
  // Held in this process's memory: gone when the agent's session ends.
  std::unique_ptr<emulator::Snapshots> snapshots;
  std::unique_ptr<emulator::AdminServices> admin;
};

std::unique_ptr<LocalBackend> LocalBackend::Open(const cli::OfflineTarget& target,
                                                 const std::vector<std::string>& model_dirs,
                                                 bool sample_items, std::string* error) {
  auto parts = std::make_unique<Parts>();
  parts->data_dir = target.data_dir;
  parts->offline = cli::OfflineDatabase::Open(target, cli::OfflineDatabase::Mode::kExisting, error);
  if (!parts->offline) return nullptr;
  auto models = emulator::Models::Read(model_dirs, sample_items);
  if (!models.ok()) {
    *error = models.error().message;
    return nullptr;
  }
  engine::Engine& engine = parts->offline->engine();
  parts->triggers = std::make_unique<emulator::TriggerManager>(
      engine, parts->transport, [](const std::string& line) { std::cerr << line << std::endl; });
  parts->preloader = std::make_unique<emulator::Preloader>(std::move(models).value(), engine);
  parts->controls = std::make_unique<emulator::RequestControls>(engine, parts->offline->clock());
  parts->snapshots =
      std::make_unique<emulator::Snapshots>(engine, *parts->preloader, parts->offline->clock());
  parts->admin = std::make_unique<emulator::AdminServices>(
      emulator::AdminServices{engine, parts->offline->clock(), *parts->triggers, *parts->preloader,
                              *parts->controls, *parts->snapshots});
  return std::unique_ptr<LocalBackend>(new LocalBackend(std::move(parts)));
}

LocalBackend::LocalBackend(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

LocalBackend::~LocalBackend() = default;

BackendReply LocalBackend::Dynamo(std::string_view target, std::string_view body) {
  api::Response response =
      api::Dispatch(parts_->offline->engine(), parts_->offline->caller(), target, body);
  return {response.http_status, std::move(response.body)};
}

BackendReply LocalBackend::Admin(std::string_view method, std::string_view path,
                                 std::string_view body) {
  std::string full = std::string(emulator::kAdminPrefix) + std::string(path);
  api::Response response = emulator::HandleAdmin(*parts_->admin, method, full, body);
  return {response.http_status, std::move(response.body)};
}

std::string LocalBackend::Describe() const {
  const api::Caller& caller = parts_->offline->caller();
  return "data directory " + parts_->data_dir + " (region " + caller.region +
         (caller.ns.empty() ? ", the default database" : ", database " + caller.ns) + ")";
}

}  // namespace ddb::mcp
