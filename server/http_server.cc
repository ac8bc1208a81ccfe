#include "server/http_server.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>
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

// Where the endpoint wants a header field's value; null for the fields it
// does not read.
template <class Field>
std::string* RequestField(HttpRequest& request, const Field& field) {
  switch (field.name()) {
    case http::field::content_type: return &request.content_type;
    case http::field::authorization: return &request.authorization;
    case http::field::host: return &request.host;
    case http::field::origin: return &request.origin;
    case http::field::accept: return &request.accept;
    case http::field::access_control_request_method: return &request.access_control_request_method;
    case http::field::access_control_request_headers: return &request.access_control_request_headers;
    case http::field::unknown:
      return beast::iequals(field.name_string(), "X-Amz-Target") ? &request.amz_target : nullptr;
    default: return nullptr;
  }
}

HttpRequest ToRequest(http::request_parser<http::string_body>& parser, bool collect_headers) {
  auto& msg = parser.get();
  HttpRequest request;
  request.method = std::string(msg.method_string());
  request.target = std::string(msg.target());
  // One walk over the fields; of a repeated one, the first non-empty counts.
  for (const auto& field : msg) {
    if (std::string* value = RequestField(request, field); value && value->empty()) {
      value->assign(field.value().data(), field.value().size());
    }
    if (collect_headers) {
      std::string name(field.name_string());
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      request.headers.emplace_back(std::move(name), std::string(field.value()));
    }
  }
  request.body = std::move(msg.body());
  return request;
}

// The current time as an HTTP date (RFC 7231: "Sun, 06 Nov 1994 08:49:37 GMT"),
// formatted once per second per thread rather than once per response.
std::string_view HttpDate() {
  thread_local std::time_t formatted_second = -1;
  thread_local char text[64];
  thread_local size_t size = 0;
  std::time_t now = std::time(nullptr);
  if (now != formatted_second) {
    std::tm utc{};
    gmtime_r(&now, &utc);
    size = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &utc);
    formatted_second = now;
  }
  return {text, size};
}

// A header value as sent; CR and LF cannot end up in one (every value is
// ours or came through Beast's parser), but a stray one would split the
// response, so they become spaces.
void AppendHeader(std::string& head, std::string_view name, std::string_view value) {
  head.append(name).append(": ");
  size_t start = head.size();
  head.append(value);
  for (size_t i = start; i < head.size(); ++i) {
    if (head[i] == '\r' || head[i] == '\n') head[i] = ' ';
  }
  head.append("\r\n");
}

bool StatusHasNoBody(int status) { return status < 200 || status == 204 || status == 304; }

// The status line and header block of a response, rendered directly: Beast's
// message and serializer cost an allocation per field and a buffer walk per
// write, a large share of a small request's CPU.
std::string RenderHead(const HttpResponse& response, unsigned version, bool keep_alive) {
  std::string head;
  head.reserve(256);
  head.append(version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ");
  head.append(std::to_string(response.status)).push_back(' ');
  beast::string_view reason = http::obsolete_reason(static_cast<http::status>(response.status));
  head.append(reason.data(), reason.size()).append("\r\n");
  AppendHeader(head, "Server", "localdynamo");
  AppendHeader(head, "Date", HttpDate());
  for (const auto& [name, value] : response.headers) AppendHeader(head, name, value);
  if (!StatusHasNoBody(response.status)) {
    AppendHeader(head, "Content-Length", std::to_string(response.body.size()));
  }
  // HTTP/1.1 keeps the connection by default, HTTP/1.0 closes it by default.
  if (!keep_alive && version != 10) AppendHeader(head, "Connection", "close");
  if (keep_alive && version == 10) AppendHeader(head, "Connection", "keep-alive");
  head.append("\r\n");
  return head;
}

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  HttpHandler handler;
  // One io_context per I/O thread, each connection served by one of them
  // (handlers_may_block: one context shared by all threads, see the header).
  std::vector<std::unique_ptr<asio::io_context>> contexts;
  size_t next_context = 0;  // round robin; touched only by Listen()
  tcp::acceptor acceptor;
  std::atomic<bool> stopping{false};
  std::atomic<int> in_flight{0};
  std::thread stopper;  // started by Stop(), joined by ~HttpServer

  explicit Impl(const HttpServerOptions& opts)
      : options(opts), contexts(MakeContexts(opts)), acceptor(*contexts.front()) {}

  static int ThreadCount(const HttpServerOptions& options) {
    return options.threads > 0 ? options.threads
                               : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }

  static std::vector<std::unique_ptr<asio::io_context>> MakeContexts(
      const HttpServerOptions& options) {
    std::vector<std::unique_ptr<asio::io_context>> contexts;
    int threads = ThreadCount(options);
    if (options.handlers_may_block) {
      contexts.push_back(std::make_unique<asio::io_context>(threads));
    } else {
      for (int i = 0; i < threads; ++i) contexts.push_back(std::make_unique<asio::io_context>(1));
    }
    return contexts;
  }

  // The executor a new connection runs on. A shared context needs a strand
  // per connection; a context of its own thread serializes it already.
  asio::any_io_executor NextExecutor() {
    asio::io_context& context = *contexts[next_context++ % contexts.size()];
    if (options.handlers_may_block) return asio::make_strand(context);
    return context.get_executor();
  }

  // Writes a response we rendered ourselves: head and body in one gather.
  asio::awaitable<void> Write(beast::tcp_stream& stream, const HttpResponse& response,
                              unsigned version, bool keep_alive, beast::error_code& ec) {
    std::string head = RenderHead(response, version, keep_alive);
    std::array<asio::const_buffer, 2> buffers{
        asio::buffer(head), StatusHasNoBody(response.status) ? asio::const_buffer()
                                                             : asio::buffer(response.body)};
    co_await asio::async_write(stream, buffers, asio::redirect_error(asio::use_awaitable, ec));
  }

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
        co_await Write(stream, too_large, 11, false, ec);
        break;
      }
      if (ec == http::error::header_limit) {
        HttpResponse too_long{400, {{"Content-Type", "text/plain"}},
                              "Bad Request: the request line and headers exceed " +
                                  std::to_string(options.header_limit) + " bytes\n"};
        co_await Write(stream, too_long, 11, false, ec);
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
      if (response.drop_connection) {
        --in_flight;
        break;
      }
      if (response.delay.count() > 0) {
        asio::steady_timer wait(stream.get_executor(), response.delay);
        co_await wait.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      }
      // A client that stops reading must not hold the session forever.
      stream.expires_after(options.request_timeout);
      co_await Write(stream, response, version, keep_alive, ec);
      --in_flight;
      if (ec || !keep_alive) break;
    }
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  asio::awaitable<void> Listen() {
    while (true) {
      beast::error_code ec;
      tcp::socket socket(NextExecutor());
      co_await acceptor.async_accept(socket, asio::redirect_error(asio::use_awaitable, ec));
      if (stopping || !acceptor.is_open()) co_return;
      if (ec) {
        // Keep serving the connections we have; sessions that end meanwhile
        // free descriptors for the ones waiting.
        asio::steady_timer pause(acceptor.get_executor(), kAcceptRetryDelay);
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
    : impl_(std::make_unique<Impl>(options)) {
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
  asio::co_spawn(*impl_->contexts.front(), impl_->Listen(), asio::detached);
  // A context without work would return from run() at once.
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
  for (auto& context : impl_->contexts) keep_running.push_back(asio::make_work_guard(*context));
  int threads = Impl::ThreadCount(impl_->options);
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) {
    asio::io_context& context = *impl_->contexts[i % impl_->contexts.size()];
    pool.emplace_back([&context] { context.run(); });
  }
  impl_->contexts.front()->run();
  for (auto& t : pool) t.join();
}

void HttpServer::Stop() {
  if (impl_->stopping.exchange(true)) return;
  asio::post(*impl_->contexts.front(), [this] {
    beast::error_code ec;
    impl_->acceptor.close(ec);
  });
  // Let requests already being handled finish (bounded), then end the loops;
  // idle keep-alive connections are simply closed.
  impl_->stopper = std::thread([this] {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (impl_->in_flight > 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (auto& context : impl_->contexts) context->stop();
  });
}

}  // namespace ddb::server
