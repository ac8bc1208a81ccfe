// DynamoDB Local's start-up lines, printed before localdynamo's own so that
// tools which wait for them (Testcontainers modules' log-message waits,
// scripts that grep for "Initializing DynamoDB Local") work unchanged.
//
// Thread safety: pure function.
#pragma once

#include <string>
#include <string_view>

#include "server/options.h"

namespace ddb::server {

// DynamoDB Local 2.x's banner with this run's values, tab after each name:
//   Initializing DynamoDB Local with the following configuration:
//   Port:	8000
//   InMemory:	true
//   Version:	`version` (localdynamo's)
//   DbPath:	null            (the data directory when persistent)
//   SharedDb:	true
//   shouldDelayTransientStatuses:	false
//   CorsParams:	null        (the -cors value when given)
// then an empty line, as DynamoDB Local leaves one.
std::string DynamoDbLocalBanner(const Options& options, int port, std::string_view version);

}  // namespace ddb::server
