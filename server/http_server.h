// HttpServer: HTTP/1.1 with keep-alive on Boost.Beast, serving every request
// through one synchronous handler function.
//
// Each I/O thread runs its own io_context, and each connection lives on one
// of them (round robin) for its whole life: a request's read, handling and
// write never hop between threads, which on a small machine costs more than
// the work itself. Handlers that may block (a test's transaction hold sleeps
// in the handler) instead share one context among all threads, so one
// sleeping request cannot stall the connections that happen to share its
// thread. Coroutine sessions either way, no thread per connection.
// The session does I/O only: read with a body limit, call the handler, write,
// loop. Bodies over the limit are answered 413 without being read, header
// blocks over theirs 400; every response carries a Date header (SDKs use it
// to correct clock skew). Two deadlines protect the server from clients that
// hold a connection without using it: an idle keep-alive connection is closed
// after idle_timeout, and once a request's first byte has arrived the whole
// request must arrive (and later its response be taken) within
// request_timeout, so a client that trickles bytes or stops reading cannot
// pin a session forever.
//
// Thread safety: Run() blocks; Stop() may be called from any thread (e.g. a
// signal handler thread). The handler is called concurrently from the I/O
// threads.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ddb::server {

struct HttpRequest {
  std::string method;
  std::string target;
  std::string content_type;
  std::string amz_target;
  std::string authorization;
  std::string host;
  std::string origin;
  std::string accept;  // the Accept header: browsers asking for the console send text/html
  std::string access_control_request_method;
  std::string access_control_request_headers;
  // Every header field, names lowercased, in arrival order; filled only with
  // HttpServerOptions::collect_headers (signature verification needs them).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Faults a test asked for (emulator/fault_rules.h): the session waits this
  // long before writing the answer (on a timer: no thread is held), or
  // closes the connection without answering.
  std::chrono::milliseconds delay{0};
  bool drop_connection = false;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;  // 0: any free port
  int threads = 0;       // 0: one per core
  size_t body_limit = 16 * 1024 * 1024;
  size_t header_limit = 16 * 1024;  // request line and header fields together
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(120)};
  std::chrono::milliseconds request_timeout{std::chrono::seconds(30)};
  bool collect_headers = false;     // fill HttpRequest::headers
  bool handlers_may_block = false;  // share the I/O threads instead of one per connection
};

class HttpServer {
 public:
  // Binds the listening socket. Throws std::system_error if it cannot (the
  // one place exceptions leave the server: startup, caught in main()).
  HttpServer(const HttpServerOptions& options, HttpHandler handler);
  ~HttpServer();

  // The bound port (useful when options.port was 0).
  uint16_t port() const;

  // Serves until Stop(): stops accepting, lets in-flight requests finish,
  // then returns.
  void Run();
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ddb::server
