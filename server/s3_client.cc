#include "server/s3_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>

#include "server/sigv4.h"

namespace ddb::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

// An object or a listing page that takes longer than this is not coming.
constexpr auto kExchangeTimeout = std::chrono::seconds(120);
// The largest answer read: an object of an import.
constexpr uint64_t kMaxAnswerBytes = uint64_t{1} << 31;

struct S3Answer {
  unsigned status = 0;
  std::string body;
  std::string failure;  // the transport's error; empty when an answer came
};

std::string XmlUnescape(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    static constexpr std::pair<std::string_view, char> kEntities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool matched = false;
    for (const auto& [entity, c] : kEntities) {
      if (text.substr(i).starts_with(entity)) {
        out += c;
        i += entity.size() - 1;
        matched = true;
        break;
      }
    }
    if (!matched) out += '&';
  }
  return out;
}

// Every <tag>text</tag> of an XML answer, in order.
std::vector<std::string> XmlElements(std::string_view xml, std::string_view tag) {
  std::vector<std::string> values;
  std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  size_t at = 0;
  while ((at = xml.find(open, at)) != std::string_view::npos) {
    size_t start = at + open.size();
    size_t end = xml.find(close, start);
    if (end == std::string_view::npos) break;
    values.push_back(XmlUnescape(xml.substr(start, end - start)));
    at = end + close.size();
  }
  return values;
}

class S3ObjectStore : public engine::ObjectStore {
 public:
  S3ObjectStore(std::string host, std::string port, S3Credentials credentials)
      : host_(std::move(host)), port_(std::move(port)), credentials_(std::move(credentials)) {}

  engine::Status Put(std::string_view bucket, std::string_view key,
                     std::string_view bytes) override {
    S3Answer answer = Exchange(http::verb::put, ObjectPath(bucket, key), "", bytes);
    return Outcome(answer);
  }

  engine::Result<std::string> Get(std::string_view bucket, std::string_view key) override {
    S3Answer answer = Exchange(http::verb::get, ObjectPath(bucket, key), "", "");
    if (auto status = Outcome(answer); !status.ok()) return status;
    return std::move(answer.body);
  }

  engine::Result<std::vector<std::string>> List(std::string_view bucket,
                                                std::string_view prefix) override {
    std::vector<std::string> keys;
    std::string token;
    while (true) {
      std::string query = "list-type=2&prefix=" + sigv4::UriEncode(prefix, false);
      if (!token.empty()) query = "continuation-token=" + sigv4::UriEncode(token, false) + "&" + query;
      S3Answer answer = Exchange(http::verb::get, "/" + sigv4::UriEncode(bucket, false), query, "");
      if (auto status = Outcome(answer); !status.ok()) return status;
      for (auto& key : XmlElements(answer.body, "Key")) keys.push_back(std::move(key));
      auto truncated = XmlElements(answer.body, "IsTruncated");
      auto next = XmlElements(answer.body, "NextContinuationToken");
      if (truncated.empty() || truncated[0] != "true" || next.empty()) break;
      token = next[0];
    }
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  std::string Describe() const override { return "S3 at http://" + host_ + ":" + port_; }

 private:
  static std::string ObjectPath(std::string_view bucket, std::string_view key) {
    return "/" + sigv4::UriEncode(bucket, false) + "/" + sigv4::UriEncode(key, true);
  }

  // S3's answer as a Status: NoSuchBucket and NoSuchKey are kNotFound, in
  // S3's words; anything else names the endpoint's code and message.
  static engine::Status Outcome(const S3Answer& answer) {
    if (!answer.failure.empty()) return engine::Status::Internal(answer.failure);
    if (answer.status >= 200 && answer.status <= 299) return engine::Status::Ok();
    auto codes = XmlElements(answer.body, "Code");
    auto messages = XmlElements(answer.body, "Message");
    std::string code = codes.empty() ? "HTTP " + std::to_string(answer.status) : codes[0];
    if (code == "NoSuchBucket") {
      return engine::Status::NotFound("The specified bucket does not exist");
    }
    if (code == "NoSuchKey") return engine::Status::NotFound("The specified key does not exist.");
    return engine::Status::Internal("S3 " + code +
                                    (messages.empty() ? "" : ": " + messages[0]));
  }

  S3Answer Exchange(http::verb method, const std::string& path, const std::string& query,
                    std::string_view body) {
    std::string target = query.empty() ? path : path + "?" + query;
    std::string host = host_ + ":" + port_;
    std::string payload_hash = sigv4::Sha256Hex(body);
    std::string amz_date = sigv4::FormatAmzDate(std::time(nullptr));
    sigv4::Headers headers = {{"host", host},
                              {"x-amz-content-sha256", payload_hash},
                              {"x-amz-date", amz_date}};
    std::string signed_headers = "host;x-amz-content-sha256;x-amz-date";
    if (!credentials_.session_token.empty()) {
      headers.emplace_back("x-amz-security-token", credentials_.session_token);
      signed_headers += ";x-amz-security-token";
    }
    std::string method_name(http::to_string(method));
    http::request<http::string_body> request{method, target, 11};
    for (const auto& [name, value] : headers) request.set(name, value);
    request.set(http::field::authorization,
                S3Authorization(method_name, target, headers, signed_headers, payload_hash,
                                amz_date, credentials_));
    request.set(http::field::user_agent, "localdynamo");
    request.body() = std::string(body);
    request.prepare_payload();

    asio::io_context io;
    tcp::resolver resolver(io);
    beast::tcp_stream stream(io);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxAnswerBytes);
    S3Answer answer;
    auto fail = [&](beast::error_code ec, const char* step) {
      answer.failure = "S3 at " + host + ": " + step + ": " + ec.message();
    };
    stream.expires_after(kExchangeTimeout);
    resolver.async_resolve(host_, port_, [&](beast::error_code ec, auto results) {
      if (ec) return fail(ec, "resolve");
      stream.async_connect(results, [&](beast::error_code ec, auto) {
        if (ec) return fail(ec, "connect");
        http::async_write(stream, request, [&](beast::error_code ec, size_t) {
          if (ec) return fail(ec, "send");
          http::async_read(stream, buffer, parser, [&](beast::error_code ec, size_t) {
            if (ec) return fail(ec, "read the answer");
            answer.status = parser.get().result_int();
            answer.body = std::move(parser.get().body());
          });
        });
      });
    });
    io.run();
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    return answer;
  }

  std::string host_, port_;
  S3Credentials credentials_;
};

}  // namespace

std::string S3Authorization(std::string_view method, std::string_view target,
                            const sigv4::Headers& headers, std::string_view signed_headers,
                            std::string_view payload_hash, std::string_view amz_date,
                            const S3Credentials& credentials) {
  std::string date(amz_date.substr(0, 8));
  std::string scope = date + "/" + credentials.region + "/s3/aws4_request";
  std::string string_to_sign = sigv4::StringToSign(
      amz_date, scope,
      sigv4::CanonicalRequest(method, target, headers, signed_headers, payload_hash));
  std::string signature = sigv4::Sign(
      sigv4::SigningKey(credentials.secret_key, date, credentials.region, "s3"), string_to_sign);
  return "AWS4-HMAC-SHA256 Credential=" + credentials.access_key + "/" + scope +
         ", SignedHeaders=" + std::string(signed_headers) + ", Signature=" + signature;
}

S3Credentials S3CredentialsFromEnvironment() {
  auto env = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value ? value : "");
  };
  S3Credentials credentials{env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY"),
                            env("AWS_SESSION_TOKEN")};
  std::string region = env("AWS_REGION");
  if (region.empty()) region = env("AWS_DEFAULT_REGION");
  if (!region.empty()) credentials.region = region;
  return credentials;
}

std::shared_ptr<engine::ObjectStore> MakeS3ObjectStore(const std::string& endpoint,
                                                       S3Credentials credentials,
                                                       std::string* error) {
  std::string_view url = endpoint;
  constexpr std::string_view kScheme = "http://";
  if (!url.starts_with(kScheme)) {
    *error = "--s3-endpoint must be an http:// URL: " + endpoint;
    return nullptr;
  }
  url.remove_prefix(kScheme.size());
  url = url.substr(0, url.find('/'));
  std::string host(url), port = "80";
  if (size_t colon = url.rfind(':'); colon != std::string_view::npos) {
    host = std::string(url.substr(0, colon));
    port = std::string(url.substr(colon + 1));
  }
  if (host.empty()) {
    *error = "--s3-endpoint names no host: " + endpoint;
    return nullptr;
  }
  return std::make_shared<S3ObjectStore>(host, port, std::move(credentials));
}

}  // namespace ddb::server
