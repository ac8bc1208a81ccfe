// SigV4: AWS Signature Version 4, the arithmetic only — parsing the
// Authorization header, the canonical request, the string to sign, the
// signing key and the signature, and X-Amz-Date's time format. Pure
// functions over strings (SHA-256 and HMAC from OpenSSL's libcrypto), so
// they are checked against AWS's published test vectors; deciding what a
// request may do with the result is signature_verifier.h's job.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddb::server::sigv4 {

// Header fields with lowercase names, in arrival order (a name may repeat).
using Headers = std::vector<std::pair<std::string, std::string>>;

// The lowercase hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);
// The raw (32-byte) HMAC-SHA256 of `data` under `key`.
std::string HmacSha256(std::string_view key, std::string_view data);
std::string HexEncode(std::string_view bytes);
// RFC 3986: unreserved characters as they are, the rest %XX (uppercase);
// '/' kept when `keep_slash` (a path's, S3's object keys').
std::string UriEncode(std::string_view bytes, bool keep_slash);

// "AWS4-HMAC-SHA256 Credential=AKID/20150830/us-east-1/dynamodb/aws4_request,
//  SignedHeaders=host;x-amz-date, Signature=<64 hex>".
struct Authorization {
  bool algorithm_ok = false;    // the header starts with AWS4-HMAC-SHA256
  bool has_credential = false;  // a Credential= part, well-formed or not
  // The credential scope's five parts; all empty when it is malformed.
  std::string access_key;
  std::string date;             // yyyymmdd
  std::string region;
  std::string service;
  std::string terminator;       // "aws4_request"
  std::string signed_headers;   // as sent: "host;x-amz-date"; empty when absent
  std::string signature;        // empty when absent
  // "20150830/us-east-1/service/aws4_request"
  std::string Scope() const;
};
// Splits the header into its parts; absent parts stay empty.
Authorization ParseAuthorization(std::string_view header);

// The canonical request: method, canonical URI (the path percent-decoded
// and re-encoded as RFC 3986 unreserved characters), the sorted canonical
// query string, the signed headers' trimmed values, the signed header list
// and `payload_hash`. `target` is the request target ("/path?query").
std::string CanonicalRequest(std::string_view method, std::string_view target,
                             const Headers& headers, std::string_view signed_headers,
                             std::string_view payload_hash);

// "AWS4-HMAC-SHA256\n<amz date>\n<scope>\n<sha256 of the canonical request>".
std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request);

// HMAC chain "AWS4"+secret -> date -> region -> service -> "aws4_request".
std::string SigningKey(std::string_view secret, std::string_view date, std::string_view region,
                       std::string_view service);

// The hex signature of `string_to_sign` under `signing_key`.
std::string Sign(std::string_view signing_key, std::string_view string_to_sign);

// "20150830T123600Z" <-> seconds since the epoch; nullopt when malformed.
std::optional<int64_t> ParseAmzDate(std::string_view text);
std::string FormatAmzDate(int64_t epoch_seconds);
// An RFC 7231 Date header ("Sun, 30 Aug 2015 12:36:00 GMT"), the
// fallback when a request has no X-Amz-Date.
std::optional<int64_t> ParseHttpDate(std::string_view text);

// Compares two strings in time independent of where they differ.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace ddb::server::sigv4
