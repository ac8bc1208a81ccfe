// The command line: localdynamo's own flags plus DynamoDB Local's spellings
// (-port, -inMemory, -dbPath, -sharedDb, …) so existing scripts switch over
// unchanged.
//
// Thread safety: reads the environment; otherwise a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddb::server {

struct Options {
  std::string host = "127.0.0.1";
  int port = 8000;
  bool in_memory = false;
  std::string data_dir = "./localdynamo-data";
  // One database per region (the default), one for every caller
  // (--shared-db), or one per access key and region (--per-key-databases).
  bool per_key_databases = false;
  bool shared_db = false;
  // The -cors value as given (empty: not given, and web pages of loopback
  // origins alone may call the server; see server/access_policy.h).
  std::string cors_params;
  std::vector<std::string> allowed_hosts;  // --allowed-hosts, each a comma-separated list
  std::string admin_token;                 // --admin-token, or $LOCALDYNAMO_ADMIN_TOKEN
  bool admin_open = false;                 // a writable admin API beyond loopback without a token
  std::vector<std::string> trigger_hosts;  // --trigger-hosts: HTTP trigger targets beyond loopback
  int delay_transient_millis = 0;
  int transaction_hold_millis = 0;
  bool throttle = false;    // provisioned capacity throttles (emulator/throttle.h)
  bool profile = true;      // the access profile (docs/profile.md); false: --no-profile
  std::string faults_file;  // injected-fault rules to start with; empty: none
  int threads = 0;
  double request_timeout_seconds = 30;  // a begun request must arrive within this
  double ttl_interval_seconds = 1;      // 0: no background sweep
  int64_t shard_rollover_seconds = 4 * 3600;
  int64_t replication_delay_millis = 1000;  // global tables' replication lag
  int replication_hold_millis = 0;          // strongly consistent writes' claim (conflicts)
  std::string triggers_file;            // empty: none
  bool admin = true;
  bool allow_command_triggers = false;  // Command/OnFailure triggers through the admin API
  std::string models_dir;                // the preloaded models; empty: found by the binary
  std::vector<std::string> extra_models; // a team's own model folders (--model, repeatable)
  bool no_models = false;
  bool sample_items = false;
  bool console = true;  // the web console at GET / for browsers
  // GET / answers as DynamoDB Local does (400 MissingAuthenticationToken)
  // instead of DynamoDB's 200 "healthy: ..." (--root-answer dynamodb-local,
  // or $LOCALDYNAMO_ROOT_ANSWER).
  bool dynamodb_local_root = false;
  bool verify_signatures = false;  // check SigV4 signatures (off, as in DynamoDB Local)
  std::string credentials_file;    // "ACCESS_KEY SECRET" lines; empty: none
  // Where ExportTableToPointInTime writes and ImportTable reads: an S3
  // endpoint (http://host:port), else a folder per bucket (--s3-dir; by
  // default <data-dir>/s3, or memory with --in-memory).
  std::string s3_endpoint;
  std::string s3_dir;
};

// Returns the options, or nullopt after printing help, the version or an
// error (then `*exit_code` says how to exit). Reads $LOCALDYNAMO_ROOT_ANSWER
// as the default of --root-answer.
std::optional<Options> ParseOptions(int argc, char** argv, int* exit_code);

}  // namespace ddb::server
