#include "server/dynamodb_local_banner.h"

#include <sstream>

namespace ddb::server {

std::string DynamoDbLocalBanner(const Options& options, int port, std::string_view version) {
  auto flag = [](bool on) { return on ? "true" : "false"; };
  std::ostringstream out;
  out << "Initializing DynamoDB Local with the following configuration:\n"
      << "Port:\t" << port << "\n"
      << "InMemory:\t" << flag(options.in_memory) << "\n"
      << "Version:\t" << version << "\n"
      // DynamoDB Local names the -dbPath it was given, null without one;
      // here a persistent run always has a directory.
      << "DbPath:\t" << (options.in_memory ? "null" : options.data_dir) << "\n"
      << "SharedDb:\t" << flag(options.shared_db) << "\n"
      << "shouldDelayTransientStatuses:\t" << flag(options.delay_transient_millis > 0) << "\n"
      << "CorsParams:\t" << (options.cors_params.empty() ? "null" : options.cors_params)
      << "\n\n";
  return out.str();
}

}  // namespace ddb::server
