#include "server/http_server.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <iostream>
#include <thread>

namespace ddb::server {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// How much an idle connection's first read takes at once; the parser reads
// the rest of the request itself.
constexpr size_t kFirstReadBytes = 4096;

// After a failed accept (typically: out of file descriptors) the connection
// stays in the backlog, so accepting again at once would fail again at once.
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(50);

std::string HeaderValue(const http::request_parser<http::string_body>& parser,
                        std::string_view name) {
  const auto& fields = parser.get();
  auto it = fields.find(beast::string_view(name.data(), name.size()));
  return it == fields.end() ? std::string() : std::string(it->value());
}

HttpRequest ToRequest(http::request_parser<http::string_body>& parser, bool collect_headers) {
  auto& msg = parser.get();
  HttpRequest request;
  request.method = std::string(msg.method_string());
  request.target = std::string(msg.target());
  request.content_type = HeaderValue(parser, "Content-Type");
  request.amz_target = HeaderValue(parser, "X-Amz-Target");
  request.authorization = HeaderValue(parser, "Authorization");
  request.host = HeaderValue(parser, "Host");
  request.origin = HeaderValue(parser, "Origin");
  request.accept = HeaderValue(parser, "Accept");
  request.access_control_request_method = HeaderValue(parser, "Access-Control-Request-Method");
  request.access_control_request_headers = HeaderValue(parser, "Access-Control-Request-Headers");
  if (collect_headers) {
    for (const auto& field : msg) {
      std::string name(field.name_string());
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      request.headers.emplace_back(std::move(name), std::string(field.value()));
    }
  }
  request.body = std::move(msg.body());
  return request;
}

// The current time as an HTTP date (RFC 7231: "Sun, 06 Nov 1994 08:49:37 GMT").
std::string HttpDate() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  size_t size = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &utc);
  return std::string(text, size);
}

http::response<http::string_body> ToBeast(HttpResponse&& response, unsigned version,
                                          bool keep_alive) {
  http::response<http::string_body> res{static_cast<http::status>(response.status), version};
  res.set(http::field::server, "localdynamo");
  res.set(http::field::date, HttpDate());
  for (auto& [name, value] : response.headers) res.set(name, value);
  res.body() = std::move(response.body);
  res.keep_alive(keep_alive);
  res.prepare_payload();
  return res;
}

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  HttpHandler handler;
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::atomic<bool> stopping{false};
  std::atomic<int> in_flight{0};
  std::thread stopper;  // started by Stop(), joined by ~HttpServer

  asio::awaitable<void> Session(beast::tcp_stream stream) {
    beast::flat_buffer buffer;
    beast::error_code ec;
    while (!stopping) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(options.body_limit);
      parser.header_limit(static_cast<std::uint32_t>(options.header_limit));
      if (buffer.size() == 0) {
        // Waiting for the next request on a kept-alive connection: the idle
        // deadline. A pipelined request already in the buffer skips it.
        stream.expires_after(options.idle_timeout);
        size_t got = co_await stream.async_read_some(buffer.prepare(kFirstReadBytes),
                                                     asio::redirect_error(asio::use_awaitable, ec));
        if (ec) break;
        buffer.commit(got);
      }
      // The request has begun: all of it must arrive within the deadline.
      stream.expires_after(options.request_timeout);
      co_await http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
      if (ec == http::error::body_limit) {
        HttpResponse too_large{413, {{"Content-Type", "application/x-amz-json-1.0"}},
                               R"({"__type":"com.amazon.coral.service#RequestEntityTooLargeException","message":"Request size exceeds 16777216 bytes"})"};
        auto res = ToBeast(std::move(too_large), 11, false);
        co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
        break;
      }
      if (ec == http::error::header_limit) {
        HttpResponse too_long{400, {{"Content-Type", "text/plain"}},
                              "Bad Request: the request line and headers exceed " +
                                  std::to_string(options.header_limit) + " bytes\n"};
        auto res = ToBeast(std::move(too_long), 11, false);
        co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
        break;
      }
      if (ec) break;  // closed, timed out or malformed: drop the connection
      ++in_flight;
      bool keep_alive = parser.get().keep_alive() && !stopping;
      unsigned version = parser.get().version();
      HttpResponse response;
      try {
        response = handler(ToRequest(parser, options.collect_headers));
      } catch (const std::exception& e) {
        std::cerr << "localdynamo: internal error: " << e.what() << "\n";
        response = {500,
                    {{"Content-Type", "application/x-amz-json-1.0"}},
                    R"({"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"})"};
      }
      auto res = ToBeast(std::move(response), version, keep_alive);
      // A client that stops reading must not hold the session forever.
      stream.expires_after(options.request_timeout);
      co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
      --in_flight;
      if (ec || !keep_alive) break;
    }
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  asio::awaitable<void> Listen() {
    while (true) {
      beast::error_code ec;
      tcp::socket socket(asio::make_strand(ioc));
      co_await acceptor.async_accept(socket, asio::redirect_error(asio::use_awaitable, ec));
      if (stopping || !acceptor.is_open()) co_return;
      if (ec) {
        // Keep serving the connections we have; sessions that end meanwhile
        // free descriptors for the ones waiting.
        asio::steady_timer pause(ioc, kAcceptRetryDelay);
        co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        continue;
      }
      socket.set_option(tcp::no_delay(true), ec);
      auto executor = socket.get_executor();
      asio::co_spawn(executor, Session(beast::tcp_stream(std::move(socket))), asio::detached);
    }
  }
};

HttpServer::HttpServer(const HttpServerOptions& options, HttpHandler handler)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->handler = std::move(handler);
  tcp::endpoint endpoint(asio::ip::make_address(options.host), options.port);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen(asio::socket_base::max_listen_connections);
}

HttpServer::~HttpServer() {
  if (impl_->stopper.joinable()) impl_->stopper.join();
}

uint16_t HttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }

void HttpServer::Run() {
  asio::co_spawn(impl_->ioc, impl_->Listen(), asio::detached);
  int threads = impl_->options.threads > 0 ? impl_->options.threads
                                           : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([this] { impl_->ioc.run(); });
  impl_->ioc.run();
  for (auto& t : pool) t.join();
}

void HttpServer::Stop() {
  if (impl_->stopping.exchange(true)) return;
  asio::post(impl_->ioc, [this] {
    beast::error_code ec;
    impl_->acceptor.close(ec);
  });
  // Let requests already being handled finish (bounded), then end the loop;
  // idle keep-alive connections are simply closed.
  impl_->stopper = std::thread([this] {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (impl_->in_flight > 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    impl_->ioc.stop();
  });
}

}  // namespace ddb::server
