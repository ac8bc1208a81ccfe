// Local stream triggers: consumers attached to a table's stream the way a
// Lambda event source mapping attaches one, without a cloud.
//
// The TriggerManager keeps the triggers by name: it starts each from its
// definition (emulator/trigger_spec.h), from the --triggers file or the
// admin API, keeps the admin API's definitions in the database so that they
// survive a restart (emulator/trigger_settings.h), and stops and forgets
// them. Each trigger runs on a thread of its own (emulator/trigger_runner.h)
// and hands its batches to a transport: an HTTP POST or a local command
// (server/trigger_transport.h).
//
// Thread safety: TriggerManager is safe for concurrent use.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "api/database_scope.h"
#include "api/errors.h"
#include "emulator/trigger_runner.h"
#include "emulator/trigger_spec.h"
#include "emulator/trigger_targets.h"
#include "emulator/trigger_transport.h"
#include "engine/engine.h"

namespace ddb::emulator {

// Where a definition comes from: the --triggers file, the admin API (kept
// in the database), or the database at start (one the admin API made).
enum class TriggerSource { kFile, kAdminApi, kRestored };

class TriggerManager {
 public:
  using Log = TriggerRunner::Log;
  // `allow_commands`: whether Command and OnFailure triggers may come from
  // the admin API (--allow-command-triggers); the file may always use them.
  // `targets`: the hosts HTTP triggers may reach, whatever their source.
  // `scope`: which database a definition's Region and AccessKeyId name.
  TriggerManager(engine::Engine& engine, TriggerTransport& transport, Log log,
                 bool allow_commands = false, TriggerTargets targets = TriggerTargets(),
                 api::DatabaseScope scope = api::DatabaseScope::kPerRegion);
  ~TriggerManager();  // stops every trigger

  // Starts a trigger from its definition. The admin API's are kept in the
  // database, so that they survive a restart; the --triggers file's are
  // declared anew at each start.
  api::ApiResult<std::string> Add(std::string_view definition, TriggerSource source);
  // Adds every definition of a --triggers file: a JSON list of definitions
  // (or {"Triggers": [...]}), none persisted. The first bad one fails the
  // whole file, naming its position.
  api::ApiResult<size_t> AddFromFile(std::string_view json);
  // Stops and forgets a trigger and its checkpoint. false if unknown.
  bool Remove(std::string_view name);
  // Starts the triggers the admin API created before a restart (those not
  // also defined by the file).
  engine::Status StartPersisted();
  // {"Triggers": [{definition…, "Status": {position, lag, last error…}}]}
  std::string ListJson() const;
  // One trigger's entry of ListJson; empty if unknown.
  std::string DescribeJson(std::string_view name) const;

 private:
  engine::Engine& engine_;
  TriggerTransport& transport_;
  const Log log_;
  const bool allow_commands_;
  const TriggerTargets targets_;
  const api::DatabaseScope scope_;
  mutable std::mutex mu_;
  // guarded by mu_
  std::map<std::string, std::unique_ptr<TriggerRunner>, std::less<>> triggers_;
};

}  // namespace ddb::emulator
