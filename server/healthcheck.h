// `localdynamo --healthcheck [URL]`: the health probe of the container image.
//
// A container HEALTHCHECK runs a command inside the image, and ours holds no
// shell, curl or wget, so the server binary probes itself: it GETs URL
// (default http://127.0.0.1:8000/, the health check answered by the endpoint)
// and exits 0 on a 200 answer (or DynamoDB Local's 400 MissingAuthenticationToken
// answer, which the server gives with --root-answer dynamodb-local), 1 on
// anything else, within a few seconds.
//
// Thread safety: pure functions; each call runs its own I/O context.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace ddb::server {

inline constexpr char kDefaultHealthCheckUrl[] = "http://127.0.0.1:8000/";

struct HealthCheckTarget {
  std::string host;
  std::string port;
  std::string path;
};

// Reads `http://host[:port][/path]` (the scheme may be left out; the port
// defaults to 80 with a scheme and to 8000 without one). Answers nullopt for
// anything else, https included.
std::optional<HealthCheckTarget> ParseHealthCheckUrl(const std::string& url);

// Whether an answer to the probe's GET means a serving server: 200, as
// DynamoDB answers, or DynamoDB Local's 400 with MissingAuthenticationToken.
bool IsHealthyAnswer(int status, std::string_view body);

// GETs the target; answers an empty string on a healthy answer, else what went
// wrong ("connection refused", "HTTP 503", "timed out", ...).
std::string ProbeHealth(const HealthCheckTarget& target, std::chrono::milliseconds timeout);

// When argv[1] is --healthcheck (or -healthcheck), probes argv[2] or the
// default URL and answers the exit code; otherwise nullopt, and main carries on.
std::optional<int> RunHealthCheckIfAsked(int argc, char** argv);

}  // namespace ddb::server
