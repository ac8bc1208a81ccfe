// localdynamo: the one file that sees every layer. Hands the offline data
// commands to cli/ and `mcp` to mcp/; otherwise parses the command line, opens the engine,
// loads the preloaded models, starts the stream triggers, the background
// TTL sweeper and the HTTP endpoint, and serves until SIGINT or SIGTERM;
// then stops them in reverse order, closes the database cleanly and exits 0.

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

#include "cli/data_commands.h"
#include "emulator/admin.h"
#include "emulator/maintenance.h"
#include "emulator/models.h"
#include "emulator/triggers.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "mcp/mcp_command.h"
#include "server/dynamodb_local_banner.h"
#include "server/endpoint.h"
#include "server/healthcheck.h"
#include "server/profile_command.h"
#include "server/http_server.h"
#include "server/options.h"
#include "server/s3_client.h"
#include "server/signature_verifier.h"
#include "server/startup_memory.h"
#include "server/trigger_transport.h"

namespace {

// Where the preloaded models are: --models-dir, else the fixtures/ the
// binary ships with (cli::BuiltInModelsDir). Empty when there are none.
std::string FindModelsDir(const ddb::server::Options& options, const char* argv0) {
  if (!options.models_dir.empty()) return options.models_dir;
  return ddb::cli::BuiltInModelsDir(argv0);
}

// The verifier for --verify-signatures, its keys from --credentials and
// $LOCALDYNAMO_CREDENTIALS; null with a message on stderr when they cannot
// be read or there are none.
std::unique_ptr<ddb::server::SignatureVerifier> MakeVerifier(
    const ddb::server::Options& options) {
  ddb::server::Secrets secrets;
  std::string error;
  if (!options.credentials_file.empty()) {
    std::ifstream in(options.credentials_file);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) error = "cannot read the file";
    if (error.empty()) ddb::server::ParseCredentialsFile(text.str(), &secrets, &error);
    if (!error.empty()) {
      std::cerr << "localdynamo: " << options.credentials_file << ": " << error << "\n";
      return nullptr;
    }
  }
  if (const char* list = std::getenv("LOCALDYNAMO_CREDENTIALS")) {
    if (!ddb::server::ParseCredentialsList(list, &secrets, &error)) {
      std::cerr << "localdynamo: LOCALDYNAMO_CREDENTIALS: " << error << "\n";
      return nullptr;
    }
  }
  if (secrets.empty()) {
    std::cerr << "localdynamo: --verify-signatures needs access keys (--credentials FILE or "
                 "LOCALDYNAMO_CREDENTIALS=key:secret,...)\n";
    return nullptr;
  }
  return std::make_unique<ddb::server::SignatureVerifier>(std::move(secrets));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ddb;
  auto started = std::chrono::steady_clock::now();
  // `localdynamo export|import|dump-models|check|repair ...` work offline on a data directory.
  if (auto data_command = cli::RunDataCommand(argc, argv)) return *data_command;
  // `localdynamo mcp ...`: the Model Context Protocol server on stdio.
  if (argc >= 2 && std::string_view(argv[1]) == "mcp") {
    return mcp::RunMcpCommand(argc - 1, argv + 1, FindModelsDir(server::Options{}, argv[0]));
  }
  if (auto health_exit = server::RunHealthCheckIfAsked(argc, argv)) return *health_exit;
  if (auto profile_exit = server::RunProfileCommandIfAsked(argc, argv)) return *profile_exit;
  int exit_code = 0;
  auto options = server::ParseOptions(argc, argv, &exit_code);
  if (!options) return exit_code;

  // Block the stop signals before any thread starts, then wait for them on
  // a thread of our own. A trigger command that exits early must not kill us.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  std::unique_ptr<server::SignatureVerifier> verifier;
  if (options->verify_signatures && !(verifier = MakeVerifier(*options))) return 2;

  engine::ShiftableClock clock;
  engine::DatabaseOptions db_options;
  db_options.in_memory = options->in_memory;
  db_options.data_dir = options->data_dir;
  db_options.transient_status_millis = options->delay_transient_millis;
  db_options.transaction_hold_millis = options->transaction_hold_millis;
  db_options.replication_hold_millis = options->replication_hold_millis;
  db_options.shard_rollover_millis = options->shard_rollover_seconds * 1000;
  if (!options->in_memory) {
    std::error_code ec;
    std::filesystem::create_directories(options->data_dir, ec);
  }
  if (!options->s3_endpoint.empty()) {
    std::string error;
    db_options.object_store = server::MakeS3ObjectStore(
        options->s3_endpoint, server::S3CredentialsFromEnvironment(), &error);
    if (!db_options.object_store) {
      std::cerr << "localdynamo: " << error << "\n";
      return 2;
    }
  } else if (!options->s3_dir.empty()) {
    db_options.object_store = std::make_shared<engine::FolderObjectStore>(options->s3_dir);
  }
  // One fprintf a line: the storage's recovery thread logs beside the others.
  db_options.log = [](const std::string& line) {
    std::fprintf(stderr, "localdynamo: %s\n", line.c_str());
  };
  auto opened = engine::Engine::Open(db_options, clock);
  if (!opened.ok()) {
    std::cerr << "localdynamo: " << opened.status().message() << "\n";
    return 1;
  }
  engine::Engine& engine = **opened;

  std::vector<std::string> model_dirs;
  if (!options->no_models) {
    std::string found = FindModelsDir(*options, argv[0]);
    if (found.empty()) {
      std::cerr << "localdynamo: no preloaded models found (give --models-dir, or --no-models)\n";
    } else {
      model_dirs.push_back(found);
    }
  }
  model_dirs.insert(model_dirs.end(), options->extra_models.begin(), options->extra_models.end());
  auto models = emulator::Models::Read(model_dirs, options->sample_items);
  if (!models.ok()) {
    std::cerr << "localdynamo: " << models.error().message << "\n";
    return 1;
  }
  size_t model_tables = models->table_count();
  emulator::Preloader preloader(std::move(models).value(), engine);
  emulator::LoadSummary loaded;
  const api::DatabaseScope scope = options->per_key_databases ? api::DatabaseScope::kPerKeyAndRegion
                                   : options->shared_db      ? api::DatabaseScope::kShared
                                                             : api::DatabaseScope::kPerRegion;
  if (scope != api::DatabaseScope::kPerKeyAndRegion) {
    // The default region's database (every caller's with --shared-db) is
    // ready before the first request; another region's on its first.
    api::Caller shared;
    shared.region = std::string(api::kDefaultRegion);
    auto summary = preloader.EnsureLoaded(shared);
    if (!summary.ok()) {
      std::cerr << "localdynamo: " << summary.error().message << "\n";
      return 1;
    }
    loaded = summary->value_or(emulator::LoadSummary{});
  }

  emulator::TriggerTargets trigger_targets(options->trigger_hosts);
  server::TriggerTransport transport(trigger_targets);
  auto triggers = std::make_unique<emulator::TriggerManager>(
      engine, transport, [](const std::string& line) { std::cout << line << std::endl; },
      options->allow_command_triggers, trigger_targets, scope);
  if (!options->triggers_file.empty()) {
    std::ifstream in(options->triggers_file);
    std::stringstream text;
    text << in.rdbuf();
    auto added = in ? triggers->AddFromFile(text.str())
                    : api::ApiResult<size_t>(api::ApiError::Validation("cannot read the file"));
    if (!added.ok()) {
      std::cerr << "localdynamo: " << options->triggers_file << ": " << added.error().message
                << "\n";
      return 1;
    }
  }
  if (auto started = triggers->StartPersisted(); !started.ok()) {
    std::cerr << "localdynamo: " << started.message() << "\n";
    return 1;
  }
  auto maintenance = std::make_unique<emulator::Maintenance>(engine, options->ttl_interval_seconds);
  emulator::RequestControls controls(engine, clock);
  controls.throttle().set_enabled(options->throttle);
  if (!options->faults_file.empty()) {
    std::ifstream in(options->faults_file);
    std::stringstream text;
    text << in.rdbuf();
    auto added = in ? controls.faults().AddAll(text.str())
                    : api::ApiResult<size_t>(api::ApiError::Validation("cannot read the file"));
    if (!added.ok()) {
      std::cerr << "localdynamo: " << options->faults_file << ": " << added.error().message
                << "\n";
      return 1;
    }
  }
  emulator::Snapshots snapshots(engine, preloader, clock);
  auto replicator =
      std::make_unique<emulator::Replicator>(engine, options->replication_delay_millis);
  std::unique_ptr<emulator::AccessProfile> profile;
  if (options->profile) profile = std::make_unique<emulator::AccessProfile>();
  emulator::AdminServices admin{engine,   clock,     *triggers, preloader,
                                controls, snapshots, scope,     replicator.get(),
                                profile.get()};

  server::AccessPolicy access({.cors = options->cors_params,
                               .allowed_hosts = options->allowed_hosts,
                               .admin_token = options->admin_token,
                               .listen_host = options->host,
                               .admin_open = options->admin_open});
  server::Endpoint endpoint(engine, {.scope = scope,
                                       .access = access,
                                       .admin = options->admin ? &admin : nullptr,
                                       .preloader = model_tables > 0 ? &preloader : nullptr,
                                       .console = options->console,
                                       .dynamodb_local_root = options->dynamodb_local_root,
                                       .verifier = verifier.get(),
                                       .controls = &controls,
                                       .profile = profile.get()});
  std::unique_ptr<server::HttpServer> http;
  try {
    http = std::make_unique<server::HttpServer>(
        server::HttpServerOptions{.host = options->host,
                                  .port = static_cast<uint16_t>(options->port),
                                  .threads = options->threads,
                                  .request_timeout = std::chrono::milliseconds(
                                      static_cast<int64_t>(options->request_timeout_seconds *
                                                           1000)),
                                  .collect_headers = verifier != nullptr,
                                  // the hold sleeps inside the request
                                  .handlers_may_block = options->transaction_hold_millis > 0 ||
                                                        options->replication_hold_millis > 0},
        [&endpoint](const server::HttpRequest& request) { return endpoint.Handle(request); });
  } catch (const std::exception& e) {
    std::cerr << "localdynamo: cannot listen on " << options->host << ":" << options->port << ": "
              << e.what() << "\n";
    return 1;
  }

  // DynamoDB Local's lines first: tools written for it wait for them.
  std::cout << server::DynamoDbLocalBanner(*options, http->port(), LOCALDYNAMO_VERSION);
  std::string location = options->in_memory
                             ? "in memory"
                             : "persistent in " +
                                   std::filesystem::absolute(options->data_dir).string();
  std::cout << "localdynamo listening on http://" << options->host << ":" << http->port()
            << " (" << location << ", "
            << (scope == api::DatabaseScope::kPerKeyAndRegion ? "a database per access key and region"
                : scope == api::DatabaseScope::kShared      ? "one shared database"
                                                            : "a database per region")
            << (verifier ? ", verifying signatures of " + std::to_string(verifier->key_count()) +
                               " access keys"
                         : "")
            << ")" << std::endl;
  if (access.any_origin()) {
    std::cerr << "localdynamo: warning: -cors * lets every web page this machine's browsers "
                 "visit read and change these tables (docs/security.md)"
              << std::endl;
  }
  if (options->admin && access.admin_read_only()) {
    std::cout << "admin API: read-only, as the server listens beyond loopback without a token "
                 "(--admin-token or LOCALDYNAMO_ADMIN_TOKEN to unlock it, --admin-open to open it)"
              << std::endl;
  }
  double millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            started).count();
  if (scope == api::DatabaseScope::kPerKeyAndRegion) {
    std::cout << "models: " << model_tables << " tables, loaded into each database on its first "
              << "request" << std::endl;
  } else {
    std::cout << "models: " << loaded.tables << " tables with " << loaded.indexes
              << " indexes and " << loaded.items << " items created, " << loaded.existing
              << " already there; ready in " << std::fixed << std::setprecision(1) << millis
              << " ms" << std::endl;
  }

  server::ReleaseStartupMemory();
  std::thread signal_waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    http->Stop();
  });
  http->Run();
  // Run() returned without a signal only on a fatal I/O error; wake the waiter.
  pthread_kill(signal_waiter.native_handle(), SIGTERM);
  signal_waiter.join();
  http.reset();
  if (profile && !options->in_memory) {
    server::SaveProfile(*profile, engine.database(), options->data_dir);
  }
  maintenance.reset();
  triggers.reset();
  replicator.reset();
  opened->reset();  // closes RocksDB cleanly
  return 0;
}
