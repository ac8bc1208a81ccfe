#include "server/healthcheck.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <iostream>
#include <string_view>

namespace ddb::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr auto kProbeTimeout = std::chrono::seconds(3);

}  // namespace

bool IsHealthyAnswer(int status, std::string_view body) {
  // --root-answer dynamodb-local: the server answers GET / as DynamoDB Local does.
  return status == 200 ||
         (status == 400 && body.find("#MissingAuthenticationToken\"") != std::string_view::npos);
}

namespace {

// The state of one probe: resolve, connect, write, read, each step chained
// from the last one's completion and all bounded by one deadline.
class Probe {
 public:
  Probe(asio::io_context& ioc, const HealthCheckTarget& target)
      : target_(target), resolver_(ioc), stream_(ioc) {}

  void Start(std::chrono::milliseconds timeout) {
    stream_.expires_after(timeout);
    resolver_.async_resolve(target_.host, target_.port,
                            [this](beast::error_code ec, tcp::resolver::results_type results) {
                              if (Failed(ec, "resolving " + target_.host)) return;
                              Connect(results);
                            });
  }

  const std::string& problem() const { return problem_; }

 private:
  void Connect(const tcp::resolver::results_type& results) {
    stream_.async_connect(results, [this](beast::error_code ec, const tcp::endpoint&) {
      if (Failed(ec, "connecting")) return;
      request_ = {http::verb::get, target_.path, 11};
      request_.set(http::field::host, target_.host);
      request_.set(http::field::user_agent, "localdynamo-healthcheck");
      http::async_write(stream_, request_, [this](beast::error_code ec, size_t) {
        if (Failed(ec, "sending")) return;
        http::async_read(stream_, buffer_, response_, [this](beast::error_code ec, size_t) {
          if (Failed(ec, "reading the answer")) return;
          problem_ = IsHealthyAnswer(response_.result_int(), response_.body())
                         ? ""
                         : "HTTP " + std::to_string(response_.result_int());
        });
      });
    });
  }

  bool Failed(beast::error_code ec, const std::string& step) {
    if (!ec) return false;
    problem_ = step + ": " + (ec == beast::error::timeout ? "timed out" : ec.message());
    return true;
  }

  HealthCheckTarget target_;
  tcp::resolver resolver_;
  beast::tcp_stream stream_;
  http::request<http::empty_body> request_;
  beast::flat_buffer buffer_;
  http::response<http::string_body> response_;
  std::string problem_ = "no answer";
};

}  // namespace

std::optional<HealthCheckTarget> ParseHealthCheckUrl(const std::string& url) {
  std::string_view rest = url;
  std::string port = "8000";
  constexpr std::string_view kScheme = "http://";
  if (rest.substr(0, kScheme.size()) == kScheme) {
    rest.remove_prefix(kScheme.size());
    port = "80";
  } else if (rest.find("://") != std::string_view::npos) {
    return std::nullopt;  // https and other schemes: the server speaks plain HTTP only
  }
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  std::string_view host = authority;
  size_t host_end = authority.rfind(']');  // [::1]:8000
  size_t colon = authority.find(':', host_end == std::string_view::npos ? 0 : host_end);
  if (colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = std::string(authority.substr(colon + 1));
    if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos) {
      return std::nullopt;
    }
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) return std::nullopt;
  return HealthCheckTarget{std::string(host), port, path};
}

std::string ProbeHealth(const HealthCheckTarget& target, std::chrono::milliseconds timeout) {
  asio::io_context ioc;
  Probe probe(ioc, target);
  probe.Start(timeout);
  ioc.run();
  return probe.problem();
}

std::optional<int> RunHealthCheckIfAsked(int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  std::string_view flag = argv[1];
  if (flag != "--healthcheck" && flag != "-healthcheck") return std::nullopt;
  std::string url = argc > 2 ? argv[2] : kDefaultHealthCheckUrl;
  auto target = ParseHealthCheckUrl(url);
  if (!target || argc > 3) {
    std::cerr << "localdynamo: usage: localdynamo --healthcheck [http://HOST[:PORT][/PATH]]\n";
    return 2;
  }
  std::string problem = ProbeHealth(*target, kProbeTimeout);
  if (!problem.empty()) {
    std::cerr << "localdynamo: " << url << " is not healthy: " << problem << "\n";
    return 1;
  }
  return 0;
}

}  // namespace ddb::server
