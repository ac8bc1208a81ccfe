#include "emulator/triggers.h"

#include "emulator/trigger_settings.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;

TriggerManager::TriggerManager(engine::Engine& engine, TriggerTransport& transport, Log log,
                               bool allow_commands, TriggerTargets targets,
                               api::DatabaseScope scope)
    : engine_(engine),
      transport_(transport),
      log_(std::move(log)),
      allow_commands_(allow_commands),
      targets_(std::move(targets)),
      scope_(scope) {}

TriggerManager::~TriggerManager() {
  std::map<std::string, std::unique_ptr<TriggerRunner>, std::less<>> triggers;
  {
    std::lock_guard lock(mu_);
    triggers.swap(triggers_);
  }
  // All told at once, so that they stop together; destroying each then
  // waits for its thread.
  for (auto& [name, trigger] : triggers) trigger->RequestStop();
  triggers.clear();
}

ApiResult<std::string> TriggerManager::Add(std::string_view definition, TriggerSource source) {
  auto spec = ParseTriggerSpec(definition);
  if (!spec.ok()) return spec.take_error();
  // A command or a file path from the network runs or writes on this
  // machine: only from the --triggers file, unless the server allows it.
  if (source != TriggerSource::kFile && !allow_commands_ &&
      (!spec->command.empty() || !spec->on_failure_file.empty())) {
    return ApiError::Validation(
        "Command and OnFailure triggers come from the --triggers file; start the server with "
        "--allow-command-triggers to create them through the admin API");
  }
  if (!spec->url.empty()) {
    if (auto refused = targets_.Refusal(spec->url)) return ApiError::Validation(*refused);
  }
  bool per_key = scope_ == api::DatabaseScope::kPerKeyAndRegion;
  spec->ns = per_key && spec->access_key.empty()
                 ? ""
                 : api::NamespaceOf(scope_, spec->access_key, spec->region);
  bool persist = source == TriggerSource::kAdminApi;
  std::lock_guard lock(mu_);
  if (triggers_.count(spec->name)) {
    return ApiError::ResourceInUse("Trigger already exists: " + spec->name);
  }
  if (persist) {
    auto saved = engine_.settings().Put(TriggerDefinitionKey(spec->name), spec->definition);
    if (!saved.ok()) return saved;
  }
  auto trigger =
      std::make_unique<TriggerRunner>(std::move(spec).value(), engine_, transport_, log_);
  TriggerRunner* raw = trigger.get();
  std::string name = raw->spec().name;
  triggers_.emplace(name, std::move(trigger));
  log_("trigger " + name + ": started on table " + raw->spec().table);
  return raw->Describe();
}

ApiResult<size_t> TriggerManager::AddFromFile(std::string_view json) {
  // Validated all before any starts.
  auto definitions = ParseTriggerFile(json);
  if (!definitions.ok()) return definitions.take_error();
  for (const auto& definition : *definitions) {
    auto added = Add(definition, TriggerSource::kFile);
    if (!added.ok()) return added.take_error();
  }
  return definitions->size();
}

bool TriggerManager::Remove(std::string_view name) {
  std::unique_ptr<TriggerRunner> trigger;
  {
    std::lock_guard lock(mu_);
    auto it = triggers_.find(name);
    if (it == triggers_.end()) return false;
    trigger = std::move(it->second);
    triggers_.erase(it);
  }
  trigger.reset();  // stops it and waits for its thread
  (void)engine_.settings().Delete(TriggerDefinitionKey(name));
  (void)engine_.settings().Delete(TriggerCheckpointKey(name));
  log_("trigger " + std::string(name) + ": removed");
  return true;
}

engine::Status TriggerManager::StartPersisted() {
  auto saved = engine_.settings().List(std::string(kTriggerDefinitionPrefix));
  if (!saved.ok()) return saved.status();
  for (const auto& [key, definition] : *saved) {
    std::string name = key.substr(kTriggerDefinitionPrefix.size());
    {
      std::lock_guard lock(mu_);
      if (triggers_.count(name)) continue;  // the file defines it again
    }
    auto added = Add(definition, TriggerSource::kRestored);
    if (!added.ok()) log_("trigger " + name + ": not started: " + added.error().message);
  }
  return engine::Status::Ok();
}

std::string TriggerManager::DescribeJson(std::string_view name) const {
  std::lock_guard lock(mu_);
  auto it = triggers_.find(name);
  return it == triggers_.end() ? std::string() : it->second->Describe();
}

std::string TriggerManager::ListJson() const {
  std::lock_guard lock(mu_);
  std::string body = "{\"Triggers\":[";
  bool first = true;
  for (const auto& [name, trigger] : triggers_) {
    if (!first) body += ",";
    first = false;
    body += trigger->Describe();
  }
  return body + "]}";
}

}  // namespace ddb::emulator
