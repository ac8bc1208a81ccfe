// localdynamo: the one file that sees all three layers. Parses the command
// line, opens the engine, starts the HTTP endpoint and serves until SIGINT or
// SIGTERM, then closes the database cleanly and exits 0.
#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

#include "engine/clock.h"
#include "engine/database.h"
#include "server/endpoint.h"
#include "server/http_server.h"
#include "server/options.h"

int main(int argc, char** argv) {
  using namespace ddb;
  int exit_code = 0;
  auto options = server::ParseOptions(argc, argv, &exit_code);
  if (!options) return exit_code;

  // Block the stop signals before any thread starts, then wait for them on
  // a thread of our own.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  engine::SystemClock clock;
  engine::DatabaseOptions db_options;
  db_options.in_memory = options->in_memory;
  db_options.data_dir = options->data_dir;
  db_options.transient_status_millis = options->delay_transient_millis;
  db_options.transaction_hold_millis = options->transaction_hold_millis;
  if (!options->in_memory) {
    std::error_code ec;
    std::filesystem::create_directories(options->data_dir, ec);
  }
  auto db = engine::Database::Open(db_options, clock);
  if (!db.ok()) {
    std::cerr << "localdynamo: " << db.status().message() << "\n";
    return 1;
  }
  server::Endpoint endpoint(**db, {.per_key_databases = options->per_key_databases,
                                   .cors = options->cors});
  std::unique_ptr<server::HttpServer> http;
  try {
    http = std::make_unique<server::HttpServer>(
        server::HttpServerOptions{.host = options->host,
                                  .port = static_cast<uint16_t>(options->port),
                                  .threads = options->threads},
        [&endpoint](const server::HttpRequest& request) { return endpoint.Handle(request); });
  } catch (const std::exception& e) {
    std::cerr << "localdynamo: cannot listen on " << options->host << ":" << options->port << ": "
              << e.what() << "\n";
    return 1;
  }

  std::string location = options->in_memory
                             ? "in memory"
                             : "persistent in " +
                                   std::filesystem::absolute(options->data_dir).string();
  std::cout << "localdynamo listening on http://" << options->host << ":" << http->port()
            << " (" << location << ", "
            << (options->per_key_databases ? "a database per access key and region"
                                           : "one shared database")
            << ")" << std::endl;

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
  db->reset();  // closes RocksDB cleanly
  return 0;
}
