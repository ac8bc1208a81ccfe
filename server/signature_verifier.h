// SignatureVerifier: the opt-in (--verify-signatures) SigV4 check of
// DynamoDB and DynamoDB Streams requests, answering as DynamoDB does —
// IncompleteSignatureException for an Authorization header that lacks a
// part, InvalidSignatureException "Signature expired" / "Signature not yet
// current" for an X-Amz-Date more than 15 minutes off the server's clock,
// UnrecognizedClientException for an access key it does not know and
// InvalidSignatureException for a signature its secret does not produce.
// Off by default, as in DynamoDB Local, where any key and signature pass.
//
// The access keys and secrets come from a file (one "KEY SECRET" per line,
// # comments) or a list ("key:secret,key2:secret2", e.g. from the
// LOCALDYNAMO_CREDENTIALS environment variable); see the parsers below.
//
// Thread safety: immutable after construction; Verify() may be called
// concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "api/errors.h"
#include "server/http_server.h"

namespace ddb::server {

// Access key -> secret access key.
using Secrets = std::map<std::string, std::string, std::less<>>;

class SignatureVerifier {
 public:
  // DynamoDB's allowed difference between X-Amz-Date and its own clock.
  static constexpr int kAllowedSkewMinutes = 15;
  // The service every DynamoDB and Streams request is signed for.
  static constexpr std::string_view kService = "dynamodb";

  explicit SignatureVerifier(Secrets secrets) : secrets_(std::move(secrets)) {}

  // nullopt when `request` (its headers collected) is signed by a known
  // key within the allowed skew of `now_seconds`; else DynamoDB's error.
  std::optional<api::ApiError> Verify(const HttpRequest& request, int64_t now_seconds) const;

  size_t key_count() const { return secrets_.size(); }

 private:
  Secrets secrets_;
};

// Adds the credentials of a file's text ("ACCESS_KEY SECRET" per line,
// blank lines and # comments ignored) to `*out`. False with `*error`
// naming the line when one is malformed.
bool ParseCredentialsFile(std::string_view text, Secrets* out, std::string* error);
// Adds "key:secret,key2:secret2" to `*out`; false with `*error` when an
// entry lacks its ':' or a part.
bool ParseCredentialsList(std::string_view text, Secrets* out, std::string* error);

}  // namespace ddb::server
