#include "server/sigv4.h"

#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <ctime>

namespace ddb::server::sigv4 {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '_' || c == '.' || c == '~';
}

int HexDigit(char c) { return OPENSSL_hexchar2int(static_cast<unsigned char>(c)); }

// Undoes %XX escapes; a '%' that starts no valid escape stays itself.
std::string PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexDigit(text[i + 1]) >= 0 &&
        HexDigit(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexDigit(text[i + 1]) * 16 + HexDigit(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string CanonicalUri(std::string_view path) {
  if (path.empty()) return "/";
  return UriEncode(PercentDecode(path), /*keep_slash=*/true);
}

std::string CanonicalQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> params;
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view param = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (param.empty()) continue;
    size_t eq = param.find('=');
    std::string_view name = param.substr(0, eq);
    std::string_view value = eq == std::string_view::npos ? "" : param.substr(eq + 1);
    params.emplace_back(UriEncode(PercentDecode(name), false),
                        UriEncode(PercentDecode(value), false));
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += '&';
    out += name + "=" + value;
  }
  return out;
}

// Leading and trailing blanks removed, inner runs of blanks made one space.
std::string TrimValue(std::string_view value) {
  std::string out;
  bool pending_space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

std::string CanonicalHeaders(const Headers& headers, std::string_view signed_headers) {
  std::string out;
  while (!signed_headers.empty()) {
    size_t semi = signed_headers.find(';');
    std::string_view name = signed_headers.substr(0, semi);
    signed_headers = semi == std::string_view::npos ? std::string_view()
                                                    : signed_headers.substr(semi + 1);
    std::string values;
    bool first = true;
    for (const auto& [header, value] : headers) {
      if (header != name) continue;
      if (!first) values += ',';
      values += TrimValue(value);
      first = false;
    }
    out.append(name).append(":").append(values).append("\n");
  }
  return out;
}

// The value of `name=` in an Authorization header's comma-separated list.
std::optional<std::string_view> Component(std::string_view params, std::string_view name) {
  while (!params.empty()) {
    size_t comma = params.find(',');
    std::string_view part = params.substr(0, comma);
    params = comma == std::string_view::npos ? std::string_view() : params.substr(comma + 1);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (part.size() > name.size() && part.starts_with(name) && part[name.size()] == '=') {
      return part.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

bool ParseScope(std::string_view credential, Authorization* out) {
  std::string* fields[] = {&out->access_key, &out->date, &out->region, &out->service,
                           &out->terminator};
  for (size_t i = 0; i < 5; ++i) {
    size_t slash = i == 4 ? std::string_view::npos : credential.find('/');
    if (i < 4 && slash == std::string_view::npos) return false;
    *fields[i] = std::string(credential.substr(0, slash));
    if (fields[i]->empty()) return false;
    credential = i == 4 ? std::string_view() : credential.substr(slash + 1);
  }
  return true;
}

}  // namespace

std::string UriEncode(std::string_view bytes, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) {
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string HexEncode(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return HexEncode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest, &size);
  return std::string(reinterpret_cast<const char*>(digest), size);
}

std::string Authorization::Scope() const {
  return date + "/" + region + "/" + service + "/" + terminator;
}

Authorization ParseAuthorization(std::string_view header) {
  Authorization auth;
  auth.algorithm_ok = header.starts_with(kAlgorithm) &&
                      (header.size() == kAlgorithm.size() || header[kAlgorithm.size()] == ' ');
  if (!auth.algorithm_ok) return auth;
  std::string_view params = header.substr(kAlgorithm.size());
  if (auto credential = Component(params, "Credential")) {
    auth.has_credential = true;
    Authorization scoped;
    if (ParseScope(*credential, &scoped)) {
      auth.access_key = std::move(scoped.access_key);
      auth.date = std::move(scoped.date);
      auth.region = std::move(scoped.region);
      auth.service = std::move(scoped.service);
      auth.terminator = std::move(scoped.terminator);
    }
  }
  if (auto signed_headers = Component(params, "SignedHeaders")) {
    auth.signed_headers = std::string(*signed_headers);
  }
  if (auto signature = Component(params, "Signature")) auth.signature = std::string(*signature);
  return auth;
}

std::string CanonicalRequest(std::string_view method, std::string_view target,
                             const Headers& headers, std::string_view signed_headers,
                             std::string_view payload_hash) {
  size_t question = target.find('?');
  std::string_view path = target.substr(0, question);
  std::string_view query =
      question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  std::string out(method);
  out.append("\n").append(CanonicalUri(path)).append("\n");
  out.append(CanonicalQuery(query)).append("\n");
  out.append(CanonicalHeaders(headers, signed_headers)).append("\n");
  out.append(signed_headers).append("\n").append(payload_hash);
  return out;
}

std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request) {
  std::string out(kAlgorithm);
  out.append("\n").append(amz_date).append("\n").append(scope).append("\n");
  out.append(Sha256Hex(canonical_request));
  return out;
}

std::string SigningKey(std::string_view secret, std::string_view date, std::string_view region,
                       std::string_view service) {
  std::string key = HmacSha256("AWS4" + std::string(secret), date);
  key = HmacSha256(key, region);
  key = HmacSha256(key, service);
  return HmacSha256(key, "aws4_request");
}

std::string Sign(std::string_view signing_key, std::string_view string_to_sign) {
  return HexEncode(HmacSha256(signing_key, string_to_sign));
}

std::optional<int64_t> ParseAmzDate(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  for (size_t i : {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14}) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  }
  auto number = [&](size_t at, size_t len) {
    int value = 0;
    for (size_t i = at; i < at + len; ++i) value = value * 10 + (text[i] - '0');
    return value;
  };
  std::tm tm{};
  tm.tm_year = number(0, 4) - 1900;
  tm.tm_mon = number(4, 2) - 1;
  tm.tm_mday = number(6, 2);
  tm.tm_hour = number(9, 2);
  tm.tm_min = number(11, 2);
  tm.tm_sec = number(13, 2);
  if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
      tm.tm_sec > 60) {
    return std::nullopt;
  }
  return static_cast<int64_t>(timegm(&tm));
}

std::string FormatAmzDate(int64_t epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  size_t size = std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return std::string(text, size);
}

std::optional<int64_t> ParseHttpDate(std::string_view text) {
  std::string copy(text);
  std::tm tm{};
  const char* end = strptime(copy.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(timegm(&tm));
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace ddb::server::sigv4
