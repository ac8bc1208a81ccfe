#include "mcp/http_backend.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <ctime>

namespace ddb::mcp {
namespace {
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

// 20261126T202600Z, as SigV4's X-Amz-Date.
std::string AmzDate() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[17];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

}  // namespace

bool ParseEndpointUrl(std::string_view url, HttpEndpoint* endpoint, std::string* error) {
  constexpr std::string_view kScheme = "http://";
  if (url.substr(0, kScheme.size()) != kScheme) {
    *error = "--endpoint must be an http:// URL (localdynamo serves plain HTTP), not " +
             std::string(url);
    return false;
  }
  std::string_view rest = url.substr(kScheme.size());
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  size_t colon = authority.rfind(':');
  if (authority.empty()) {
    *error = "--endpoint has no host: " + std::string(url);
    return false;
  }
  std::string_view host = authority;
  std::string_view port = "80";
  if (colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  if (host.empty() || port.empty() || port.find_first_not_of("0123456789") != std::string::npos) {
    *error = "--endpoint is not host[:port]: " + std::string(url);
    return false;
  }
  endpoint->host = std::string(host);
  endpoint->port = std::string(port);
  endpoint->base_path = std::string(path);
  return true;
}

HttpBackend::HttpBackend(HttpEndpoint endpoint, std::string url, std::string access_key,
                         std::string region, std::string admin_token)
    : endpoint_(std::move(endpoint)),
      url_(std::move(url)),
      access_key_(std::move(access_key)),
      region_(std::move(region)),
      admin_token_(std::move(admin_token)) {}

std::string HttpBackend::Describe() const {
  return url_ + " (access key " + access_key_ + ", region " + region_ + ")";
}

BackendReply HttpBackend::Dynamo(std::string_view target, std::string_view body) {
  return Send("POST", endpoint_.base_path + "/", target, body);
}

BackendReply HttpBackend::Admin(std::string_view method, std::string_view path,
                                std::string_view body) {
  return Send(method, endpoint_.base_path + "/_localdynamo" + std::string(path), "", body);
}

BackendReply HttpBackend::Send(std::string_view method, const std::string& path,
                               std::string_view target, std::string_view body) {
  try {
    boost::asio::io_context io;
    tcp::resolver resolver(io);
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(60));
    stream.connect(resolver.resolve(endpoint_.host, endpoint_.port));

    http::request<http::string_body> request(http::string_to_verb(std::string(method)), path, 11);
    request.set(http::field::host, endpoint_.host + ":" + endpoint_.port);
    request.set(http::field::user_agent, "localdynamo-mcp");
    request.set(http::field::content_type, "application/x-amz-json-1.0");
    if (!target.empty()) {
      std::string date = AmzDate();
      request.set("X-Amz-Target", std::string(target));
      request.set("X-Amz-Date", date);
      // The credential scope is what the server reads; nothing checks the signature.
      request.set(http::field::authorization,
                  "AWS4-HMAC-SHA256 Credential=" + access_key_ + "/" + date.substr(0, 8) + "/" +
                      region_ +
                      "/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, "
                      "Signature=" + std::string(64, '0'));
    } else if (!admin_token_.empty()) {
      request.set(http::field::authorization, "Bearer " + admin_token_);
    }
    request.body() = std::string(body);
    request.prepare_payload();
    http::write(stream, request);

    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64ull << 20);
    http::read(stream, buffer, parser);
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    auto& response = parser.get();
    return {static_cast<int>(response.result_int()), std::move(response.body())};
  } catch (const std::exception& e) {
    return {0, "cannot reach localdynamo at " + url_ + ": " + e.what() +
                   " (is it running? start it with `localdynamo`, or give --endpoint URL or "
                   "--data-dir DIR)"};
  }
}

}  // namespace ddb::mcp
