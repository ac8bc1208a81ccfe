#include "server/endpoint.h"

#include <zlib.h>

#include <cstdint>
#include <ctime>
#include <memory>
#include <random>

#include "api/access_record.h"
#include "api/dispatch.h"
#include "emulator/host_names.h"
#include "server/console.h"

namespace ddb::server {
namespace {


std::string NewRequestId() {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::string id(52, ' ');
  // Twelve base-36 digits per 64-bit draw (36^12 < 2^64): five draws, not 52.
  uint64_t bits = 0;
  for (size_t i = 0; i < id.size(); ++i) {
    if (i % 12 == 0) bits = rng();
    id[i] = kAlphabet[bits % 36];
    bits /= 36;
  }
  return id;
}

std::string Crc32(std::string_view body) {
  uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(body.data()),
                    static_cast<uInt>(body.size()));
  return std::to_string(crc);
}

// DynamoDB answers in the JSON dialect it was asked in.
std::string ResponseContentType(std::string_view request_type) {
  if (request_type.starts_with("application/x-amz-json-1.1")) return "application/x-amz-json-1.1";
  if (request_type.starts_with("application/json")) return "application/json";
  return "application/x-amz-json-1.0";
}

// The Host the client used; DescribeEndpoints must send clients back to it.
std::string HostOf(const HttpRequest& request) {
  return request.host.empty() ? "localhost" : request.host;
}

// `cors`: the policy whose pages get CORS headers; null for none (the
// admin API's answers and refusals are never readable by another origin).
HttpResponse Finish(HttpResponse response, const HttpRequest& request, const AccessPolicy* cors) {
  response.headers.emplace_back("x-amzn-RequestId", NewRequestId());
  response.headers.emplace_back("x-amz-crc32", Crc32(response.body));
  if (cors && !request.origin.empty()) {
    std::string allowed = cors->AllowOriginHeader(request.origin);
    if (allowed != "*") response.headers.emplace_back("Vary", "Origin");
    response.headers.emplace_back("Access-Control-Allow-Origin", std::move(allowed));
    response.headers.emplace_back("Access-Control-Expose-Headers",
                                  "x-amzn-RequestId,x-amzn-ErrorType,x-amz-crc32,Date");
  }
  return response;
}

HttpResponse Refuse(const api::ApiError& error, const HttpRequest& request) {
  // DynamoDB's content type for its API; plain JSON elsewhere, which a
  // browser shows (it would download x-amz-json).
  HttpResponse response{error.http_status,
                        {{"Content-Type", request.amz_target.empty()
                                              ? "application/json"
                                              : "application/x-amz-json-1.0"}},
                        api::RenderError(error)};
  if (error.http_status == 401) {
    response.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"localdynamo admin API\"");
  }
  return Finish(std::move(response), request, nullptr);
}

}  // namespace

HttpResponse Endpoint::HandleAdmin(const HttpRequest& request) const {
  // The admin API moves the clock, wipes data and starts triggers: only
  // whom the access policy lets in reaches it (the Origin was checked for
  // every path in Handle). No CORS headers are ever added here.
  api::Response result;
  if (!options_.admin) {
    result = emulator::AdminDisabledResponse();
  } else if (auto refused =
                 options_.access.CheckAdmin(request.method, request.host, request.origin,
                                            request.authorization)) {
    return Refuse(*refused, request);
  } else {
    result = emulator::HandleAdmin(*options_.admin, request.method, request.target, request.body);
  }
  return Finish({result.http_status, {{"Content-Type", "application/json"}}, std::move(result.body)},
                request, nullptr);
}

Credential ParseCredential(std::string_view authorization) {
  Credential credential;
  size_t start = authorization.find("Credential=");
  if (start == std::string_view::npos) return credential;
  std::string_view scope = authorization.substr(start + 11);
  scope = scope.substr(0, scope.find_first_of(", "));
  // <access key>/<date>/<region>/<service>/aws4_request
  size_t a = scope.find('/');
  credential.access_key = std::string(scope.substr(0, a));
  if (a != std::string_view::npos) {
    size_t b = scope.find('/', a + 1);
    size_t c = b == std::string_view::npos ? b : scope.find('/', b + 1);
    if (c != std::string_view::npos) credential.region = std::string(scope.substr(b + 1, c - b - 1));
  }
  return credential;
}

HttpResponse Endpoint::Handle(const HttpRequest& request) const {
  const AccessPolicy& access = options_.access;
  // A page of an origin not allowed gets nothing, whatever it asks for and
  // whatever Host its name resolved to (DNS rebinding).
  if (!request.origin.empty() && !access.AllowsOrigin(request.origin)) {
    return Refuse(api::ApiError::CrossOrigin(request.origin), request);
  }
  // The console's page and files first: static, and under the admin prefix.
  if (options_.console) {
    if (auto console = ServeConsole(request)) {
      if (!access.AllowsHost(request.host)) {
        return Refuse(api::ApiError::HostNotAllowed(emulator::HostOf(request.host)), request);
      }
      return Finish(*std::move(console), request, &access);
    }
  }
  if (request.target.starts_with(emulator::kAdminPrefix)) {
    std::string_view rest = std::string_view(request.target).substr(emulator::kAdminPrefix.size());
    if (rest.empty() || rest.starts_with('/') || rest.starts_with('?')) return HandleAdmin(request);
  }
  if (request.method == "OPTIONS" && !request.origin.empty()) {
    HttpResponse preflight{200, {}, ""};
    // Echo what the browser asks for, as DynamoDB does.
    std::string methods = request.access_control_request_method.empty()
                              ? "GET,POST,OPTIONS"
                              : request.access_control_request_method;
    preflight.headers = {{"Access-Control-Allow-Methods", methods},
                         {"Access-Control-Allow-Headers", request.access_control_request_headers},
                         {"Access-Control-Max-Age", "172800"}};
    return Finish(std::move(preflight), request, &access);
  }
  if (request.method == "GET" && request.target == "/" && options_.dynamodb_local_root) {
    // DynamoDB Local's answer to an unsigned request, which tools written
    // for it (Testcontainers' .NET module) wait for.
    return Finish({400,
                   {{"Content-Type", "application/x-amz-json-1.0"}},
                   R"({"__type":"com.amazonaws.dynamodb.v20120810#MissingAuthenticationToken",)"
                   R"("Message":"Request must contain either a valid (registered) AWS access key )"
                   R"(ID or X.509 certificate."})"},
                  request, &access);
  }
  if (request.method == "GET" && request.target == "/") {
    // DynamoDB names the host the client reached.
    return Finish({200, {{"Content-Type", "text/plain"}}, "healthy: " + HostOf(request) + " "},
                  request, &access);
  }
  if (request.method != "POST" || request.target != "/") {
    return Finish({404, {{"Content-Type", "text/plain"}}, "<UnknownOperationException/>\n"},
                  request, &access);
  }
  HttpResponse response;
  response.headers.emplace_back("Content-Type", ResponseContentType(request.content_type));
  api::Response result;
  if (!api::IsKnownTarget(request.amz_target)) {
    result = api::UnknownOperationResponse();
  } else if (request.authorization.empty()) {
    result = api::MissingAuthenticationTokenResponse();
  } else if (auto rejected = options_.verifier
                                 ? options_.verifier->Verify(request, std::time(nullptr))
                                 : std::nullopt) {
    result = {rejected->http_status, api::RenderError(*rejected)};
  } else {
    Credential credential = ParseCredential(request.authorization);
    api::Caller caller;
    caller.region =
        credential.region.empty() ? std::string(api::kDefaultRegion) : credential.region;
    caller.ns = api::NamespaceOf(options_.scope, credential.access_key, caller.region);
    caller.scope = options_.scope;
    caller.access_key = credential.access_key;
    caller.host = HostOf(request);
    auto loaded = options_.preloader
                      ? options_.preloader->EnsureLoaded(caller)
                      : api::ApiResult<std::optional<emulator::LoadSummary>>(std::nullopt);
    if (!loaded.ok()) {
      result = api::Response{500, api::RenderError(api::ApiError::Internal(
                                      "Loading the preloaded models failed: " +
                                      loaded.error().message))};
    } else {
      // One record per thread, reused: a request allocates none of it anew,
      // and it is emptied when its request is done with it, while its
      // memory is still in the cache.
      thread_local api::AccessRecord record;
      api::AccessRecord* kept = options_.profile ? &record : nullptr;
      struct ClearAfter {
        api::AccessRecord* record;
        ~ClearAfter() {
          if (record) record->Clear();
        }
      } clear_after{kept};
      if (options_.controls && options_.controls->active()) {
        auto controlled =
            options_.controls->Dispatch(caller, request.amz_target, request.body, kept);
        result = std::move(controlled.response);
        response.delay = std::chrono::milliseconds(controlled.delay_millis);
        response.drop_connection = controlled.drop_connection;
      } else {
        result = api::Dispatch(engine_, caller, request.amz_target, request.body, kept);
      }
      if (kept && result.http_status == 200 && !kept->operation.empty()) {
        options_.profile->Add(caller.ns, *kept, std::time(nullptr));
      }
    }
  }
  response.status = result.http_status;
  response.body = std::move(result.body);
  return Finish(std::move(response), request, &access);
}

}  // namespace ddb::server
