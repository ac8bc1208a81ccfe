// The HTTP server and DynamoDB endpoint over real loopback sockets, driven by
// a small synchronous Beast client. Kept to one translation unit and a few
// tests: Beast is slow to compile.
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange

#include <gtest/gtest.h>
#include <zlib.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <future>
#include <memory>
#include <string>

#include "engine/clock.h"
#include "engine/engine.h"
#include "server/endpoint.h"
#include "server/http_server.h"

namespace ddb::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Response = http::response<http::string_body>;

constexpr char kAuthorization[] =
    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/eu-west-3/dynamodb/aws4_request, "
    "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0123";
constexpr size_t kBodyLimit = 16 * 1024 * 1024;
constexpr auto kRequestTimeout = std::chrono::milliseconds(1000);

std::string Crc32(const std::string& body) {
  return std::to_string(
      crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size())));
}

bool Contains(const std::string& text, std::string_view fragment) {
  return text.find(fragment) != std::string::npos;
}

// One keep-alive connection to the server.
class Client {
 public:
  explicit Client(uint16_t port) : socket_(ioc_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }

  Response Send(http::request<http::string_body> request) {
    request.set(http::field::host, "localhost");
    request.prepare_payload();
    http::write(socket_, request);
    return Read();
  }

  Response Get(const std::string& target) {
    return Send(http::request<http::string_body>(http::verb::get, target, 11));
  }

  // A DynamoDB call; `authorization` empty leaves the header out.
  Response Post(const std::string& amz_target, std::string body,
                const std::string& authorization = kAuthorization) {
    http::request<http::string_body> request(http::verb::post, "/", 11);
    request.set(http::field::content_type, "application/x-amz-json-1.0");
    request.set("X-Amz-Target", amz_target);
    if (!authorization.empty()) request.set(http::field::authorization, authorization);
    request.body() = std::move(body);
    return Send(std::move(request));
  }

  Response Read() {
    Response response;
    http::read(socket_, buffer_, response);
    return response;
  }

  tcp::socket& socket() { return socket_; }

 private:
  asio::io_context ioc_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

// Checks DynamoDB's headers and the __type of an answer.
void ExpectDynamoDbResponse(const Response& response, unsigned status, std::string_view type) {
  SCOPED_TRACE(response.body());
  EXPECT_EQ(response.result_int(), status);
  EXPECT_EQ(response[http::field::content_type], "application/x-amz-json-1.0");
  EXPECT_EQ(response["x-amzn-RequestId"].size(), 52u);
  EXPECT_EQ(response["x-amz-crc32"], Crc32(response.body()));
  if (!type.empty()) {
    EXPECT_TRUE(Contains(response.body(), std::string("#") + std::string(type) + "\""));
  }
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine::DatabaseOptions db_options;
    db_options.in_memory = true;
    auto opened = engine::Engine::Open(db_options, clock_);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    engine_ = std::move(opened).value();
    endpoint_ = std::make_unique<Endpoint>(*engine_, EndpointOptions{});
    HttpServerOptions options;
    options.port = 0;
    options.threads = 2;
    options.body_limit = kBodyLimit;
    options.request_timeout = kRequestTimeout;
    server_ = std::make_unique<HttpServer>(
        options, [this](const HttpRequest& request) { return endpoint_->Handle(request); });
    port_ = server_->port();
    run_ = std::async(std::launch::async, [this] { server_->Run(); });
  }

  void TearDown() override {
    if (server_) StopServer();
  }

  // Stops the server, checks that Run() returns, and destroys it.
  void StopServer() {
    server_->Stop();
    ASSERT_EQ(run_.wait_for(std::chrono::seconds(20)), std::future_status::ready)
        << "Run() did not return after Stop()";
    run_.get();
    server_.reset();
  }

  engine::FakeClock clock_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<Endpoint> endpoint_;
  std::unique_ptr<HttpServer> server_;
  uint16_t port_ = 0;
  std::future<void> run_;
};

TEST_F(ServerTest, ServesHealthCheckAndDynamoDbCallsOnOneKeptAliveConnection) {
  ASSERT_NE(port_, 0);
  Client client(port_);
  Response health = client.Get("/");
  EXPECT_EQ(health.result_int(), 200u);
  EXPECT_EQ(health.body(), "healthy: localhost ");  // the Host the client used
  EXPECT_FALSE(health[http::field::date].empty());
  EXPECT_TRUE(health.keep_alive());

  Response created = client.Post("DynamoDB_20120810.CreateTable", R"({"TableName":"Items",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "BillingMode":"PAY_PER_REQUEST"})");
  ExpectDynamoDbResponse(created, 200, "");
  // The region comes from the Authorization header's credential scope.
  EXPECT_TRUE(Contains(created.body(), "arn:aws:dynamodb:eu-west-3:000000000000:table/Items"))
      << created.body();
  EXPECT_TRUE(created.keep_alive());

  Response listed = client.Post("DynamoDB_20120810.ListTables", "{}");
  ExpectDynamoDbResponse(listed, 200, "");
  EXPECT_EQ(listed.body(), R"({"TableNames":["Items"]})");
  EXPECT_NE(listed["x-amzn-RequestId"], created["x-amzn-RequestId"]);
}

TEST_F(ServerTest, AnswersProtocolErrorsAndKeepsTheConnection) {
  Client client(port_);
  Response unknown = client.Post("DynamoDB_20120810.Frobnicate", "{}");
  ExpectDynamoDbResponse(unknown, 400, "UnknownOperationException");

  Response unauthenticated = client.Post("DynamoDB_20120810.ListTables", "{}", "");
  ExpectDynamoDbResponse(unauthenticated, 400, "MissingAuthenticationTokenException");
  EXPECT_TRUE(Contains(unauthenticated.body(), "Request is missing Authentication Token"));

  Response malformed = client.Post("DynamoDB_20120810.ListTables", "{\"Limit\":");
  ExpectDynamoDbResponse(malformed, 400, "SerializationException");

  Response not_found = client.Post("DynamoDB_20120810.DescribeTable", R"({"TableName":"Nope"})");
  ExpectDynamoDbResponse(not_found, 400, "ResourceNotFoundException");
}

TEST_F(ServerTest, BodiesOverTheLimitGet413WithoutBeingSent) {
  {
    // Exactly at the limit is read and served: "{}" padded with spaces.
    Client client(port_);
    std::string body = "{}" + std::string(kBodyLimit - 2, ' ');
    Response at_limit = client.Post("DynamoDB_20120810.ListTables", std::move(body));
    ExpectDynamoDbResponse(at_limit, 200, "");
  }
  Client client(port_);
  std::string header =
      "POST / HTTP/1.1\r\nHost: localhost\r\n"
      "Content-Type: application/x-amz-json-1.0\r\n"
      "X-Amz-Target: DynamoDB_20120810.ListTables\r\n"
      "Authorization: " + std::string(kAuthorization) + "\r\n"
      "Content-Length: " + std::to_string(kBodyLimit + 1) + "\r\n\r\n";
  asio::write(client.socket(), asio::buffer(header));  // and no body
  Response too_large = client.Read();
  EXPECT_EQ(too_large.result_int(), 413u);
  EXPECT_TRUE(Contains(too_large.body(), "RequestEntityTooLargeException")) << too_large.body();
  EXPECT_FALSE(too_large.keep_alive());
  // The server then closes the connection.
  beast::error_code ec;
  char byte;
  client.socket().read_some(asio::buffer(&byte, 1), ec);
  EXPECT_EQ(ec, asio::error::eof);
}

// Half a request, then silence: closed once the request deadline passes. A
// kept-alive connection idle between requests has longer (the idle timeout).
TEST_F(ServerTest, BegunRequestsMustArriveWithinTheRequestTimeout) {
  Client kept(port_);
  ASSERT_EQ(kept.Get("/").result_int(), 200u);

  Client slow(port_);
  asio::write(slow.socket(), asio::buffer(std::string("POST / HTTP/1.1\r\nHost: x\r\n")));
  auto started = std::chrono::steady_clock::now();
  beast::error_code ec;
  char byte;
  slow.socket().read_some(asio::buffer(&byte, 1), ec);
  auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(ec, asio::error::eof);
  EXPECT_GE(waited, kRequestTimeout * 9 / 10);
  EXPECT_LT(waited, kRequestTimeout * 5);

  // Idle for longer than a request may take, the first connection still serves.
  EXPECT_EQ(kept.Get("/").result_int(), 200u);
}

TEST_F(ServerTest, StopMakesRunReturnDespiteAnIdleKeptAliveConnection) {
  Client idle(port_);
  ASSERT_EQ(idle.Get("/").result_int(), 200u);
  StopServer();  // asserts that Run() returns
  // Once the server is gone its port refuses connections.
  beast::error_code ec;
  asio::io_context ioc;
  tcp::socket probe(ioc);
  probe.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ec);
  EXPECT_EQ(ec, asio::error::connection_refused);
}

}  // namespace
}  // namespace ddb::server
