// S3ObjectStore: exports and imports through a real S3-compatible endpoint
// (--s3-endpoint): PutObject, GetObject and ListObjectsV2 over HTTP,
// path-style (http://host:port/bucket/key), signed with SigV4 (sigv4.h)
// by the credentials of the server's environment (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, and AWS_REGION or
// AWS_DEFAULT_REGION, default us-east-1). Plain http:// only: the endpoints
// this is for (a local S3 server, LocalStack, MinIO) listen on it.
//
// Thread safety: each call opens its own connection; safe for concurrent use.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine/object_store.h"
#include "server/sigv4.h"

namespace ddb::server {

struct S3Credentials {
  std::string access_key, secret_key, session_token;
  std::string region = "us-east-1";
};
// The Authorization header of an S3 request: SigV4 for service "s3" over
// `headers` (lowercase names; those named in `signed_headers`, which
// lists them sorted and joined by ';').
std::string S3Authorization(std::string_view method, std::string_view target,
                            const sigv4::Headers& headers, std::string_view signed_headers,
                            std::string_view payload_hash, std::string_view amz_date,
                            const S3Credentials& credentials);

// From the environment, as the AWS SDKs read them.
S3Credentials S3CredentialsFromEnvironment();

// Nullptr and `*error` set when `endpoint` is not an http:// URL.
std::shared_ptr<engine::ObjectStore> MakeS3ObjectStore(const std::string& endpoint,
                                                       S3Credentials credentials,
                                                       std::string* error);

}  // namespace ddb::server
