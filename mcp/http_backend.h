// The backend of `localdynamo mcp --endpoint URL`: a running localdynamo
// over plain HTTP/1.1 (Boost.Beast's synchronous client, a connection per
// request; the server is local). DynamoDB requests carry X-Amz-Target and
// an Authorization header shaped like SigV4 whose credential scope names
// the access key and region (the server reads them to pick the database
// under --per-key-databases); the signature is a placeholder, so a server
// run with --verify-signatures refuses it.
//
// Thread safety: one request at a time.
#pragma once

#include <memory>
#include <string>

#include "mcp/backend.h"

namespace ddb::mcp {

struct HttpEndpoint {
  std::string host;
  std::string port;
  std::string base_path;  // the URL's path without its trailing slash ("" for "/")
};

// Parses "http://host[:port][/path]". False with `*error` set otherwise.
bool ParseEndpointUrl(std::string_view url, HttpEndpoint* endpoint, std::string* error);

class HttpBackend final : public Backend {
 public:
  // `admin_token`: sent as "Authorization: Bearer" on admin calls (a server
  // started with --admin-token wants it); empty: none.
  HttpBackend(HttpEndpoint endpoint, std::string url, std::string access_key, std::string region,
              std::string admin_token = "");
  BackendReply Dynamo(std::string_view target, std::string_view body) override;
  BackendReply Admin(std::string_view method, std::string_view path,
                     std::string_view body) override;
  std::string Describe() const override;

 private:
  BackendReply Send(std::string_view method, const std::string& path, std::string_view target,
                    std::string_view body);
  HttpEndpoint endpoint_;
  std::string url_;
  std::string access_key_;
  std::string region_;
  std::string admin_token_;
};

}  // namespace ddb::mcp
