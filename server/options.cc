#include "server/options.h"

#include <boost/program_options.hpp>

#include <cstdlib>
#include <iostream>
#include <string_view>
#include <vector>

#include "server/build_info.h"
#include "server/healthcheck.h"

#ifndef LOCALDYNAMO_VERSION
#define LOCALDYNAMO_VERSION "dev"
#endif

namespace ddb::server {
namespace po = boost::program_options;
namespace {

// Scripts written for DynamoDB Local run `java [JVM options] -jar
// DynamoDBLocal.jar [its options]`, and its container image takes everything
// after `java` as arguments. The JVM's own options (-Dproperty=value, -Xmx1g,
// -XX:+Flag) mean nothing here; they are dropped before parsing.
std::vector<char*> WithoutJvmOptions(int argc, char** argv) {
  std::vector<char*> kept;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    bool jvm_option = i > 0 && (arg.starts_with("-D") || arg.starts_with("-X"));
    if (!jvm_option) kept.push_back(argv[i]);
  }
  return kept;
}

}  // namespace

std::optional<Options> ParseOptions(int argc, char** argv, int* exit_code) {
  Options options;
  const std::string healthcheck_help =
      "as the first argument: GET URL (default " + std::string(kDefaultHealthCheckUrl) +
      "), exit 0 if it answers 200, else 1 (the container image's HEALTHCHECK)";
  po::options_description own("localdynamo options");
  own.add_options()
      ("help", "print this help and exit")
      ("version", "print the version and exit")
      ("host", po::value(&options.host), "address to listen on (default 127.0.0.1)")
      ("port", po::value(&options.port), "port to listen on (default 8000; 0 picks a free one)")
      ("in-memory", po::bool_switch(&options.in_memory), "keep all data in memory; nothing is written to disk")
      ("data-dir", po::value(&options.data_dir), "directory of the persistent database (default ./localdynamo-data)")
      ("s3-endpoint", po::value(&options.s3_endpoint),
       "an S3-compatible endpoint (http://host:port) for ExportTableToPointInTime and "
       "ImportTable, signed with the credentials of AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY "
       "and AWS_REGION (default: a folder per bucket, see --s3-dir)")
      ("s3-dir", po::value(&options.s3_dir),
       "the folder whose subfolders are the buckets of exports and imports (default "
       "<data-dir>/s3; with --in-memory, buckets are kept in memory). A bucket is a "
       "subfolder that exists: make one with mkdir -p <dir>/<bucket> before exporting to it")
      ("per-key-databases", po::bool_switch(&options.per_key_databases),
       "one isolated database per access key and region (default: one per region, shared "
       "by every access key)")
      ("shared-db", po::bool_switch(&options.shared_db),
       "every caller, whatever its region, shares one database (default: one per region)")
      ("threads", po::value(&options.threads), "I/O threads (default: one per core)")
      ("request-timeout", po::value(&options.request_timeout_seconds),
       "seconds a client has to send a whole request once it has begun, and to take the "
       "response; slower connections are closed (default 30)")
      ("transaction-hold-ms", po::value(&options.transaction_hold_millis),
       "keep a transaction's items claimed this long before it commits, so that concurrent "
       "requests on them meet TransactionConflict (for testing retry logic; default 0)")
      ("throttle", po::bool_switch(&options.throttle),
       "provisioned tables and indexes answer ProvisionedThroughputExceededException beyond "
       "their capacity, with DynamoDB's 300-second burst, and on-demand ones ThrottlingException "
       "beyond their OnDemandThroughput maximums, by the emulator's clock (default off; the "
       "admin API can turn it on)")
      ("faults", po::value(&options.faults_file),
       "JSON file of injected-fault rules to start with (a list; see docs/failure-paths.md)")
      ("ttl-interval", po::value(&options.ttl_interval_seconds),
       "seconds between TTL sweeps and stream maintenance (default 1; 0: only when asked "
       "through the admin API)")
      ("shard-rollover-seconds", po::value(&options.shard_rollover_seconds),
       "age at which a stream's open shard closes and a child shard opens (default 14400, "
       "about DynamoDB's four hours)")
      ("replication-delay-ms", po::value(&options.replication_delay_millis),
       "how long, by the emulator's clock, a global table's write takes to reach its other "
       "replicas (default 1000; 0: at once; the admin API sets it per table and settles)")
      ("replication-hold-ms", po::value(&options.replication_hold_millis),
       "keep a strongly consistent global table's write claimed in every region this long "
       "before it commits, so that a concurrent write to the item from another region meets "
       "ReplicatedWriteConflictException (for testing retry logic; default 0)")
      ("triggers", po::value(&options.triggers_file),
       "JSON file of local stream triggers (a list of definitions; see docs/streams-and-triggers.md)")
      ("no-admin", "turn off the admin API (/_localdynamo/…)")
      ("no-profile", "do not keep the access profile of the requests served (docs/profile.md)")
      ("admin-token", po::value(&options.admin_token)->value_name("TOKEN"),
       "every admin API call must send 'Authorization: Bearer TOKEN' (default from "
       "$LOCALDYNAMO_ADMIN_TOKEN; none: see --admin-open)")
      ("admin-open", po::bool_switch(&options.admin_open),
       "let anyone who reaches the server change it through the admin API even when it "
       "listens beyond loopback without --admin-token (otherwise the admin API is read-only "
       "there)")
      ("allowed-hosts", po::value(&options.allowed_hosts)->value_name("NAMES")->composing(),
       "host names beyond loopback (comma-separated; repeatable) under which browsers may "
       "open the console and reach the admin API, and whose pages may call the server")
      ("trigger-hosts", po::value(&options.trigger_hosts)->value_name("NAMES")->composing(),
       "hosts beyond loopback that HTTP triggers may target (comma-separated; repeatable; "
       "* for any); default: loopback only")
      ("allow-command-triggers", po::bool_switch(&options.allow_command_triggers),
       "let the admin API create triggers that run commands or write OnFailure files (the "
       "--triggers file always may)")
      ("models-dir", po::value(&options.models_dir),
       "folder of the preloaded models (default: the fixtures/ the binary ships with)")
      ("model", po::value(&options.extra_models),
       "also preload the model folder DIR (fixtures/README.md format); repeatable")
      ("no-models", po::bool_switch(&options.no_models),
       "preload none of the built-in models (--model folders still load)")
      ("sample-items", po::bool_switch(&options.sample_items),
       "also load the models' sample items into the tables created at start")
      ("no-console", "turn off the web console (GET / then answers the health check to browsers too)")
      ("root-answer", po::value<std::string>()->value_name("dynamodb|dynamodb-local"),
       "how GET / answers: `dynamodb` (the default), 200 \"healthy: HOST\" as DynamoDB "
       "does; `dynamodb-local`, 400 MissingAuthenticationToken as DynamoDB Local does, "
       "which the Testcontainers .NET module waits for (default from "
       "$LOCALDYNAMO_ROOT_ANSWER)")
      ("healthcheck",
       po::value<std::string>()->value_name("URL")->implicit_value(kDefaultHealthCheckUrl),
       healthcheck_help.c_str())
      ("verify-signatures", po::bool_switch(&options.verify_signatures),
       "check every request's SigV4 signature against the known access keys (from "
       "--credentials and $LOCALDYNAMO_CREDENTIALS=key:secret,...); off by default")
      ("credentials", po::value(&options.credentials_file),
       "file of access keys and secrets for --verify-signatures: one \"ACCESS_KEY SECRET\" "
       "per line, # comments");
  po::options_description local("DynamoDB Local compatibility (single dash also accepted)");
  local.add_options()
      ("inMemory", "same as --in-memory")
      ("dbPath", po::value<std::string>(), "same as --data-dir")
      ("sharedDb", "same as --shared-db")
      ("delayTransientStatuses", "tables pass through CREATING and DELETING for half a second")
      ("cors", po::value<std::string>()->value_name("ORIGINS")->implicit_value("*"),
       "web pages of these origins (comma-separated) may call the server besides loopback "
       "ones; * (also when no list is given): every web page, as DynamoDB Local's default")
      ("optimizeDbBeforeStartup", "accepted; has no effect here (RocksDB needs no optimizing)")
      ("disableTelemetry", "accepted; has no effect here (localdynamo sends no telemetry)")
      ("jar", po::value<std::string>()->value_name("FILE"),
       "accepted and ignored, as are JVM options (-D…, -X…), so `-jar DynamoDBLocal.jar …` "
       "command lines work unchanged");
  po::options_description all;
  all.add(own).add(local);

  po::variables_map vm;
  try {
    auto style = po::command_line_style::default_style | po::command_line_style::allow_long_disguise;
    std::vector<char*> args = WithoutJvmOptions(argc, argv);
    po::store(po::command_line_parser(static_cast<int>(args.size()), args.data())
                  .options(all)
                  .style(style)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "localdynamo: " << e.what() << "\n\n" << all;
    *exit_code = 2;
    return std::nullopt;
  }
  if (vm.count("help")) {
    std::cout << "localdynamo " LOCALDYNAMO_VERSION " — a local DynamoDB-compatible server\n\n"
              << all
              << "\nOffline data commands (the server stopped): localdynamo export|import|"
                 "dump-models|check|repair --help\n"
                 "For coding agents, a Model Context Protocol server on stdio: localdynamo mcp "
                 "--help\n";
    *exit_code = 0;
    return std::nullopt;
  }
  if (vm.count("version")) {
    std::cout << "localdynamo " LOCALDYNAMO_VERSION " (commit " << BuildCommit() << ")\n";
    *exit_code = 0;
    return std::nullopt;
  }
  if (vm.count("healthcheck")) {
    std::cerr << "localdynamo: --healthcheck must be the first argument\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (vm.count("inMemory")) options.in_memory = true;
  if (vm.count("sharedDb")) options.shared_db = true;
  if (vm.count("dbPath")) options.data_dir = vm["dbPath"].as<std::string>();
  if (vm.count("delayTransientStatuses")) options.delay_transient_millis = 500;
  if (vm.count("cors")) options.cors_params = vm["cors"].as<std::string>();
  if (!vm.count("admin-token")) {
    if (const char* from_env = std::getenv("LOCALDYNAMO_ADMIN_TOKEN")) options.admin_token = from_env;
  }
  std::string root_answer = "dynamodb";
  if (const char* from_env = std::getenv("LOCALDYNAMO_ROOT_ANSWER"); from_env && *from_env) {
    root_answer = from_env;
  }
  if (vm.count("root-answer")) root_answer = vm["root-answer"].as<std::string>();
  if (root_answer != "dynamodb" && root_answer != "dynamodb-local") {
    std::cerr << "localdynamo: --root-answer (or LOCALDYNAMO_ROOT_ANSWER) must be dynamodb or "
                 "dynamodb-local, not '"
              << root_answer << "'\n";
    *exit_code = 2;
    return std::nullopt;
  }
  options.dynamodb_local_root = root_answer == "dynamodb-local";
  if (options.transaction_hold_millis < 0 || options.transaction_hold_millis > 60000) {
    std::cerr << "localdynamo: --transaction-hold-ms must be between 0 and 60000\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (vm.count("no-admin")) options.admin = false;
  if (vm.count("no-profile")) options.profile = false;
  if (vm.count("no-console")) options.console = false;
  if (options.ttl_interval_seconds < 0 || options.ttl_interval_seconds > 86400) {
    std::cerr << "localdynamo: --ttl-interval must be between 0 and 86400\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (options.request_timeout_seconds < 0.01 || options.request_timeout_seconds > 3600) {
    std::cerr << "localdynamo: --request-timeout must be between 0.01 and 3600\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (options.replication_hold_millis < 0 || options.replication_hold_millis > 60000) {
    std::cerr << "localdynamo: --replication-hold-ms must be between 0 and 60000\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (options.replication_delay_millis < 0 || options.replication_delay_millis > 3600000) {
    std::cerr << "localdynamo: --replication-delay-ms must be between 0 and 3600000\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (options.shard_rollover_seconds < 1) {
    std::cerr << "localdynamo: --shard-rollover-seconds must be at least 1\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (!options.credentials_file.empty() && !options.verify_signatures) {
    std::cerr << "localdynamo: --credentials needs --verify-signatures\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (options.shared_db && options.per_key_databases) {
    std::cerr << "localdynamo: --shared-db and --per-key-databases exclude each other\n";
    *exit_code = 2;
    return std::nullopt;
  }
  if (options.port < 0 || options.port > 65535) {
    std::cerr << "localdynamo: --port must be between 0 and 65535\n";
    *exit_code = 2;
    return std::nullopt;
  }
  return options;
}

}  // namespace ddb::server
