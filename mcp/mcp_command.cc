#include "mcp/mcp_command.h"

#include <boost/program_options.hpp>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "mcp/http_backend.h"
#include "mcp/local_backend.h"
#include "mcp/mcp_server.h"

namespace ddb::mcp {
namespace {
namespace po = boost::program_options;

constexpr const char* kUsage =
    "localdynamo mcp [--endpoint URL | --data-dir DIR] [--allow-writes] [--access-key K] "
    "[--region R] [--max-items N] [--max-bytes N]";

std::string Environment(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

}  // namespace

int RunMcpCommand(int argc, char** argv, const std::string& default_models_dir) {
  std::string endpoint_url = "http://localhost:8000";
  std::string data_dir;
  std::string access_key;
  std::string region = Environment("AWS_REGION", Environment("AWS_DEFAULT_REGION", "us-east-1").c_str());
  std::string admin_token = Environment("LOCALDYNAMO_ADMIN_TOKEN", "");
  std::string models_dir = default_models_dir;
  bool sample_items = false;
  ServerOptions options;
  options.version = LOCALDYNAMO_VERSION;
  po::options_description flags("mcp options");
  flags.add_options()
      ("endpoint", po::value(&endpoint_url),
       "a running localdynamo to serve (default http://localhost:8000)")
      ("data-dir", po::value(&data_dir),
       "instead of --endpoint: open this data directory in-process (no server may run on it)")
      ("allow-writes", po::bool_switch(&options.allow_writes),
       "offer and run the tools that change data (items, tables, clock, sweep, reset, "
       "snapshots); without it the server is read-only")
      ("access-key", po::value(&access_key),
       "the access key requests carry: under --per-key-databases, whose database (default "
       "$AWS_ACCESS_KEY_ID or \"localdynamo\"; with --data-dir: none, the region's database)")
      ("region", po::value(&region),
       "the region requests carry, whose database they reach (default $AWS_REGION or us-east-1)")
      ("admin-token", po::value(&admin_token),
       "the server's --admin-token, sent on admin API calls (default $LOCALDYNAMO_ADMIN_TOKEN)")
      ("max-items", po::value(&options.limits.max_items),
       "at most this many items per tool answer (default 100)")
      ("max-bytes", po::value(&options.limits.max_bytes),
       "at most this many bytes per tool answer (default 262144)")
      ("models-dir", po::value(&models_dir),
       "with --data-dir: the preloaded models a reset loads (default: the binary's)")
      ("sample-items", po::bool_switch(&sample_items),
       "with --data-dir: a reset loads the models' sample items too (as the server's flag)")
      ("help", "print this help and exit");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(flags).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "localdynamo mcp: " << e.what() << "\n\nusage: " << kUsage << "\n" << flags;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "usage: " << kUsage << "\n\nA Model Context Protocol server on stdin/stdout "
                                        "for coding agents.\n"
              << flags;
    return 0;
  }
  if (vm.count("data-dir") && vm.count("endpoint")) {
    std::cerr << "localdynamo mcp: give --endpoint or --data-dir, not both\n";
    return 2;
  }
  if (options.limits.max_items == 0 || options.limits.max_bytes < 1024) {
    std::cerr << "localdynamo mcp: --max-items must be at least 1 and --max-bytes at least 1024\n";
    return 2;
  }

  std::unique_ptr<Backend> backend;
  std::string error;
  if (!data_dir.empty()) {
    cli::OfflineTarget target;
    target.data_dir = data_dir;
    target.region = region;
    target.access_key = access_key;
    std::vector<std::string> model_dirs;
    if (!models_dir.empty()) model_dirs.push_back(models_dir);
    backend = LocalBackend::Open(target, model_dirs, sample_items, &error);
  } else {
    HttpEndpoint endpoint;
    if (ParseEndpointUrl(endpoint_url, &endpoint, &error)) {
      if (access_key.empty()) access_key = Environment("AWS_ACCESS_KEY_ID", "localdynamo");
      backend = std::make_unique<HttpBackend>(endpoint, endpoint_url, access_key, region,
                                              admin_token);
    }
  }
  if (!backend) {
    std::cerr << "localdynamo mcp: " << error << "\n";
    return 1;
  }
  std::cerr << "localdynamo mcp: serving " << backend->Describe() << " on stdin/stdout, "
            << (options.allow_writes ? "writes allowed" : "read-only") << std::endl;

  McpServer server(*backend, options);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::string answer = server.HandleLine(line);
    if (!answer.empty()) std::cout << answer << '\n' << std::flush;
  }
  return 0;
}

}  // namespace ddb::mcp
