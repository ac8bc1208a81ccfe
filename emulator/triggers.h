// Local stream triggers: consumers attached to a table's stream the way a
// Lambda event source mapping attaches one, without a cloud.
//
// Each trigger follows its table's current stream from its checkpoint on,
// in sequence order (so in order per shard, and shards in lineage order),
// drops the records its filters reject, and hands batches of the rest, in
// Lambda's event shape ({"Records": […]}), to a transport: an HTTP POST or
// a local command (server/trigger_transport.cc). A failed delivery is
// retried with backoff and holds back the records after it; after
// MaximumRetryAttempts the batch goes to the OnFailure file and the trigger
// moves on. The checkpoint is written to the database only after a batch
// is delivered (or given up), so a restart resumes where it stopped:
// delivery is at least once.
//
// A definition (a JSON object; the --triggers file holds a list of them):
//   {"Name": "cleanup", "TableName": "lambda-layers",
//    "Url": "http://127.0.0.1:9000/2015-03-31/functions/function/invocations"
//      | "Command": "python3 handler.py",
//    "BatchSize": 100, "MaximumBatchingWindowInSeconds": 0,
//    "StartingPosition": "LATEST" | "TRIM_HORIZON",
//    "FilterCriteria": {"Filters": [{"Pattern": "<JSON text or object>"}]},
//    "MaximumRetryAttempts": -1, "OnFailure": "failed-batches.jsonl",
//    "TimeoutSeconds": 30, "Region": "us-east-1", "AccessKeyId": "…"}
// AccessKeyId (with Region) names the database of a --per-key-databases
// server; without it the trigger reads the shared database.
//
// Thread safety: TriggerManager is safe for concurrent use; each trigger
// runs on a thread of its own.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"
#include "emulator/event_filter.h"
#include "engine/database.h"

namespace ddb::emulator {

struct DeliveryOutcome {
  bool ok = false;
  std::string error;  // why not, when !ok
};

// Hands a batch to its target. Implemented in server/ (HTTP and processes).
class TriggerTransport {
 public:
  virtual ~TriggerTransport() = default;
  // POSTs `body` to `url` when it is set, else runs `command` with `body`
  // on standard input; gives up after `timeout_seconds`. ok means a 2xx
  // answer or exit status 0.
  // Gives up soon after `cancel` becomes true (the trigger is stopping).
  virtual DeliveryOutcome Deliver(const std::string& url, const std::string& command,
                                  const std::string& body, int timeout_seconds,
                                  const std::atomic<bool>& cancel) = 0;
};

struct TriggerSpec {
  std::string name;
  std::string table;
  std::string ns;      // engine namespace ("" shared)
  std::string region = "us-east-1";
  std::string url;
  std::string command;
  int batch_size = 100;
  int batching_window_seconds = 0;
  bool from_trim_horizon = false;  // StartingPosition
  std::vector<EventFilter> filters;
  int max_retry_attempts = -1;  // -1: until it succeeds
  std::string on_failure_file;
  int timeout_seconds = 30;
  std::string definition;  // the JSON as given, shown back by the admin API
};

// Parses and validates one definition; ValidationException naming the
// member at fault.
api::ApiResult<TriggerSpec> ParseTriggerSpec(std::string_view json);

// Where a definition comes from: the --triggers file, the admin API (kept
// in the database), or the database at start (one the admin API made).
enum class TriggerSource { kFile, kAdminApi, kRestored };

class TriggerManager {
 public:
  using Log = std::function<void(const std::string& line)>;
  // `allow_commands`: whether Command and OnFailure triggers may come from
  // the admin API (--allow-command-triggers); the file may always use them.
  TriggerManager(engine::Database& db, TriggerTransport& transport, Log log,
                 bool allow_commands = false);
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
  struct Trigger;
  void Run(Trigger& trigger);
  // Delivers one batch with retries; false if stopped meanwhile.
  bool DeliverWithRetries(Trigger& trigger, const std::string& body, size_t count,
                          uint64_t first, uint64_t last);
  void WriteFailure(Trigger& trigger, const std::string& body, const std::string& error,
                    int attempts, uint64_t first, uint64_t last);
  std::string Describe(const Trigger& trigger) const;

  engine::Database& db_;
  TriggerTransport& transport_;
  Log log_;
  const bool allow_commands_;
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Trigger>, std::less<>> triggers_;  // guarded by mu_
};

}  // namespace ddb::emulator
