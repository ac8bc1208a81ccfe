#include "server/trigger_transport.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace ddb::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using SteadyClock = std::chrono::steady_clock;

// A target that has not accepted the connection by then is not coming; the
// trigger's whole timeout is for the function's work.
constexpr auto kConnectTimeout = std::chrono::seconds(5);
// A target's answer is judged by its status line; only an error's body is
// read, for its first words, and only when it says it is this small. (The
// parser's own body_limit is not enough: Boost 1.74's eager parsing loses
// the error when the header and the body arrive in one read.) The header is
// bounded by the parser's 8 KB header limit.
constexpr uint64_t kErrorBodyLimit = 64 * 1024;

emulator::DeliveryOutcome Failed(std::string why) { return {false, std::move(why)}; }

// A pipe whose ends close on exec. macOS has no pipe2.
bool CloseOnExecPipe(int fds[2]) {
#if defined(__APPLE__)
  if (pipe(fds) != 0) return false;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return true;
#else
  return pipe2(fds, O_CLOEXEC) == 0;
#endif
}

struct Url {
  std::string host, port = "80", target = "/";
};

std::optional<Url> ParseUrl(std::string_view url) {
  constexpr std::string_view kScheme = "http://";
  if (!url.starts_with(kScheme)) return std::nullopt;
  url.remove_prefix(kScheme.size());
  Url parsed;
  size_t slash = url.find('/');
  std::string_view authority = url.substr(0, slash);
  if (slash != std::string_view::npos) parsed.target = std::string(url.substr(slash));
  size_t colon = authority.rfind(':');
  if (colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
    parsed.port = std::string(authority.substr(colon + 1));
    authority = authority.substr(0, colon);
  }
  if (authority.starts_with('[') && authority.ends_with(']')) {
    authority = authority.substr(1, authority.size() - 2);
  }
  if (authority.empty()) return std::nullopt;
  parsed.host = std::string(authority);
  return parsed;
}

// One POST on its own I/O context; every step is asynchronous so that the
// deadlines bound the whole exchange.
emulator::DeliveryOutcome Post(const std::string& url_text, const std::string& body,
                               int timeout_seconds, const std::atomic<bool>& cancel,
                               const emulator::TriggerTargets& targets) {
  auto url = ParseUrl(url_text);
  if (!url) return Failed("not an http:// URL: " + url_text);
  if (auto refused = targets.Refusal(url_text)) return Failed(*refused);
  // A listed host may be anywhere; any other name must still be this
  // machine when it is resolved now, not only when the trigger was made.
  bool loopback_only = !targets.Listed(url->host);
  asio::io_context io;
  tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  http::request<http::string_body> request{http::verb::post, url->target, 11};
  request.set(http::field::host, url->host + ":" + url->port);
  request.set(http::field::content_type, "application/json");
  request.set(http::field::user_agent, "localdynamo-trigger");
  request.body() = body;
  request.prepare_payload();
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  beast::error_code failure;
  std::string step;
  auto fail = [&](beast::error_code ec, const char* where) {
    failure = ec;
    step = where;
  };
  auto whole = std::chrono::seconds(timeout_seconds);
  stream.expires_after(std::min<SteadyClock::duration>(whole, kConnectTimeout));
  auto begun = SteadyClock::now();
  resolver.async_resolve(url->host, url->port, [&](beast::error_code ec, auto results) {
    if (ec) return fail(ec, "resolve");
    std::vector<tcp::endpoint> endpoints;
    for (const auto& entry : results) {
      if (!loopback_only || entry.endpoint().address().is_loopback()) {
        endpoints.push_back(entry.endpoint());
      }
    }
    if (endpoints.empty()) {
      return fail(asio::error::host_not_found, "resolve (to no loopback address)");
    }
    stream.async_connect(endpoints, [&](beast::error_code ec, auto) {
      if (ec) return fail(ec, "connect");
      stream.expires_at(begun + whole);
      http::async_write(stream, request, [&](beast::error_code ec, size_t) {
        if (ec) return fail(ec, "send");
        http::async_read_header(stream, buffer, parser, [&](beast::error_code ec, size_t) {
          if (ec) return fail(ec, "read the answer");
          unsigned status = parser.get().result_int();
          auto length = parser.content_length();
          bool short_error = (status < 200 || status > 299) && length && *length <= kErrorBodyLimit;
          if (!short_error) return;
          http::async_read(stream, buffer, parser, [&](beast::error_code ec, size_t) {
            if (ec) return fail(ec, "read the answer");
          });
        });
      });
    });
  });
  // In slices, so that a stopping trigger does not wait out the timeout.
  while (!io.stopped() && !cancel) io.run_for(std::chrono::milliseconds(50));
  if (cancel) return Failed("cancelled: the trigger is stopping");
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  if (failure) {
    bool connecting = step == "resolve" || step == "connect";
    std::string why = failure == beast::error::timeout
                          ? "timed out after " +
                                std::to_string(connecting ? std::min<int64_t>(timeout_seconds,
                                                                             kConnectTimeout.count())
                                                          : timeout_seconds) +
                                " s"
                      : failure.message();
    return Failed("POST " + url_text + ": " + step + ": " + why);
  }
  const auto& response = parser.get();
  unsigned status = response.result_int();
  if (status >= 300 && status <= 399) {
    return Failed("POST " + url_text + ": HTTP " + std::to_string(status) +
                  " (redirects are not followed)");
  }
  if (status < 200 || status > 299) {
    std::string answer = response.body().substr(0, 200);
    return Failed("POST " + url_text + ": HTTP " + std::to_string(status) +
                  (answer.empty() ? "" : ": " + answer));
  }
  return {true, ""};
}

// Writes all of `body` to `fd` before `deadline`; false if it cannot.
bool WriteAll(int fd, const std::string& body, SteadyClock::time_point deadline) {
  size_t written = 0;
  while (written < body.size()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLOUT, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    ssize_t n = write(fd, body.data() + written, body.size() - written);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return false;  // e.g. EPIPE: the command closed its input
    }
    written += static_cast<size_t>(n);
  }
  return true;
}

emulator::DeliveryOutcome Run(const std::string& command, const std::string& body,
                              int timeout_seconds, const std::atomic<bool>& cancel) {
  int pipe_fds[2];
  if (!CloseOnExecPipe(pipe_fds)) return Failed("cannot create a pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
  // None of the server's other descriptors (its listening socket above all)
  // may outlive it in a command that keeps running: glibc closes them by
  // range (2.34 and later), macOS by a spawn flag (below).
#if defined(__GLIBC__)
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
#endif
  // The command gets default signal handling and its own process group, so
  // that a timeout can stop everything it started.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setpgroup(&attributes, 0);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP;
#if defined(__APPLE__)
  // Only the descriptors the file actions name survive: standard input
  // (dup2 above), output and error (inherited).
  posix_spawn_file_actions_addinherit_np(&actions, STDOUT_FILENO);
  posix_spawn_file_actions_addinherit_np(&actions, STDERR_FILENO);
  flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif
  posix_spawnattr_setflags(&attributes, flags);
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = 0;
  int spawned =
      posix_spawn(&pid, "/bin/sh", &actions, &attributes, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(pipe_fds[0]);
  if (spawned != 0) {
    close(pipe_fds[1]);
    return Failed("cannot start `" + command + "`");
  }
  auto deadline = SteadyClock::now() + std::chrono::seconds(timeout_seconds);
  // A command that exits without reading its input is not a failure of
  // ours: its exit status decides.
  fcntl(pipe_fds[1], F_SETFL, O_NONBLOCK);
  (void)WriteAll(pipe_fds[1], body, deadline);
  close(pipe_fds[1]);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (SteadyClock::now() >= deadline || cancel) {
      kill(-pid, SIGKILL);  // the whole process group
      waitpid(pid, &status, 0);
      if (cancel) return Failed("cancelled: the trigger is stopping");
      return Failed("`" + command + "` timed out after " + std::to_string(timeout_seconds) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {true, ""};
  if (WIFSIGNALED(status)) {
    return Failed("`" + command + "` was killed by signal " + std::to_string(WTERMSIG(status)));
  }
  return Failed("`" + command + "` exited with status " + std::to_string(WEXITSTATUS(status)));
}

}  // namespace

emulator::DeliveryOutcome TriggerTransport::Deliver(const std::string& url,
                                                    const std::string& command,
                                                    const std::string& body, int timeout_seconds,
                                                    const std::atomic<bool>& cancel) {
  return url.empty() ? Run(command, body, timeout_seconds, cancel)
                     : Post(url, body, timeout_seconds, cancel, targets_);
}

}  // namespace ddb::server
