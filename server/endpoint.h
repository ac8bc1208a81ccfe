// The DynamoDB endpoint over HTTP: turns an HttpRequest into an api::Dispatch
// call and its result into an HttpResponse with DynamoDB's headers
// (x-amzn-RequestId, x-amz-crc32, the JSON content type), the health check
// at GET /, and CORS, after server/access_policy.h has let the request in.
// Knows no DynamoDB semantics beyond the target header
// and the caller's identity in the Authorization header. Requests under
// /_localdynamo go to the admin API (emulator/admin.h), except the web
// console's page and files (server/console.h).
//
// Thread safety: Handle() may be called concurrently.
#pragma once

#include <string>

#include "api/database_scope.h"
#include "emulator/admin.h"
#include "emulator/profile/access_profile.h"
#include "engine/engine.h"
#include "server/access_policy.h"
#include "server/http_server.h"
#include "server/signature_verifier.h"

namespace ddb::server {

struct EndpointOptions {
  // Which database a request reaches: its region's (the default), the one
  // of all, or its access key's in its region (api/database_scope.h).
  api::DatabaseScope scope = api::DatabaseScope::kPerRegion;
  // Which web pages, Host names and admin callers are answered; CORS
  // headers go to the pages it allows.
  AccessPolicy access;
  // The admin API's services; null when it is turned off (--no-admin).
  emulator::AdminServices* admin = nullptr;
  // Loads the preloaded models into each database on its first request;
  // null when no models are preloaded.
  emulator::Preloader* preloader = nullptr;
  bool console = true;  // the web console for browsers (false: --no-console)
  // GET / answers DynamoDB Local's 400 MissingAuthenticationToken instead of
  // DynamoDB's 200 "healthy: HOST" (--root-answer dynamodb-local).
  bool dynamodb_local_root = false;
  // With --verify-signatures: checks every DynamoDB and Streams request's
  // SigV4 signature (the health check and the admin API stay open); null
  // accepts any signature, as DynamoDB Local does.
  const SignatureVerifier* verifier = nullptr;
  // Injected faults and the throttle; null, or inactive, leaves requests to
  // api::Dispatch alone.
  emulator::RequestControls* controls = nullptr;
  // Adds up every successful DynamoDB request; null when it is off
  // (--no-profile).
  emulator::AccessProfile* profile = nullptr;
};

class Endpoint {
 public:
  // `engine` must outlive the Endpoint.
  Endpoint(engine::Engine& engine, EndpointOptions options) : engine_(engine), options_(options) {}

  HttpResponse Handle(const HttpRequest& request) const;

 private:
  HttpResponse HandleAdmin(const HttpRequest& request) const;
  engine::Engine& engine_;
  const EndpointOptions options_;
};

// Parses "AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/dynamodb/…".
struct Credential {
  std::string access_key;
  std::string region;
};
Credential ParseCredential(std::string_view authorization);

}  // namespace ddb::server
